/**
 * Claude Code hooks end to end: the synthetic transcript fixtures through `stop` with
 * their expected memories per layer, the real transcripts in ../shared/transcripts
 * through the built CLI, the session-start → stop → session-start round trip, and a
 * fuzz run of every hook on garbage.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { init } from '../src/setup/init.js';
import { rememberMany } from '../src/api/remember.js';
import { listReview } from '../src/cache/review-queue.js';
import type { Candidate } from '../src/core/extract.js';
import type { Memory } from '../src/core/memory.js';
import { parseMemory } from '../src/core/memory-format.js';
import { HOOK_EVENTS } from '../src/core/hook-events.js';
import { runHook } from '../src/hooks/run.js';
import { captureTranscript } from '../src/api/capture.js';
import { openCortex } from '../src/api/cortex.js';
import { readCheckpoint } from '../src/cache/checkpoint.js';
import { readPendingLinks } from '../src/cache/pending-links.js';
import { CLI, REPO_ROOT, SHARED, tempRepo, type TempRepo } from './helpers/repo.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/transcripts');
const REAL = join(SHARED, 'transcripts');
const realFiles = existsSync(REAL) ? readdirSync(REAL).filter((f) => f.endsWith('.jsonl')).sort() : [];

interface Expected {
  bucket: 'memories' | 'review';
  layer: string;
  type: string;
  summary: string;
  confidence: [number, number];
  topic?: string;
  files?: string[];
  bodyIncludes?: string[];
}
interface Fixture {
  options: { sessionId: string; branch?: string; now: string; lastAssistantMessage?: string };
  parse: { torn: boolean; tornCompletionHex?: string };
  candidates: Expected[];
  afterCompletion?: Expected[];
  mustNotContain: string[];
}

/** A repository set up for Cortex, on `branch` (a detached HEAD for `null`). */
async function cortexRepo(branch: string | null = 'main', files: Record<string, string> = {}): Promise<TempRepo> {
  const repo = tempRepo({ 'README.md': '# test\n', ...files });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'init']);
  if (branch === null) repo.git(['checkout', '-q', '--detach']);
  else if (branch !== 'main') repo.git(['checkout', '-q', '-b', branch]);
  await init({ dir: repo.dir, env: repo.env });
  return repo;
}

interface Stored {
  file: string;
  text: string;
  memory: Memory;
}

/** Every memory file, parsed; a file that does not parse cleanly fails the test. */
function storedMemories(repo: TempRepo): Stored[] {
  const dir = join(repo.dir, '.cortex/memories');
  const names = readdirSync(dir).filter((n) => n !== '.gitkeep').sort();
  return names.map((name) => {
    expect(name, 'no temp or stray files in .cortex/memories').toMatch(/^[a-z0-9-]+\.md$/);
    const text = readFileSync(join(dir, name), 'utf8');
    const parsed = parseMemory(text, { file: name, expectedId: name.slice(0, -3) });
    expect(parsed.diagnostics, name).toEqual([]);
    return { file: name, text, memory: parsed.memory as Memory };
  });
}

function snapshot(repo: TempRepo): Record<string, string> {
  return Object.fromEntries(storedMemories(repo).map((s) => [s.file, s.text]));
}

const matches = (c: { layer: string; type: string; summary: string; confidence: number; topic?: string | undefined; files?: string[] | undefined; body: string }, bucket: string, e: Expected): boolean =>
  e.bucket === bucket &&
  e.layer === c.layer &&
  e.type === c.type &&
  c.summary.includes(e.summary) &&
  c.confidence >= e.confidence[0] &&
  c.confidence <= e.confidence[1] &&
  (e.topic === undefined || e.topic === c.topic) &&
  (e.files === undefined || JSON.stringify(e.files) === JSON.stringify(c.files)) &&
  (e.bodyIncludes ?? []).every((s) => c.body.includes(s));

/** Each stored memory and queued candidate matches one expectation, and every expectation is met. */
function compare(repo: TempRepo, expected: Expected[]): void {
  const produced = [
    ...storedMemories(repo).map((s) => ['memories', { ...s.memory, layer: s.memory.source.layer ?? '', files: s.memory.source.files }] as const),
    ...listReview({ cacheDir: join(repo.dir, '.memory') }, { kind: 'candidate' }).map((e) => ['review', e.candidate as Candidate] as const),
  ];
  const unmatched = [...expected];
  const extra: string[] = [];
  for (const [bucket, c] of produced) {
    const i = unmatched.findIndex((e) => matches(c, bucket, e));
    if (i === -1) extra.push(`${bucket} ${c.layer} ${c.type} ${c.confidence} ${JSON.stringify(c.summary)}`);
    else unmatched.splice(i, 1);
  }
  expect({ extra, missing: unmatched }).toEqual({ extra: [], missing: [] });
}

