/**
 * Conversation neighbours: memories captured next to each other in one session belong
 * together (the question and its answer, a decision and the alternative it rejected, an error
 * and its fix), and recall can use that where a plain index cannot. Pure: the order of the
 * sessions comes in as data, the re-ranking goes out as data.
 */

/** A memory as the session order needs it. */
export interface SessionMember {
  id: string;
  /** `source.session`; memories without one have no neighbours. */
  session?: string | undefined;
  /** ISO date: the order within a session (ties by id). */
  created: string;
}

/**
 * Each session's memories in the order they were made: by `created`, then by id.
 * Memories without a session are left out. Sessions come in the order of their names.
 *
 * @example
 * buildSessionOrder([
 *   { id: 'b', session: 's1', created: '2026-01-01T10:05:00Z' },
 *   { id: 'a', session: 's1', created: '2026-01-01T10:00:00Z' },
 *   { id: 'c', created: '2026-01-01T10:01:00Z' },
 * ]) // Map { 's1' => ['a', 'b'] }
 */
export function buildSessionOrder(members: Iterable<SessionMember>): Map<string, string[]> {
  const by = new Map<string, SessionMember[]>();
  for (const m of members) {
    if (!m.session) continue;
    let list = by.get(m.session);
    if (!list) by.set(m.session, (list = []));
    list.push(m);
  }
  const out = new Map<string, string[]>();
  for (const session of [...by.keys()].sort()) {
    const list = by.get(session)!;
    list.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    out.set(session, list.map((m) => m.id));
  }
  return out;
}

export interface NeighbourOptions {
  /** How many of the first results pass score on (default 20): the expansion stays bounded. */
  seeds?: number;
  /** How far along the session, each way (default 2): up to `2 × width` neighbours per seed. */
  width?: number;
  /** Share of a seed's score each neighbour receives (default 0.1). */
  weight?: number;
}

/**
 * Defaults measured on LoCoMo and checked on the mail threads (bench/locomo/README.md,
 * "Issue 19, part 1"): ±2 places at 0.1 of the score, from the first 20 results. The weight
 * is `recall.neighbourWeight` in the config (0 turns it off).
 */
export const DEFAULT_NEIGHBOURS: Required<NeighbourOptions> = { seeds: 20, width: 2, weight: 0.1 };

export interface ScoredId {
  id: string;
  score: number;
}

/**
 * What each memory receives from the results next to it in their sessions: every one of the
 * first `seeds` results gives `weight × its score` to each memory within `width` places of it
 * in its session (both ways). A memory next to two results receives from both. Returns
 * id → bonus (the results themselves included when they are next to another result).
 *
 * `around(id, width)` gives the memories within `width` places of `id` in its session that
 * may be shown (the caller's filters apply), or nothing.
 *
 * @example
 * const order = ['q', 'a', 'x'];
 * const around = (id: string, w: number) => { const i = order.indexOf(id); return order.filter((_, j) => j !== i && Math.abs(j - i) <= w); };
 * neighbourBonus([{ id: 'q', score: 10 }], around, { width: 1 }) // Map { 'a' => 1 }
 */
export function neighbourBonus(results: readonly ScoredId[], around: (id: string, width: number) => readonly string[], options: NeighbourOptions = {}): Map<string, number> {
  const { seeds, width, weight } = { ...DEFAULT_NEIGHBOURS, ...options };
  const bonus = new Map<string, number>();
  if (weight <= 0 || width <= 0) return bonus;
  for (const seed of results.slice(0, seeds)) {
    const given = weight * seed.score;
    if (!(given > 0)) continue;
    for (const id of around(seed.id, width)) bonus.set(id, (bonus.get(id) ?? 0) + given);
  }
  return bonus;
}

/**
 * The results re-ranked with the bonus: each result's score plus what it receives from the
 * results next to it. Only the results are ranked: a neighbour that is not among them (it
 * contains none of the query's words, or fewer than the last result) is not added, so every
 * result still answers the query in its own words. Best first; ties keep the results' order.
 *
 * @example
 * rankWithNeighbours([{ id: 'q', score: 10 }, { id: 'z', score: 1 }, { id: 'a', score: 0.5 }], new Map([['a', 1]]))
 * // [{ id: 'q', score: 10 }, { id: 'a', score: 1.5 }, { id: 'z', score: 1 }]
 */
export function rankWithNeighbours<T extends ScoredId>(results: readonly T[], bonus: ReadonlyMap<string, number>): T[] {
  if (bonus.size === 0) return [...results];
  return results
    .map((r, at) => ({ item: (bonus.get(r.id) ?? 0) > 0 ? { ...r, score: r.score + bonus.get(r.id)! } : r, at }))
    .sort((a, b) => b.item.score - a.item.score || a.at - b.at)
    .map((r) => r.item);
}

// ---------------------------------------------------------------------------------------------
// The session order as text: what `.memory/session-order.txt` holds (cache/session-order.ts).
// One line per session, `<session>\t<id> <id> …` in order, and one line `-\t<id> <id> …` of the
// memories in no session, so an update knows which memories it has seen. Memory ids and
// session names never hold whitespace here: a session whose name does is left out.

const NONE = '-';

/** A session name the text can hold. */
function isStorableSession(session: string): boolean {
  return session !== NONE && !/\s/.test(session);
}

/**
 * The order as text (see above), sessions by name.
 *
 * @example
 * renderSessionOrder(new Map([['s1', ['a', 'b']]]), ['c']) // '-\tc\ns1\ta b\n'
 */
