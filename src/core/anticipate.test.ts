import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAnticipationIndex, layoutAnticipated, renderAnticipated, searchAnticipationIndex, selectAnticipated, updateAnticipationIndex, type AnticipateCandidate, type AnticipatedMemory } from './anticipate.js';

const SQLITE: AnticipateCandidate = { id: 'chose-sqlite-k3f9qa', type: 'decision', summary: 'Chose SQLite over PostgreSQL because zero-config matters', score: 9, updated: '2026-11-21T10:00:00Z' };
const SDK: AnticipateCandidate = { id: 'sdk-getter-a2b3cc', type: 'gotcha', summary: 'The sync SDK exposes doc.parent as a getter, not a method', score: 4, tags: ['sync'] };
const NOISE: AnticipateCandidate = { id: 'release-x4y5zz', type: 'context', summary: 'Release checklist: bump the version and tag it', score: 1 };

describe('selectAnticipated', () => {
  it('keeps memories sharing two of the prompt words, or one and a close synonym', () => {
    expect(selectAnticipated('add a postgres migration for the users table', [SQLITE, SDK, NOISE]).map((m) => m.id)).toEqual([SQLITE.id]);
    const [m] = selectAnticipated('add a postgres migration', [SQLITE]);
    expect(m).toMatchObject({ shared: ['postgr'], related: expect.arrayContaining(['sqlite']) });
    expect(selectAnticipated('why is doc.parent undefined in the sync code', [SQLITE, SDK]).map((x) => x.id)).toEqual([SDK.id]);
  });

  it('adds nothing for prompts without content words, weak words alone, or unrelated ones', () => {
    for (const prompt of ['', 'ok', 'yes please', 'continue', 'fix the test', 'thanks, looks good', 'What is the weather in Paris?']) {
      expect(selectAnticipated(prompt, [SQLITE, SDK, NOISE]), prompt).toEqual([]);
    }
  });

  it('counts a word split in parts once, and never a number', () => {
    const ts: AnticipateCandidate = { id: 'ts-setup-a1b2c3', type: 'context', summary: 'The project is written in TypeScript with strict types', score: 5 };
    // "TypeScript" analyses to typescript, type and script: one word of the prompt, not three.
    expect(selectAnticipated('implement debounce in TypeScript', [ts])).toEqual([]);
    expect(selectAnticipated('are strict types on in our TypeScript config?', [ts]).map((m) => m.id)).toEqual([ts.id]);
    const exit: AnticipateCandidate = { id: 'exit-code-d4e5f6', type: 'gotcha', summary: 'The linter now exits with code 3 instead of 1', score: 5 };
    expect(selectAnticipated('why does 0.1 + 0.2 not equal 0.3?', [exit])).toEqual([]);
  });

  it('needs two specific words, not one and a common word', () => {
    const db: AnticipateCandidate = { id: 'orders-db-g7h8i9', type: 'decision', summary: 'The orders service keeps its rows in PostgreSQL', score: 5 };
    expect(selectAnticipated('add the orders', [db])).toEqual([]);
    expect(selectAnticipated('which rows does the orders table keep?', [db]).map((m) => m.id)).toEqual([db.id]);
    // Words of a path or a dotted name count one by one.
    const sorted: AnticipateCandidate = { id: 'orders-sorted-j1k2l3', type: 'decision', summary: 'The orders service keeps its rows sorted by date', score: 5 };
    expect(selectAnticipated('is it in db/orders_rows.txt?', [sorted]).map((m) => m.id)).toEqual([sorted.id]);
  });

  it('never repeats an excluded id, and honours the limit', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ ...SQLITE, id: `sqlite-${i}`, score: 10 - i }));
    expect(selectAnticipated('postgres or sqlite database', many, { limit: 2 }).map((m) => m.id)).toEqual(['sqlite-0', 'sqlite-1']);
    expect(selectAnticipated('postgres or sqlite database', many, { limit: 2, exclude: ['sqlite-0'] }).map((m) => m.id)).toEqual(['sqlite-1', 'sqlite-2']);
  });

  it('property: the selection is a subset of the candidates, without excluded ids, at most `limit`', () => {
    const candidate = fc.record({
      id: fc.stringMatching(/^[a-z]{1,8}$/),
      type: fc.constantFrom('decision' as const, 'gotcha' as const, 'context' as const),
      summary: fc.lorem({ maxCount: 12 }),
      score: fc.double({ min: 0, max: 50, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.lorem({ maxCount: 8 }), fc.array(candidate, { maxLength: 12 }), fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 4 }), fc.integer({ min: 1, max: 5 }), (prompt, cands, exclude, limit) => {
        const out = selectAnticipated(prompt, cands, { exclude, limit });
        expect(out.length).toBeLessThanOrEqual(limit);
        for (const m of out) {
          expect(exclude).not.toContain(m.id);
          expect(cands.some((c) => c.id === m.id)).toBe(true);
        }
        expect(new Set(out.map((m) => m.id)).size).toBe(out.length);
      }),
    );
  });
});