function endInput(repo: TempRepo, sessionId: string, transcript: string): string {
  return JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: repo.dir, hook_event_name: 'SessionEnd', reason: 'other' });
}

function stopInput(repo: TempRepo, sessionId: string, transcript: string, last?: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: repo.dir,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    ...(last !== undefined ? { last_assistant_message: last } : {}),
  });
}

describe('stop and session-end over the synthetic transcript fixtures', () => {
  const names = readdirSync(FIXTURES).filter((n) => existsSync(join(FIXTURES, n, 'expected.json'))).sort();

  it.each(names)('%s: the expected memories per layer, the review queue, provenance, and nothing new on a re-run', async (name) => {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as Fixture;
    const repo = await cortexRepo(fixture.options.branch ?? null);
    const transcript = join(repo.home, 'transcript.jsonl');
    copyFileSync(join(FIXTURES, name, 'transcript.jsonl'), transcript);
    const now = () => new Date(fixture.options.now);
    const input = stopInput(repo, fixture.options.sessionId, transcript, fixture.options.lastAssistantMessage);

    const first = await runHook('stop', input, { env: repo.env, now });
    expect(first.stdout).toBe('');
    // Stop leaves the last exchange open (the person's next prompt is its verdict);
    // the session's end judges it.
    const end = async (): Promise<void> => {
      const out = await runHook('session-end', endInput(repo, fixture.options.sessionId, transcript), { env: repo.env, now, detach: false });
      expect(out.stdout).toBe('');
    };
    await end();
    compare(repo, fixture.candidates);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    for (const { memory } of storedMemories(repo)) {
      expect(memory.source).toMatchObject({ kind: 'extraction', session: fixture.options.sessionId, commit: head.slice(0, 12) });
      expect(memory.source.branch).toBe(fixture.options.branch);
      for (const banned of fixture.mustNotContain) expect(memory.summary).not.toContain(banned);
    }

    const before = snapshot(repo);
    const queue = () => (existsSync(join(repo.dir, '.memory/review.jsonl')) ? readFileSync(join(repo.dir, '.memory/review.jsonl'), 'utf8') : '');
    const queueBefore = queue();
    await runHook('stop', input, { env: repo.env, now });
    await end();
    expect(snapshot(repo)).toEqual(before);
    expect(queue()).toBe(queueBefore);

    const size = statSync(transcript).size;
    const checkpoint = readCheckpoint(join(repo.dir, '.memory'), fixture.options.sessionId);
    if (fixture.parse.tornCompletionHex !== undefined) {
      // The torn last line is left for next time; completing it is picked up incrementally.
      expect(checkpoint!.offset).toBeLessThan(size);
      appendFileSync(transcript, Buffer.from(fixture.parse.tornCompletionHex, 'hex'));
      await runHook('stop', stopInput(repo, fixture.options.sessionId, transcript), { env: repo.env, now });
      await end();
      expect(readCheckpoint(join(repo.dir, '.memory'), fixture.options.sessionId)!.offset).toBe(statSync(transcript).size);
      compare(repo, [...fixture.candidates, ...(fixture.afterCompletion ?? [])]);
    } else {
      expect(checkpoint!.offset).toBe(size);
    }
  });
});

/** A new assistant line in the transcript's own format, carrying a self-report tag. */
function appendedTurn(transcript: string, text: string): string {
  const lines = readFileSync(transcript, 'utf8').split('\n').filter(Boolean);
  const last = [...lines].reverse().map((l) => JSON.parse(l) as Record<string, unknown>).find((o) => o.type === 'assistant');
  const message = { ...(last!.message as Record<string, unknown>), id: 'msg_cortex_test_appended', content: [{ type: 'text', text }] };
  return `${JSON.stringify({ ...last, uuid: '00000000-0000-4000-8000-00000000c0de', parentUuid: last!.uuid, message, isSidechain: false })}\n`;
}

