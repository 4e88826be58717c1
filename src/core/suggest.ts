/**
 * "Did you mean …?": the names closest to what a person typed, for unknown commands,
 * options and memory ids.
 */

/**
 * Levenshtein distance between two strings, or `max + 1` as soon as it exceeds `max`
 * (so comparing a typo with 100,000 ids stays cheap).
 *
 * @example
 * editDistance('recal', 'recall') // 1
 * editDistance('abc', 'xyz', 1) // 2 (more than max)
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = row;
  }
  const d = prev[b.length]!;
  return d > max ? max + 1 : d;
}

/**
 * The name in `names` that `name` most likely meant: one it is a prefix of (or that is a
 * prefix of it), else one at most two edits away.
 *
 * @example
 * closest('tag', ['tags', 'type']) // 'tags'
 * closest('recal', ['recall', 'remember']) // 'recall'
 */
export function closest(name: string, names: readonly string[]): string | undefined {
  if (name === '') return undefined;
  const prefix = names.find((n) => n.startsWith(name) || name.startsWith(n));
  if (prefix) return prefix;
  let best: string | undefined;
  let bestDist = 3;
  for (const n of names) {
    const d = editDistance(n, name, bestDist - 1);
    if (d < bestDist) [best, bestDist] = [n, d];
  }
  return best;
}

/** The random part of a memory id: `-` and 6 base32 characters. */
const ID_SUFFIX = /-[a-z2-7]{6}$/;

/**
 * The memory ids nearest to a mistyped one, best first: ids within a few edits of it (the
 * random suffix compared too when it was typed), or whose start it nearly is.
 *
 * @example
 * nearestIds('chose-sqlite-over-postgress-k3f9qa', ['chose-sqlite-over-postgres-k3f9qa', 'use-redis-p2x81d']) // ['chose-sqlite-over-postgres-k3f9qa']
 * nearestIds('no-such-id-zzzzzz', ['chose-sqlite-over-postgres-k3f9qa']) // []
 */
export function nearestIds(typed: string, ids: readonly string[], limit = 3): string[] {
  const want = typed.toLowerCase();
  const hasSuffix = ID_SUFFIX.test(want);
  const slugOf = (id: string) => id.replace(ID_SUFFIX, '');
  const key = slugOf(want);
  const max = Math.max(2, Math.floor(key.length / 6));
  const scored: { id: string; d: number }[] = [];
  for (const id of ids) {
    const whole = slugOf(id);
    // With a suffix typed, the exact id first; a wrong suffix costs one edit, however wrong.
    let d = hasSuffix ? Math.min(editDistance(want, id, max), editDistance(key, whole, max) + 1) : editDistance(key, whole, max);
    // A mistyped start of an id ("chose-sqlite-over-postgress" for "chose-sqlite-over-postgres-because-…").
    for (let k = key.length - 2; k <= key.length + 2 && d > 0; k++) {
      if (k > 0 && k < whole.length) d = Math.min(d, editDistance(key, whole.slice(0, k), max) + 1);
    }
    if (d <= max) scored.push({ id, d });
  }
  return scored
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((s) => s.id);
}
