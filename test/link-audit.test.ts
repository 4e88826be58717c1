/**
 * Issue 36's audit: nothing is read or written outside the repository, `$CORTEX_HOME`
 * and the paths a person named, and no link inside them is followed. Every directory
 * Cortex reads or writes (the shared tier, the private tier in the git directory, the
 * cache and each of its subdirectories, enumerated from cache/layout.ts) is replaced in
 * turn by a link to a directory outside, holding a memory file with a marker; then the
 * everyday commands and hooks run. None may print the marker, change or add anything
 * out there, or crash: commands refuse with a one-line error, hooks exit 0 and say nothing.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_SUBDIRS } from '../src/cache/layout.js';
import { initRepo, json, type TempRepo } from './helpers/repo.js';

const MARKER = 'OUTSIDE-MARKER-7f3a';

/** Every file under `dir`, path → bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = readFileSync(join(d, e.name), 'latin1');
    }
  };
  walk(dir, '');
  return out;
}

/** A directory outside the repository that looks like any of Cortex's. */
function outsideDir(repo: TempRepo, name: string): string {
  const dir = join(repo.home, `outside-${name.replace(/[/.]/g, '_')}`);
  mkdirSync(join(dir, 'memories'), { recursive: true });
  const memory = `---\nid: planted-aaaaaa\ntype: decision\nsummary: ${MARKER} planted outside\n---\n${MARKER}\n`;
  writeFileSync(join(dir, 'planted-aaaaaa.md'), memory);
  writeFileSync(join(dir, 'memories', 'planted-aaaaaa.md'), memory);
  return dir;
}

describe('no link followed, nothing touched outside', () => {
  const shared = ['.cortex', '.cortex/memories', '.cortex/edges'];
  const cache = ['.memory', ...CACHE_SUBDIRS.map((d) => `.memory/${d}`)];
  const tier = ['.git/cortex/local', '.git/cortex/local/memories'];

  it.each([...shared, ...cache, ...tier])('%s as a link out of the repository', (rel) => {
    const repo = initRepo();
    const id = json<{ id: string }>(repo.cortex(['remember', 'Chose SQLite over Postgres for the queue', '--type', 'decision', '--json'])).id;
    expect(repo.cortex(['remember', 'My private note about the queue', '--private']).code).toBe(0);
    const transcript = join(repo.home, 'session.jsonl');
    writeFileSync(
      transcript,
      [
        { type: 'user', uuid: 'u1', sessionId: 's1', message: { role: 'user', content: 'Why SQLite for the queue?' } },
        { type: 'assistant', uuid: 'a1', sessionId: 's1', message: { role: 'assistant', content: [{ type: 'text', text: 'We chose SQLite because the queue is local.' }] } },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );

    const outside = outsideDir(repo, rel);
    const before = snapshot(outside);
    const path = join(repo.dir, rel);
    rmSync(`${path}.moved`, { recursive: true, force: true });
    try {
      renameSync(path, `${path}.moved`);
    } catch {
      // Not there yet (a cache directory made on first use): the link takes its place.
    }
    symlinkSync(outside, path);

    const hook = (event: string, input: Record<string, unknown>) => repo.cortex(['hook', event], { input: JSON.stringify({ session_id: 's1', cwd: repo.dir, ...input }) });
    const runs = [
      ['remember', repo.cortex(['remember', 'Chose WAL mode for the queue database'])],
      ['recall', repo.cortex(['recall', 'queue', '--no-floor'])],
      ['list', repo.cortex(['list'])],
      ['show', repo.cortex(['show', id])],
      ['status', repo.cortex(['status'])],
      ['forget', repo.cortex(['forget', id])],
      ['hook session-start', hook('session-start', { source: 'startup' })],
      ['hook user-prompt-submit', hook('user-prompt-submit', { prompt: 'why sqlite for the queue' })],
      ['hook post-tool-use', hook('post-tool-use', { tool_name: 'Read', tool_input: { file_path: join(repo.dir, 'README.md') }, tool_response: 'x' })],
      ['hook stop', hook('stop', { transcript_path: transcript, hook_event_name: 'Stop' })],
    ] as const;
    for (const [what, r] of runs) {
      const label = `${rel}: ${what}\n${r.stdout}\n${r.stderr}`;
      expect(`${r.stdout}\n${r.stderr}`, label).not.toContain(MARKER);
      if (what.startsWith('hook')) {
        expect(r.code, label).toBe(0);
      } else {
        // A refusal (exit 1, its reason on the first line), a reader that found nothing it
        // may read (the memory lives behind the link), or a command that never needed it.
        expect([0, 1], label).toContain(r.code);
        if (r.code === 1) expect(r.stderr.split('\n')[0], label).toMatch(/^error: (?:.*(?:symbolic link|not a directory)|No memory with id)/);
      }
      if (what.startsWith('hook') && r.stdout !== '') expect(r.stdout, label).not.toContain(MARKER);
    }
    expect(snapshot(outside), rel).toEqual(before);
  }, 240_000);
});
