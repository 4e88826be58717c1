/**
 * term/fd.ts, run as the CLI runs it: a real child process whose stdout is a pipe, a file
 * or /dev/null, writing with `descriptorWriter` (built into dist/ by `npm test`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

const FD = pathToFileURL(join(REPO_ROOT, 'dist', 'term', 'fd.js')).href;
const scratch = mkdtempSync(join(tmpdir(), 'cortex-fd-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A child that imports term/fd.js and runs `body` (an ES module; `fd` is the module). */
function script(body: string): string[] {
  return ['--input-type=module', '-e', `const fd = await import(${JSON.stringify(FD)});\n${body}`];
}

describe('isTerminal', () => {
  it('answers false for a pipe, a file and /dev/null', () => {
    const out = join(scratch, 'answers.json');
    const file = join(scratch, 'stdout.txt');
    const probe = script(`(await import('node:fs')).writeFileSync(${JSON.stringify(out)}, JSON.stringify([0, 1, 2].map((d) => fd.isTerminal(d))));`);
    const devNull = openSync('/dev/null', 'r+');
    const toFile = openSync(file, 'w');
    try {
      expect(spawnSync(process.execPath, probe, { stdio: [devNull, 'pipe', toFile] }).status).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([false, false, false]);
      expect(spawnSync(process.execPath, probe, { stdio: ['pipe', toFile, devNull] }).status).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([false, false, false]);
    } finally {
      closeSync(devNull);
      closeSync(toFile);
    }
  });
});

describe('the cortex executable', () => {
  it('writes its output without loading node:net or node:tty', () => {
    const repo = join(scratch, 'repo');
    const env = { ...process.env, HOME: join(scratch, 'home'), CORTEX_HOME: join(scratch, 'cortex-home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(scratch, 'gitconfig'), NO_COLOR: '1' };
    spawnSync('git', ['init', '-q', repo]);
    const cli = join(REPO_ROOT, 'dist', 'cli.cjs');
    expect(spawnSync(process.execPath, [cli, 'init'], { cwd: repo, env, encoding: 'utf8' }).status).toBe(0);
    expect(spawnSync(process.execPath, [cli, 'remember', 'We picked SQLite for the session store'], { cwd: repo, env, encoding: 'utf8' }).status).toBe(0);
    // A preload that writes the built-ins the process loaded, as it exits. (The stream modules
    // are loaded anyway: node:v8, which reads the index, requires them.)
    const report = join(scratch, 'modules.json');
    const preload = join(scratch, 'report-modules.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`);
    const devNull = openSync('/dev/null', 'r');
    try {
      const r = spawnSync(process.execPath, ['-r', preload, cli, 'recall', 'session store'], { cwd: repo, env, encoding: 'utf8', stdio: [devNull, 'pipe', 'pipe'] });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('SQLite');
    } finally {
      closeSync(devNull);
    }
    const loaded = (JSON.parse(readFileSync(report, 'utf8')) as string[]).filter((m) => /^NativeModule (net|tty|internal\/tty)$/.test(m));
    expect(loaded).toEqual([]);
  });
});

describe('descriptorWriter', () => {
  it('writes everything, in order, to a pipe', () => {
    const r = spawnSync(
      process.execPath,
      script(
        `const out = fd.descriptorWriter(1, () => process.stdout, () => process.exit(3));\n` +
          `for (let i = 0; i < 2000; i++) out('line ' + i + ' é\\n');\n` +
          `fd.descriptorWriter(2, () => process.stderr, () => {})('done');`,
      ),
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(Array.from({ length: 2000 }, (_, i) => `line ${i} é\n`).join(''));
    expect(r.stderr).toBe('done');
  });

  it('goes on through the stream, in order, when a non-blocking pipe is full (EAGAIN)', async () => {
    // Touching process.stdout makes a pipe non-blocking (as another program may leave it);
    // the parent reads only after a pause, so the child's pipe fills and write answers EAGAIN.
    const child = spawn(
      process.execPath,
      script(
        `void process.stdout.isTTY;\n` +
          `const out = fd.descriptorWriter(1, () => process.stdout, () => process.exit(3));\n` +
          `const chunk = 'x'.repeat(1000) + '\\n';\n` +
          `for (let i = 0; i < 400; i++) out(i + chunk);`,
      ),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1);
    expect(lines.length).toBe(400);
    expect(lines.every((line, i) => line === `${i}${'x'.repeat(1000)}`)).toBe(true);
  });

  it('calls onClosed when the reader is gone (EPIPE), and the process ends with its code', () => {
    const writer = `const fd = await import('${FD}'); const out = fd.descriptorWriter(1, () => process.stdout, () => process.exit(7)); for (let i = 0; i < 100000; i++) out('line ' + i + '\\n'); process.exit(5);`;
    const r = spawnSync('bash', ['-c', `"${process.execPath}" --input-type=module -e "${writer}" | head -n 1; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stdout).toBe('line 0\nstatus 7\n');
  });
});
