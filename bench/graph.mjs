#!/usr/bin/env node
// The graph benchmark: `node bench/run.mjs --suite graph` at N = 10,000 memories and
// 30,000 edge files (see bench/suites/graph.mjs and bench/README.md). Extra arguments are
// passed on, e.g. `node bench/graph.mjs --runs 15 --write`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const run = join(dirname(fileURLToPath(import.meta.url)), 'run.mjs');
const args = process.argv.slice(2);
const r = spawnSync(process.execPath, [run, '--suite', 'graph', ...(args.includes('--n') ? [] : ['--n', '10000']), ...args], { stdio: 'inherit' });
process.exitCode = r.status ?? 1;
