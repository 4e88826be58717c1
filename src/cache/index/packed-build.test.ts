import { deserialize } from 'node:v8';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { PackedBuilder, PostingList } from './packed-build.js';
import { addAnalyzed, analyzeDocument, loadSearchState, saveSearchState } from './search-state.js';

const FIELDS = ['text', 'summary', 'tags'];
const OPTIONS = { fields: FIELDS, idField: 'id', storeFields: [] as string[] };
const ANALYZER = { ...OPTIONS, tokenize: MiniSearch.getDefault('tokenize') as never, processTerm: MiniSearch.getDefault('processTerm') as never };
const WORDS = ['sqlite', 'postgres', 'wal', 'hooks', 'utc', 'config', 'zero', 'mode', 'sql', 'sqlit', 'modes', 'the', 'Café'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(' '));
const doc = fc.record({ text, summary: fc.option(text, { nil: undefined }), tags: fc.option(text, { nil: undefined }) });

describe('PackedBuilder', () => {
  it('writes the state saveSearchState writes for a MiniSearch that added the same documents', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 25 }), (docs) => {
        const analyzed = docs.map((d, i) => analyzeDocument({ id: `m${i}`, ...d }, ANALYZER));
        const ms = new MiniSearch(OPTIONS);
        for (const a of analyzed) expect(addAnalyzed(ms, a)).toBe(true);
        const build = new PackedBuilder(FIELDS);
        for (const a of analyzed) build.add(a);
        const fieldIds = (ms as unknown as { _fieldIds: Record<string, number> })._fieldIds;
        const bytes = build.encode({ fieldIds });
        // The same state (V8 may write the same string in one or two bytes a character, so
        // the state is compared decoded) and the same postings, byte for byte.
        const other = saveSearchState(ms);
        const split = (b: Buffer) => {
          const length = b.readUInt32LE(4);
          return { state: deserialize(b.subarray(8, 8 + length)) as unknown, postings: b.subarray((8 + length + 3) & ~3) };
        };
        const [a, b] = [split(bytes), split(other)];
        expect(a.state).toEqual(b.state);
        expect(a.postings.equals(b.postings)).toBe(true);
        // And it loads into an index that answers as MiniSearch does.
        const loaded = loadSearchState(bytes, OPTIONS)!;
        for (const q of ['sqlite', 'mode wal', 'caf', 'postgre']) {
          expect(loaded.search(q, { prefix: true, fuzzy: 0.2 })).toEqual(ms.search(q, { prefix: true, fuzzy: 0.2 }));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a duplicate id', () => {
    const build = new PackedBuilder(['text']);
    build.add({ id: 'a', fields: [{ unique: 1, terms: ['x'] }] });
    expect(() => build.add({ id: 'a', fields: [{ unique: 1, terms: ['y'] }] })).toThrow(/duplicate/);
  });
});

describe('PostingList', () => {
  it('gives back the postings it was given, across varints of every length and a full output', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 2 ** 28 })), fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 ** 32 - 1 }))), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 2, max: 9 }),
        (gaps, room) => {
          const list = new PostingList();
          const want: number[] = [];
          let doc = -1;
          for (const [gap, freq] of gaps) {
            doc = Math.min(doc + gap, 2 ** 32 - 1 - (gaps.length - want.length / 2));
            list.push(doc, freq);
            want.push(doc, freq);
          }
          expect(list.count).toBe(gaps.length);
          // Decoded through an output of `room` words, flushed whenever it is full.
          const got: number[] = [];
          const out = new Uint32Array(room);
          const state = { read: 0, doc: -1 };
          for (;;) {
            const at = list.decodeTo(out, state, 0);
            got.push(...out.subarray(0, at));
            if (state.read === list.size) break;
          }
          expect(got).toEqual(want);
        },
      ),
    );
  });
});
