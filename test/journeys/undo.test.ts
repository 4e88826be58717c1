/**
 * Journey: destructive commands act on what was typed, and every printed undo runs as
 * printed (issue 37). Each command's `undo: …` lines are executed with a real shell, exactly
 * as printed (everything after `undo: `), from the repository's root; then every memory and
 * edge file is back byte for byte and `cortex lint` is clean.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDirName } from '../../src/core/interop/claude.js';
import { fixturePath } from '../helpers/fixture-repo.js';
import { CLI, initRepo, ok, tempRepo, type RunResult, type TempRepo } from '../helpers/repo.js';

/** Every file under `dir` (relative path → text), `.memory/` left out. */
function tree(dir: string, only: (rel: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const full = rel === '' ? dir : join(dir, rel);
    if (!existsSync(full)) return;
    for (const e of readdirSync(full, { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (only(r)) out.set(r, readFileSync(join(dir, r), 'utf8'));
    }
  };
  walk('');
  return out;
}

/** Memory and edge files of both tiers. */
function memoryFiles(repo: TempRepo): Map<string, string> {
  return tree(repo.dir, (r) => /^\.cortex\/(local\/)?(memories|edges)\/[^/]+\.md$/.test(r));
}

/** The undo lines a command printed (stdout and stderr), without the `undo: ` label. */
function undoCommands(r: RunResult): string[] {
  return `${r.stdout}\n${r.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('undo: '))
    .map((l) => l.slice('undo: '.length));
}

/** Runs each undo line with bash, exactly as printed, with the built CLI as `cortex`. */
function runUndo(repo: TempRepo, lines: string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  const bin = join(repo.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'cortex'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  for (const line of lines) {
    const r = spawnSync('bash', ['-e', '-c', line], { cwd: repo.dir, env: { ...repo.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`undo line failed (${r.status}): ${line}\n${r.stdout}\n${r.stderr}`);
  }
}

function lintClean(repo: TempRepo): void {
  const r = repo.cortex(['lint']);
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
}

describe('journey: forget --query matches what was typed', () => {
  it('"timing probe" deletes the memory that says it, never "All timestamps are UTC…" (no stemming); the list is what is acted on', () => {
    const repo = initRepo();
    ok(repo.cortex(['remember', 'Added a timing probe to Pool.acquire while chasing the slow checkout', '--type', 'progress']), 'remember');
    ok(repo.cortex(['remember', 'All timestamps are UTC; the probe of the clock runs at startup', '--type', 'decision']), 'remember');
    ok(repo.cortex(['remember', 'Timings of the nightly build are in the dashboard', '--type', 'context']), 'remember');
    const listed = repo.cortex(['forget', '--query', 'timing probe', '--hard']);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('1 memory matches');
    expect(listed.stderr).toContain('Added a timing probe');
    expect(listed.stderr).not.toContain('timestamps');
    const before = memoryFiles(repo);
    const r = ok(repo.cortex(['forget', '--query', 'TIMING probe', '--hard', '--yes']), 'forget');
    expect(r.stdout).toContain('Deleted: ');
    expect(r.stdout).toContain('Added a timing probe');
    const after = [...memoryFiles(repo).keys()];
    expect(after.length).toBe(before.size - 1);
    expect([...memoryFiles(repo).values()].join('\n')).toContain('All timestamps are UTC');
    expect([...memoryFiles(repo).values()].join('\n')).toContain('Timings of the nightly build');
    runUndo(repo, undoCommands(r));
    expect(memoryFiles(repo)).toEqual(before);
    lintClean(repo);
  });
});

describe('journey: every printed undo runs as printed and restores memories and edges', () => {
  it('forget --hard of committed and uncommitted memories (git restore and trash lines), edges included', () => {
    const repo = initRepo();
    const a = ok(repo.cortex(['remember', 'Chose SQLite for the local cache because it needs no server', '--type', 'decision', '--json']), 'a').stdout;
    const b = ok(repo.cortex(['remember', 'The cache lives in SQLite under .memory, rebuilt on demand', '--type', 'architecture', '--json']), 'b').stdout;
    const idA = (JSON.parse(a) as { id: string }).id;
    const idB = (JSON.parse(b) as { id: string }).id;
    ok(repo.cortex(['link', idA, 'relates_to', idB]), 'link');
    ok(repo.git(['add', '-A']), 'add');
    ok(repo.git(['commit', '-q', '-m', 'memories']), 'commit');
    const c = ok(repo.cortex(['remember', 'SQLite WAL mode is on for the cache', '--type', 'gotcha', '--json']), 'c').stdout;
    const idC = (JSON.parse(c) as { id: string }).id;
    ok(repo.cortex(['link', idC, 'refines', idA]), 'link');
    const before = memoryFiles(repo);
    const r = ok(repo.cortex(['forget', idA, idC, '--hard']), 'forget');
    const lines = undoCommands(r);
    expect(lines.some((l) => l.includes('git restore'))).toBe(true);
    expect(lines.some((l) => l.includes('.memory/trash/'))).toBe(true);
    runUndo(repo, lines);
    expect(memoryFiles(repo)).toEqual(before);
    lintClean(repo);
  });

  it('import (memories, relations and auto-links) undoes to the state before it', () => {
    const repo = initRepo();
    ok(repo.cortex(['remember', 'Inventory App scanner uses ZXing in the browser', '--type', 'decision']), 'remember');
    const before = memoryFiles(repo);
    const r = ok(repo.cortex(['import', fixturePath('interop', 'mcp-memory', 'memory.jsonl')]), 'import');
    expect([...memoryFiles(repo).keys()].some((k) => k.includes('/edges/'))).toBe(true);
    runUndo(repo, undoCommands(r));
    expect(memoryFiles(repo)).toEqual(before);
    lintClean(repo);
  });

  it('import that rewrites an existing edge (a new strength) undoes to the edge as it was', () => {
    const repo = initRepo();
    const id = (r: RunResult) => JSON.parse(r.stdout).memory.id as string;
    const a = id(ok(repo.cortex(['remember', 'Staging is refreshed from production every Monday', '--type', 'context', '--json']), 'remember'));
    const b = id(ok(repo.cortex(['remember', 'Integration tests hit a real database', '--type', 'preference', '--json']), 'remember'));
    ok(repo.cortex(['link', a, 'relates_to', b]), 'link');
    // The project's own export, edited outside the repository: the edge is now stronger.
    const exported = ok(repo.cortex(['export']), 'export').stdout;
    expect(exported).toContain('"strength":0.5');
    const file = join(repo.home, 'memories.jsonl');
    writeFileSync(file, exported.replace('"strength":0.5', '"strength":0.9'));
    const before = memoryFiles(repo);
    const r = ok(repo.cortex(['import', file]), 'import');
    expect(r.stdout).toContain('edges: 1 written');
    const edge = [...memoryFiles(repo).entries()].find(([k]) => k.includes('/edges/'))!;
    expect(edge[1]).toContain('strength: 0.9');
    runUndo(repo, undoCommands(r));
    expect(memoryFiles(repo)).toEqual(before);
    lintClean(repo);
  });

  it('remember --topic (an update and its auto-created edge) undoes to the state before it', () => {
    const repo = initRepo();
    ok(repo.cortex(['remember', 'Staging is refreshed from production every Monday', '--type', 'context', '--topic', 'deploy/schedule']), 'remember');
    ok(repo.cortex(['remember', 'Deploys are frozen during the mobile release', '--type', 'context']), 'remember');
    const before = memoryFiles(repo);
    expect([...before.keys()].filter((k) => k.includes('/edges/'))).toEqual([]);
    // The update is similar to the other memory: auto-linking writes a new edge file with it.
    const r = ok(repo.cortex(['remember', 'Deploys go out nightly from the release branch', '--type', 'context', '--topic', 'deploy/schedule']), 'update');
    expect(r.stdout).toContain('Updated');
    expect([...memoryFiles(repo).keys()].filter((k) => k.includes('/edges/')).length).toBe(1);
    runUndo(repo, undoCommands(r));
    expect(memoryFiles(repo)).toEqual(before);
    lintClean(repo);
  });

  it('export --format claude (a MEMORY.md with the person\'s own lines, a stale topic file) undoes to the directory as it was', () => {
    const repo = initRepo();
    const config = join(repo.home, 'claude-config');
    const dir = join(config, 'projects', claudeProjectDirName(repo.dir), 'memory');
    mkdirSync(dir, { recursive: true });
    cpSync(fixturePath('interop', 'claude', 'memory'), dir, { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: config };
    ok(repo.cortex(['remember', 'Integration tests hit a real database', '--type', 'preference']), 'remember');
    ok(repo.cortex(['export', '--format', 'claude'], { env }), 'first export');
    // A second export after a memory changed rewrites MEMORY.md and removes a stale topic file.
    const id = readdirSync(join(repo.dir, '.cortex/memories')).filter((n) => n.endsWith('.md'))[0]!.slice(0, -3);
    ok(repo.cortex(['remember', 'Releases are tagged from main', '--type', 'context']), 'remember');
    ok(repo.cortex(['forget', id, '--hard']), 'forget');
    const before = tree(dir, () => true);
    const r = ok(repo.cortex(['export', '--format', 'claude'], { env }), 'export');
    expect(tree(dir, () => true)).not.toEqual(before);
    runUndo(repo, undoCommands(r));
    expect(tree(dir, () => true)).toEqual(before);
  });

  it('export --format jsonl redacts a secret at the start of a body line', () => {
    const repo = initRepo();
    const key = `AKIA${'QWERTYUIOPASDFGH'}`;
    const secret = `wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'ZQ9ABCDEFG'}`;
    // Written by hand, as a person might: the gate on the way out must catch what is there.
    repo.write(
      '.cortex/memories/aws-setup-abc123.md',
      `---\nid: aws-setup-abc123\ntype: context\nsummary: AWS setup\nscope: project\npriority: 5\nconfidence: 1\npinned: false\nstatus: active\ntags: []\ncreated: 2026-11-01T10:00:00Z\nupdated: 2026-11-01T10:00:00Z\nsource:\n  kind: manual\n---\nThe deploy user:\n${key}\naws_secret_access_key = ${secret}\n`,
    );
    const out = ok(repo.cortex(['export', '--format', 'jsonl']), 'export').stdout;
    expect(out).not.toContain(key.slice(4, 14));
    expect(out).not.toContain(secret.slice(0, 12));
  });
});
