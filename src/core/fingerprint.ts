/**
 * Order-independent fingerprints of a set of lines: the sum of a 64-bit hash of each line
 * (two 32-bit lanes), with the count. Adding and removing a line are O(length), so an index
 * can keep the fingerprint of its memories up to date as they change, and a reader that has
 * the memories in any order computes the same value. A cache key, not a security measure.
 */

/** A fingerprint as parts that add up: the number of lines and the two lane sums. */
export interface FingerprintParts {
  count: number;
  a: number;
  b: number;
}

/** The two lanes of a line's hash: FNV-1a and a Murmur-style mix, over UTF-16 units. */
export function lineHash(line: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ line.length;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final avalanche, so that similar lines spread over the whole lane.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  return [a >>> 0, b >>> 0];
}

/**
 * A memory's line in the fingerprint the graph cache is keyed on: its tier, id and
 * `[[links]]` (space-separated). The keyword index keeps the sum of these lines as its
 * memories change (search/doc-table.ts); the briefing computes it from memories it read.
 */
export function memoryLine(scope: string, id: string, links: string): string {
  return links === '' ? `${scope}\u0000${id}` : `${scope}\u0000${id}\u0000${links}`;
}

/** The empty set's parts. */
export function emptyFingerprint(): FingerprintParts {
  return { count: 0, a: 0, b: 0 };
}

/** Adds (`sign` 1) or removes (`sign` -1) a line, in place. */
export function addLine(parts: FingerprintParts, line: string, sign: 1 | -1 = 1): void {
  const [a, b] = lineHash(line);
  parts.count += sign;
  parts.a = (parts.a + sign * a) >>> 0;
  parts.b = (parts.b + sign * b) >>> 0;
}

/** The parts of two sets together. */
export function combineFingerprints(x: FingerprintParts, y: FingerprintParts): FingerprintParts {
  return { count: x.count + y.count, a: (x.a + y.a) >>> 0, b: (x.b + y.b) >>> 0 };
}

/**
 * The fingerprint as text.
 *
 * @example
 * const p = emptyFingerprint(); addLine(p, 'x'); fingerprintText(p) // '1-…-…'
 */
export function fingerprintText(parts: FingerprintParts): string {
  return `${parts.count}-${parts.a.toString(16).padStart(8, '0')}-${parts.b.toString(16).padStart(8, '0')}`;
}
