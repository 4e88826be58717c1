/**
 * The file hook (issue 21): `cortex hook post-tool-use` with Claude Code's PostToolUse
 * payload for Read, Edit, Write and MultiEdit injects the memories anchored to that file
 * (or a symbol in it) once per session, nothing for an unrelated file, and exits 0 with
 * nothing on stdout on garbage — through the built CLI in a real repository.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANTICIPATE } from '../src/core/anticipate.js';
import { DEFAULT_FILE_RECALL } from '../src/core/file-recall.js';
import { FIXTURES } from './helpers/fixture-repo.js';
import { json, tempRepo, type TempRepo } from './helpers/repo.js';

function project(): { repo: TempRepo; acquire: string; server: string } {
  const repo = tempRepo();
  cpSync(join(FIXTURES, 'code-anchors'), repo.dir, { recursive: true });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'code']);
  expect(repo.cortex(['init']).code).toBe(0);
  const add = (text: string, files: string): string => json<{ id: string }>(repo.cortex(['remember', text, '--type', 'gotcha', '--files', files, '--no-link', '--json'])).id;
  const acquire = add('acquire must not allocate: it runs once per query', 'src/db/pool.ts#acquire');
  const server = add('the Go server is the only entry point', 'cmd/server.go');
  return { repo, acquire, server };
}

let calls = 0;

/** A PostToolUse payload as Claude Code sends it; each tool call has its own id (deliveries of one call are deduplicated). */
function payload(repo: TempRepo, session: string, tool: string, file: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    tool_use_id: `toolu_${++calls}`,
    session_id: session,
    transcript_path: join(repo.home, 'none.jsonl'),
    cwd: repo.dir,
    hook_event_name: 'PostToolUse',
    tool_name: tool,
    tool_input: { file_path: file, ...extra },
    tool_response: { type: 'text' },
  });
}

function injected(stdout: string): string {
  if (stdout === '') return '';
  const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(out.hookSpecificOutput.hookEventName).toBe('PostToolUse');
  return out.hookSpecificOutput.additionalContext;
}

