// Preloaded with `node --import` by tests: records every module the process resolves
// (one URL per line) in the file named by CORTEX_TRACE_IMPORTS.
import { register } from 'node:module';

// What a process imports is a question about the ES modules in dist/: run them rather than
// the bundle (src/cli.ts), whose lazily initialised modules follow the same import() lines.
process.env.CORTEX_BUNDLE ??= '0';

register('./trace-imports-hooks.mjs', import.meta.url, { data: { file: process.env.CORTEX_TRACE_IMPORTS } });
