/**
 * `captureTranscript` in-process against real temporary repositories: chunked reading,
 * the time budget, oversized lines, and the structural throttle.
 */
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureTranscript } from '../src/api/capture.js';
import { openContext } from '../src/services/context.js';
import { init } from '../src/setup/init.js';
import { listReview } from '../src/cache/review-queue.js';
import { readCheckpoint } from '../src/cache/checkpoint.js';
import { REPO_ROOT, tempRepo } from './helpers/repo.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/transcripts/feature-branch-v2/transcript.jsonl');

async function setup() {
  const repo = tempRepo({ 'README.md': '# x\n' });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'init']);
  await init({ dir: repo.dir, env: repo.env });
  const transcript = join(repo.home, 't.jsonl');
  copyFileSync(FIXTURE, transcript);
  let clock = Date.parse('2026-03-02T10:00:00Z');
  const ctx = openContext({ dir: repo.dir, env: repo.env, now: () => new Date(clock) });
  const memories = () =>
    readdirSync(join(repo.dir, '.cortex/memories'))
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => readFileSync(join(repo.dir, '.cortex/memories', n), 'utf8').replace(/^id: .*$/m, '').replace(/^ *(created|updated|commit): .*$/gm, ''));
  // Two setups commit at different seconds: ids, dates and commits differ, the content must not.
  return { repo, transcript, ctx, memories, tick: (ms: number) => (clock += ms) };
}

