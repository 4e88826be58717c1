/**
 * The review queue from the person's side (issue 14, part 6): stable numbers and short ids,
 * the line in the briefing, and nothing below the threshold in decisions.md. The MCP tool
 * is tested with the real SDK client in mcp.test.ts.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { parseMemory } from '../src/core/memory-format.js';
import { parseProjectionIds } from '../src/core/projection.js';
import { json, REPO_ROOT, SHARED, tempRepo } from './helpers/repo.js';
import { queue } from './helpers/review.js';

interface Listing {
  items: { n: number; short: string; summary: string }[];
}

describe('cortex review', () => {
  it('keeps numbers and short ids stable: accepting #1 leaves #2 as #2', async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    await queue(repo, ['Maybe use Redis for the session cache', 'Perhaps drop the Windows build', 'Could move CI to GitHub Actions']);
    const before = json<Listing>(repo.cortex(['review', '--json'])).items;
    expect(before.map((i) => i.n)).toEqual([1, 2, 3]);
    expect(before.every((i) => /^[0-9a-f]{6}$/.test(i.short))).toBe(true);
    const shown = repo.cortex(['review']);
    expect(shown.stdout).toContain(`#2  ${before[1]!.short}  Perhaps drop the Windows build`);

    const accepted = repo.cortex(['review', '--accept', '1']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`accepted  #1 ${before[0]!.short}  Maybe use Redis`);
    // The next command a person types after reading the first listing still means what they read.
    const rejected = repo.cortex(['review', '--reject', '2']);
    expect(rejected.stdout).toContain('rejected  #2');
    expect(rejected.stdout).toContain('Perhaps drop the Windows build');
    const after = json<Listing>(repo.cortex(['review', '--json'])).items;
    expect(after).toEqual([before[2]]);
    // The short id works too (a prefix of 4 or more), and an old number is a clear error.
    expect(repo.cortex(['review', '--accept', before[2]!.short.slice(0, 4)]).code).toBe(0);
    const gone = repo.cortex(['review', '--accept', '1']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No review entry "1": the queue is empty');

    // Accepted candidates are memories now; the rejected one is not.
    const summaries = readdirSync(join(repo.dir, '.cortex', 'memories'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => parseMemory(readFileSync(join(repo.dir, '.cortex', 'memories', f), 'utf8')).memory?.summary);
    expect(summaries.sort()).toEqual(['Could move CI to GitHub Actions', 'Maybe use Redis for the session cache']);
  });

  it('the briefing says in one line how many candidates wait and the command that lists them; the cached one too', async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    expect(repo.cortex(['remember', 'Chose SQLite over Postgres', '--type', 'decision']).code).toBe(0);
    expect(repo.cortex(['surface']).stdout).not.toContain('review');
    await queue(repo, ['Maybe use Redis for the session cache', 'Perhaps drop the Windows build']);
    const line = '2 captured memory candidates wait for review: `cortex review` lists them.';
    expect(repo.cortex(['surface']).stdout).toContain(line);
    expect(repo.cortex(['surface', '--cached']).stdout).toContain(line);
    expect(repo.cortex(['review', '--reject', '1']).code).toBe(0);
    // The queue changed: the cached briefing is not served stale.
    const hook = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 's1', source: 'startup', cwd: repo.dir }) });
    expect(hook.stdout).toContain('1 captured memory candidate waits for review: `cortex review` lists them.');
  });
});

describe('nothing below the extraction threshold enters decisions.md', () => {
  const fixtures = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');
  const transcripts = [
    ...readdirSync(fixtures)
      .map((d) => join(fixtures, d, 'transcript.jsonl'))
      .filter((p) => existsSync(p)),
    // The two smallest real sessions, when the shared set is present.
    ...['01-openshrooly-v2.1.90.jsonl', '21-skogansible-migration-v2.1.195.jsonl'].map((f) => join(SHARED, 'transcripts', f)).filter((p) => existsSync(p)),
  ];
  /**
   * A session whose answer is an outline (an introducer and three listed phrases): capture
   * reads it as a decision but below the threshold (signal `enumeration`), so the queue side of
   * the check has something in it even without the shared transcripts.
   */
  const outlineSession = (dir: string): string => {
    const at = (s: number) => `2026-03-02T09:00:${String(s).padStart(2, '0')}.000Z`;
    const meta = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 'outline-1', version: '2.0.42', gitBranch: 'main' };
    const user = (uuid: string, parent: string | null, text: string, s: number) => ({ ...meta, parentUuid: parent, type: 'user', message: { role: 'user', content: text }, uuid, timestamp: at(s) });
    const assistant = (uuid: string, parent: string, text: string, s: number) => ({ ...meta, parentUuid: parent, type: 'assistant', message: { id: `msg_${uuid}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] }, uuid, timestamp: at(s) });
    const outline = '**Architecture decisions:**\n- Keep `src/atoms` as is\n- No `graphql` layer\n- Skip the `zod` wrapper';
    const lines = [user('u1', null, 'what did we settle for the architecture?', 1), assistant('a1', 'u1', outline, 2), user('u2', 'a1', 'ok', 3), assistant('a2', 'u2', 'Good.', 4)];
    const file = join(dir, 'outline.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return file;
  };

  it('captured decisions in decisions.md are at or above the threshold; the rest wait in the queue until accepted', async () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    const threshold = cortex.context.config.extraction.threshold;
    for (const [i, transcript] of [...transcripts, outlineSession(repo.dir)].entries()) await cortex.capture({ sessionId: `session-${i}`, transcriptPath: transcript });
    const { project } = await import('../src/api/project.js');
    await project(cortex.context);
    const listed = parseProjectionIds(repo.read('.cortex/decisions.md'));
    for (const id of listed) {
      const m = parseMemory(repo.read(`.cortex/memories/${id}.md`)).memory!;
      if (m.source.kind === 'extraction') expect(m.confidence, `${id} (${m.source.layer})`).toBeGreaterThanOrEqual(threshold);
    }
    const queued = (await cortex.review.list()).items;
    // The fixtures hold decisions on both sides of the threshold: the check is not vacuous.
    expect(listed.length).toBeGreaterThan(0);
    expect(queued.length).toBeGreaterThan(0);
    for (const item of queued) {
      expect(item.confidence ?? 0, item.summary).toBeLessThan(threshold);
      expect(listed.some((id) => repo.read(`.cortex/memories/${id}.md`).includes(`summary: ${item.summary}`))).toBe(false);
    }
  });
});
