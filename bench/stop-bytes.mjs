#!/usr/bin/env node
/**
 * Bytes of the index a one-memory Stop reads (issue 38): `node bench/stop-bytes.mjs
 * [--memories 10000] [--cli dist/cli.cjs]`. Needs `strace` (Linux).
 *
 * Writes MEMORIES memories with bench/corpus.mjs, builds the index (`cortex index`), reads a
 * small transcript once to its end (the checkpoint), then appends one turn holding one
 * `[MEMORY: gotcha]` line and runs `cortex hook stop` under `strace -f -y`, summing the bytes
 * each read/pread call returned per file: the files of `.memory/` (the index and the other
 * caches) and `.cortex/memories/`, beside the size of the index's files. Prints one JSON
 * document. The Stop hook links later (`link: 'later'`): auto-linking's reads are the
 * session-end worker's, not measured here.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1];
};
const MEMORIES = Number(arg('memories', 10_000));
const CLI = resolve(arg('cli', join(ROOT, 'dist/cli.cjs')));

const base = mkdtempSync(join(tmpdir(), 'cortex-stop-bytes-'));
const home = join(base, 'home');
mkdirSync(home);
const env = { ...process.env, HOME: home, CORTEX_HOME: join(home, 'cortex-home'), GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
const sh = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
};

try {
  const dir = join(base, 'repo');
  mkdirSync(dir);
  sh('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  sh('git', ['add', '.'], { cwd: dir });
  sh('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'init'], { cwd: dir });
  sh(process.execPath, [CLI, 'init'], { cwd: dir });
  const { generateCorpus, writeCorpus } = await import('./corpus.mjs');
  writeCorpus(dir, generateCorpus({ n: MEMORIES, seed: 1 }));
  sh(process.execPath, [CLI, 'index'], { cwd: dir });

  const transcript = join(base, 't.jsonl');
  const line = (o) => `${JSON.stringify({ sessionId: 'bytes', cwd: dir, gitBranch: 'main', ...o })}\n`;
  const turn = (n, text) =>
    line({ type: 'user', uuid: `u${n}`, message: { role: 'user', content: `Now run the unit tests for module ${n}` } }) +
    line({ type: 'assistant', uuid: `a${n}`, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text }] } });
  writeFileSync(transcript, turn(0, 'Looking at the module layout first.'));
  let delivery = 0;
  const input = () => JSON.stringify({ session_id: 'bytes', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', bench_delivery: ++delivery });
  sh(process.execPath, [CLI, 'hook', 'stop'], { cwd: dir, input: input() });
  appendFileSync(transcript, turn(1, '[MEMORY: gotcha] The module loader tests need the fake clock, or they time out on a loaded machine.'));
  const trace = join(base, 'strace.txt');
  sh('strace', ['-f', '-y', '-e', 'trace=read,pread64,readv,preadv', '-o', trace, process.execPath, CLI, 'hook', 'stop'], { cwd: dir, input: input() });
  const { readFileSync } = await import('node:fs');
  const perFile = new Map();
  for (const l of readFileSync(trace, 'utf8').split('\n')) {
    const m = /^\d+\s+(?:p?readv?|pread64)\(\d+<([^>]+)>.*\)\s+=\s+(\d+)/.exec(l);
    if (!m) continue;
    perFile.set(m[1], (perFile.get(m[1]) ?? 0) + Number(m[2]));
  }
  const sum = (re) => [...perFile].filter(([f]) => re.test(f)).reduce((n, [, b]) => n + b, 0);
  const memory = [...perFile].filter(([f]) => f.includes('/.memory/')).sort((a, b) => b[1] - a[1]);
  const { readdirSync, statSync } = await import('node:fs');
  const cacheDir = join(dir, '.memory');
  const indexBytes = readdirSync(cacheDir).filter((f) => f.startsWith('index')).reduce((n, f) => n + statSync(join(cacheDir, f)).size, 0);
  const written = sh('git', ['status', '--porcelain', '.cortex/memories'], { cwd: dir }).stdout.trim().split('\n').filter(Boolean).length;
  console.log(
    JSON.stringify(
      {
        memories: MEMORIES,
        memoriesWritten: written,
        indexFilesBytes: indexBytes,
        memoryCacheBytes: sum(/\/\.memory\//),
        memoryFilesBytes: sum(/\/\.cortex\/memories\//),
        largest: memory.slice(0, 8).map(([f, b]) => ({ file: f.slice(f.indexOf('/.memory/') + 1), bytes: b })),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