export function renderSessionOrder(order: ReadonlyMap<string, readonly string[]>, none: Iterable<string>): string {
  const lines = [`${NONE}\t${[...none].sort().join(' ')}`];
  for (const session of [...order.keys()].sort()) {
    if (!isStorableSession(session)) continue;
    const ids = order.get(session)!;
    if (ids.length > 0) lines.push(`${session}\t${ids.join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The text read back: the sessions' orders and the memories in none; undefined when it is
 * not such a text.
 *
 * @example
 * parseSessionOrder('-\tc\ns1\ta b\n') // { order: Map { 's1' => ['a', 'b'] }, none: Set { 'c' } }
 */
export function parseSessionOrder(text: string): { order: Map<string, string[]>; none: Set<string> } | undefined {
  const order = new Map<string, string[]>();
  let none: Set<string> | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    if (tab <= 0) return undefined;
    const name = line.slice(0, tab);
    const ids = line.slice(tab + 1).split(' ').filter(Boolean);
    if (name === NONE) none = new Set(ids);
    else order.set(name, ids);
  }
  return none ? { order, none } : undefined;
}

/**
 * The neighbours of a memory straight from the text, without parsing it: the ids within
 * `width` places in its session line, nearest first (before, then after, at each distance).
 * A warm recall looks up its first few results this way and reads nothing else.
 *
 * @example
 * const around = sessionLookup('-\tz\ns1\ta b c d\n');
 * around('b', 1) // ['a', 'c']
 * around('a', 2) // ['b', 'c']
 * around('z', 2) // []
 */
export function sessionLookup(text: string): (id: string, width: number) => string[] {
  // A long-lived process (the MCP server) looks up a few dozen ids per question, each a scan
  // of the text (5.5 MB at 100,000 memories): past LOOKUPS_BEFORE_INDEX lookups the text is
  // indexed by id once and every later lookup is a Map read.
  let lookups = 0;
  let byId: Map<string, { ids: string[]; i: number }> | undefined;
  const nearest = (ids: readonly string[], i: number, width: number): string[] => {
    const out: string[] = [];
    for (let d = 1; d <= width; d++) {
      if (i - d >= 0) out.push(ids[i - d]!);
      if (i + d < ids.length) out.push(ids[i + d]!);
    }
    return out;
  };
  return (id, width) => {
    if (id === '' || /\s/.test(id)) return [];
    if (++lookups > LOOKUPS_BEFORE_INDEX) {
      byId ??= indexSessionOrder(text);
      const at = byId.get(id);
      return at ? nearest(at.ids, at.i, width) : [];
    }
    for (let at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
      const before = text[at - 1];
      const after = text[at + id.length];
      if ((before !== '\t' && before !== ' ') || (after !== ' ' && after !== '\n' && after !== undefined)) continue;
      const start = text.lastIndexOf('\n', at) + 1;
      const tab = text.indexOf('\t', start);
      if (text.slice(start, tab) === NONE) return [];
      const end = text.indexOf('\n', at);
      const ids = text.slice(tab + 1, end === -1 ? undefined : end).split(' ');
      return nearest(ids, ids.indexOf(id), width);
    }
    return [];
  };
}

/** Lookups a {@link sessionLookup} answers by scanning before it indexes its text. */
export const LOOKUPS_BEFORE_INDEX = 64;

/** Each id of a session order's text with its session's list and its place in it (sessionless ids left out). */
function indexSessionOrder(text: string): Map<string, { ids: string[]; i: number }> {
  const byId = new Map<string, { ids: string[]; i: number }>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0 || line.slice(0, tab) === NONE) continue;
    const ids = line.slice(tab + 1).split(' ');
    ids.forEach((id, i) => {
      if (id !== '' && !byId.has(id)) byId.set(id, { ids, i });
    });
  }
  return byId;
}

/**
 * Brings a session order up to date with the memories that exist now, reading only what is
 * new: memories it has not seen are read (`read`), those gone are dropped, and a session a
 * new memory joins is ordered again, reading its members' dates. Everything else is kept as
 * it was: a memory's session and creation date are set when it is made.
 *
 * @example
 * const next = updateSessionOrder({ order: new Map([['s', ['a']]]), none: new Set() }, ['a', 'b'], (id) =>
 *   ({ id, session: 's', created: id === 'a' ? '2026-01-01T00:00:00Z' : '2026-01-02T00:00:00Z' }));
 * next.order.get('s') // ['a', 'b']
 */
export function updateSessionOrder(
  previous: { order: ReadonlyMap<string, readonly string[]>; none: ReadonlySet<string> } | undefined,
  current: Iterable<string>,
  read: (id: string) => SessionMember | undefined,
): { order: Map<string, string[]>; none: Set<string> } {
  const now = new Set(current);
  const order = new Map<string, string[]>();
  const none = new Set<string>();
  const seen = new Set<string>();
  for (const [session, ids] of previous?.order ?? []) {
    const kept = ids.filter((id) => now.has(id));
    for (const id of kept) seen.add(id);
    if (kept.length > 0) order.set(session, kept);
  }
  for (const id of previous?.none ?? []) {
    if (now.has(id)) (none.add(id), seen.add(id));
  }
  const joined = new Map<string, SessionMember[]>();
  for (const id of now) {
    if (seen.has(id)) continue;
    const member = read(id);
    if (!member?.session || !isStorableSession(member.session) || /\s/.test(id)) {
      if (!/\s/.test(id)) none.add(id);
      continue;
    }
    let list = joined.get(member.session);
    if (!list) joined.set(member.session, (list = []));
    list.push({ ...member, id });
  }
  for (const [session, added] of joined) {
    const members: SessionMember[] = [...added];
    for (const id of order.get(session) ?? []) {
      const m = read(id);
      if (m) members.push({ id, session, created: m.created });
    }
    order.set(session, buildSessionOrder(members).get(session) ?? []);
  }
  return { order, none };
}
