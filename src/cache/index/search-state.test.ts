import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import SearchableMap from 'minisearch/SearchableMap';
import { LazyDocIds, LazyFieldLengths, LazyIdMap, LazyTreeNode, SavedIds, addAnalyzed, analyzeDocument, checkTree, loadSearchState, openSearchState, saveSearchState, termDocCount, treeColumnsOf, treeOfColumns } from './search-state.js';

const OPTIONS = { fields: ['text'], idField: 'id' };
const DOCS = [
  { id: 'a', text: 'Chose SQLite over Postgres because zero-config matters' },
  { id: 'b', text: 'Hooks write concurrently so the database runs in WAL mode' },
  { id: 'c', text: 'Timestamps are stored in UTC' },
];

function build(): MiniSearch {
  const ms = new MiniSearch(OPTIONS);
  ms.addAll(DOCS);
  return ms;
}

describe('saveSearchState / loadSearchState', () => {
  it('restores an index that answers exactly like the original', () => {
    const original = build();
    original.discard('c');
    const restored = loadSearchState(saveSearchState(original), OPTIONS)!;
    expect(restored).toBeDefined();
    expect(restored.documentCount).toBe(2);
    for (const q of ['sqlite', 'database wal', 'utc', 'zero config postgres']) {
      expect(restored.search(q, { prefix: true, fuzzy: 0.2 })).toEqual(original.search(q, { prefix: true, fuzzy: 0.2 }));
    }
    restored.add({ id: 'd', text: 'A new memory about sqlite' });
    expect(restored.search('sqlite').map((r) => r.id)).toContain('d');
  });

  it('loads a file of an earlier version, its tree saved as Maps', () => {
    const original = build();
    const bytes = saveSearchState(original);
    // The same file with the tree as the Maps earlier versions saved, not as columns.
    const length = bytes.readUInt32LE(4);
    const head = deserialize(bytes.subarray(8, 8 + length)) as { treeColumns?: unknown; tree?: unknown; postingsLength: number };
    const asMaps = (node: Map<string, unknown>): Map<string, unknown> => new Map([...node].map(([k, v]) => [k, v instanceof Map ? asMaps(v) : v]));
    head.tree = asMaps(treeOfColumns(head.treeColumns, head.postingsLength)!);
    delete head.treeColumns;
    const older = serialize(head);
    const start = (n: number) => (8 + n + 3) & ~3;
    const file = Buffer.alloc(start(older.length) + bytes.length - start(length));
    bytes.copy(file, 0, 0, 4);
    file.writeUInt32LE(older.length, 4);
    older.copy(file, 8);
    bytes.copy(file, start(older.length), start(length));
    const restored = loadSearchState(file, OPTIONS)!;
    expect(restored).toBeDefined();
    expect((restored as unknown as { _index: { _tree: unknown } })._index._tree).not.toBeInstanceOf(LazyTreeNode);
    for (const q of ['sqlite', 'database wal', 'utc', 'zero config postgres']) {
      expect(restored.search(q, { prefix: true, fuzzy: 0.2 })).toEqual(original.search(q, { prefix: true, fuzzy: 0.2 }));
    }
    // Saved again, the tree is columns.
    const again = saveSearchState(restored);
    expect(deserialize(again.subarray(8, 8 + again.readUInt32LE(4)))).toHaveProperty('treeColumns');
  });

  it('rejects truncated or foreign bytes instead of throwing', () => {
    const bytes = saveSearchState(build());
    expect(loadSearchState(bytes.subarray(0, bytes.length >> 1), OPTIONS)).toBeUndefined();
    expect(loadSearchState(Buffer.from('not a state'), OPTIONS)).toBeUndefined();
    expect(loadSearchState(Buffer.alloc(0), OPTIONS)).toBeUndefined();
  });
});

const ANALYZER = { ...OPTIONS, tokenize: MiniSearch.getDefault('tokenize') as never, processTerm: MiniSearch.getDefault('processTerm') as never };
const WORDS = ['sqlite', 'postgres', 'wal', 'hooks', 'utc', 'config', 'zero', 'mode'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' '));
const ID = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'ab', 'ba', 'é');