describe('captureTranscript', () => {
  it('reads in small chunks to the same memories as in one go', async () => {
    const whole = await setup();
    await captureTranscript(whole.ctx, { sessionId: 's', transcriptPath: whole.transcript });
    const chunked = await setup();
    const out = await captureTranscript(chunked.ctx, { sessionId: 's', transcriptPath: chunked.transcript, chunkBytes: 700 });
    expect(out).toMatchObject({ status: 'done', from: 0, to: statSync(chunked.transcript).size });
    expect(chunked.memories()).toEqual(whole.memories());
    expect(whole.memories().length).toBeGreaterThan(2);
  });

  it('stops at the time budget with the checkpoint where it stopped, and the next run finishes', async () => {
    const { ctx, transcript, memories } = await setup();
    const first = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, chunkBytes: 500, timeBudgetMs: 0 });
    expect(first.status).toBe('partial');
    expect(first.to).toBeGreaterThan(0);
    expect(first.to).toBeLessThan(statSync(transcript).size);
    expect(readCheckpoint(join(ctx.paths.cacheDir), 's')!.offset).toBe(first.to);
    const second = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript });
    expect(second).toMatchObject({ status: 'done', from: first.to, to: statSync(transcript).size });

    const reference = await setup();
    await captureTranscript(reference.ctx, { sessionId: 's', transcriptPath: reference.transcript });
    expect(memories()).toEqual(reference.memories());
  });

  it('skips a line longer than maxLineBytes and reads on', async () => {
    const { ctx, transcript } = await setup();
    const before = readFileSync(transcript);
    writeFileSync(transcript, Buffer.concat([Buffer.from(`{"type":"user","message":{"content":"${'x'.repeat(5_000)}"}}\n`), before]));
    const out = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, chunkBytes: 1_000, maxLineBytes: 2_000 });
    expect(out).toMatchObject({ status: 'done', to: statSync(transcript).size, skippedLines: 1 });
    expect(out.memories.length).toBeGreaterThan(2);
  });

  it('rewrites changed plan and progress memories at most every structuralEveryMs', async () => {
    const { ctx, transcript, tick } = await setup();
    await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, structuralEveryMs: 60_000 });
    const turn = (n: number) =>
      `${JSON.stringify({ type: 'assistant', uuid: `x${n}`, sessionId: 's', message: { id: `mx${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tx${n}`, name: 'Bash', input: { command: `echo ${n}` } }] } })}\n` +
      `${JSON.stringify({ type: 'user', uuid: `y${n}`, sessionId: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tx${n}`, content: 'ok' }] } })}\n`;
    appendFileSync(transcript, turn(1));
    tick(10_000);
    const soon = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, structuralEveryMs: 60_000 });
    expect(soon.memories.filter((m) => m.type === 'progress')).toEqual([]);
    appendFileSync(transcript, turn(2));
    tick(60_000);
    const later = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, structuralEveryMs: 60_000 });
    expect(later.memories.filter((m) => m.type === 'progress').map((m) => m.action)).toEqual(['updated']);
    const nothing = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, structuralEveryMs: 0 });
    expect(nothing.memories).toEqual([]);
  });

  it("reads a 2.x subagent's own transcript file incrementally, as the subagent's words, once", async () => {
    const { ctx, transcript, repo } = await setup();
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 's', cwd: repo.dir, timestamp: '2026-03-02T10:00:00.000Z', ...o })}\n`;
    const dir = join(repo.home, 't', 'subagents');
    mkdirSync(dir, { recursive: true });
    const agent = join(dir, 'agent-a1b2.jsonl');
    writeFileSync(
      agent,
      line({ type: 'user', uuid: 'sa-1', isSidechain: true, agentId: 'a1b2', message: { role: 'user', content: 'Find why the sync drops rows.' } }) +
        line({
          type: 'assistant',
          uuid: 'sa-2',
          isSidechain: true,
          agentId: 'a1b2',
          message: { id: 'sa-m2', role: 'assistant', content: [{ type: 'text', text: '**Root cause:** `sync.py` pages with `offset` but the API caps `limit` at 100, so every row past 100 per page is silently dropped.' }] },
        }),
    );
    // Not a conversation: ignored.
    writeFileSync(join(dir, 'journal.jsonl'), line({ type: 'assistant', message: { content: [{ type: 'text', text: '**Root cause:** noise in the journal, `x.py` only.' }] } }));
    const first = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, final: true });
    const fromAgent = () => [
      ...first.memories.filter((m) => /limit/.test(m.summary)).map((m) => m.summary),
      ...listReview(ctx.paths, { kind: 'candidate' }).map((e) => (e as unknown as { candidate: { summary: string } }).candidate).filter((c) => /limit/.test(c.summary)).map((c) => c.summary),
    ];
    expect(fromAgent()).toHaveLength(1);
    expect(readCheckpoint(ctx.paths.cacheDir, 's')?.subagents?.['agent-a1b2.jsonl']?.offset).toBe(statSync(agent).size);
    expect(JSON.stringify(listReview(ctx.paths))).not.toContain('noise in the journal');
    const again = await captureTranscript(ctx, { sessionId: 's', transcriptPath: transcript, final: true });
    expect(again.memories.filter((m) => m.action === 'created')).toEqual([]);
    expect(fromAgent()).toHaveLength(1);
  });

  it('judges the open exchange only at the end, and writes the memory of a candidate key once', async () => {
    const { ctx, transcript, repo } = await setup();
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 's2', cwd: repo.dir, timestamp: '2026-03-02T11:00:00.000Z', ...o })}\n`;
    writeFileSync(
      transcript,
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Why do deploys fail?' } }) +
        line({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: '**Root cause:** `server.ts` listens on localhost, so the load balancer cannot reach it; bind `0.0.0.0`.' }] } }),
    );
    const stop = await captureTranscript(ctx, { sessionId: 's2', transcriptPath: transcript });
    expect(stop.memories.filter((m) => m.layer === 'keyword')).toEqual([]);
    const end = await captureTranscript(ctx, { sessionId: 's2', transcriptPath: transcript, final: true });
    const written = end.memories.filter((m) => m.layer === 'keyword');
    expect(written).toHaveLength(1);
    expect(Object.values(readCheckpoint(ctx.paths.cacheDir, 's2')?.keys ?? {})).toContain(written[0]?.id);
    const file = readFileSync(join(repo.dir, '.cortex/memories', `${written[0]?.id}.md`), 'utf8');
    expect(file).toContain('— the assistant, 2026-03-02T11:00:00Z.');
    expect(file).toContain('layer: keyword');
  });

  it('takes a queued statement out of review when a later run stores it as a memory (pieces = whole)', async () => {
    const lines = (repo: { dir: string }) => {
      const line = (n: number, content: string) => `${JSON.stringify({ type: 'user', uuid: `u${n}`, sessionId: 's3', cwd: repo.dir, timestamp: '2026-03-02T11:00:00.000Z', message: { role: 'user', content } })}\n`;
      return [line(1, 'yes'), line(2, "yes, I'd like to review them first"), line(3, '[Request interrupted by user]'), line(4, '[Request interrupted by user]'), line(5, "yes, I'd like to review them first")].join('');
    };
    const queued = (ctx: { paths: Parameters<typeof listReview>[0] }) => listReview(ctx.paths, { kind: 'candidate' }).map((e) => (e as { candidate?: { summary?: string } }).candidate?.summary);
    const pieces = await setup();
    writeFileSync(pieces.transcript, lines(pieces.repo));
    await captureTranscript(pieces.ctx, { sessionId: 's3', transcriptPath: pieces.transcript });
    expect(queued(pieces.ctx)).toEqual(['The user wants to review them first']);
    const end = await captureTranscript(pieces.ctx, { sessionId: 's3', transcriptPath: pieces.transcript, final: true });
    expect(end.memories.filter((m) => m.layer === 'keyword').map((m) => m.summary)).toEqual(['The user wants to review them first']);
    expect(queued(pieces.ctx)).toEqual([]);

    const whole = await setup();
    writeFileSync(whole.transcript, lines(whole.repo));
    await captureTranscript(whole.ctx, { sessionId: 's3', transcriptPath: whole.transcript, final: true });
    expect(queued(whole.ctx)).toEqual([]);
    expect(pieces.memories()).toEqual(whole.memories());
  });

  it("keeps one plan per session: a new session's todo list does not replace another's", async () => {
    const { ctx, transcript, repo } = await setup();
    const todoLine = (session: string, uuid: string, content: string) =>
      `${JSON.stringify({ type: 'assistant', uuid, sessionId: session, cwd: repo.dir, message: { id: `m-${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id: `t-${uuid}`, name: 'TodoWrite', input: { todos: [{ content, status: 'in_progress' }, { content: 'Ship it', status: 'pending' }] } }] } })}\n`;
    writeFileSync(transcript, todoLine('aaaa1111', 'p1', 'Fix the parser'));
    await captureTranscript(ctx, { sessionId: 'aaaa1111', transcriptPath: transcript });
    const other = join(repo.home, 'other.jsonl');
    writeFileSync(other, todoLine('bbbb2222', 'p2', 'Write the docs'));
    await captureTranscript(ctx, { sessionId: 'bbbb2222', transcriptPath: other });
    const plans = readdirSync(join(repo.dir, '.cortex/memories'))
      .map((n) => readFileSync(join(repo.dir, '.cortex/memories', n), 'utf8'))
      .filter((t) => /^type: plan$/m.test(t));
    expect(plans).toHaveLength(2);
    expect(plans.some((t) => t.includes('Fix the parser'))).toBe(true);
    expect(plans.some((t) => t.includes('Write the docs'))).toBe(true);
  });
});