describe.skipIf(realFiles.length === 0)('cortex hook stop over the real transcripts', () => {
  it.each(realFiles)('%s: completes, writes only valid memory files, re-runs write nothing, an appended turn is read incrementally', async (name) => {
    const repo = await cortexRepo('main');
    const transcript = join(repo.home, name);
    copyFileSync(join(REAL, name), transcript);
    const input = stopInput(repo, `real-${name.slice(0, 2)}`, transcript);

    const first = repo.cortex(['hook', 'stop'], { input });
    expect(first).toMatchObject({ code: 0, stdout: '' });
    const stored = storedMemories(repo);
    expect(stored.length).toBeGreaterThan(0);
    for (const s of stored) expect(s.memory.source.kind).toBe('extraction');
    const cp = readCheckpoint(join(repo.dir, '.memory'), `real-${name.slice(0, 2)}`)!;
    expect(cp.offset).toBe(statSync(transcript).size);

    const before = snapshot(repo);
    expect(repo.cortex(['hook', 'stop'], { input })).toMatchObject({ code: 0, stdout: '' });
    expect(snapshot(repo)).toEqual(before);

    const tag = `[MEMORY: gotcha] The ${name.slice(3, -6)} fixture clock runs in UTC, never local time.`;
    appendFileSync(transcript, appendedTurn(transcript, `Done.\n\n${tag}`));
    // A new turn is a new delivery: Claude Code 2.1 gives each prompt its own id (the same
    // bytes twice within seconds are one delivery run by two registrations: see dedupe.ts).
    const nextTurn = JSON.stringify({ ...(JSON.parse(input) as object), prompt_id: 'turn-2' });
    expect(repo.cortex(['hook', 'stop'], { input: nextTurn })).toMatchObject({ code: 0, stdout: '' });
    const after = storedMemories(repo);
    const added = after.filter((s) => before[s.file] === undefined);
    expect(added.map((s) => s.memory.summary)).toContain(`The ${name.slice(3, -6)} fixture clock runs in UTC, never local time.`);
    expect(added.every((s) => s.memory.source.layer === 'self-report' || s.memory.type === 'progress' || s.memory.type === 'plan')).toBe(true);
    expect(readCheckpoint(join(repo.dir, '.memory'), `real-${name.slice(0, 2)}`)!.offset).toBe(statSync(transcript).size);
  });
});