describe('a loaded index', () => {
  it('goes through adds, discards, removals and saves exactly as an index that was never saved', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), id: ID, text, packed: fc.boolean() }),
      fc.record({ kind: fc.constant('discard' as const), id: ID }),
      fc.record({ kind: fc.constant('remove' as const), id: ID }),
      fc.record({ kind: fc.constant('save' as const) }),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ id: ID, text }), { maxLength: 8 }), fc.array(op, { maxLength: 12 }), (initial, ops) => {
        const plain = new MiniSearch(OPTIONS);
        const byId = new Map<string, string>();
        for (const d of initial) {
          if (byId.has(d.id)) continue;
          byId.set(d.id, d.text);
          plain.add(d);
        }
        let loaded = loadSearchState(saveSearchState(plain), OPTIONS)!;
        for (const o of ops) {
          if (o.kind === 'add') {
            if (plain.has(o.id)) continue;
            byId.set(o.id, o.text);
            plain.add({ id: o.id, text: o.text });
            if (o.packed) expect(addAnalyzed(loaded, analyzeDocument({ id: o.id, text: o.text }, ANALYZER))).toBe(true);
            else loaded.add({ id: o.id, text: o.text });
          } else if (o.kind === 'discard' || o.kind === 'remove') {
            expect(loaded.has(o.id)).toBe(plain.has(o.id));
            if (!plain.has(o.id)) continue;
            if (o.kind === 'discard') {
              plain.discard(o.id);
              loaded.discard(o.id);
            } else {
              const doc = { id: o.id, text: byId.get(o.id)! };
              plain.remove(doc);
              loaded.remove(doc);
            }
            byId.delete(o.id);
          } else {
            loaded = loadSearchState(saveSearchState(loaded), OPTIONS)!;
          }
          expect(loaded.documentCount).toBe(plain.documentCount);
          for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'ab', 'ba', 'é']) expect(loaded.has(id)).toBe(plain.has(id));
          for (const q of WORDS) expect(loaded.search(q, { prefix: true, fuzzy: 1 })).toEqual(plain.search(q, { prefix: true, fuzzy: 1 }));
        }
        expect(JSON.parse(JSON.stringify(loaded))).toEqual(JSON.parse(JSON.stringify(plain)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('LazyIdMap, LazyDocIds and LazyFieldLengths', () => {
  it('LazyDocIds behaves as the Map it stands for, and its live bits match', () => {
    const id = fc.constantFrom('', 'a', 'ab', 'b', 'é', 'a\u0000');
    fc.assert(
      fc.property(fc.array(fc.option(id, { nil: undefined }), { maxLength: 8 }), fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'iterate'), fc.nat(9), id)), (initial, ops) => {
        const model = new Map<number, string>();
        initial.forEach((v, shortId) => v !== undefined && model.set(shortId, v));
        const saved = SavedIds.save(model, initial.length);
        const map = new LazyDocIds(new SavedIds(saved.text, saved.ends, saved.present, saved.order));
        for (const [kind, shortId, v] of ops) {
          if (kind === 'set') {
            map.set(shortId, v);
            model.set(shortId, v);
          } else if (kind === 'delete') {
            expect(map.delete(shortId)).toBe(model.delete(shortId));
          } else {
            expect(new Map(map)).toEqual(model);
          }
          expect(map.get(shortId)).toBe(model.get(shortId));
          expect(map.has(shortId)).toBe(model.has(shortId));
          expect(Array.from(map.liveBits(10))).toEqual(Array.from({ length: 10 }, (_, k) => (model.has(k) ? 1 : 0)));
        }
        expect(map.size).toBe(model.size);
      }),
    );
  });

  it('behave as the Maps they stand for', () => {
    const key = fc.constantFrom('', 'a', 'ab', 'b', 'ba', 'z', 'é', 'a\u0000');
    fc.assert(
      fc.property(fc.uniqueArray(key), fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'iterate'), key, fc.nat(50))), (keys, ops) => {
        const model = new Map<string, number>(keys.map((k, i) => [k, i * 3]));
        const byShortId = new Map([...model].map(([k, v]) => [v, k]));
        const saved = SavedIds.save(byShortId, keys.length * 3);
        const map = new LazyIdMap(new SavedIds(saved.text, saved.ends, saved.present, saved.order));
        for (const [kind, k, v] of ops) {
          if (kind === 'set') {
            map.set(k, v);
            model.set(k, v);
          } else if (kind === 'delete') {
            expect(map.delete(k)).toBe(model.delete(k));
          } else {
            expect(new Map(map)).toEqual(model);
          }
          expect(map.get(k)).toBe(model.get(k));
          expect(map.has(k)).toBe(model.has(k));
        }
        expect(map.size).toBe(model.size);
        expect(new Map(map)).toEqual(model);
      }),
    );
    // The short ids as saved, whatever changed since (a journal keeps them for the next replay);
    // told them, another map over the same columns answers without looking, as before.
    fc.assert(
      fc.property(fc.uniqueArray(key), fc.array(fc.tuple(key, fc.nat(50))), (keys: string[], sets) => {
        const byShortId = new Map(keys.map((k, i) => [i * 3, k]));
        const saved = SavedIds.save(byShortId, keys.length * 3);
        const columns = () => new SavedIds(saved.text, saved.ends, saved.present, saved.order);
        const map = new LazyIdMap(columns());
        for (const [k, v] of sets) map.set(k, v);
        const known = new Map<string, number>();
        for (const k of [...keys, 'missing']) {
          const shortId = map.savedShortId(k)!;
          expect(shortId).toBe(keys.includes(k) ? keys.indexOf(k) * 3 : -1);
          known.set(k, shortId);
        }
        const told = new LazyIdMap(columns());
        for (const [k, shortId] of known) told.knowSaved(k, shortId);
        // A short id the columns do not have is not believed.
        told.knowSaved('missing', 1);
        for (const k of [...keys, 'missing']) expect(told.get(k)).toBe(keys.includes(k) ? keys.indexOf(k) * 3 : undefined);
        // Built whole, the map holds the current ids: the saved ones are no longer known.
        void map.size;
        expect(map.savedShortId(keys[0] ?? 'missing')).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.option(fc.array(fc.option(fc.nat(9), { nil: undefined }), { minLength: 2, maxLength: 2 }), { nil: undefined }), { maxLength: 6 }), fc.array(fc.tuple(fc.constantFrom('get', 'set', 'delete', 'iterate'), fc.nat(6))), (rows, ops) => {
        const model = new Map<number, number[]>();
        const values = new Uint32Array(rows.length * 2).fill(0xffffffff);
        const present = new Uint8Array(rows.length);
        rows.forEach((r, id) => {
          if (!r) return;
          present[id] = 1;
          const lengths: number[] = [];
          r.forEach((v, f) => {
            if (v === undefined) return;
            lengths[f] = v;
            values[id * 2 + f] = v;
          });
          model.set(id, lengths);
        });
        const map = new LazyFieldLengths({ fields: 2, values, present });
        for (const [kind, id] of ops) {
          if (kind === 'set') {
            map.set(id, [id, 1]);
            model.set(id, [id, 1]);
          } else if (kind === 'delete') {
            expect(map.delete(id)).toBe(model.delete(id));
          } else if (kind === 'iterate') {
            expect(new Map(map)).toEqual(model);
          }
          expect(map.get(id)).toEqual(model.get(id));
          expect(map.has(id)).toBe(model.has(id));
          expect(map.size).toBe(model.size);
          for (const f of [0, 1]) expect(map.lengthAt(id, f)).toBe(model.get(id)?.[f] ?? Number.NaN);
        }
      }),
    );
  });
});

