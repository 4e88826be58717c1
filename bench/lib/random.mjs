/**
 * A seeded PRNG and the few distributions the corpus generators need.
 * Everything here is deterministic for a given seed: the same seed gives the same corpus
 * on every machine and Node version (only 32-bit integer arithmetic, no Math.random).
 */

/**
 * mulberry32: a small, fast 32-bit generator; good enough for synthetic data.
 *
 * @example
 * const next = mulberry32(42); next(); // a float in [0, 1)
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes a string into a 32-bit seed, so sub-generators (`seed`, 'edges') stay independent. */
export function hashSeed(seed, label = '') {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of String(label)) {
    h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * A random source with helpers, all driven by one mulberry32 stream.
 *
 * @example
 * const rng = createRandom(7); rng.int(1, 6); rng.pick(['a', 'b']); rng.chance(0.3);
 */
export function createRandom(seed) {
  const next = mulberry32(seed);
  const rng = {
    next,
    /** Integer in [min, max], both inclusive. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    /** Picks from `[[value, weight], …]`. */
    weighted: (pairs) => {
      let total = 0;
      for (const [, w] of pairs) total += w;
      let r = next() * total;
      for (const [value, w] of pairs) {
        r -= w;
        if (r < 0) return value;
      }
      return pairs[pairs.length - 1][0];
    },
    /**
     * Index in [0, n) with a Zipf-like skew (rank r has weight 1 / (r + 1)^s): a few items
     * are common, most are rare, as with words and tags in real notes.
     */
    zipf: (n, s = 1) => {
      const table = zipfTable(n, s);
      const r = next() * table[table.length - 1];
      let lo = 0;
      let hi = table.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (table[mid] > r) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    },
    pickZipf: (items, s = 1) => items[rng.zipf(items.length, s)],
    /** `k` distinct items (fewer when `items` is shorter), Zipf-skewed. */
    sampleZipf: (items, k, s = 1) => {
      const out = new Set();
      for (let tries = 0; out.size < Math.min(k, items.length) && tries < k * 20; tries++) out.add(rng.pickZipf(items, s));
      return [...out];
    },
    shuffle: (items) => {
      const a = [...items];
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
    /** `n` lower-case hex characters. */
    hex: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(next() * 16)];
      return s;
    },
    /** `n` bytes, for id suffixes (same contract as crypto.randomBytes). */
    bytes: (n) => {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = Math.floor(next() * 256);
      return b;
    },
  };
  return rng;
}

const zipfCache = new Map();
function zipfTable(n, s) {
  const key = `${n}:${s}`;
  let table = zipfCache.get(key);
  if (!table) {
    table = new Float64Array(n);
    let acc = 0;
    for (let i = 0; i < n; i++) {
      acc += 1 / (i + 1) ** s;
      table[i] = acc;
    }
    zipfCache.set(key, table);
  }
  return table;
}