describe('session-start → stop → session-start', () => {
  it('a memory captured in the first session is in the second session briefing', async () => {
    const repo = await cortexRepo('main');
    const start = (session: string) =>
      repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: session, source: 'startup', cwd: repo.dir, hook_event_name: 'SessionStart' }) });
    const empty = start('first');
    expect(empty).toMatchObject({ code: 0, stdout: '' });

    const transcript = join(repo.home, 'first.jsonl');
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'first', cwd: repo.dir, gitBranch: 'main', isSidechain: false, timestamp: '2026-11-21T10:00:00.000Z', ...o })}\n`;
    writeFileSync(
      transcript,
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Which queue should the workers use?' } }) +
        line({
          type: 'assistant',
          uuid: 'a1',
          message: { id: 'm1', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Settled.\n\n[MEMORY: decision] Workers use the Postgres job table, not Redis, so deploys need no extra daemon.' }] },
        }),
    );
    const stop = repo.cortex(['hook', 'stop'], { input: stopInput(repo, 'first', transcript) });
    expect(stop).toMatchObject({ code: 0, stdout: '' });

    const second = start('second');
    expect(second.code).toBe(0);
    const out = JSON.parse(second.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('Workers use the Postgres job table, not Redis');
    expect(out.hookSpecificOutput.additionalContext.length).toBeLessThan(10_000);

    const compact = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'second', source: 'compact', cwd: repo.dir }) });
    const compactText = (JSON.parse(compact.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(compactText).toContain('Workers use the Postgres job table');
    expect(compactText.length).toBeLessThanOrEqual(out.hookSpecificOutput.additionalContext.length);
  });
});

describe('session-start on the cached briefing', () => {
  it('serves the cache without loading any heavy module, with the same text as the slow path', async () => {
    const repo = await cortexRepo('main');
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [
      { text: 'Chose SQLite over PostgreSQL because zero-config matters most', type: 'decision' },
      { text: 'The sync SDK exposes doc.parent as a getter, not a method', type: 'gotcha' },
    ]);
    const input = (session: string, source = 'startup') => JSON.stringify({ session_id: session, source, cwd: repo.dir, hook_event_name: 'SessionStart' });
    const slow = repo.cortex(['hook', 'session-start'], { input: input('s1') });
    expect(slow.code).toBe(0);
    expect(readdirSync(join(repo.dir, '.memory/surface-cache')).sort()).toEqual(['compact-config.json', 'full-config.json']);

    const trace = join(repo.home, 'imports.txt');
    const r = spawnSync(process.execPath, ['--import', join(REPO_ROOT, 'test/helpers/trace-imports.mjs'), CLI, 'hook', 'session-start'], {
      cwd: repo.dir,
      env: { ...repo.env, CORTEX_TRACE_IMPORTS: trace },
      input: input('s2'),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(slow.stdout);
    const modules = readFileSync(trace, 'utf8').split('\n').filter((m) => m.startsWith('file:'));
    expect(modules.filter((m) => m.includes('/node_modules/'))).toEqual([]);
    // core/suggest.js (did-you-mean for the argument parser) and core/fingerprint.js (the
    // delivery claim's hash) import nothing; of .memory/, its layout, the surface cache and the
    // session state (node built-ins only).
    expect(modules.filter((m) => /\/dist\/(api|embed|cache\/(?!layout\.js|surface-cache\.js|session-state\.js|session-file\.js)|core\/(?!hook-events|memory\.js|suggest\.js|fingerprint\.js))/.test(m))).toEqual([]);
    expect(modules.some((m) => m.endsWith('/dist/cache/surface-cache.js'))).toBe(true);
    // The ids the briefing shows are recorded for the session on the fast path too.
    expect(JSON.parse(readFileSync(join(repo.dir, '.memory/sessions/s2.json'), 'utf8')).injected).toHaveLength(2);

    const compact = repo.cortex(['hook', 'session-start'], { input: input('s2', 'compact') });
    const text = (JSON.parse(compact.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text).toContain('Chose SQLite over PostgreSQL');
  });
});

describe('session-start from its own bundle', () => {
  it('serves a cached briefing without the CLI bundle, and loads it in the same process on a miss', async () => {
    const repo = await cortexRepo('main');
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [{ text: 'Chose SQLite over PostgreSQL because zero-config matters most', type: 'decision' }]);
    const env = { CORTEX_DEBUG: '1', CORTEX_CODE_CACHE: join(repo.home, 'code-cache') };
    const input = (session: string) => JSON.stringify({ session_id: session, source: 'startup', cwd: repo.dir, hook_event_name: 'SessionStart' });
    const bundles = (stderr: string) => [...stderr.matchAll(/cortex: code cache \w+ \((\w+) bundle\)/g)].map((m) => m[1]);
    const miss = repo.cortex(['hook', 'session-start'], { input: input('b1'), env });
    expect(miss.code).toBe(0);
    expect(bundles(miss.stderr)).toEqual(['start', 'cli']);
    expect(miss.stdout).toContain('Chose SQLite over PostgreSQL');
    const hit = repo.cortex(['hook', 'session-start'], { input: input('b2'), env });
    expect(bundles(hit.stderr)).toEqual(['start']);
    expect(hit.stdout).toBe(miss.stdout);
    expect(JSON.parse(readFileSync(join(repo.dir, '.memory/sessions/b2.json'), 'utf8')).injected).toHaveLength(1);
    // The same delivery again (a second registration of the hook): claimed once, nothing printed.
    const twin = repo.cortex(['hook', 'session-start'], { input: input('b2'), env });
    expect(twin).toMatchObject({ code: 0, stdout: '' });
    expect(twin.stderr).toContain('another registration');
    // Garbage on stdin: nothing printed, exit 0, the reason logged.
    const garbage = repo.cortex(['hook', 'session-start'], { input: '{not json', env });
    expect(garbage).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(join(repo.dir, '.memory/cortex.log'), 'utf8')).toMatch(/session-start.*ignored/);
  });
});

describe('session-end', () => {
  it('returns at once and leaves extraction to a detached worker', async () => {
    const repo = await cortexRepo('main');
    const transcript = join(repo.home, 'end.jsonl');
    copyFileSync(join(FIXTURES, 'self-report/transcript.jsonl'), transcript);
    const started = Date.now();
    const r = repo.cortex(['hook', 'session-end'], { input: JSON.stringify({ session_id: 'ending', transcript_path: transcript, cwd: repo.dir, reason: 'prompt_input_exit' }) });
    const elapsed = Date.now() - started;
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(elapsed).toBeLessThan(1_500);
    // The worker's last step rebuilds the briefing cache: wait for it.
    const cache = join(repo.dir, '.memory/surface-cache/full-config.json');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !existsSync(cache)) await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(cache)).toBe(true);
    expect(readCheckpoint(join(repo.dir, '.memory'), 'ending')?.offset).toBe(statSync(transcript).size);
    expect(storedMemories(repo).some((s) => s.memory.summary.startsWith('Chose SQLite over PostgreSQL'))).toBe(true);
    // Projections regenerated with the session's decision.
    expect(repo.read('.cortex/decisions.md')).toContain('Chose SQLite over PostgreSQL');
    await new Promise((res) => setTimeout(res, 300));
    expect(readdirSync(join(repo.dir, '.memory/hooks'))).toEqual([]);
    expect(readFileSync(join(repo.dir, '.memory/cortex.log'), 'utf8')).toMatch(/projections regenerated: .*decisions\.md/);
    // The next session starts on the cached briefing, which shows the decision.
    const next = repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 'next', source: 'startup', cwd: repo.dir }) });
    expect(next.stdout).toContain('Chose SQLite over PostgreSQL');
  });
});

describe('auto-links of what Stop captures', () => {
  const NOW = () => new Date('2026-11-21T12:00:00Z');
  /** Appends one exchange per tag: a prompt, and a reply carrying a self-report tag (confidence 1.0: a memory). */
  function appendTagged(repo: TempRepo, path: string, tags: string[]): void {
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'linking', cwd: repo.dir, gitBranch: 'main', isSidechain: false, timestamp: '2026-11-21T10:00:00.000Z', ...o })}\n`;
    for (const tag of tags) {
      const n = existsSync(path) ? readFileSync(path, 'utf8').split('\n').length : 0;
      appendFileSync(
        path,
        line({ type: 'user', uuid: `u-${n}`, message: { role: 'user', content: 'Go on.' } }) +
          line({ type: 'assistant', uuid: `a-${n}`, message: { id: `m-${n}`, role: 'assistant', model: 'claude', content: [{ type: 'text', text: `Done.\n\n[MEMORY: gotcha] ${tag}` }] } }),
      );
    }
  }
  const KNOWN = [
    { summary: 'The zephyr quokka gateway drops idle sockets after a minute', type: 'gotcha' as const, autoLink: false },
    { summary: 'Saffron tundra builds need the glyph cache warmed first', type: 'gotcha' as const, autoLink: false },
    { summary: 'Release notes live in the changelog folder', type: 'context' as const, autoLink: false },
  ];
  const FIRST = 'The zephyr quokka gateway needs keepalive pings';
  const SECOND = 'Saffron tundra builds stall behind the proxy';

  async function store(): Promise<{ repo: TempRepo; transcript: string }> {
    const repo = await cortexRepo('main');
    await rememberMany(openContext({ dir: repo.dir, env: repo.env, now: NOW }), KNOWN);
    return { repo, transcript: join(repo.home, 'linking.jsonl') };
  }
  /** Edge files by name, with each memory id replaced by its summary (ids are random). */
  function edges(repo: TempRepo): Record<string, string> {
    const dir = join(repo.dir, '.cortex/edges');
    const byId = new Map(storedMemories(repo).map((s) => [s.memory.id, s.memory.summary]));
    const named = (text: string) => [...byId].reduce((t, [id, summary]) => t.split(id).join(summary), text);
    const files = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.md')) : [];
    return Object.fromEntries(files.map((f) => [named(f), named(readFileSync(join(dir, f), 'utf8'))]));
  }
  const pending = (repo: TempRepo): string[] => readPendingLinks(join(repo.dir, '.memory'));
  const idOf = (repo: TempRepo, summary: string): string => storedMemories(repo).find((s) => s.memory.summary === summary)!.memory.id;

  it('Stop writes the memory and lists it; the session-end worker writes the edges linking on write would have', async () => {
    const reference = await store();
    appendTagged(reference.repo, reference.transcript, [FIRST]);
    await captureTranscript(openContext({ dir: reference.repo.dir, env: reference.repo.env, now: NOW }), { sessionId: 'linking', transcriptPath: reference.transcript });
    const expected = edges(reference.repo);
    // Not vacuous: the new memory is linked to the one it resembles.
    expect(Object.keys(expected)).toContain(`${FIRST}--relates_to--${KNOWN[0]!.summary}.md`);

    const { repo, transcript } = await store();
    appendTagged(repo, transcript, [FIRST]);
    await runHook('stop', stopInput(repo, 'linking', transcript), { env: repo.env, now: NOW });
    expect(storedMemories(repo).map((s) => s.memory.summary)).toContain(FIRST);
    expect(edges(repo)).toEqual({});
    expect(pending(repo)).toEqual([idOf(repo, FIRST)]);

    const end = await runHook('session-end', endInput(repo, 'linking', transcript), { env: repo.env, now: NOW, detach: false });
    expect(end.log.join('\n')).toMatch(/linked 1 captured memory, 1 edge\b/);
    expect(edges(repo)).toEqual(expected);
    expect(pending(repo)).toEqual([]);
  });

  it('the library: capture with link later, then linkPending, gives the edges of capture with link now', async () => {
    const reference = await store();
    appendTagged(reference.repo, reference.transcript, [FIRST]);
    await openCortex({ dir: reference.repo.dir, env: reference.repo.env, now: NOW }).capture({ sessionId: 'linking', transcriptPath: reference.transcript });
    const { repo, transcript } = await store();
    appendTagged(repo, transcript, [FIRST]);
    const cortex = openCortex({ dir: repo.dir, env: repo.env, now: NOW });
    const out = await cortex.capture({ sessionId: 'linking', transcriptPath: transcript, link: 'later' });
    expect(out.memories.map((m) => m.summary)).toContain(FIRST);
    expect(edges(repo)).toEqual({});
    expect(await cortex.linkPending()).toEqual({ linked: 1, edges: 1, consolidate: 0, missing: 0, failed: [], locked: [] });
    expect(edges(repo)).toEqual(edges(reference.repo));
    expect(await cortex.linkPending()).toEqual({ linked: 0, edges: 0, consolidate: 0, missing: 0, failed: [], locked: [] });
  });

  it('links at once when the list cannot be written', async () => {
    const { repo, transcript } = await store();
    mkdirSync(join(repo.dir, '.memory/pending-links'), { recursive: true });
    appendTagged(repo, transcript, [FIRST]);
    const r = await runHook('stop', stopInput(repo, 'linking', transcript), { env: repo.env, now: NOW });
    expect(r.log.join('\n')).not.toMatch(/failed/);
    expect(Object.keys(edges(repo))).toContain(`${FIRST}--relates_to--${KNOWN[0]!.summary}.md`);
  });

  it('keeps the list when no worker ran, links everything on it once, and adds nothing when linking again', async () => {
    const { repo, transcript } = await store();
    appendTagged(repo, transcript, [FIRST]);
    await runHook('stop', stopInput(repo, 'linking', transcript), { env: repo.env, now: NOW });
    // The worker never ran (killed, or no SessionEnd): the next turn's Stop adds to the list.
    appendTagged(repo, transcript, [SECOND]);
    await runHook('stop', JSON.stringify({ ...(JSON.parse(stopInput(repo, 'linking', transcript)) as object), prompt_id: 'turn-2' }), { env: repo.env, now: NOW });
    expect(edges(repo)).toEqual({});
    expect(pending(repo)).toEqual([idOf(repo, FIRST), idOf(repo, SECOND)]);

    // PreCompact links too.
    const compact = await runHook('pre-compact', JSON.stringify({ session_id: 'linking', transcript_path: transcript, cwd: repo.dir, hook_event_name: 'PreCompact' }), { env: repo.env, now: NOW });
    expect(compact.log.join('\n')).toMatch(/linked 2 captured memories/);
    const linked = edges(repo);
    expect(Object.keys(linked)).toEqual(expect.arrayContaining([`${FIRST}--relates_to--${KNOWN[0]!.summary}.md`, `${SECOND}--relates_to--${KNOWN[1]!.summary}.md`]));
    expect(pending(repo)).toEqual([]);

    // A worker killed after writing the edges, before clearing the list: the next run adds nothing.
    writeFileSync(join(repo.dir, '.memory/pending-links'), `${idOf(repo, FIRST)}\n${idOf(repo, SECOND)}\n`);
    const end = await runHook('session-end', endInput(repo, 'linking', transcript), { env: repo.env, now: NOW, detach: false });
    expect(end.log.join('\n')).toMatch(/linked 2 captured memories, 0 edges/);
    expect(edges(repo)).toEqual(linked);
    expect(pending(repo)).toEqual([]);
  });
});