describe('renderAnticipated', () => {
  it('states facts with their ids and dates', () => {
    const text = renderAnticipated(selectAnticipated('postgres migration for sqlite', [SQLITE]));
    expect(text).toBe('Stored project memories related to this prompt (Cortex):\n- decision: Chose SQLite over PostgreSQL because zero-config matters [chose-sqlite-k3f9qa, 2026-11-21]');
    expect(renderAnticipated([])).toBe('');
  });

  it('property: never longer than maxChars', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 400 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 2_000 }), (summaries, maxChars) => {
        const memories = summaries.map((summary, i) => ({ id: `m${i}`, type: 'context' as const, summary, score: 1, preview: summary, shared: [], related: [] }));
        expect(renderAnticipated(memories, { maxChars }).length).toBeLessThanOrEqual(maxChars);
      }),
    );
  });
});

describe('buildAnticipationIndex and searchAnticipationIndex', () => {
  const docs: AnticipateCandidate[] = [
    { ...SQLITE, score: 0, preview: 'PostgreSQL was rejected: it needs a running daemon on every laptop.' },
    { ...SDK, score: 0, preview: 'Call it without parentheses.' },
    { ...NOISE, score: 0, files: ['scripts/release.sh'], preview: 'See the release notes template; the database is not involved.' },
  ];
  const index = buildAnticipationIndex(docs);

  it('keeps terms sorted with one posting per doc, and finds exact, prefix and synonym matches', () => {
    expect([...index.terms].sort()).toEqual(index.terms);
    expect(index.lengths).toHaveLength(2 * docs.length);
    const postgr = index.postings[index.terms.indexOf('postgresql')]!;
    expect(postgr).toEqual([0, 1]);
    expect(searchAnticipationIndex(index, 'add a postgres migration')[0]?.id).toBe(SQLITE.id);
    expect(searchAnticipationIndex(index, 'which database do we use?')[0]?.id).toBe(SQLITE.id);
    expect(searchAnticipationIndex(index, 'release.sh fails')[0]?.id).toBe(NOISE.id);
    expect(searchAnticipationIndex(index, 'hello there')).toEqual([]);
  });

  it('ranks a match in the summary above the same word in the body', () => {
    const two = buildAnticipationIndex([
      { id: 'body', type: 'context', summary: 'Notes on deploys', score: 0, preview: 'The cache warms up after the deploy.' },
      { id: 'head', type: 'gotcha', summary: 'The cache warms up slowly', score: 0 },
    ]);
    expect(searchAnticipationIndex(two, 'cache').map((c) => c.id)).toEqual(['head', 'body']);
  });

  it('property: agrees with a naive scan on which docs share a word with the prompt', () => {
    const word = fc.constantFrom('cache', 'sqlite', 'deploy', 'retry', 'policy', 'worker', 'queue', 'token');
    const doc = fc.record({ summary: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')), preview: fc.array(word, { maxLength: 4 }).map((w) => w.join(' ')) });
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 8 }), fc.array(word, { minLength: 1, maxLength: 3 }), (raw, words) => {
        const cands = raw.map((d, i) => ({ id: `d${i}`, type: 'context' as const, summary: d.summary, preview: d.preview, score: 0 }));
        const found = new Set(searchAnticipationIndex(buildAnticipationIndex(cands), words.join(' '), { limit: 100 }).map((c) => c.id));
        // Exact words only (the thesaurus groups none of these words together except via expansions, which only add).
        for (const c of cands) {
          const text = `${c.summary} ${c.preview}`.split(' ');
          if (words.some((w) => text.includes(w))) expect(found.has(c.id)).toBe(true);
        }
      }),
    );
  });
});

