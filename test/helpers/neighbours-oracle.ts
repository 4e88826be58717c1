/**
 * The naive oracle of conversation neighbours (core/neighbours.ts, the doc table's session
 * columns): a memory's neighbours are the memories beside it in its session's list, both
 * ways, nearest first.
 */

/** Positions in a session's list around `id`, both ways, nearest first, up to `width` each way. */
export function naiveAround(order: Map<string, string[]>, id: string, width: number): string[] {
  for (const list of order.values()) {
    const i = list.indexOf(id);
    if (i === -1) continue;
    const out: string[] = [];
    for (let d = 1; d <= width; d++) {
      if (list[i - d] !== undefined) out.push(list[i - d]!);
      if (list[i + d] !== undefined) out.push(list[i + d]!);
    }
    return out;
  }
  return [];
}
