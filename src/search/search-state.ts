/**
 * Saving and loading a MiniSearch index fast.
 *
 * `MiniSearch.loadJS` rebuilds the whole radix tree from JSON; at 10,000 memories that
 * (plus the JSON parse) is the largest single cost of a warm `recall`. The built tree is a
 * structure of Maps, which V8's structured serializer writes and reads back as is, several
 * times faster than the JSON round trip. That reaches into MiniSearch's private fields, so
 * every step is checked: if the fields are not where this code expects them (another
 * MiniSearch version), it stores MiniSearch's own JSON form instead, and a state that does
 * not restore to the same document count is rejected (the caller rebuilds the index).
 */
import { deserialize, serialize } from 'node:v8';
import MiniSearch, { type Options } from 'minisearch';

/** The private fields of a MiniSearch instance that make up its state (minisearch 7). */
const FIELDS = [
  '_documentIds',
  '_idToShortId',
  '_fieldIds',
  '_fieldLength',
  '_avgFieldLength',
  '_nextId',
  '_storedFields',
  '_documentCount',
  '_dirtCount',
] as const;

type Internals = Record<(typeof FIELDS)[number], unknown> & { _index?: { _tree?: unknown; _size?: unknown } };

interface SavedState {
  kind: 'tree' | 'json';
  documentCount: number;
  tree?: unknown;
  fields?: Record<string, unknown>;
  json?: unknown;
}

function hasInternals(ms: MiniSearch): boolean {
  const m = ms as unknown as Internals;
  return (
    m._index?._tree instanceof Map &&
    m._documentIds instanceof Map &&
    m._idToShortId instanceof Map &&
    m._fieldLength instanceof Map &&
    typeof m._documentCount === 'number' &&
    FIELDS.every((f) => f in m)
  );
}

/**
 * Serializes an index to bytes.
 *
 * @example
 * const bytes = saveSearchState(index); // later: loadSearchState(bytes, options)
 */
export function saveSearchState(ms: MiniSearch): Buffer {
  if (hasInternals(ms)) {
    const m = ms as unknown as Internals;
    const fields: Record<string, unknown> = {};
    for (const f of FIELDS) fields[f] = m[f];
    return serialize({ kind: 'tree', documentCount: ms.documentCount, tree: m._index!._tree, fields } satisfies SavedState);
  }
  return serialize({ kind: 'json', documentCount: ms.documentCount, json: ms.toJSON() } satisfies SavedState);
}

/**
 * Restores an index saved by `saveSearchState`, or returns `undefined` when the bytes are
 * not a usable state (truncated, another format, another MiniSearch).
 */
export function loadSearchState(bytes: Buffer, options: Options): MiniSearch | undefined {
  let state: SavedState;
  try {
    state = deserialize(bytes) as SavedState;
  } catch {
    return undefined;
  }
  if (typeof state !== 'object' || state === null || typeof state.documentCount !== 'number') return undefined;
  try {
    if (state.kind === 'json') {
      const ms = MiniSearch.loadJS(state.json as never, options);
      return ms.documentCount === state.documentCount ? ms : undefined;
    }
    if (state.kind !== 'tree' || !(state.tree instanceof Map) || !state.fields) return undefined;
    const ms = new MiniSearch(options);
    if (!hasInternals(ms)) return undefined;
    const m = ms as unknown as Internals;
    for (const f of FIELDS) {
      if (!(f in state.fields)) return undefined;
      (m as Record<string, unknown>)[f] = state.fields[f];
    }
    m._index!._tree = state.tree;
    m._index!._size = undefined;
    return ms.documentCount === state.documentCount ? ms : undefined;
  } catch {
    return undefined;
  }
}