describe('updateAnticipationIndex', () => {
  const word = fc.constantFrom('cache', 'sqlite', 'deploy', 'retry', 'policy', 'worker', 'queue', 'token', 'parser', 'Vitest');
  const doc = (id: string) =>
    fc.record({
      id: fc.constant(id),
      type: fc.constantFrom('decision' as const, 'gotcha' as const),
      summary: fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
      preview: fc.array(word, { maxLength: 6 }).map((w) => w.join(' ')),
      tags: fc.array(fc.constantFrom('db', 'ci', 'sqlite'), { maxLength: 2 }),
      score: fc.constant(0),
    });
  const byId = (a: AnticipateCandidate, b: AnticipateCandidate) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it('property: equals a fresh build of the same docs', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-h]$/), { maxLength: 8 }).chain((ids) => fc.tuple(...ids.map(doc))),
        fc.uniqueArray(fc.stringMatching(/^[a-j]$/), { maxLength: 4 }).chain((ids) => fc.tuple(...ids.map(doc))),
        fc.array(fc.stringMatching(/^[a-h]$/), { maxLength: 3 }),
        (before, added, removed) => {
          const start = buildAnticipationIndex([...before].sort(byId));
          const updated = updateAnticipationIndex(start, { remove: removed, add: added });
          const gone = new Set([...removed, ...added.map((d) => d.id)]);
          const expected = buildAnticipationIndex([...before.filter((d) => !gone.has(d.id)), ...added].sort(byId));
          expect(updated).toEqual(expected);
        },
      ),
    );
  });
});

describe('layoutAnticipated', () => {
  const mem = (id: string, summary: string, body: string, extra: Partial<AnticipatedMemory> = {}): AnticipatedMemory => ({
    id,
    type: 'decision',
    summary,
    score: 1,
    shared: [],
    related: [],
    body,
    updated: '2026-11-28T10:00:00Z',
    ...extra,
  });

  it('marks a review candidate (unconfirmed) with its [id, date] tag and shows its body under its line', () => {
    const { text, shown } = layoutAnticipated([mem('candidate-3f9a2c1d04', 'Chose Vitest over Jest', 'Native ESM support.', { unconfirmed: true })]);
    expect(text).toContain('- decision (unconfirmed): Chose Vitest over Jest [candidate-3f9a2c1d04, 2026-11-28]\n  Native ESM support.');
    expect(shown).toEqual({ 'candidate-3f9a2c1d04': 'body' });
  });

  it('leaves out a memory the context shows by summary when its body adds nothing', () => {
    const { text, shown } = layoutAnticipated([mem('a', 'Chose SQLite', 'Chose SQLite.', { summaryShown: true }), mem('b', 'Use WAL mode', 'Hooks write concurrently.')]);
    expect(text).not.toContain('[a,');
    expect(shown).toEqual({ b: 'body' });
  });

  it('property: never longer than maxChars; every memory shown gets its line', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 300 }), fc.string({ maxLength: 3_000 })), { maxLength: 4 }), fc.integer({ min: 50, max: 3_000 }), (items, maxChars) => {
        const memories = items.map(([s, b], i) => mem(`m${i}`, s.trim() === '' ? 'x' : s, b));
        const { text, shown } = layoutAnticipated(memories, { maxChars });
        expect(text.length).toBeLessThanOrEqual(maxChars);
        for (const id of Object.keys(shown)) expect(text).toContain(`[${id}, 2026-11-28]`);
      }),
    );
  });
});

describe('selectAnticipated: unconfirmed candidates', () => {
  it('needs two of the prompt specific words in the candidate summary, not in its quoted evidence', () => {
    const base = { type: 'decision' as const, score: 2, unconfirmed: true };
    const inSummary = { ...base, id: 'candidate-1', summary: 'Chose Vitest over Jest as the test runner' };
    const inEvidence = { ...base, id: 'candidate-2', summary: 'Let us go with that', preview: 'vitest is faster than jest here' };
    expect(selectAnticipated('vitest or jest, which one?', [inSummary, inEvidence]).map((m) => m.id)).toEqual(['candidate-1']);
    // A stored memory with the words in its body is still found.
    expect(selectAnticipated('vitest or jest, which one?', [{ ...inEvidence, unconfirmed: false }]).map((m) => m.id)).toEqual(['candidate-2']);
  });
});
