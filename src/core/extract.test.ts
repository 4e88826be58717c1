import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanSummary, DEFAULT_EXTRACT, extractMemories, MAX_CANDIDATE_SUMMARY, selfReportType, type Candidate, type ExtractOptions } from './extract.js';
import { isMemoryType } from './memory.js';
import { parseTranscriptChunk, type TranscriptEvent } from './transcript.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/transcripts/', import.meta.url));
const NOW = '2026-03-01T12:00:00Z';
const SESSION = 'sess-1';

// ---- plain event literals
let seq = 0;
const base = (extra: Partial<TranscriptEvent> = {}) => ({ offset: seq++, isSidechain: false, sessionId: SESSION, cwd: '/repo', gitBranch: 'main', ...extra });
const prompt = (text: string, extra: Partial<TranscriptEvent> = {}): TranscriptEvent => ({ ...base(extra), kind: 'prompt', text }) as TranscriptEvent;
const say = (text: string, extra: Partial<TranscriptEvent> = {}): TranscriptEvent => ({ ...base(extra), kind: 'text', text, synthetic: false, messageId: `m${seq}` }) as TranscriptEvent;
const think = (text: string): TranscriptEvent => ({ ...base(), kind: 'thinking', text });
const use = (id: string, name: string, input: Record<string, unknown>, extra: Partial<TranscriptEvent> = {}): TranscriptEvent =>
  ({ ...base(extra), kind: 'tool-use', id, name, input }) as TranscriptEvent;
const result = (id: string, content: string, isError = false, structured?: unknown): TranscriptEvent => ({
  ...base(),
  kind: 'tool-result',
  toolUseId: id,
  content,
  isError,
  ...(structured === undefined ? {} : { structured }),
});
const call = (id: string, name: string, input: Record<string, unknown>, content = 'ok', isError = false, structured?: unknown): TranscriptEvent[] => [
  use(id, name, input),
  result(id, content, isError, structured),
];
const todo = (...items: [string, string][]) => ({ todos: items.map(([content, status]) => ({ content, status, activeForm: content })) });

const run = (events: TranscriptEvent[], options: Partial<ExtractOptions> = {}) => extractMemories(events, { sessionId: SESSION, now: NOW, ...options });
const all = (r: { memories: Candidate[]; review: Candidate[] }) => [...r.memories, ...r.review];
const byLayer = (r: { memories: Candidate[]; review: Candidate[] }, layer: Candidate['layer']) => all(r).filter((c) => c.layer === layer);
const keyword = (text: string, extra: Partial<TranscriptEvent> = {}) => byLayer(run([say(text, extra)]), 'keyword');