describe('cortex hook post-tool-use', () => {
  it('injects the memory anchored to a file once per session, and nothing for an unrelated file', () => {
    const { repo, acquire, server } = project();
    const read = (session: string, file: string, tool = 'Read', extra = {}) => {
      const r = repo.cortex(['hook', 'post-tool-use'], { input: payload(repo, session, tool, file, extra) });
      expect(r.code).toBe(0);
      return injected(r.stdout);
    };
    const pool = join(repo.dir, 'src/db/pool.ts');
    const first = read('s1', pool);
    expect(first).toContain(acquire);
    expect(first).toContain('(acquire)');
    expect(first).toContain('src/db/pool.ts');
    expect(first).not.toContain(server);
    // Once per session: the same file again, or an edit of it, adds nothing.
    expect(read('s1', pool)).toBe('');
    expect(read('s1', pool, 'Edit', { old_string: 'pop()', new_string: 'shift()' })).toBe('');
    // An unrelated file (no memory anchored to it): nothing.
    expect(read('s1', join(repo.dir, 'src/jobs/retry.py'))).toBe('');
    expect(read('s1', join(repo.dir, 'README-not-there.md'))).toBe('');
    // Another session sees it again; a Write of the other anchored file injects that one.
    expect(read('s2', pool, 'Edit')).toContain(acquire);
    expect(read('s2', join(repo.dir, 'cmd/server.go'), 'Write')).toContain(server);
    expect(read('s3', join(repo.dir, 'cmd/server.go'), 'MultiEdit')).toContain(server);
    // Files outside the project and tools that are not about files: nothing.
    expect(read('s4', '/etc/hosts')).toBe('');
    expect(read('s4', pool, 'Bash')).toBe('');
    // A memory added later (the map is rebuilt when the memories change) is injected too.
    const later = json<{ id: string }>(repo.cortex(['remember', 'release must wake waiters first', '--files', 'src/db/pool.ts#release', '--no-link', '--json'])).id;
    const again = read('s1', pool);
    expect(again).toContain(later);
    expect(again).not.toContain(acquire);
  });

  it('shares the prompt hook\'s budget and marks a changed anchored symbol', () => {
    expect(DEFAULT_FILE_RECALL).toEqual({ limit: DEFAULT_ANTICIPATE.limit, maxChars: DEFAULT_ANTICIPATE.maxChars });
    const { repo } = project();
    const many = Array.from({ length: 6 }, (_, i) =>
      json<{ id: string }>(repo.cortex(['remember', `pool note ${i}: ${'a long explanation of the pool '.repeat(8)}`, '--files', 'src/db/pool.ts', '--no-link', '--json'])).id,
    );
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'memories']);
    repo.write('src/db/pool.ts', repo.read('src/db/pool.ts').replace('const c = this.free.pop();', 'const c = this.free.shift();'));
    expect(repo.cortex(['index-code']).code).toBe(0);
    const r = repo.cortex(['hook', 'post-tool-use'], { input: payload(repo, 'b1', 'Read', join(repo.dir, 'src/db/pool.ts')) });
    const text = injected(r.stdout);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_FILE_RECALL.maxChars);
    // The symbol anchor comes first and says its code changed.
    const items = text.split('\n').filter((l) => l.startsWith('- '));
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(DEFAULT_FILE_RECALL.limit);
    expect(items[0]).toMatch(/\(acquire\).*POSSIBLY OUTDATED: symbol Pool\.acquire \(method\) in src\/db\/pool\.ts changed/);
    // What was not shown comes with the next read, in the same session.
    const next = injected(repo.cortex(['hook', 'post-tool-use'], { input: payload(repo, 'b1', 'Read', join(repo.dir, 'src/db/pool.ts')) }).stdout);
    const shownNext = many.filter((id) => next.includes(id));
    expect(shownNext.length).toBeGreaterThan(0);
    expect(shownNext.some((id) => text.includes(id))).toBe(false);
  });

  it('exits 0 with nothing on stdout on garbage', () => {
    const { repo } = project();
    for (const input of ['', 'not json', '[]', '{"tool_name":"Read"}', '{"tool_name":"Read","tool_input":"x"}', '{"tool_name":"Read","tool_input":{"file_path":42}}', '\u0000\u0001']) {
      const r = repo.cortex(['hook', 'post-tool-use'], { input });
      expect(r, JSON.stringify(input)).toMatchObject({ code: 0, stdout: '' });
    }
    // A damaged map is rebuilt, not fatal.
    repo.write('.memory/file-anchors.json', '{"version":1,"stamp":');
    const r = repo.cortex(['hook', 'post-tool-use'], { input: payload(repo, 'g1', 'Read', join(repo.dir, 'src/db/pool.ts')) });
    expect(r.code).toBe(0);
    expect(injected(r.stdout)).toContain('acquire');
  });

  it('is installed for Read, Edit, Write and MultiEdit by init --claude', () => {
    const { repo } = project();
    expect(repo.cortex(['init', '--claude']).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(repo.dir, '.claude/settings.json'), 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    const group = settings.hooks.PostToolUse?.[0];
    expect(group?.matcher).toBe('Read|Edit|Write|MultiEdit');
    expect(group?.hooks[0]?.command).toContain('cortex hook post-tool-use');
  });

  it('capture records the code a memory names as a repository-relative anchor, and the hook then shows it', () => {
    const { repo } = project();
    const message = `Done. [MEMORY: gotcha] run_with_retry in ${join(repo.dir, 'src/jobs/retry.py')}#run_with_retry only retries connection errors, on purpose.`;
    const stop = repo.cortex(['hook', 'stop'], { input: JSON.stringify({ session_id: 'cap1', transcript_path: join(repo.home, 'none.jsonl'), cwd: repo.dir, hook_event_name: 'Stop', last_assistant_message: message }) });
    expect(stop).toMatchObject({ code: 0, stdout: '' });
    const files = repo.list('.cortex/memories').map((f) => repo.read(`.cortex/memories/${f}`)).filter((t) => t.includes('only retries connection errors'));
    expect(files).toHaveLength(1);
    expect(files[0]).toContain('files: [src/jobs/retry.py#run_with_retry]');
    const shown = injected(repo.cortex(['hook', 'post-tool-use'], { input: payload(repo, 'cap2', 'Read', join(repo.dir, 'src/jobs/retry.py')) }).stdout);
    expect(shown).toContain('(run_with_retry)');
  });
});
