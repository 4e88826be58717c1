// Preloaded with `node --import` by tests: records every module the process resolves
// (one URL per line) in the file named by CORTEX_TRACE_IMPORTS.
import { register } from 'node:module';

register('./trace-imports-hooks.mjs', import.meta.url, { data: { file: process.env.CORTEX_TRACE_IMPORTS } });