describe('extractMemories', () => {
  describe('structural layer', () => {
    it('summarises files edited, commits and commands in one progress candidate per session', () => {
      const events = [
        ...call('t1', 'Edit', { file_path: '/repo/src/a.ts' }),
        ...call('t2', 'Write', { file_path: '/repo/src/b.ts' }),
        ...call('t3', 'MultiEdit', { file_path: '/repo/src/a.ts' }),
        ...call('t4', 'NotebookEdit', { notebook_path: '/repo/nb/c.ipynb' }),
        ...call('t5', 'Read', { file_path: '/repo/README.md' }),
        ...call('t6', 'Bash', { command: 'npm test' }),
        ...call('t7', 'Bash', { command: 'git commit -m "fix: handle 503"' }, '[main 1a2b3c4] fix: handle 503\n 1 file changed', false, {
          stdout: '[main 1a2b3c4] fix: handle 503\n 1 file changed',
        }),
      ];
      const { memories } = run(events, { branch: 'main' });
      const progress = memories.filter((c) => c.type === 'progress');
      expect(progress).toHaveLength(1);
      expect(progress[0]).toMatchObject({
        topic: `session/${SESSION}`,
        layer: 'structural',
        session: SESSION,
        branch: 'main',
        files: ['src/a.ts', 'src/b.ts', 'nb/c.ipynb'],
        summary: 'Session on main: edited 3 files (a.ts, b.ts, c.ipynb), 1 commit, ran 2 commands; last commit: fix: handle 503',
      });
      expect(progress[0]?.confidence).toBeGreaterThanOrEqual(0.8);
      expect(progress[0]?.body).toContain('`1a2b3c4` fix: handle 503');
      expect(progress[0]?.body).toContain('Read 1 file.');
    });

    it('leaves out failed edits, failed reads and commands that never ran', () => {
      const events = [
        ...call('t1', 'Edit', { file_path: '/repo/x.ts' }, 'String to replace not found', true),
        ...call('t2', 'Read', { file_path: '/repo/y.ts' }, 'File does not exist.', true),
        ...call('t3', 'Bash', { command: 'rm -rf /' }, 'PreToolUse:Bash hook error: BLOCKED', true),
        ...call('t4', 'Bash', { command: 'gh repo view' }, "The user doesn't want to proceed with this tool use.", true),
        ...call('t5', 'Bash', { command: 'npm run lint' }, 'Exit code 1', true),
      ];
      const [progress] = run(events).memories;
      expect(progress?.summary).toBe('Session on main: ran 1 command');
      expect(progress?.files).toBeUndefined();
    });

    it('takes a commit subject from -m or a heredoc when git output is not visible, and skips "nothing to commit"', () => {
      const heredoc = "git commit -m \"$(cat <<'EOF'\nfeat: add retry\n\nBody.\nEOF\n)\"";
      const events = [
        ...call('t1', 'Bash', { command: heredoc }, ''),
        ...call('t2', 'Bash', { command: "git -C sub commit -am 'chore: bump'" }, ''),
        ...call('t3', 'Bash', { command: 'git commit -m "empty"' }, 'nothing to commit, working tree clean', true),
        ...call('t4', 'Bash', { command: 'git log --oneline' }, '1a2b3c4 feat: old'),
      ];
      const [progress] = run(events).memories;
      expect(progress?.summary).toBe('Session on main: 2 commits, ran 4 commands; last commit: chore: bump');
      expect(progress?.body).toContain('- feat: add retry');
    });

    it('counts a tool call once even when its line is replayed', () => {
      const edit = use('t1', 'Edit', { file_path: '/repo/a.ts' });
      const [progress] = run([edit, edit, result('t1', 'ok')]).memories;
      expect(progress?.summary).toBe('Session on main: edited 1 file (a.ts)');
    });

    it('turns the latest main-thread TodoWrite into one plan for the branch', () => {
      const events = [
        use('a', 'TodoWrite', todo(['Find the bug', 'in_progress'], ['Fix it', 'pending'])),
        use('b', 'TodoWrite', todo(['Find the bug', 'completed'], ['Fix it', 'in_progress'], ['Add a test', 'pending'])),
        use('c', 'TodoWrite', todo(['Subagent scratch', 'in_progress']), { isSidechain: true }),
      ];
      const plans = run(events, { branch: 'feat/x' }).memories.filter((c) => c.type === 'plan');
      expect(plans).toEqual([
        {
          type: 'plan',
          summary: 'Plan on feat/x: 1/3 done — Fix it',
          body: '- [x] Find the bug\n- [ ] Fix it (in progress)\n- [ ] Add a test',
          confidence: 0.9,
          tags: ['plan', 'feat/x'],
          topic: 'plan/feat/x',
          layer: 'structural',
          session: SESSION,
          branch: 'feat/x',
        },
      ]);
    });

    it('names the next pending item, or says all done, when nothing is in progress', () => {
      const next = run([use('a', 'TodoWrite', todo(['One', 'completed'], ['Two', 'pending']))]).memories[0];
      const done = run([use('a', 'TodoWrite', todo(['One', 'completed']))], { branch: undefined }).memories[0];
      expect(next?.summary).toBe('Plan on main: 1/2 done — next: Two');
      expect(done?.summary).toBe('Plan on main: 1/1 done — all done');
    });

    it('files the plan under the branch the todo list was written on when the caller names none', () => {
      const events = [use('a', 'TodoWrite', todo(['One', 'pending']), { gitBranch: undefined })];
      expect(run(events).memories[0]?.topic).toBe('plan/no-branch');
      expect(run(events).memories[0]?.summary).toBe('Plan: 0/1 done — next: One');
    });

    it('produces no structural candidate for a conversation without tool calls', () => {
      expect(byLayer(run([prompt('hello'), say('Hi there, how can I help?')]), 'structural')).toEqual([]);
    });

    it('mentions other session ids and branch changes in the progress body', () => {
      const events = [
        { ...call('t1', 'Read', { file_path: '/repo/a.ts' })[0]!, sessionId: 'old-session' } as TranscriptEvent,
        result('t1', 'ok'),
        { ...call('t2', 'Edit', { file_path: '/repo/a.ts' })[0]!, gitBranch: 'feat/y' } as TranscriptEvent,
        result('t2', 'ok'),
      ];
      const [progress] = run(events).memories;
      expect(progress?.body).toContain('(also `old-session`)');
      expect(progress?.body).toContain('on `main` → `feat/y`');
    });
  });

  describe('keyword layer', () => {
    it.each([
      ['We chose SQLite over PostgreSQL because zero-config matters most.', 'decision', 0.8],
      ['We decided to store sessions in Redis so that restarts keep them.', 'decision', 0.7],
      ["We'll go with pnpm workspaces since the monorepo already uses them.", 'decision', 0.7],
      ['We ruled out GraphQL because the SDK covers every query we need.', 'rejected', 0.85],
      ['We decided against a message queue since one worker is enough.', 'rejected', 0.85],
      ['Decision: keep the parser hand-written for better error messages.', 'decision', 0.7],
      ['Turns out the API paginates at 50 items, so the loop must follow cursors.', 'gotcha', 0.7],
      ['The root cause was a timezone offset applied twice in the formatter.', 'gotcha', 0.6],
      ['The fix was to await the flush before closing the stream.', 'gotcha', 0.6],
      ['Gotcha: vitest runs files in parallel, so the temp dirs must be unique.', 'gotcha', 0.8],
      ['The convention here is to export one function per file.', 'pattern', 0.55],
    ] as const)('finds "%s" as a %s (confidence ≥ %s)', (text, type, min) => {
      const found = keyword(text);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ type, layer: 'keyword', summary: text, session: SESSION, branch: 'main' });
      expect(found[0]?.confidence).toBeGreaterThanOrEqual(min);
      expect(found[0]?.confidence).toBeLessThan(1);
    });

    it.each([
      ['a procedural step', 'I decided to read the file first before changing anything.'],
      ['an announcement of a decision to come', 'Let me decide which of the two approaches fits better here.'],
      ['naming chatter', "I'll choose a name for the helper once I see the call sites."],
      ['a bare marker', 'Decided.'],
      ['a question', 'Should we go with Redis over Memcached because it persists?'],
      ['inline code', 'The snippet `we chose X over Y because Z` is an example from the docs.'],
      ['a quoted string', 'The log said "we decided against retries because of cost" and then exited.'],
      ['a blockquote', '> We ruled out Redis because the ops team refused to run it.'],
      ['a fenced code block', '```\n// We decided against retries because of cost\n```'],
      ['a table row', '| Redis | we decided to use it because it persists |'],
      ['a runtime rejection', 'The tool use was rejected by the user, so I will try another command.'],
      ['a weak first-person "instead of"', 'Now I need to fix the test that returns a mock function instead of null.'],
      ['an overlong sentence', `We decided to ${'keep adding one more qualifier and '.repeat(12)}stop because it helps.`],
      ['open questions listed as decisions', '**Decisions to make:**\n- Which eviction policy fits the catalogue cache\n- Whether to shard by tenant or by region'],
    ])('ignores %s', (_why, text) => {
      expect(keyword(text)).toEqual([]);
    });

    it('ignores thinking, user prompts and sidechain prompts', () => {
      const marker = 'We chose SQLite over PostgreSQL because zero-config matters most.';
      const r = run([think(marker), prompt(marker), prompt(marker, { isSidechain: true })]);
      expect(all(r)).toEqual([]);
    });

    it('keeps a sidechain finding but with less confidence than the same finding on the main thread', () => {
      const text = 'The root cause was a shared regex with the g flag, so lastIndex leaked between calls.';
      const main = keyword(text)[0]?.confidence ?? 0;
      const side = keyword(text, { isSidechain: true })[0]?.confidence ?? 0;
      expect(side).toBeGreaterThan(0);
      expect(side).toBeLessThan(main);
    });

    it('lowers hedged statements into review', () => {
      const r = run([say('Maybe we could go with Redis over Memcached since it persists across restarts.')]);
      expect(r.memories).toEqual([]);
      expect(r.review).toMatchObject([{ type: 'decision', layer: 'keyword' }]);
    });

    it('treats items listed under a decisions heading as decisions, prefixed with the heading', () => {
      const r = run([say('**Architecture Decisions**:\n- Keep the atomic layout as-is\n- No GraphQL layer needed')]);
      expect(all(r).map((c) => [c.type, c.summary])).toEqual([
        ['decision', 'Architecture Decisions: Keep the atomic layout as-is'],
        ['decision', 'Architecture Decisions: No GraphQL layer needed'],
      ]);
    });

    it('ignores list items when a paragraph sits between the heading and the list', () => {
      expect(keyword('## Storage decision\n\nThis works unless you need:\n- Custom field selections for speed\n- Real-time subscriptions to updates')).toEqual([]);
    });

    it('uses the sentence as summary and its paragraph as body, markdown stripped', () => {
      const [c] = keyword('Some context first. We **chose** `pnpm` over [npm](https://npmjs.com) because of workspaces. Then more.');
      expect(c?.summary).toBe('We chose pnpm over npm because of workspaces.');
      expect(c?.body).toBe('Some context first. We **chose** `pnpm` over [npm](https://npmjs.com) because of workspaces. Then more.');
      expect(c?.tags).toEqual(['pnpm']);
    });

    it('lists the file paths a candidate mentions', () => {
      const [c] = keyword('The root cause was that src/http/client.ts retried inside `retry.ts` twice.');
      expect(c?.files).toEqual(['src/http/client.ts', 'retry.ts']);
    });

    it('splits memories from review at the threshold and drops what falls under the review floor', () => {
      const events = [
        say('We chose SQLite over PostgreSQL because zero-config matters most.'),
        say('The problem was that the lock file was stale in CI.'),
        say('Now I need to fix the test that returns a mock instead of null.'),
      ];
      const strict = run(events, { threshold: 0.99 });
      expect(strict.memories).toEqual([]);
      expect(strict.review.map((c) => c.type)).toEqual(['decision', 'gotcha']);
      const lax = run(events, { threshold: 0.2, reviewFloor: 0 });
      expect(lax.memories).toHaveLength(3);
      expect(DEFAULT_EXTRACT.threshold).toBe(0.7);
    });

    it('raises a proposal the person accepts with the next prompt', () => {
      const proposal = 'Git submodules is the cleanest way to share the three repositories.';
      const before = run([say(proposal)]);
      const accepted = run([say(proposal), prompt('yes')]);
      const declined = run([say(proposal), prompt('no, keep them separate')]);
      const superseded = run([say(proposal), ...call('t1', 'Bash', { command: 'ls' }), prompt('yes')]);
      expect(before.review.map((c) => c.confidence)).toEqual([0.55]);
      expect(accepted.memories.map((c) => c.confidence)).toEqual([0.7]);
      expect(declined.review.map((c) => c.confidence)).toEqual([0.55]);
      expect(byLayer(superseded, 'keyword').map((c) => c.confidence)).toEqual([0.55]);
    });
  });

  describe('self-report layer', () => {
    it('reads [MEMORY: type] tags at confidence 1.0, with aliases and unknown types', () => {
      const text =
        '[MEMORY: decision] Chose SQLite over PostgreSQL because zero-config matters most.\n\n' +
        '- [MEMORY: learned] The SDK exposes `doc.parent` as a getter.\n- [MEMORY: Pattern] Services return plain objects.\n\n' +
        '[MEMORY: whatever] The cluster runs in eu-west-1. More detail here.';
      const found = run([say(text)]).memories;
      expect(found.map((c) => [c.layer, c.type, c.summary, c.confidence])).toEqual([
        ['self-report', 'decision', 'Chose SQLite over PostgreSQL because zero-config matters most.', 1],
        ['self-report', 'gotcha', 'The SDK exposes doc.parent as a getter.', 1],
        ['self-report', 'pattern', 'Services return plain objects.', 1],
        ['self-report', 'context', 'The cluster runs in eu-west-1.', 1],
      ]);
      expect(found[3]?.body).toBe('The cluster runs in eu-west-1. More detail here.');
    });

    it('ignores tags in inline code, fenced code, thinking and user prompts', () => {
      const events = [
        say('Write `[MEMORY: decision] text` like this:\n\n```\n[MEMORY: decision] Example only.\n```'),
        think('[MEMORY: decision] Thinking is private.'),
        prompt('[MEMORY: decision] Typed by a person.'),
      ];
      expect(all(run(events))).toEqual([]);
    });

    it.each([
      ['remember that every PR needs a changelog entry', 'Every PR needs a changelog entry'],
      ['Set up CI. Also remember that tests run on Node 20.', 'Tests run on Node 20.'],
      ['Remember: tabs, not spaces.', 'Tabs, not spaces.'],
      ['please remember, the staging DB is shared with QA', 'The staging DB is shared with QA'],
    ])('keeps "%s" from a person as a preference', (text, summary) => {
      expect(run([prompt(text)]).memories).toMatchObject([{ type: 'preference', layer: 'self-report', confidence: 1, summary }]);
    });

    it.each([
      ['a question', 'do you remember that bug from yesterday?'],
      ['a statement about memory', 'I remember that this worked last week'],
      ['a subagent task prompt', 'remember that tests go first'],
    ])('ignores %s', (_why, text) => {
      expect(all(run([prompt(text, { isSidechain: _why === 'a subagent task prompt' })]))).toEqual([]);
    });

    it('keeps a # memory input as a preference and ignores wrappers and meta lines', () => {
      const events: TranscriptEvent[] = [
        { ...base(), kind: 'meta', subtype: 'memory-input', text: '# Always run migrations with --dry-run first' },
        { ...base(), kind: 'meta', subtype: 'is-meta', text: 'remember that the API is read-only' },
        { ...base(), kind: 'command', name: '/remember', args: 'that we use tabs' },
      ];
      expect(run(events).memories.map((c) => [c.type, c.summary])).toEqual([['preference', 'Always run migrations with --dry-run first']]);
    });

    it('reads the Stop hook message when the transcript lags, and counts it once when it does not', () => {
      const last = 'Done.\n\n[MEMORY: gotcha] Fixture dates must be UTC or snapshots drift.';
      const lagging = run([say('Working on it.')], { lastAssistantMessage: last });
      const caughtUp = run([say(last)], { lastAssistantMessage: last });
      const partly = run([say('[MEMORY: gotcha] Fixture dates must be UTC or snapshots drift.')], { lastAssistantMessage: `${last}\n\n[MEMORY: context] CI runs nightly.` });
      expect(lagging.memories.map((c) => c.summary)).toEqual(['Fixture dates must be UTC or snapshots drift.']);
      expect(caughtUp.memories).toHaveLength(1);
      expect(partly.memories.map((c) => c.summary)).toEqual(['Fixture dates must be UTC or snapshots drift.', 'CI runs nightly.']);
    });
  });

  it('keeps one candidate per summary, preferring the self-report over the keyword layer', () => {
    const events = [
      say('We chose SQLite over PostgreSQL because zero-config matters most.'),
      say('We chose SQLite over PostgreSQL because zero-config matters most.\n\nAgain for emphasis.'),
      say('[MEMORY: decision] We chose SQLite over PostgreSQL because zero-config matters most!'),
    ];
    expect(run(events).memories.map((c) => [c.layer, c.summary])).toEqual([['self-report', 'We chose SQLite over PostgreSQL because zero-config matters most!']]);
  });

  it('is deterministic and leaves its inputs untouched', () => {
    const events = [...call('t1', 'Edit', { file_path: '/repo/a.ts' }), say('We ruled out GraphQL because the SDK covers every query.'), use('t2', 'Bash', { command: 'ls' })];
    const frozen = structuredClone(events);
    const first = run(events);
    const state = structuredClone(first.state);
    expect(run(events)).toEqual(first);
    expect(events).toEqual(frozen);
    run([result('t2', 'ok')], { state: first.state });
    expect(first.state).toEqual(state);
  });

  it('gives the same structural candidates incrementally as in one pass, and the same prose candidates', () => {
    const events = parseTranscriptChunk(readFileSync(`${FIXTURES}feature-branch-v2/transcript.jsonl`)).events;
    const options = { sessionId: 'feature', branch: 'feat/http-retry', now: NOW };
    const whole = extractMemories(events, options);
    const bySummary = (cs: Candidate[]) => new Map(cs.map((c) => [c.summary, c.confidence]));
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: events.length - 1 }), { maxLength: 5 }), (cuts) => {
        let state;
        const seen = new Map<string, number>();
        let last: ReturnType<typeof extractMemories> | undefined;
        let start = 0;
        for (const end of [...cuts.sort((a, b) => a - b), events.length]) {
          last = extractMemories(events.slice(start, end), { ...options, state });
          state = last.state;
          for (const c of all(last)) if (c.layer !== 'structural') seen.set(c.summary, Math.max(seen.get(c.summary) ?? 0, c.confidence));
          start = end;
        }
        expect(byLayer(last!, 'structural')).toEqual(byLayer(whole, 'structural'));
        expect(seen).toEqual(bySummary(all(whole).filter((c) => c.layer !== 'structural')));
      }),
      { numRuns: 60 },
    );
  });

  it('only ever produces valid, one-line, bounded candidates from arbitrary assistant prose', () => {
    const words = fc.constantFrom('we', 'decided', 'chose', 'over', 'because', 'ruled', 'out', 'turns', 'root cause', 'the fix was', '`code`', '"quote"', '\n', '\n\n', '- ', '## ', '[MEMORY: decision]', 'x'.repeat(30), 'é🎉', '.', '?', 'so that', 'maybe');
    fc.assert(
      fc.property(fc.array(words, { maxLength: 80 }), fc.array(words, { maxLength: 20 }), (a, b) => {
        const r = run([say(a.join(' ')), prompt(`remember that ${b.join(' ')}`)], { lastAssistantMessage: b.join(' ') });
        for (const c of all(r)) {
          expect(isMemoryType(c.type)).toBe(true);
          expect(c.summary.length).toBeGreaterThan(0);
          expect(c.summary.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
          expect(c.summary).not.toMatch(/\n/);
          expect(c.confidence).toBeGreaterThanOrEqual(0);
          expect(c.confidence).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  describe('golden fixtures', () => {
    interface Expected {
      bucket: 'memories' | 'review';
      layer: Candidate['layer'];
      type: string;
      summary: string;
      confidence: [number, number];
      topic?: string;
      files?: string[];
      bodyIncludes?: string[];
    }
    interface Fixture {
      options: ExtractOptions;
      parse: { diagnostics: number; torn: boolean; tornCompletionHex?: string };
      candidates: Expected[];
      afterCompletion?: Expected[];
      mustNotContain: string[];
    }
    const names = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

    const matches = (c: Candidate, bucket: string, e: Expected): boolean =>
      e.bucket === bucket &&
      e.layer === c.layer &&
      e.type === c.type &&
      c.summary.includes(e.summary) &&
      c.confidence >= e.confidence[0] &&
      c.confidence <= e.confidence[1] &&
      (e.topic === undefined || e.topic === c.topic) &&
      (e.files === undefined || JSON.stringify(e.files) === JSON.stringify(c.files)) &&
      (e.bodyIncludes ?? []).every((s) => c.body.includes(s));

    /** Each produced candidate matches exactly one expectation and every expectation is met. */
    function compare(r: { memories: Candidate[]; review: Candidate[] }, expected: Expected[]): void {
      const produced = [...r.memories.map((c) => ['memories', c] as const), ...r.review.map((c) => ['review', c] as const)];
      const unmatched = [...expected];
      const extra: string[] = [];
      for (const [bucket, c] of produced) {
        const i = unmatched.findIndex((e) => matches(c, bucket, e));
        if (i === -1) extra.push(`${bucket} ${c.layer} ${c.type} ${c.confidence} ${JSON.stringify(c.summary)}`);
        else unmatched.splice(i, 1);
      }
      expect({ extra, missing: unmatched }).toEqual({ extra: [], missing: [] });
    }

    it.each(names)('%s matches expected.json', (name) => {
      const fixture = JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8')) as Fixture;
      const bytes = readFileSync(`${FIXTURES}${name}/transcript.jsonl`);
      const parsed = parseTranscriptChunk(bytes);
      expect(parsed.diagnostics).toHaveLength(fixture.parse.diagnostics);
      expect(parsed.consumedBytes < bytes.length).toBe(fixture.parse.torn);
      const r = extractMemories(parsed.events, fixture.options);
      compare(r, fixture.candidates);
      for (const c of all(r)) for (const banned of fixture.mustNotContain) expect(c.summary).not.toContain(banned);

      if (fixture.parse.tornCompletionHex !== undefined) {
        const rest = Buffer.concat([bytes.subarray(parsed.consumedBytes), Buffer.from(fixture.parse.tornCompletionHex, 'hex')]);
        const next = parseTranscriptChunk(rest, { startOffset: parsed.consumedBytes });
        expect(next.consumedBytes).toBe(rest.length);
        compare(extractMemories(next.events, { ...fixture.options, state: r.state }), [...(fixture.afterCompletion ?? []), ...fixture.candidates.filter((c) => c.layer === 'structural')]);
      }
    });
  });
});

describe('selfReportType', () => {
  it.each([
    ['decision', 'decision'],
    ['Rejected', 'rejected'],
    [' architecture ', 'architecture'],
    ['learned', 'gotcha'],
    ['convention', 'pattern'],
    ['pref', 'preference'],
    ['whatever', 'context'],
    ['', 'context'],
  ])('maps %j to %s', (tag, type) => {
    expect(selfReportType(tag)).toBe(type);
  });
});

describe('cleanSummary', () => {
  it('strips markdown to one line', () => {
    expect(cleanSummary('- **Chose** `pnpm` over [npm](https://x.y)\n  because _workspaces_.')).toBe('Chose pnpm over npm because workspaces.');
  });

  it('cuts long text at a word boundary within the limit', () => {
    const out = cleanSummary(`${'word '.repeat(80)}end`);
    expect(out.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
    expect(out.endsWith('word…')).toBe(true);
  });
});
