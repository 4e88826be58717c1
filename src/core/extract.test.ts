import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanSummary, DEFAULT_EXTRACT, extractMemories, MAX_CANDIDATE_SUMMARY, selfReportType, type Candidate, type ExtractOptions } from './extract.js';
import { SIGNAL_WEIGHTS } from './extract/signals.js';
import { MAX_QUOTATION } from './extract/statement.js';
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
const interrupt = (): TranscriptEvent => ({ ...base(), kind: 'meta', subtype: 'interrupted', text: '[Request interrupted by user]' });
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
/** The session ends after `events`: every exchange is judged. */
const judge = (events: TranscriptEvent[], options: Partial<ExtractOptions> = {}) => run(events, { final: true, ...options });
const all = (r: { memories: Candidate[]; review: Candidate[] }) => [...r.memories, ...r.review];
const byLayer = (r: { memories: Candidate[]; review: Candidate[] }, layer: Candidate['layer']) => all(r).filter((c) => c.layer === layer);
const knowledge = (r: { memories: Candidate[]; review: Candidate[] }) => byLayer(r, 'keyword');
const said = (text: string, extra: Partial<TranscriptEvent> = {}) => knowledge(judge([prompt('Look into it'), say(text, extra)]));
const signals = (c: Candidate | undefined) => (c?.signals ?? []).map((s) => s.replace(/[+-][\d.]+$/, ''));

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
      const progress = run(events).memories.find((c) => c.type === 'progress');
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

    it("turns the latest main-thread TodoWrite into the session's own plan, keeping its first title", () => {
      const events = [
        use('a', 'TodoWrite', todo(['Find the bug', 'in_progress'], ['Fix it', 'pending'])),
        use('b', 'TodoWrite', todo(['Reproduce', 'completed'], ['Fix it', 'in_progress'], ['Add a test', 'pending'])),
        use('c', 'TodoWrite', todo(['Subagent scratch', 'in_progress']), { isSidechain: true }),
      ];
      const plans = run(events, { branch: 'feat/x' }).memories.filter((c) => c.type === 'plan');
      expect(plans).toEqual([
        {
          type: 'plan',
          summary: 'Plan on feat/x (session sess1): Find the bug — 1/3 done, now: Fix it',
          body: '- [x] Reproduce\n- [ ] Fix it (in progress)\n- [ ] Add a test',
          confidence: 0.9,
          tags: ['plan', 'feat/x'],
          topic: 'plan/sess1',
          layer: 'structural',
          session: SESSION,
          branch: 'feat/x',
        },
      ]);
      // Without a branch from the caller, the one the todo list was written on.
      expect(run([use('a', 'TodoWrite', todo(['One', 'pending']))]).memories[0]?.branch).toBe('main');
    });

    it("gives each session its own plan topic, so one session's plan never replaces another's", () => {
      const a = run([use('a', 'TodoWrite', todo(['One', 'pending']))], { sessionId: 'aaaa1111-x' }).memories[0];
      const b = run([use('a', 'TodoWrite', todo(['Other', 'pending']))], { sessionId: 'bbbb2222-y' }).memories[0];
      expect(a?.topic).toBe('plan/aaaa1111');
      expect(b?.topic).toBe('plan/bbbb2222');
    });

    it('keeps the summary prefix (and so the id made from it) stable as the plan advances', () => {
      const first = run([use('a', 'TodoWrite', todo(['Write the parser', 'in_progress'], ['Test it', 'pending']))]);
      const later = run([use('b', 'TodoWrite', todo(['Write the parser', 'completed'], ['Test it', 'in_progress']))], { state: first.state });
      const prefix = (c: Candidate | undefined) => c?.summary.split(' — ')[0];
      expect(prefix(later.memories[0])).toBe(prefix(first.memories[0]));
      expect(later.memories[0]?.summary).toContain('1/2 done, now: Test it');
    });

    it('turns a finished plan into an archived progress note and names the next step otherwise', () => {
      const next = run([use('a', 'TodoWrite', todo(['One', 'completed'], ['Two', 'pending']))]).memories[0];
      const done = run([use('a', 'TodoWrite', todo(['One', 'completed']))]).memories[0];
      expect(next).toMatchObject({ type: 'plan', summary: expect.stringContaining('1/2 done, next: Two') });
      expect(done).toMatchObject({ type: 'progress', status: 'archived', topic: 'plan/sess1', summary: expect.stringContaining('finished, 1/1 done') });
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
      const progress = run(events).memories.find((c) => c.type === 'progress');
      expect(progress?.body).toContain('(also `old-session`)');
      expect(progress?.body).toContain('on `main` → `feat/y`');
    });
  });

  describe('what the person says', () => {
    it('keeps a rule the person states, with the quote, who and when in the body', () => {
      const [c] = knowledge(judge([prompt('Never edit the generated `*_pb.go` files; change the .proto and run buf generate.', { timestamp: '2026-03-01T10:00:00.000Z' })]));
      expect(c).toMatchObject({ type: 'preference', speaker: 'user', layer: 'keyword' });
      expect(c?.summary).toBe('Never edit the generated *_pb.go files; change the .proto and run buf generate.');
      expect(c?.body).toContain('> Never edit the generated');
      expect(c?.body).toContain('— the person, 2026-03-01T10:00:00Z');
      expect(signals(c)).toContain('normative');
    });

    it('makes a correction after an interrupt a memory, with what the assistant was doing and its acknowledgement', () => {
      const events = [
        prompt('Fix the build'),
        ...call('e1', 'Edit', { file_path: '/repo/gen/api_pb.go', old_string: 'a', new_string: 'b' }),
        interrupt(),
        prompt("don't touch generated files, regenerate them from the .proto source"),
        say("You're right, I shouldn't edit generated code. The .proto files are the source; I'll regenerate."),
      ];
      const [c] = judge(events).memories.filter((m) => m.layer === 'keyword');
      expect(c?.type).toBe('preference');
      expect(c?.confidence).toBeGreaterThanOrEqual(0.7);
      expect(signals(c)).toEqual(expect.arrayContaining(['correction', 'normative', 'acknowledged']));
      expect(c?.body).toContain('after interrupting the assistant (Edit `gen/api_pb.go`)');
      expect(c?.body).toContain("The assistant answered: \"You're right, I shouldn't edit generated code.");
    });

    it('reads an answer to the assistant\'s question as a decision in context', () => {
      const events = [prompt('Add caching'), say('Should the cache live in Redis or in process memory? Redis survives restarts.'), prompt('Use Redis, we already run it for sessions.')];
      const [c] = knowledge(judge(events));
      expect(c).toMatchObject({ type: 'decision', speaker: 'user' });
      expect(signals(c)).toEqual(expect.arrayContaining(['answer', 'choice']));
      expect(c?.body).toContain('Asked: "Should the cache live in Redis or in process memory?');
    });

    it('keeps a stated preference and a stated fact', () => {
      expect(knowledge(judge([prompt('I prefer small PRs with one concern each.')]))[0]).toMatchObject({ type: 'preference' });
      expect(knowledge(judge([prompt('The staging cluster `eu-2` is shared with the data team.')]))[0]).toMatchObject({ type: 'context' });
    });

    it('keeps what a person says of themselves or the project, naming nothing in code', () => {
      expect(knowledge(judge([prompt("I'm the only maintainer and I review every change on my phone.")]))).toHaveLength(1);
      expect(knowledge(judge([prompt('This project is a static site served from a single bucket.')]))).toHaveLength(1);
      expect(knowledge(judge([prompt('I am here.')]))).toEqual([]);
    });

    it('keeps a long statement in the body, quoted up to the quotation budget', () => {
      const rule = `Never push to \`main\` directly. ${'Every change goes through a reviewed pull request with green CI. '.repeat(8)}No exceptions.`;
      const [c] = knowledge(judge([prompt(rule)]));
      expect(c?.body).toContain('> Never push to `main` directly.');
      const quoted = (c?.body ?? '').split('\n').filter((l) => !l.startsWith('— ')).join('\n');
      expect(quoted.length).toBeLessThanOrEqual(MAX_QUOTATION + 10);
    });

    it.each([
      ['a task', 'Add a retry to the HTTP client and run the tests.'],
      ['a question with a mark', 'Why does the build fail on CI?'],
      ['a question without one', 'how do I install it for the whole machine'],
      ['a bare yes', 'yes'],
      ['pasted output', '```\nerror[E0061]: this function takes 5 arguments but 4 were supplied\n```'],
    ])('does not keep %s', (_why, text) => {
      expect(knowledge(judge([prompt(text)]))).toEqual([]);
    });

    it('keeps only the words a person wrote before a pasted document', () => {
      const text = 'Here is my draft, keep the commands idempotent:\n# Deploy runbook\n## Steps\n- RUN kubectl apply\n- NEVER delete the namespace';
      const [c] = knowledge(judge([prompt(text)]));
      expect(c?.summary).toContain('keep the commands idempotent');
      expect(c?.body).not.toContain('NEVER delete the namespace');
    });
  });

  describe('approvals', () => {
    const proposal = '## Proposed Solution\n\nAdd a `skipPermissions` setting that switches the launch flag to `--dangerously-skip-permissions`.\n\nWould you like me to implement this?';

    it('makes the proposal a person says yes to a decision, with the answer as evidence', () => {
      const [c] = knowledge(judge([prompt('Can sessions skip permission prompts?'), say(proposal), prompt('yes')])).filter((x) => x.speaker === 'both');
      expect(c).toMatchObject({ type: 'decision', speaker: 'both' });
      expect(c?.summary).toContain('skipPermissions');
      expect(c?.confidence).toBeGreaterThanOrEqual(0.7);
      expect(c?.body).toContain('the person answered');
      expect(signals(c)).toContain('approved');
    });

    it('makes nothing of a proposal the person declines or leaves unanswered', () => {
      const declined = knowledge(judge([prompt('Can sessions skip permission prompts?'), say(proposal), prompt('no, keep the prompts')]));
      const open = knowledge(judge([prompt('Can sessions skip permission prompts?'), say(proposal)]));
      expect(declined.filter((c) => c.speaker === 'both')).toEqual([]);
      expect(open.filter((c) => c.speaker === 'both')).toEqual([]);
    });

    it('turns an option picked by name into a decision and the others into rejected alternatives', () => {
      const table = '| Factor | Stockfish WASM | Lichess Cloud Eval |\n|---|---|---|\n| Setup | bundle 2 MB | done |\n\nWhich do you prefer?';
      const found = knowledge(judge([prompt('Which engine?'), say(table), prompt('ok go with Lichess Cloud Eval')]));
      expect(found.find((c) => c.type === 'decision' && c.speaker === 'both')?.summary).toBe('Chose Lichess Cloud Eval over Stockfish WASM');
      expect(found.find((c) => c.type === 'rejected')?.summary).toBe('Stockfish WASM was set aside in favour of Lichess Cloud Eval');
    });

    it('records an approved plan-mode plan as a decision and a refused one as rejected', () => {
      const plan = '## Minimal refresh plan\n\nAdd `refresh_config()` to NotionClient and a `--refresh-config` flag.';
      const approved = knowledge(judge([prompt('plan it'), ...call('p1', 'ExitPlanMode', { plan }, 'User has approved your plan. You can now start coding.')]));
      const refused = knowledge(
        judge([prompt('plan it'), ...call('p1', 'ExitPlanMode', { plan }, "The user doesn't want to proceed with this tool use.", true), prompt('simpler please, I am the only user')]),
      );
      // The plan's name and what it does: its first statement naming something specific.
      expect(approved[0]).toMatchObject({ type: 'decision', summary: 'Plan approved: Minimal refresh plan — Add refresh_config() to NotionClient and a --refresh-config flag' });
      expect(refused.find((c) => c.type === 'rejected')?.summary).toBe('Rejected plan: Minimal refresh plan — Add refresh_config() to NotionClient and a --refresh-config flag');
      expect(refused.find((c) => c.speaker === 'user')).toMatchObject({ type: 'preference' });
    });

    it('records answered AskUserQuestion choices, but not questions about the next step', () => {
      const input = {
        questions: [
          { question: 'Which database should the service use?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] },
          { question: 'Would you like me to run the tests now?', options: [{ label: 'Yes' }, { label: 'No' }] },
        ],
      };
      const answer = 'User has answered your questions: "Which database should the service use?"="SQLite", "Would you like me to run the tests now?"="Yes". You can now continue.';
      const found = knowledge(judge([prompt('set it up'), ...call('q1', 'AskUserQuestion', input, answer)]));
      expect(found.map((c) => [c.type, c.summary])).toEqual([['decision', 'Which database should the service use: SQLite']]);
      expect(found[0]?.body).toContain('Other options: PostgreSQL');
    });
  });

  describe("the assistant's findings", () => {
    it.each([
      ['We chose SQLite over PostgreSQL because zero-config matters most.', 'decision'],
      ['We ruled out GraphQL because the `@linear/sdk` client covers every query we need.', 'rejected'],
      ['Root cause: the cache key in `cache.ts` ignored the locale.', 'gotcha'],
      ['Turns out the API paginates at 50 items, so `listAll()` must follow cursors.', 'gotcha'],
      ['The convention here is to always export one function per file from `src/core/`.', 'pattern'],
      ['We replaced the hand-written parser in `src/config.ts` with the `yaml` package because it keeps comments.', 'decision'],
    ] as const)('finds "%s" as a %s', (text, type) => {
      const found = said(text);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ type, layer: 'keyword', speaker: 'assistant', session: SESSION, branch: 'main' });
      expect(found[0]?.confidence).toBeGreaterThanOrEqual(DEFAULT_EXTRACT.reviewFloor);
      expect(found[0]?.confidence).toBeLessThan(1);
    });

    it.each([
      ['a procedural step', 'I decided to read the file first before changing anything.'],
      ['an announcement of a step', 'Let me check how `parseConfig` handles the flag.'],
      ['a report of work done', 'I updated `src/a.ts` and `src/b.ts` with the new names.'],
      ['a question', 'Should we go with Redis over Memcached because it persists?'],
      ['inline code', 'The snippet `we chose X over Y because Z` is an example from the docs.'],
      ['a blockquote', '> We ruled out Redis because the ops team refused to run it.'],
      ['a fenced code block', '```\n// We decided against retries because of cost\n```'],
      ['meta talk', "Here's a summary of what I found:"],
      ['a statement naming nothing specific', 'The issue is still there.'],
    ])('ignores %s', (_why, text) => {
      expect(said(text)).toEqual([]);
    });

    it('ignores thinking and reads the sidechain with less confidence', () => {
      const text = 'The root cause was a shared regex with the g flag, so `lastIndex` leaked between calls in `tokenize.ts`.';
      expect(knowledge(judge([prompt('why?'), think(text)]))).toEqual([]);
      const main = said(text)[0]?.confidence ?? 0;
      const side = said(text, { isSidechain: true })[0]?.confidence ?? 0;
      expect(side).toBeGreaterThan(0);
      expect(side).toBeLessThan(main);
    });

    it('takes a "Problem:" paragraph with the "Fix:" of its section as one piece of evidence', () => {
      const text = '### Server only listening on localhost\n\n**Problem:** `Bun.serve()` defaults to localhost, so the load balancer cannot reach it.\n\n**Fix:** set `hostname: "0.0.0.0"`.';
      const [c] = said(text);
      expect(c?.type).toBe('gotcha');
      expect(c?.summary).toBe('Problem: Bun.serve() defaults to localhost, so the load balancer cannot reach it.');
      expect(c?.body).toContain('hostname: "0.0.0.0"');
      expect(signals(c)).toEqual(expect.arrayContaining(['knowledgeLabel', 'diagnosis']));
    });

    it('reads a short list under what introduces it as one statement', () => {
      const text = 'Claude is launched with `--permission-mode=acceptEdits` in 3 places:\n- `src/pane.ts`\n- `src/conflict.ts`\n- `src/merge.tsx`';
      const [c] = said(text);
      expect(c?.summary).toBe('Claude is launched with --permission-mode=acceptEdits in 3 places: src/pane.ts; src/conflict.ts; src/merge.tsx');
    });

    it('lowers a finding the person answers with "no"', () => {
      const text = 'The issue is that `PORT` is hard-coded in `server.ts`, so Railway cannot route to it.';
      const kept = knowledge(judge([prompt('why?'), say(text), prompt('thanks')]))[0]?.confidence ?? 0;
      const refused = knowledge(judge([prompt('why?'), say(text), prompt('no, that is not the fix')])).find((c) => c.speaker === 'assistant')?.confidence ?? 0;
      expect(refused).toBeLessThan(kept);
    });

    it('judges an exchange only when the next prompt arrives or the session ends', () => {
      const events = [prompt('why?'), say('Root cause: `config.ts` reads `PORT` before `.env` is loaded, so it is undefined.')];
      expect(knowledge(run(events))).toEqual([]);
      expect(knowledge(run([...events, prompt('ok')]))).toHaveLength(1);
      expect(knowledge(judge(events))).toHaveLength(1);
    });

    it('keeps one candidate for the statements of one section, which share their evidence', () => {
      const text = '### Hooks never saw the id\n\n**Root cause:** the `INSTANCE_ID` env var is set inside the MCP server process, but hooks run in a separate shell.\n\n**Solution:** pass Claude Code\'s `session_id` from the hook stdin as the instance id.';
      const found = said(text);
      expect(found).toHaveLength(1);
      expect(found[0]?.body).toContain('session_id');
    });

    it('collapses two wordings of the same cause into one candidate that keeps both', () => {
      const events = [
        prompt('why does the build fail?'),
        say('The problem is that KDE sets `stylix.targets.qt.platform` to "kde6" while the rice forces "qtct".'),
        say('## Summary\n\n**Root cause:** "qtct" from the rice conflicts with the "kde6" that `stylix.targets.qt.platform` gets from KDE; removed the explicit platform.'),
      ];
      const found = knowledge(judge(events));
      expect(found).toHaveLength(1);
      expect(found[0]?.body).toMatch(/Also: |removed the explicit platform/);
      expect(signals(found[0])).toContain('repeated');
    });

    it('does not repeat in a later exchange what the session already stored', () => {
      const text = 'Root cause: `config.ts` reads `PORT` before `.env` is loaded, so it is undefined.';
      const found = knowledge(judge([prompt('why?'), say(text), prompt('and now?'), say(`As before: ${text}`)]));
      expect(found).toHaveLength(1);
    });

    it('admits at most the configured number of memories per exchange, the rest to review', () => {
      const messages = Array.from({ length: 6 }, (_, i) => say(`**Root cause ${i}:** \`module${i}.ts\` reads \`ENV_${i}\` before the loader, so \`VALUE_${i}\` is undefined.`));
      const r = judge([prompt('why?'), ...messages], { memoriesPerExchange: 2, reviewPerExchange: 2 });
      expect(knowledge({ memories: r.memories, review: [] })).toHaveLength(2);
      expect(r.review.filter((c) => c.layer === 'keyword')).toHaveLength(2);
    });
  });

  describe('failures', () => {
    it('makes error → cause → fix → passing re-run one gotcha naming the symptom, the cause and the fix', () => {
      const events = [
        prompt('run the tests'),
        ...call('b1', 'Bash', { command: 'npm test' }, 'Error: connect ECONNREFUSED 127.0.0.1:5432\n  at TCPConnectWrap', true),
        say('The issue is that the tests need a running Postgres because `db.ts` connects at import time.'),
        say("Let me use the in-memory adapter in `vitest.setup.ts` instead."),
        ...call('e1', 'Edit', { file_path: '/repo/vitest.setup.ts', old_string: 'a', new_string: 'b' }),
        ...call('b2', 'Bash', { command: 'npm test' }, 'Tests 12 passed'),
      ];
      const [c] = knowledge(judge(events));
      expect(c?.type).toBe('gotcha');
      expect(c?.summary).toBe('The issue is that the tests need a running Postgres because db.ts connects at import time.');
      expect(c?.body).toContain('Symptom: `npm test` failed: Error: connect ECONNREFUSED 127.0.0.1:5432');
      expect(c?.body).toContain('Fix: Let me use the in-memory adapter in vitest.setup.ts instead.');
      expect(c?.body).toContain('Fixed by editing `vitest.setup.ts`; then `npm test` passed.');
      expect(signals(c)).toEqual(expect.arrayContaining(['afterFailure', 'resolved', 'actedOn']));
      expect(c?.confidence).toBeGreaterThanOrEqual(0.7);
    });

    it('gives an explanation whose failure never passed less confidence than one that was fixed', () => {
      const explain = say('The issue is that the tests need a running Postgres because `db.ts` connects at import time.');
      const fail = call('b1', 'Bash', { command: 'npm test' }, 'Error: connect ECONNREFUSED', true);
      const fixed = knowledge(judge([prompt('test'), ...fail, explain, ...call('b2', 'Bash', { command: 'npm test' }, 'ok')]))[0]?.confidence ?? 0;
      const open = knowledge(judge([prompt('test'), ...fail, explain]))[0]?.confidence ?? 0;
      expect(open).toBeLessThan(fixed);
    });

    it('records a command a hook blocked as a standing rule', () => {
      const events = [prompt('clean up'), ...call('b1', 'Bash', { command: 'rm -rf build' }, 'PreToolUse:Bash hook error: [uv run ~/.claude/hooks/pre_tool_use.py]: BLOCKED: Dangerous rm command detected', true)];
      const [c] = knowledge(judge(events));
      expect(c).toMatchObject({ type: 'gotcha' });
      expect(c?.summary).toBe('A PreToolUse hook (pre_tool_use.py) blocks `rm -rf build`: BLOCKED: Dangerous rm command detected');
    });
  });

  describe('documents and rules files', () => {
    it('records rules added to CLAUDE.md as a pattern pointing at the file', () => {
      const edit = { file_path: '/repo/CLAUDE.md', old_string: '# Rules\n', new_string: '# Rules\n- Always run `npm run lint` before committing.\n' };
      const [c] = knowledge(judge([prompt('add that to CLAUDE.md'), ...call('e1', 'Edit', edit)]));
      expect(c).toMatchObject({ type: 'pattern', files: ['CLAUDE.md'] });
      expect(c?.summary).toBe('Rule in CLAUDE.md: Always run npm run lint before committing.');
    });

    it('summarises a document the person asked for and points at it, without copying it', () => {
      const content = `# Column policy\n\nNever reorder the MCAO columns because \`ecorp.py\` reads them by position.\n\n## Adding a column\n\nAppend it after column 84.\n\n${'Filler line. '.repeat(200)}`;
      const [c] = knowledge(judge([prompt('write this down in a doc'), ...call('w1', 'Write', { file_path: '/repo/docs/columns.md', content })]));
      expect(c?.summary).toMatch(/^Column policy \(docs\/columns\.md\)/);
      expect(c?.files).toEqual(['docs/columns.md']);
      expect(c?.body).toContain('Sections: Adding a column');
      expect(c?.body.length).toBeLessThan(1300);
    });
  });

  describe('subagents', () => {
    it("reads a Task result as the subagent's findings", () => {
      const report = '## Findings\n\n**Root cause:** `sync.py` reads the static `notion_config.json`, so IDs never refresh at runtime.';
      const [c] = knowledge(judge([prompt('investigate'), ...call('t1', 'Task', { prompt: 'look' }, report)]));
      expect(c?.summary).toContain('notion_config.json');
      expect(signals(c)).toContain('subagent');
    });

    it('treats every event as a subagent\'s when told the file is a subagent transcript', () => {
      const text = 'Root cause: `config.ts` reads `PORT` before `.env` is loaded, so it is undefined.';
      const side = knowledge(judge([prompt('x'), say(text)], { sidechain: true }));
      expect(signals(side[0])).toContain('subagent');
    });

    it('does not emit again what the session already stored from the main transcript', () => {
      const text = 'Root cause: `config.ts` reads `PORT` before `.env` is loaded, so it is undefined.';
      const main = judge([prompt('x'), say(text)]);
      const sub = judge([say(text)], { sidechain: true, seen: main.state.emitted });
      expect(knowledge(sub)).toEqual([]);
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
      expect(byLayer(judge(events), 'self-report')).toEqual([]);
    });

    it.each([
      ['remember that every PR needs a changelog entry', 'Every PR needs a changelog entry'],
      ['Set up CI. Also remember that tests run on Node 20.', 'Tests run on Node 20.'],
      ['Remember: tabs, not spaces.', 'Tabs, not spaces.'],
      ['please remember, the staging DB is shared with QA', 'The staging DB is shared with QA'],
    ])('keeps "%s" from a person as a preference', (text, summary) => {
      expect(byLayer(run([prompt(text)]), 'self-report')).toMatchObject([{ type: 'preference', layer: 'self-report', confidence: 1, summary }]);
    });

    it.each([
      ['a question', 'do you remember that bug from yesterday?'],
      ['a statement about memory', 'I remember that this worked last week'],
      ['a subagent task prompt', 'remember that tests go first'],
    ])('ignores %s', (_why, text) => {
      expect(byLayer(run([prompt(text, { isSidechain: _why === 'a subagent task prompt' })]), 'self-report')).toEqual([]);
    });

    it('keeps a # memory input as a preference and ignores wrappers and meta lines', () => {
      const events: TranscriptEvent[] = [
        { ...base(), kind: 'meta', subtype: 'memory-input', text: '# Always run migrations with --dry-run first' },
        { ...base(), kind: 'meta', subtype: 'is-meta', text: 'remember that the API is read-only' },
        { ...base(), kind: 'command', name: '/remember', args: 'that we use tabs' },
      ];
      expect(run(events).memories.map((c) => [c.type, c.summary])).toEqual([['preference', 'Always run migrations with --dry-run first']]);
    });

    it('reads the Stop hook message when the transcript lags, and once only when the transcript catches up', () => {
      const last = 'Done.\n\n[MEMORY: gotcha] Fixture dates must be UTC or snapshots drift.';
      const lagging = run([say('Working on it.')], { lastAssistantMessage: last });
      expect(lagging.memories.map((c) => c.summary)).toEqual(['Fixture dates must be UTC or snapshots drift.']);
      const caughtUp = run([say(last)], { state: lagging.state });
      expect(caughtUp.memories.filter((c) => c.layer === 'self-report')).toEqual([]);
      const same = run([say(last)], { lastAssistantMessage: last });
      expect(same.memories).toHaveLength(1);
    });
  });

  it('keeps one candidate per summary, preferring the self-report over an inferred one', () => {
    const events = [
      prompt('which db?'),
      say('We chose SQLite over PostgreSQL because zero-config matters most.'),
      say('[MEMORY: decision] We chose SQLite over PostgreSQL because zero-config matters most.'),
    ];
    expect(judge(events).memories.map((c) => [c.layer, c.summary])).toEqual([['self-report', 'We chose SQLite over PostgreSQL because zero-config matters most.']]);
  });

  it('splits memories from review at the threshold and drops what falls under the review floor', () => {
    const events = [prompt('why?'), say('Root cause: `config.ts` reads `PORT` before `.env` is loaded, so it is undefined.')];
    expect(judge(events, { threshold: 0.99 }).review.filter((c) => c.layer === 'keyword')).toHaveLength(1);
    expect(judge(events, { threshold: 0.99, reviewFloor: 0.99 }).review).toEqual([]);
    expect(DEFAULT_EXTRACT.threshold).toBe(0.7);
  });

  it('is deterministic and leaves its inputs untouched', () => {
    const events = [...call('t1', 'Edit', { file_path: '/repo/a.ts' }), prompt('why?'), say('We ruled out GraphQL because the `@linear/sdk` covers every query.'), use('t2', 'Bash', { command: 'ls' })];
    const frozen = structuredClone(events);
    const first = judge(events);
    const state = structuredClone(first.state);
    expect(judge(events)).toEqual(first);
    expect(events).toEqual(frozen);
    run([result('t2', 'ok')], { state: first.state });
    expect(first.state).toEqual(state);
  });

  it('reads a transcript in pieces to the same candidates as whole (property)', () => {
    const names = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const transcripts = names.map((n) => parseTranscriptChunk(readFileSync(`${FIXTURES}${n}/transcript.jsonl`)).events);
    // Keyed union of what every run emitted: a later candidate with a key replaces the earlier one.
    const collect = (results: { memories: Candidate[]; review: Candidate[] }[]) => {
      const out = new Map<string, string>();
      for (const r of results) {
        for (const c of all(r)) {
          const key = c.topic ?? c.key ?? c.summary;
          out.set(key, `${c.type}|${c.summary}|${c.confidence}|${r.memories.includes(c) ? 'm' : 'r'}`);
        }
      }
      return out;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: transcripts.length - 1 }), fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }), (t, fractions) => {
        const events = transcripts[t] as TranscriptEvent[];
        const options = { sessionId: 'prop', branch: 'main', now: NOW };
        const whole = extractMemories(events, { ...options, final: true });
        const cuts = [...new Set(fractions.map((f) => Math.floor(f * events.length)))].sort((a, b) => a - b);
        let state;
        let start = 0;
        const results = [];
        for (const end of [...cuts, events.length]) {
          const r = extractMemories(events.slice(start, end), { ...options, state, final: end === events.length });
          results.push(r);
          state = r.state;
          start = end;
        }
        expect(collect(results)).toEqual(collect([whole]));
      }),
      { numRuns: 80 },
    );
  });

  it('only ever produces valid, one-line, bounded candidates from arbitrary conversations (property)', () => {
    const words = fc.constantFrom('we', 'decided', 'chose', 'over', 'because', 'ruled', 'out', 'the issue is', 'root cause', '**Problem:**', '`code`', '"quote"', '\n', '\n\n', '- ', '## ', '| a | b |', '[MEMORY: decision]', 'x'.repeat(30), 'é🎉', '.', '?', ':', 'never', "don't", 'yes', 'maybe');
    const text = fc.array(words, { maxLength: 60 }).map((w) => w.join(' '));
    const event = fc.oneof(
      text.map((t) => say(t)),
      text.map((t) => prompt(t)),
      text.map((t) => say(t, { isSidechain: true })),
      fc.constant(interrupt()),
      text.map((t) => call(`b${seq}`, 'Bash', { command: 'npm test' }, t, seq % 2 === 0)),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (list) => {
        const r = judge(list.flat());
        for (const c of all(r)) {
          expect(isMemoryType(c.type)).toBe(true);
          expect(c.summary.length).toBeGreaterThan(0);
          expect(c.summary.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
          expect(c.summary).not.toMatch(/\n/);
          expect(c.body.length).toBeLessThanOrEqual(1200);
          expect(c.confidence).toBeGreaterThanOrEqual(0);
          expect(c.confidence).toBeLessThanOrEqual(1);
        }
        expect(JSON.stringify(r.state).length).toBeLessThan(400_000);
      }),
      { numRuns: 150 },
    );
  });

  describe('golden fixtures (test/fixtures/transcripts, written for Cortex)', () => {
    interface Expected {
      bucket: 'memories' | 'review';
      layer: Candidate['layer'];
      type: string;
      summary: string;
      confidence: [number, number];
      topic?: string;
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
      (e.topic === undefined || e.topic === c.topic);

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

    it.each(names)('%s: judged at the end of the session, matches expected.json', (name) => {
      const fixture = JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8')) as Fixture;
      const bytes = readFileSync(`${FIXTURES}${name}/transcript.jsonl`);
      const parsed = parseTranscriptChunk(bytes);
      expect(parsed.diagnostics).toHaveLength(fixture.parse.diagnostics);
      expect(parsed.consumedBytes < bytes.length).toBe(fixture.parse.torn);
      const r = extractMemories(parsed.events, { ...fixture.options, final: true });
      compare(r, fixture.candidates);
      for (const c of all(r)) for (const banned of fixture.mustNotContain) expect(c.summary).not.toContain(banned);

      if (fixture.parse.tornCompletionHex !== undefined) {
        const rest = Buffer.concat([bytes.subarray(parsed.consumedBytes), Buffer.from(fixture.parse.tornCompletionHex, 'hex')]);
        const next = parseTranscriptChunk(rest, { startOffset: parsed.consumedBytes });
        expect(next.consumedBytes).toBe(rest.length);
        const after = extractMemories(next.events, { ...fixture.options, state: r.state, final: true });
        compare({ memories: after.memories.filter((c) => c.layer !== 'structural'), review: after.review }, fixture.afterCompletion ?? []);
      }
    });
  });
});

describe('SIGNAL_WEIGHTS', () => {
  it('are all documented, with their weights, in docs/claude-code.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/claude-code.md', import.meta.url)), 'utf8');
    const sign = (w: number) => `${w < 0 ? '−' : '+'}${Math.abs(w).toFixed(2)}`;
    for (const [name, weight] of Object.entries(SIGNAL_WEIGHTS)) {
      const row = doc.split('\n').find((l) => l.startsWith('| `') && l.includes(`\`${name}\``));
      expect(row, `docs/claude-code.md has a row for ${name}`).toBeDefined();
      expect(row, `${name} is documented with ${sign(weight)}`).toContain(sign(weight));
    }
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

  it('cuts long text at a clause boundary, or at a word, within the limit', () => {
    const words = cleanSummary(`${'word '.repeat(80)}end`);
    expect(words.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
    expect(words.endsWith('word…')).toBe(true);
    const clauses = cleanSummary(`${'a'.repeat(120)}; ${'b '.repeat(60)}`);
    expect(clauses).toBe('a'.repeat(120));
  });
});