describe('checkpoints', () => {
  it('restart from 0 when the transcript is replaced or shrinks, and skip quietly while another run holds the lock', async () => {
    const repo = await cortexRepo('main');
    const transcript = join(repo.home, 't.jsonl');
    copyFileSync(join(FIXTURES, 'self-report/transcript.jsonl'), transcript);
    const cacheDir = join(repo.dir, '.memory');
    const input = stopInput(repo, 's-cp', transcript);
    await runHook('stop', input, { env: repo.env });
    const full = readCheckpoint(cacheDir, 's-cp')!;

    // Replaced by a shorter file (a new inode): the checkpoint no longer applies.
    const short = readFileSync(transcript, 'utf8').split('\n').slice(0, 2).join('\n') + '\n';
    writeFileSync(join(repo.home, 'new.jsonl'), short);
    renameSync(join(repo.home, 'new.jsonl'), transcript);
    const r = await runHook('stop', input, { env: repo.env });
    expect(r.log.join('\n')).toMatch(/restarted/);
    expect(readCheckpoint(cacheDir, 's-cp')!.offset).toBe(Buffer.byteLength(short));
    expect(readCheckpoint(cacheDir, 's-cp')!.offset).toBeLessThan(full.offset);

    mkdirSync(join(cacheDir, 'locks'), { recursive: true });
    writeFileSync(join(cacheDir, 'locks/extract.lock'), JSON.stringify({ pid: process.pid, at: Date.now() }));
    appendFileSync(transcript, appendedTurn(transcript, '[MEMORY: gotcha] Never while locked.'));
    const locked = await runHook('stop', input, { env: repo.env });
    expect(locked.stdout).toBe('');
    expect(locked.log.join('\n')).toMatch(/another extraction run holds/);
    expect(readFileSync(join(cacheDir, 'cortex.log'), 'utf8')).toMatch(/stop skipped: another extraction run holds/);
    expect(storedMemories(repo).some((s) => s.memory.summary.includes('Never while locked'))).toBe(false);
  });
});