describe('the radix tree as columns', () => {
  /** A plain copy of a tree (every lazy node made). */
  const plain = (node: Map<string, unknown>): unknown => new Map([...node].map(([k, v]) => [k, v instanceof Map ? plain(v) : v]));
  const term = fc.stringMatching(/^[a-z]{1,9}$/);

  it('gives back the tree it was made of, node by node as a lookup reaches it, and changes as a Map tree does (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 80 }), fc.array(fc.tuple(fc.constantFrom('get', 'prefix', 'fuzzy', 'set', 'delete'), term), { maxLength: 40 }), (terms, ops) => {
        const map = new SearchableMap<number>();
        terms.forEach((t, i) => map.set(t, i));
        const tree = (map as unknown as { _tree: Map<string, unknown> })._tree;
        const columns = treeColumnsOf(tree);
        const lazy = treeOfColumns(columns, terms.length)!;
        expect(lazy).toBeInstanceOf(LazyTreeNode);
        // Over the lazy tree and over the Maps, the same answers and the same changes.
        const reference = new SearchableMap<number>(plain(tree) as never);
        const over = new SearchableMap<number>(lazy as never);
        for (const [op, t] of ops) {
          if (op === 'get') expect(over.get(t)).toBe(reference.get(t));
          else if (op === 'prefix') expect([...over.atPrefix(t)]).toEqual([...reference.atPrefix(t)]);
          else if (op === 'fuzzy') expect(over.fuzzyGet(t, 2)).toEqual(reference.fuzzyGet(t, 2));
          else if (op === 'set') {
            over.set(t, 1000);
            reference.set(t, 1000);
          } else {
            over.delete(t);
            reference.delete(t);
          }
        }
        expect(plain(lazy)).toEqual(plain((reference as unknown as { _tree: Map<string, unknown> })._tree));
        // Saved again, the columns of the changed tree.
        expect(treeColumnsOf(lazy)).toEqual(treeColumnsOf((reference as unknown as { _tree: Map<string, unknown> })._tree));
      }),
      { numRuns: 200 },
    );
  });

  it('makes only the nodes a lookup reaches', () => {
    const map = new SearchableMap<number>();
    ['sqlite', 'sql', 'postgres', 'migration', 'migrate', 'runner', 'retry', 'retries'].forEach((t, i) => map.set(t, i));
    const lazy = treeOfColumns(treeColumnsOf((map as unknown as { _tree: Map<string, unknown> })._tree), 8)!;
    // Read past the overrides: a node not made yet holds no entries.
    const rawSize = (node: Map<string, unknown>) => Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!.call(node) as number;
    const made = (node: Map<string, unknown>): number => (rawSize(node) === 0 ? 0 : 1 + [...Map.prototype.values.call(node)].reduce((n: number, v) => n + (v instanceof Map ? made(v) : 0), 0));
    expect(made(lazy)).toBe(0);
    expect(new SearchableMap<number>(lazy as never).get('sqlite')).toBe(0);
    // The root, "s…", "sql…" and "sqlite": not "postgres", "migrat…" or "r…".
    expect(made(lazy)).toBe(3);
    expect(plain(lazy)).toEqual(plain((map as unknown as { _tree: Map<string, unknown> })._tree));
  });

  it('refuses columns that are not a tree: an offset past the postings, a node reached twice or before its parent', () => {
    const map = new SearchableMap<number>();
    ['ab', 'ac', 'b'].forEach((t, i) => map.set(t, i));
    const good = treeColumnsOf((map as unknown as { _tree: Map<string, unknown> })._tree);
    expect(treeOfColumns(good, 3)).toBeDefined();
    expect(treeOfColumns(good, 2)).toBeUndefined();
    const firstNode = good.value.findIndex((_, e) => good.keyEnds[e] !== (e === 0 ? 0 : good.keyEnds[e - 1]));
    const loop = { ...good, value: good.value.slice() };
    loop.value[firstNode] = 0;
    expect(treeOfColumns(loop, 3)).toBeUndefined();
    expect(treeOfColumns({ ...good, keys: good.keys.slice(1) }, 3)).toBeUndefined();
    expect(treeOfColumns({ ...good, first: new Uint32Array(0) }, 3)).toBeUndefined();
    expect(treeOfColumns('not columns', 3)).toBeUndefined();
  });
});

