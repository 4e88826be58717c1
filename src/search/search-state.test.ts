import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { loadSearchState, saveSearchState } from './search-state.js';

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

  it('rejects truncated or foreign bytes instead of throwing', () => {
    const bytes = saveSearchState(build());
    expect(loadSearchState(bytes.subarray(0, bytes.length >> 1), OPTIONS)).toBeUndefined();
    expect(loadSearchState(Buffer.from('not a state'), OPTIONS)).toBeUndefined();
    expect(loadSearchState(Buffer.alloc(0), OPTIONS)).toBeUndefined();
  });
});
