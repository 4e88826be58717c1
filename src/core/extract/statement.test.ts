import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractMemories, MAX_CANDIDATE_SUMMARY, type Candidate } from '../extract.js';
import { joinStatements, restatement } from './conversation.js';
import type { TranscriptEvent } from '../transcript.js';
import { answeredQuestion, answerStatement, baseOf, capQuotation, firstPerson, impersonal, MAX_QUOTATION, objection, personStatement, reasonIn, standsAlone, thirdPerson } from './statement.js';

// Hand-written conversations (no text from real sessions).
let seq = 0;
const base = () => ({ offset: seq++, isSidechain: false, sessionId: 's1', cwd: '/repo', gitBranch: 'main', timestamp: '2026-03-01T10:00:00.000Z' });
const prompt = (text: string): TranscriptEvent => ({ ...base(), kind: 'prompt', text }) as TranscriptEvent;
const say = (text: string): TranscriptEvent => ({ ...base(), kind: 'text', text, synthetic: false, messageId: `m${seq}` }) as TranscriptEvent;
const interrupt = (): TranscriptEvent => ({ ...base(), kind: 'meta', subtype: 'interrupted', text: '[Request interrupted by user]' });
const edit = (id: string, path: string): TranscriptEvent[] => [
  { ...base(), kind: 'tool-use', id, name: 'Edit', input: { file_path: path, old_string: 'a', new_string: 'b' } } as TranscriptEvent,
  { ...base(), kind: 'tool-result', toolUseId: id, content: 'ok', isError: false } as TranscriptEvent,
];
const bash = (id: string, command: string, output: string, isError: boolean): TranscriptEvent[] => [
  { ...base(), kind: 'tool-use', id, name: 'Bash', input: { command } } as TranscriptEvent,
  { ...base(), kind: 'tool-result', toolUseId: id, content: output, isError } as TranscriptEvent,
];
const judge = (events: TranscriptEvent[]) => extractMemories(events, { sessionId: 's1', now: '2026-03-01T12:00:00Z', final: true });
const knowledge = (r: { memories: Candidate[]; review: Candidate[] }) => [...r.memories, ...r.review].filter((c) => c.layer === 'keyword');
const quoted = (body: string) =>
  body
    .split('\n')
    .filter((l) => !l.startsWith('— '))
    .join('\n').length;