describe('SavedIds.find', () => {
  it('finds every saved id and no other, with fewer reads of the text when the ids were saved in id order (property)', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 400 }), fc.boolean(), fc.array(fc.nat(399), { maxLength: 20 }), fc.array(word, { maxLength: 30 }), (ids, sortedFirst, gaps, absent) => {
        // A build saves ids in id order; a journal's additions, and a deletion, break the run.
        const ordered = sortedFirst ? [...ids].sort() : ids;
        const byShortId = new Map(ordered.map((id, i) => [i, id]));
        for (const g of gaps) byShortId.delete(g);
        const saved = SavedIds.save(byShortId, ordered.length);
        let reads = 0;
        const all = saved.text as string;
        const text = { length: all.length, slice: (a: number, b: number) => (reads++, all.slice(a, b)), whole: () => all };
        const columns = new SavedIds(text, saved.ends, saved.present, saved.order);
        const shortIds = new Map([...byShortId].map(([shortId, id]) => [id, shortId]));
        for (const id of [...ids, ...absent]) expect(columns.find(id)).toBe(shortIds.get(id));
        // Saved in id order, one lookup reads the ids down to the last 64 one by one (a plain
        // binary search reads about log2(n) + 1), then their stretch of the text once.
        if (sortedFirst && gaps.length === 0) {
          for (const id of ids.slice(0, 5)) {
            reads = 0;
            expect(new SavedIds(text, saved.ends, saved.present, saved.order).find(id)).toBe(shortIds.get(id));
            expect(reads).toBeLessThanOrEqual(Math.max(0, Math.ceil(Math.log2(ids.length / 64))) + 2);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('openSearchState', () => {
  it('reads postings from the file term by term and answers as the saved index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-state-'));
    try {
      const original = build();
      original.discard('b');
      original.add({ id: 'e', text: 'sqlite again, with WAL' });
      // Ids outside Latin-1: the ids' column is then saved as UTF-16.
      original.add({ id: 'note-✓-日本', text: 'sqlite on a laptop' });
      const path = join(dir, 'state.v8');
      writeFileSync(path, saveSearchState(original));
      const opened = openSearchState(path, OPTIONS)!;
      expect(opened).toBeDefined();
      for (const q of ['sqlite', 'database wal', 'utc', 'zero config postgres', 'sqlit']) {
        expect(opened.search(q, { prefix: true, fuzzy: 0.2 })).toEqual(original.search(q, { prefix: true, fuzzy: 0.2 }));
      }
      expect(termDocCount(opened, 'sqlite')).toBe(termDocCount(original, 'sqlite'));
      // Documents added to the opened state: the counts from the postings' headers plus the added.
      for (const doc of [{ id: 'f', text: 'sqlite sqlite and utc, timestamps stored' }, { id: 'g', text: 'postgres in utc: hooks write timestamps' }]) {
        original.add(doc);
        // As the keyword index adds a memory: beside the saved postings, which stay packed.
        addAnalyzed(opened, analyzeDocument(doc, ANALYZER));
      }
      // Searched terms (their postings read) and terms never read (`timestamp`, `hook`, `write`: counted from headers).
      for (const term of ['sqlite', 'utc', 'postgr', 'wal', 'laptop', 'timestamp', 'store', 'hook', 'write', 'missing']) {
        expect(termDocCount(opened, term), term).toBe(termDocCount(original, term));
      }
      // A truncated file is refused, not half-read.
      writeFileSync(path, saveSearchState(original).subarray(0, -4));
      expect(openSearchState(path, OPTIONS)).toBeUndefined();
      expect(openSearchState(join(dir, 'missing.v8'), OPTIONS)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('checkTree', () => {
  /** The naive oracle: every leaf (key '') an offset below `length`, every other value a Map to check the same way. */
  function naive(node: Map<string, unknown>, length: number): boolean {
    for (const [key, value] of node) {
      if (key === '') {
        if (typeof value !== 'number' || value >= length) return false;
      } else if (!(value instanceof Map) || !naive(value as Map<string, unknown>, length)) {
        return false;
      }
    }
    return true;
  }
  const leaf = fc.oneof({ weight: 8, arbitrary: fc.nat(40) }, { weight: 1, arbitrary: fc.constantFrom<unknown>('7', null, -1, 1.5, new Map()) });
  const { tree } = fc.letrec<{ tree: Map<string, unknown> }>((tie) => ({
    tree: fc
      .array(fc.tuple(fc.constantFrom('', 'a', 'b', 'cd', 'e'), fc.oneof({ depthSize: 'small' }, leaf, tie('tree'), fc.constant<unknown>('x'))), { maxLength: 4 })
      .map((entries) => new Map(entries)),
  }));

  it('agrees with a naive walk on any tree, leaf values and bound', () => {
    fc.assert(fc.property(tree, fc.nat(45), (t, length) => checkTree(t, length) === naive(t, length)));
  });

  it('accepts the tree of a saved index and refuses one whose leaf points past the postings', () => {
    const good = new Map<string, unknown>([['sql', new Map<string, unknown>([['', 3], ['ite', new Map([['', 9]])]])], ['wal', new Map([['', 0]])]]);
    expect(checkTree(good, 10)).toBe(true);
    expect(checkTree(good, 9)).toBe(false);
  });
});
