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