describe('user-prompt-submit', () => {
  it('adds the memories relevant to the prompt that the briefing did not show, and nothing for an unrelated prompt', async () => {
    const repo = await cortexRepo('main');
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [
      { text: 'Chose SQLite over PostgreSQL because zero-config matters most', type: 'decision' },
      { text: 'The sync SDK exposes doc.parent as a getter, not a method', type: 'gotcha' },
      ...Array.from({ length: 30 }, (_, i) => ({ text: `Release checklist item ${i}: bump the version in package.json and tag v${i}`, type: 'context' as const })),
    ]);
    const env = repo.env;
    const prompt = (session: string, text: string) =>
      runHook('user-prompt-submit', JSON.stringify({ session_id: session, prompt: text, cwd: repo.dir, hook_event_name: 'UserPromptSubmit' }), { env });

    const related = await prompt('p1', 'Add a postgres migration for the users table');
    const ctx = (JSON.parse(related.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
    expect(ctx.hookEventName).toBe('UserPromptSubmit');
    expect(ctx.additionalContext).toContain('Chose SQLite over PostgreSQL');
    expect(ctx.additionalContext).not.toContain('Release checklist');
    expect(ctx.additionalContext.length).toBeLessThan(2_000);
    expect(ctx.additionalContext).not.toMatch(/\b(?:you must|always|never|ignore)\b/i);

    // Already in this session's context: not repeated.
    expect((await prompt('p1', 'Add a postgres migration for the orders table')).stdout).toBe('');
    for (const unrelated of ['hello', 'thanks, looks good', 'What is the weather like in Paris today?', '/compact', 'continue']) {
      expect((await prompt('p2', unrelated)).stdout, unrelated).toBe('');
    }

    // A memory stored after the anticipation index was built is found on the next prompt.
    expect(existsSync(join(repo.dir, '.memory/anticipation.json'))).toBe(true);
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [{ text: 'Kafka consumers must commit offsets manually in the billing service', type: 'gotcha' }]);
    const fresh = await prompt('p4', 'billing kafka consumer lag');
    expect(fresh.stdout).toContain('Kafka consumers must commit offsets manually');

    // The briefing of a session already shows the decision: recall does not add it again.
    const start = await runHook('session-start', JSON.stringify({ session_id: 'p3', source: 'startup', cwd: repo.dir }), { env });
    expect(start.stdout).toContain('Chose SQLite over PostgreSQL');
    expect((await prompt('p3', 'Add a postgres migration for the users table')).stdout).toBe('');
  });
});

