/**
 * What the prompt hook gives the next session (issue 35, steps 4 and 5), in real temporary
 * repositories: a captured candidate from the review queue may answer a prompt, marked
 * unconfirmed, without ever reaching `.cortex/`; a memory the briefing showed by its summary
 * comes back with its body; accepting a candidate says who accepted it; candidates expire;
 * `--explain` says why.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { rememberMany } from '../src/api/remember.js';
import { candidateReviewId, MEMORY_CANDIDATE_KIND } from '../src/api/capture.js';
import { appendReview, reviewQueuePath } from '../src/cache/review-queue.js';
import { readSessionState } from '../src/cache/session-state.js';
import { candidateTagId } from '../src/core/anticipate.js';
import type { Candidate } from '../src/core/extract.js';
import { parseMemory } from '../src/core/memory-format.js';
import { runHook } from '../src/hooks/run.js';
import { openContext } from '../src/services/context.js';
import { cortexRepo } from './helpers/cortex-repo.js';
import { cortexTree, type TempRepo } from './helpers/repo.js';

const NOW = '2026-12-01T10:00:00Z';

function candidate(summary: string, body: string): Candidate {
  return { type: 'decision', summary, body, confidence: 0.5, tags: [], layer: 'keyword', session: 'abc12345', branch: 'main' };
}

async function queueCandidate(repo: TempRepo, c: Candidate, created = '2026-11-28T10:00:00Z'): Promise<string> {
  const id = candidateReviewId(c);
  await appendReview(openContext({ dir: repo.dir, env: repo.env }).paths, [{ kind: MEMORY_CANDIDATE_KIND, id, created, candidate: c }]);
  return id;
}


function context(stdout: string): string {
  if (stdout === '') return '';
  return (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

async function prompt(repo: TempRepo, session: string, text: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await runHook('user-prompt-submit', JSON.stringify({ session_id: session, prompt: text, cwd: repo.dir, hook_event_name: 'UserPromptSubmit' }), {
    env: { ...repo.env, CORTEX_NOW: NOW, ...env },
  });
  return context(r.stdout);
}

describe('prompt hook: review candidates', () => {
  it('injects a matching candidate marked (unconfirmed) with its [id, date] tag, records it in the session, and writes nothing under .cortex/', async () => {
    const repo = await cortexRepo();
    const id = await queueCandidate(
      repo,
      candidate('Chose Vitest over Jest as the test runner', 'The person said: "let us settle on vitest, jest is too slow with ESM". Reason: native ESM support.'),
    );
    const before = cortexTree(repo);
    const text = await prompt(repo, 's1', 'which test runner did we settle on, vitest or jest?');
    const tag = candidateTagId(id);
    expect(text).toContain(`- decision (unconfirmed): Chose Vitest over Jest as the test runner [${tag}, 2026-11-28]`);
    expect(text).toContain('native ESM support');
    expect(readSessionState(join(repo.dir, '.memory'), 's1').injected).toEqual([tag]);
    expect(cortexTree(repo)).toEqual(before);
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).not.toContain('.cortex');
    // Once in the session's context, not repeated; an unrelated prompt gets nothing.
    expect(await prompt(repo, 's1', 'which test runner did we settle on?')).toBe('');
    expect(await prompt(repo, 's2', 'explain what a closure is')).toBe('');
    // The briefing shows only the count line, never the candidate itself.
    const start = await runHook('session-start', JSON.stringify({ session_id: 's3', source: 'startup', cwd: repo.dir }), { env: { ...repo.env, CORTEX_NOW: NOW } });
    expect(start.stdout).not.toContain('Chose Vitest');
  });

  it('expires a candidate review.expireDays (30) after it was queued; 0 keeps it', async () => {
    const repo = await cortexRepo();
    await queueCandidate(repo, candidate('Chose Vitest over Jest as the test runner', 'Native ESM support.'), '2026-10-01T10:00:00Z');
    expect(await prompt(repo, 's1', 'which test runner, vitest or jest?')).toBe('');
    writeFileSync(join(repo.dir, '.cortex/config.yaml'), 'review:\n  expireDays: 0\n');
    expect(await prompt(repo, 's2', 'which test runner, vitest or jest?')).toContain('(unconfirmed): Chose Vitest over Jest');
  });

  it('redacts a candidate with the current gate when the queue was written by another one, before showing it and at the next write', async () => {
    const repo = await cortexRepo();
    const token = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
    const c = candidate('Deploy with the release token from the vault', `The deploy script used GITHUB_TOKEN=${token} for the release upload.`);
    const entry = { kind: MEMORY_CANDIDATE_KIND, id: candidateReviewId(c), created: '2026-11-28T10:00:00Z', n: 1, candidate: c };
    // A queue another Cortex (another gate) wrote: its strings were never scanned by this one.
    const path = reviewQueuePath(openContext({ dir: repo.dir, env: repo.env }).paths);
    writeFileSync(path, `${JSON.stringify({ nextNumber: 2, gate: 'an-older-gate' })}\n${JSON.stringify(entry)}\n`);
    const text = await prompt(repo, 's1', 'how do we deploy the release upload?');
    expect(text).toContain('(unconfirmed): Deploy with the release token');
    expect(text).toContain('[REDACTED:');
    expect(text).not.toContain(token);
    expect(readFileSync(join(repo.dir, '.memory/anticipation.json'), 'utf8')).not.toContain(token);
    await queueCandidate(repo, candidate('Use pnpm workspaces', 'Chosen for the monorepo.'));
    expect(readFileSync(path, 'utf8')).not.toContain(token);
  });

  it('records who accepted: source.confirmed person from cortex review, assistant from memory_review; the injected tag selects the entry', async () => {
    const repo = await cortexRepo();
    const a = await queueCandidate(repo, candidate('Chose Vitest over Jest as the test runner', 'Native ESM support.'));
    await queueCandidate(repo, candidate('Chose pnpm over npm for the monorepo', 'Workspaces.'));
    const byPerson = repo.cortex(['review', '--accept', candidateTagId(a), '--json']);
    expect(byPerson.code, byPerson.stderr).toBe(0);
    const cortex = await openCortex({ dir: repo.dir, env: repo.env });
    const byAssistant = await cortex.review.accept(['2'], 'assistant');
    const dir = join(repo.dir, '.cortex/memories');
    const memories = readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => parseMemory(readFileSync(join(dir, f), 'utf8')).memory!);
    const of = (s: string) => memories.find((m) => m.summary.startsWith(s));
    expect(of('Chose Vitest')?.source.confirmed).toBe('person');
    expect(of('Chose pnpm')?.source.confirmed).toBe('assistant');
    expect(byAssistant.accepted).toHaveLength(1);
    expect(readFileSync(join(dir, `${of('Chose pnpm')!.id}.md`), 'utf8')).toContain('  confirmed: assistant\n');
  });
});

describe('prompt hook: the body of a memory the briefing showed by its summary', () => {
  it('injects the rest of its body for a prompt about it, records it as shown in full, and does not repeat it', async () => {
    const repo = await cortexRepo();
    const ctx = openContext({ dir: repo.dir, env: { ...repo.env, CORTEX_NOW: NOW } });
    const [stored] = await rememberMany(ctx, [
      {
        summary: 'Chose the Mochi API for flashcard export',
        body: 'Generated prompts are reviewed and edited by the person before any card is created in Mochi. Anki was rejected: its sync protocol is undocumented.',
        type: 'decision',
      },
    ]);
    const id = stored!.memory.id;
    const env = { ...repo.env, CORTEX_NOW: NOW };
    const start = await runHook('session-start', JSON.stringify({ session_id: 'b1', source: 'startup', cwd: repo.dir }), { env });
    expect(context(start.stdout)).toContain('Chose the Mochi API for flashcard export');
    const state = readSessionState(join(repo.dir, '.memory'), 'b1');
    expect(state.shown?.[id]).toBe('summary');

    const text = await prompt(repo, 'b1', 'why did we pick mochi for the flashcard export, and what happened to anki?');
    expect(text).toContain(`Chose the Mochi API for flashcard export [${id}, `);
    expect(text).toContain('Anki was rejected: its sync protocol is undocumented.');
    expect(text.length).toBeLessThanOrEqual(1_500);
    expect(readSessionState(join(repo.dir, '.memory'), 'b1').shown?.[id]).toBe('body');
    expect(await prompt(repo, 'b1', 'remind me why mochi for the flashcard export?')).toBe('');
  });
});

describe('cortex hook user-prompt-submit --explain', () => {
  it('says why each memory was or was not injected, and writes no session state', async () => {
    const repo = await cortexRepo();
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [
      { text: 'Chose SQLite over PostgreSQL because zero-config matters most', type: 'decision' },
      { text: 'The release checklist lives in docs/release.md', type: 'context' },
    ]);
    const r = repo.cortex(['hook', 'user-prompt-submit', '--explain'], { input: JSON.stringify({ session_id: 'e1', prompt: 'add a postgres migration for the users table', cwd: repo.dir }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/INJECT {2}chose-sqlite-over-postgresql-\S+ {2}\(decision, score [\d.]+, 100% of the best\)\n {8}shares postgr/);
    expect(r.stdout).toContain('Would inject (');
    const plain = repo.cortex(['hook', 'user-prompt-submit', '--explain'], { input: 'the release checklist, where is it?' });
    expect(plain.stdout).toMatch(/INJECT {2}the-release-checklist/);
    const none = repo.cortex(['hook', 'user-prompt-submit', '--explain', '--json'], { input: 'explain what a closure is' });
    expect(JSON.parse(none.stdout)).toMatchObject({ text: '', rows: [] });
    expect(readdirSync(join(repo.dir, '.memory')).includes('sessions') ? readdirSync(join(repo.dir, '.memory/sessions')) : []).toEqual([]);
  });
});
