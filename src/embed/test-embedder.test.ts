import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cosine, topKByCosine } from '../core/fusion.js';
import { createTestEmbedder } from './test-embedder.js';

const SYNONYMS = [
  ['database', 'sqlite', 'postgres', 'postgresql'],
  ['auth', 'login', 'authentication'],
];

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

describe('createTestEmbedder', () => {
  it('maps words of one synonym group to the same vector', async () => {
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const [database, sqlite, postgres] = await embedder.embed(['database', 'SQLite', 'postgres']);
    expect(cosine(database!, sqlite!)).toBeCloseTo(1, 6);
    expect(cosine(database!, postgres!)).toBeCloseTo(1, 6);
  });

  it('gives texts about synonyms a high cosine and unrelated texts a low one', async () => {
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const [query, related, unrelated] = await embedder.embed([
      'database choice',
      'sqlite chosen',
      'login page uses oauth',
    ]);
    expect(cosine(query!, related!)).toBeGreaterThan(0.45);
    expect(cosine(query!, related!)).toBeGreaterThan(cosine(query!, unrelated!));
  });

  it('lets a synonym query find a memory that shares no word with it', async () => {
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const memories = ['Use Postgres in production', 'Login flow redirects to SSO', 'Tabs not spaces'];
    const vectors = await embedder.embed(memories);
    const [query] = await embedder.embed(['database choice']);
    const top = topKByCosine(query!, memories.map((id, i) => ({ id, vector: vectors[i]! })), 1);
    expect(top[0]?.id).toBe('Use Postgres in production');
  });

  it('returns L2-normalised vectors of the configured length, and zero for a text without words', async () => {
    const embedder = createTestEmbedder({ synonyms: SYNONYMS, dims: 16 });
    expect(embedder.dims).toBe(16);
    fc.assert(
      fc.asyncProperty(fc.array(fc.string(), { maxLength: 5 }), async (texts) => {
        const vectors = await embedder.embed(texts);
        expect(vectors).toHaveLength(texts.length);
        vectors.forEach((v, i) => {
          expect(v).toHaveLength(16);
          const hasWord = /[\p{L}\p{N}]/u.test(texts[i]!);
          expect(norm(v)).toBeCloseTo(hasWord ? 1 : 0, 5);
        });
      }),
    );
  });

  it('is deterministic across instances', async () => {
    const [a] = await createTestEmbedder({ synonyms: SYNONYMS }).embed(['the quick brown fox']);
    const [b] = await createTestEmbedder({ synonyms: SYNONYMS }).embed(['the quick brown fox']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('derives its model identity from the synonym table, so changing it invalidates caches', () => {
    expect(createTestEmbedder({ synonyms: SYNONYMS }).model).toBe(createTestEmbedder({ synonyms: SYNONYMS }).model);
    expect(createTestEmbedder({ synonyms: SYNONYMS }).model).not.toBe(createTestEmbedder({ synonyms: [['a', 'b']] }).model);
    expect(createTestEmbedder({ synonyms: SYNONYMS, dims: 32 }).model).not.toBe(createTestEmbedder({ synonyms: SYNONYMS }).model);
    expect(createTestEmbedder({ model: 'fixed' }).model).toBe('fixed');
  });

  it('counts calls and embedded texts', async () => {
    const embedder = createTestEmbedder();
    await embedder.embed(['a', 'b']);
    await embedder.embed(['c']);
    expect(embedder.calls).toBe(2);
    expect(embedder.embeddedCount).toBe(3);
  });

  it('rejects too few dimensions for the synonym groups', () => {
    expect(() => createTestEmbedder({ synonyms: SYNONYMS, dims: 2 })).toThrow(RangeError);
  });
});