describe('fuzz: every hook on garbage', () => {
  it('always resolves with empty or valid hook JSON, and never leaves a partial memory file', async () => {
    const repo = await cortexRepo('main');
    const valid = (event: string) =>
      JSON.stringify({
        session_id: 'fuzz',
        transcript_path: join(repo.home, 'fuzz.jsonl'),
        cwd: repo.dir,
        hook_event_name: event,
        source: 'startup',
        prompt: 'sqlite database choice',
        last_assistant_message: '[MEMORY: decision] Fuzzing keeps the hooks honest.',
      });
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.string({ maxLength: 200 }),
      fc.tuple(fc.constantFrom(...HOOK_EVENTS), fc.nat()).map(([e, n]) => valid(e).slice(0, n % valid(e).length)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ session_id: fc.jsonValue(), transcript_path: fc.jsonValue(), cwd: fc.constantFrom(repo.dir, 42, null), prompt: fc.jsonValue() }).map((o) => JSON.stringify(o)),
    );
    const transcriptBytes = fc.uint8Array({ maxLength: 2_000 });
    for (const event of HOOK_EVENTS) {
      await fc.assert(
        fc.asyncProperty(garbage, transcriptBytes, async (stdin, bytes) => {
          writeFileSync(join(repo.home, 'fuzz.jsonl'), bytes);
          const r = await runHook(event, stdin, { env: repo.env, detach: false });
          if (r.stdout !== '') {
            const out = JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } };
            expect(out.hookSpecificOutput.additionalContext.length).toBeLessThan(10_000);
          }
        }),
        { numRuns: 30 },
      );
    }
    storedMemories(repo);
    expect(readdirSync(join(repo.dir, '.cortex/memories')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('the real process exits 0 and prints nothing on garbage, outside a project, and for a missing transcript', async () => {
    const repo = await cortexRepo('main');
    const outside = tempRepo();
    const cases: [string, string, TempRepo][] = [
      ['stop', '{"session_id": "x", "transcript_path": "/nonexistent/t.jsonl", "cwd": "' + repo.dir + '"}', repo],
      ['session-start', '\u0000\u00ff{{{', repo],
      ['user-prompt-submit', '{"prompt": "sqlite", "cwd": ', repo],
      ['pre-compact', JSON.stringify({ session_id: 'x', transcript_path: repo.dir, cwd: repo.dir }), repo],
      ['session-end', '[]', repo],
      ['stop', JSON.stringify({ session_id: 'x', cwd: outside.dir }), outside],
    ];
    for (const [event, input, where] of cases) {
      const r = where.cortex(['hook', event], { input });
      expect({ event, code: r.code, stdout: r.stdout }).toEqual({ event, code: 0, stdout: '' });
    }
    const log = readFileSync(join(repo.dir, '.memory/cortex.log'), 'utf8');
    expect(log).toMatch(/stop transcript not read: cannot open the transcript/);
    // Garbage quoted in a parse error is escaped: the log stays plain text, one line per entry.
    expect(log).toMatch(/session-start ignored: stdin is not JSON/);
    expect(log).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(existsSync(join(outside.dir, '.memory'))).toBe(false);
  });

  it('still prints the briefing when the session state cannot be written', async () => {
    const repo = await cortexRepo('main');
    await rememberMany(openContext({ dir: repo.dir, env: repo.env }), [{ text: 'Chose SQLite over PostgreSQL because zero-config matters most', type: 'decision' }]);
    // A file where the sessions directory should be: every state write fails.
    rmSync(join(repo.dir, '.memory/sessions'), { recursive: true, force: true });
    writeFileSync(join(repo.dir, '.memory/sessions'), 'not a directory');
    const input = (source: string) => JSON.stringify({ session_id: 's1', source, cwd: repo.dir, hook_event_name: 'SessionStart' });
    for (const source of ['startup', 'resume']) {
      const r = repo.cortex(['hook', 'session-start'], { input: input(source) });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain('Chose SQLite over PostgreSQL');
    }
    const prompt = repo.cortex(['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: 's1', prompt: 'why sqlite and not postgresql?', cwd: repo.dir }) });
    expect(prompt.code).toBe(0);
    expect(readFileSync(join(repo.dir, '.memory/cortex.log'), 'utf8')).toContain('session state not written');
  });

  it('exits 0 on an unknown event, an unknown option or no event: Claude Code reads exit 2 as "block"', async () => {
    const repo = await cortexRepo('main');
    const input = JSON.stringify({ session_id: 'x', cwd: repo.dir });
    const unknown = repo.cortex(['hook', 'subagent-stop'], { input });
    expect(unknown).toMatchObject({ code: 0, stdout: '' });
    expect(unknown.stderr).toContain('unknown hook event "subagent-stop"');
    expect(readFileSync(join(repo.dir, '.memory/cortex.log'), 'utf8')).toContain('unknown hook event "subagent-stop"');
    const option = repo.cortex(['hook', 'stop', '--bogus'], { input });
    expect(option).toMatchObject({ code: 0, stdout: '' });
    expect(option.stderr).toContain('unknown option');
    const none = repo.cortex(['hook'], { input });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('Missing the hook event');
    // Other commands keep exit 2 for a usage error.
    expect(repo.cortex(['recall', 'x', '--bogus']).code).toBe(2);
  });
});
