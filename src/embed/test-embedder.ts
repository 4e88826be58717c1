/**
 * A deterministic embedder for tests: bag of words where synonyms share a dimension.
 * It lets tests state semantic expectations ("database" finds the "sqlite" memory)
 * without model weights, through the same `Embedder` interface recall uses.
 */
import type { Embedder } from './embedder.js';

export interface TestEmbedderOptions {
  /** Groups of words that mean the same; each group owns one dimension. Case-insensitive. */
  synonyms: string[][];
  /** Vector length; must exceed the number of synonym groups. */
  dims: number;
  /** Identity for vector caches; by default derived from `synonyms` and `dims`. */
  model: string | undefined;
}

export const DEFAULT_TEST_EMBEDDER: TestEmbedderOptions = { synonyms: [], dims: 64, model: undefined };

/** The embedder plus how many texts it has embedded, so tests can assert on caching. */
export interface TestEmbedder extends Embedder {
  readonly dims: number;
  /** Texts embedded so far, over all calls. */
  readonly embeddedCount: number;
  /** Number of `embed` calls so far. */
  readonly calls: number;
}

/** FNV-1a, 32-bit: stable across runs and platforms, unlike anything seeded. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Creates the test embedder. Words of synonym group `i` count towards dimension `i`;
 * any other word is hashed into the remaining dimensions. Vectors are L2-normalised;
 * a text without words maps to the zero vector.
 *
 * @example
 * const e = createTestEmbedder({ synonyms: [['database', 'sqlite', 'postgres']] })
 * const [a, b] = await e.embed(['database', 'sqlite']) // cosine(a, b) === 1
 */
export function createTestEmbedder(options: Partial<TestEmbedderOptions> = {}): TestEmbedder {
  const { synonyms, dims, model } = { ...DEFAULT_TEST_EMBEDDER, ...options };
  if (!Number.isInteger(dims) || dims <= synonyms.length) {
    throw new RangeError(`dims (${dims}) must be an integer above the number of synonym groups (${synonyms.length})`);
  }
  const groupOf = new Map<string, number>();
  synonyms.forEach((group, index) => {
    for (const word of group) for (const w of words(word)) groupOf.set(w, index);
  });
  const free = dims - synonyms.length;
  const identity = model ?? `test-embedder:${fnv1a(JSON.stringify([synonyms, dims])).toString(16).padStart(8, '0')}`;
  let embeddedCount = 0;
  let calls = 0;

  const vectorOf = (text: string): Float32Array => {
    const vector = new Float32Array(dims);
    for (const word of words(text)) {
      const index = groupOf.get(word) ?? synonyms.length + (fnv1a(word) % free);
      vector[index] = (vector[index] ?? 0) + 1;
    }
    let norm = 0;
    for (const x of vector) norm += x * x;
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let i = 0; i < dims; i++) vector[i] = (vector[i] ?? 0) * scale;
    }
    return vector;
  };

  return {
    model: identity,
    dims,
    get embeddedCount() {
      return embeddedCount;
    },
    get calls() {
      return calls;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      calls++;
      embeddedCount += texts.length;
      return texts.map(vectorOf);
    },
  };
}