describe('statements from conversation', () => {
  describe('impersonal', () => {
    it.each([
      ["I'd like to review and edit them.", 'The user wants to review and edit them.'],
      ['I tend to use fly.io for hosting', 'The user tends to use fly.io for hosting'],
      ['I prefer small pull requests.', 'The user prefers small pull requests.'],
      ["I'm the only maintainer of this repo.", 'The user is the only maintainer of this repo.'],
      ['We use pnpm, not npm.', 'The project uses pnpm, not npm.'],
      ['We would definitely want nightly backups', 'The project would definitely want nightly backups'],
      ["I don't want a cloud service", 'The user does not want a cloud service'],
      ['Our CI runs on every push.', "The project's CI runs on every push."],
    ])('%s → %s', (said, statement) => {
      expect(impersonal(said)).toBe(statement);
      expect(firstPerson(impersonal(said))).toBe(false);
    });

    it("keeps words that only look like contractions (its, were, well)", () => {
      expect(impersonal('The parser keeps its state, as it were, well hidden.')).toBe('The parser keeps its state, as it were, well hidden.');
    });

    it("strips the assistant's own perception, not what it found", () => {
      expect(impersonal('I can see that the cache key ignores the locale.', 'assistant')).toBe('The cache key ignores the locale.');
      expect(impersonal("You're using `zod` for every schema.", 'assistant')).toBe('The project uses zod for every schema.');
    });

    it('conjugates the third person', () => {
      expect(['go', 'try', 'push', 'have', 'do', 'use', 'can'].map(thirdPerson)).toEqual(['goes', 'tries', 'pushes', 'has', 'does', 'uses', 'can']);
    });
  });

  describe('a question and its answer', () => {
    it.each([
      ['Should prompts be reviewed before cards are created?', true, 'Prompts should be reviewed before cards are created'],
      ['Should prompts be reviewed before cards are created?', false, 'Prompts should not be reviewed before cards are created'],
      ['Do you want me to add a `--dry-run` flag?', true, 'Decided to add a --dry-run flag'],
      ['Should I keep the old endpoint?', false, 'Decided not to keep the old endpoint'],
      ['Is the staging database shared with the data team?', true, 'The staging database is shared with the data team'],
      ['Would you like dark mode by default?', true, 'The user wants dark mode by default'],
    ])('%s + %s → %s', (question, yes, statement) => {
      expect(answeredQuestion(question, yes)).toBe(statement);
    });

    it('gives up on a question whose subject it cannot tell apart', () => {
      expect(answeredQuestion('What about the colours?', true)).toBeUndefined();
    });

    it('reads "yes, …" with the question and keeps what the answer adds', () => {
      const s = answerStatement('Should prompts be reviewed before cards are created?', "yes, I'd like to review and edit them");
      expect(s).toEqual({ summary: 'Prompts should be reviewed before cards are created — the user wants to review and edit them', clean: true, reason: false });
    });

    it('says a side-by-side answer is not clean', () => {
      const s = answerStatement('What about the colours?', 'yes, keep them');
      expect(s?.clean).toBe(false);
      expect(s?.summary).toContain('What about the colours: yes');
    });

    it('turns a transcript question + answer into a decision stated without the first person, the question quoted in the body', () => {
      const events = [
        prompt('Build the card generator for the flashcards app'),
        say('The generator drafts prompts from each note. Should prompts be reviewed before cards are created?'),
        prompt("yes, I'd like to review and edit them before anything is created"),
      ];
      const [c] = knowledge(judge(events));
      expect(c?.summary).toBe('Prompts should be reviewed before cards are created — the user wants to review and edit them before anything is created');
      expect(c?.speaker).toBe('user');
      expect(c?.body).toContain('Asked: "Should prompts be reviewed before cards are created?"');
      expect(c?.body).toContain('— the person, 2026-03-01T10:00:00Z');
      expect(firstPerson(c?.summary ?? '')).toBe(false);
    });
  });

  describe('an approval of a proposal', () => {
    it('makes the yes/no question the proposal ends with the decision', () => {
      const events = [
        prompt('The sync is slow with large vaults'),
        say('Reading every file on each run is what costs the time. Should the sync skip files whose `mtime` has not changed?'),
        prompt('yes'),
        ...edit('e1', '/repo/src/sync.ts'),
      ];
      const decision = knowledge(judge(events)).find((c) => c.type === 'decision');
      expect(decision?.summary).toBe('The sync should skip files whose mtime has not changed');
      expect(decision?.speaker).toBe('both');
    });
  });

  describe('a bullet-list answer', () => {
    it('states each point impersonally and keeps no first person in any summary', () => {
      const events = [
        prompt('Set up hosting for the API'),
        say('Which host do you prefer, and what about backups?'),
        prompt('- I tend to use fly.io for small services\n- We would definitely want nightly backups of `postgres`'),
      ];
      const found = knowledge(judge(events));
      expect(found.length).toBeGreaterThan(0);
      for (const c of found) {
        expect(firstPerson(c.summary)).toBe(false);
        expect(c.summary).not.toMatch(/^[-*]\s/);
      }
    });
  });

  describe('a correction', () => {
    it('makes an objection after an interrupt the rule it implies', () => {
      const events = [prompt('Fix the build'), ...edit('e1', '/repo/gen/api_templ.go'), interrupt(), prompt('why are you editing generated code!')];
      const [c] = knowledge(judge(events));
      expect(c?.summary).toBe('Do not edit generated code (the user objected)');
      expect(c?.type).toBe('preference');
    });

    it('reads the base form of an -ing verb', () => {
      expect(['editing', 'making', 'running', 'using', 'pushing', 'committing', 'writing'].map(baseOf)).toEqual(['edit', 'make', 'run', 'use', 'push', 'commit', 'write']);
      expect(objection('Why does the build fail?')).toBeUndefined();
    });

    it('resolves a bare pronoun to the project noun the assistant named most', () => {
      const s = personStatement('Make sure it is not pushing to the remote', 'Make sure it is not pushing to the remote', 'agent-commit.md');
      expect(s.summary).toBe('Make sure agent-commit.md is not pushing to the remote');
      expect(s.clean).toBe(true);
    });
  });

  describe('reasons, fragments and quotation', () => {
    it('attaches the reason from another sentence of the same turn', () => {
      const s = personStatement('Keep the queue in SQLite.', 'Keep the queue in SQLite. That is because the workers restart often.', undefined);
      expect(s).toMatchObject({ summary: 'Keep the queue in SQLite, because the workers restart often', reason: true });
      expect(reasonIn('It has worked since 2020.')).toBeUndefined();
    });

    it('says when a summary does not stand alone', () => {
      expect(standsAlone('The cache key in cache.ts ignores the locale.')).toBe(true);
      expect(standsAlone('This follows the existing pattern for settings.')).toBe(false);
      expect(standsAlone('Should we cache the results?')).toBe(false);
      expect(standsAlone('I want a cache.')).toBe(false);
      expect(standsAlone('Skips the trust prompt when enabled')).toBe(false);
      expect(standsAlone('This project is a static site served from one bucket.')).toBe(true);
    });

    it('lowers the confidence of a statement the rules could not make clean', () => {
      const clean = knowledge(judge([prompt('The job queue lives in `sqlite` because the workers restart often.')]))[0];
      const fragment = knowledge(judge([prompt('Make it so that it does that thing with them.')]))[0];
      expect(clean?.signals?.some((s) => s.startsWith('reason'))).toBe(true);
      if (fragment !== undefined) expect(fragment.signals?.some((s) => s.startsWith('unclear'))).toBe(true);
    });

    it('caps the quotation of any body at the budget, whatever the turns', () => {
      fc.assert(
        fc.property(fc.array(fc.string({ maxLength: 400 }), { maxLength: 8 }), (lines) => {
          const body = `${lines.map((l) => `> ${l.replace(/\n/g, ' ')}`).join('\n')}\n\n— the person, 2026-03-01T10:00:00Z.`;
          expect(quoted(capQuotation(body))).toBeLessThanOrEqual(MAX_QUOTATION + 10);
          expect(capQuotation(body)).toContain('— the person');
        }),
      );
    });
  });

  describe('a finding stated whole in its summary', () => {
    it("carries what the assistant's acknowledgement says the person's rule means", () => {
      seq = 0;
      const r = judge([prompt('tidy up the api client'), ...edit('e1', '/repo/src/client/gen.ts'), interrupt(), prompt('why are you editing the generated client!'), say("You're right! The client is generated from `api.yaml` by `make gen`, so changes belong in the spec."), prompt('ok')]);
      const rule = knowledge(r).find((c) => c.summary.startsWith('Do not edit the generated client'));
      expect(rule?.summary).toContain('api.yaml');
      expect(rule?.summary.length).toBeLessThanOrEqual(200);
    });

    it('leaves the summary alone when the acknowledgement only apologises or announces a step', () => {
      expect(restatement(["You're absolutely right!", "I'll stop editing it."], 'Do not edit generated code (the user objected)')).toBeUndefined();
      expect(restatement(['Makes sense — you want everything in one place.'], 'The user wants one workspace')).toBeUndefined();
      expect(restatement(['Good catch.', 'The generated files come from the `.templ` sources.'], 'Do not edit generated code')).toBe('The generated files come from the .templ sources.');
    });

    it("joins a person's rule and the sentence it rests on", () => {
      seq = 0;
      const r = judge([prompt('We use `fly deploy` for every release. Never push images to the registry by hand.'), say('Noted.'), prompt('thanks')]);
      const both = knowledge(r).find((c) => c.summary.includes('fly deploy'));
      expect(both?.summary).toMatch(/push images/i);
      expect(both?.summary).not.toMatch(/\b(?:I|we)\b/);
      seq = 0;
      const rule = knowledge(judge([prompt('I am the only user of this tool. Always keep the setup simple and local.'), say('Noted.'), prompt('thanks')]));
      expect(rule.map((c) => c.summary)).toEqual(['The user is the only user of this tool; always keep the setup simple and local.']);
    });

    it('joins two wordings of one finding when the second names something new and both fit', () => {
      expect(joinStatements('`server.ts` binds localhost, so the container port is unreachable.', 'Fix: bind `0.0.0.0` through `HOST`')).toBe('`server.ts` binds localhost, so the container port is unreachable; fix: bind `0.0.0.0` through `HOST`');
      expect(joinStatements('`server.ts` binds localhost in the container', 'server.ts binds localhost')).toBeUndefined();
      expect(joinStatements('a'.repeat(150), 'The `HOST` variable is read once at start-up by `config.ts`')).toBeUndefined();
      fc.assert(
        fc.property(fc.string({ maxLength: 220 }), fc.string({ maxLength: 220 }), (a, b) => {
          const j = joinStatements(a, b);
          if (j !== undefined) expect(j.length).toBeLessThanOrEqual(200);
        }),
      );
    });

    it('queues an introducer with three or more list items for review rather than storing it', () => {
      seq = 0;
      const list = (n: number) => `**Architecture decisions:**\n${['Keep `src/atoms` as is', 'No `graphql` layer', 'Skip the `zod` wrapper', 'CLI first via `commander`'].slice(0, n).map((t) => `- ${t}`).join('\n')}`;
      const three = knowledge(judge([prompt('what did we settle?'), say(list(3)), prompt('ok')])).find((c) => c.summary.startsWith('Architecture decisions:'));
      const two = knowledge(judge([prompt('what did we settle?'), say(list(2)), prompt('ok')])).find((c) => c.summary.startsWith('Architecture decisions:'));
      expect(three?.signals).toContain('enumeration-0.15');
      expect(two?.signals ?? []).not.toContain('enumeration-0.15');
      if (three !== undefined && two !== undefined) expect(three.confidence).toBeLessThan(two.confidence);
    });

    it('states a failing command and the variant that then passed, with nothing edited in between', () => {
      seq = 0;
      const r = judge([prompt('install it'), ...bash('b1', 'sudo make install', 'sudo: a terminal is required to read the password', true), ...bash('b2', 'make install PREFIX=$HOME/.local', 'installed', false), prompt('thanks')]);
      const way = knowledge(r).find((c) => c.type === 'gotcha' && c.summary.includes('works instead'));
      expect(way?.summary).toBe('`sudo make install` fails here (sudo: a terminal is required to read the password); `make install PREFIX=$HOME/.local` works instead');
      expect(r.memories).toContainEqual(expect.objectContaining({ summary: way?.summary }));
    });

    it('reads a pass after an edit as a fix, and a look around or another job as no workaround', () => {
      const ways = (events: TranscriptEvent[]) => knowledge(judge(events)).filter((c) => c.summary.includes('works instead'));
      seq = 0;
      expect(ways([prompt('install it'), ...bash('b1', 'make install', 'make: *** No rule to make target', true), ...edit('e1', '/repo/Makefile'), ...bash('b2', 'make install DESTDIR=/tmp/x', 'ok', false), prompt('thanks')])).toEqual([]);
      seq = 0;
      expect(ways([prompt('install it'), ...bash('b1', 'make install', 'make: *** No rule to make target', true), ...bash('b2', 'ls -la', 'Makefile', false), prompt('thanks')])).toEqual([]);
      seq = 0;
      expect(ways([prompt('check it'), ...bash('b1', 'nix flake check', 'error: attribute missing', true), ...bash('b2', 'nix eval .#foo', '42', false), prompt('thanks')])).toEqual([]);
    });
  });

  describe('capture with the statement rules', () => {
    const turn = fc.oneof(
      fc.constantFrom(
        'Should the importer skip empty rows?',
        'Do you want me to add a `--force` flag?',
        'The parser in `src/parse.ts` drops comments because the lexer skips them.',
        'Which host do you prefer?',
        "You're right! The lockfile is generated by `pnpm install`, so it changes only with `package.json`.",
        '**Root cause:** `server.ts` binds localhost.\n\n**Fix:** bind `0.0.0.0` through `HOST` in `server.ts`.',
        '**Decisions:**\n- Keep the `src/atoms` layout as it is\n- No raw `graphql` layer for now\n- Skip the `zod` wrapper entirely',
      ).map((t) => ['say', t] as const),
      fc.constantFrom('fail', 'pass', 'edit').map((t) => [t, ''] as const),
      fc.constantFrom(
        'yes',
        'no, keep them',
        "yes, I'd like to review them first",
        '- I tend to use fly.io\n- we want backups',
        'why are you editing the lockfile!',
        'I prefer tabs because the team reads on small screens',
      ).map((t) => ['prompt', t] as const),
      fc.constant(['interrupt', ''] as const),
    );
    type Turn = readonly ['say' | 'prompt' | 'interrupt' | 'fail' | 'pass' | 'edit', string];
    const events = (list: Turn[]) => {
      seq = 0;
      return list.flatMap(([kind, text], i): TranscriptEvent[] =>
        kind === 'say'
          ? [say(text)]
          : kind === 'prompt'
            ? [prompt(text)]
            : kind === 'fail'
              ? bash(`b${i}`, 'sudo make install', 'sudo: a terminal is required to read the password', true)
              : kind === 'pass'
                ? bash(`b${i}`, 'make install PREFIX=$HOME/.local', 'installed', false)
                : kind === 'edit'
                  ? edit(`e${i}`, '/repo/Makefile')
                  : [interrupt()],
      );
    };

    // What reaches the store, as the writer (`api/capture.ts`) applies each run's output in
    // order: a candidate with a key replaces what an earlier one with that key wrote — a
    // statement queued for review and later said again with the weight of a memory leaves
    // the queue (the extractor cannot take back what an earlier run returned). One memory
    // per summary (the writer merges a repeat).
    const store = (runs: { memories: Candidate[]; review: Candidate[] }[]) => {
      const memories = new Map<string, Candidate>();
      const review = new Map<string, Candidate>();
      let n = 0;
      for (const r of runs) {
        const written = new Set<string>();
        for (const c of r.memories) {
          if (c.layer === 'structural') continue;
          const k = c.key ?? `#${n++}`;
          review.delete(k);
          memories.set(k, c);
          written.add(k);
        }
        for (const c of r.review) {
          const k = c.key ?? `#${n++}`;
          if (!written.has(k)) review.set(k, c);
        }
      }
      const keyed = (list: Iterable<Candidate>) => [...new Set([...list].map((c) => `${c.summary} @${c.confidence}`))].sort();
      return { memories: keyed(memories.values()), review: keyed(review.values()) };
    };
    const piecewise = (list: Turn[], at: number) => {
      const all = events(list);
      const options = { sessionId: 's1', now: '2026-03-01T12:00:00Z' };
      const whole = extractMemories(all, { ...options, final: true });
      expect(extractMemories(all, { ...options, final: true })).toEqual(whole);
      const cut = at % (all.length + 1);
      const first = extractMemories(all.slice(0, cut), options);
      const second = extractMemories(all.slice(cut), { ...options, state: first.state, final: true });
      return { whole, pieces: store([first, second]), stored: store([whole]) };
    };

    // Found by the property below (wave 3): a statement queued for review in one run and
    // said again after interrupts with a memory's weight in the next. Reading in two pieces
    // must leave the store as reading whole does.
    it('reads a repeated answer after interrupts the same in pieces as whole', () => {
      const list = [['prompt', 'yes'], ['prompt', "yes, I'd like to review them first"], ['interrupt', ''], ['interrupt', ''], ['prompt', "yes, I'd like to review them first"]] as const;
      const r = piecewise([...list], 1500874241);
      expect(r.pieces).toEqual(r.stored);
      expect(r.stored.review).toEqual([]);
      expect(r.stored.memories).toEqual(['The user wants to review them first @0.9']);
    });

    // CORTEX_PROPERTY_RUNS=5000 for a long search (the default keeps the suite quick).
    const RUNS = Number(process.env.CORTEX_PROPERTY_RUNS ?? 300);
    it('is deterministic, and reading in pieces yields what reading whole does', () => {
      fc.assert(
        fc.property(fc.array(turn, { minLength: 1, maxLength: 10 }), fc.nat(), (list, at) => {
          const r = piecewise(list, at);
          expect(r.pieces).toEqual(r.stored);
          for (const c of [...r.whole.memories, ...r.whole.review]) {
            if (c.layer === 'keyword') expect(quoted(c.body)).toBeLessThanOrEqual(MAX_QUOTATION + 10);
            expect(c.summary.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
          }
        }),
        { numRuns: RUNS },
      );
    }, Math.max(30_000, RUNS * 60));
  });
});
