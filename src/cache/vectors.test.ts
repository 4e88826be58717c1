import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import fc from 'fast-check';
import { createTestEmbedder } from '../embed/test-embedder.js';
import type { Embedder } from '../embed/embedder.js';
import { VectorCache, embedMissing, loadVectorCache, renderVectorCache, saveVectorCache } from './vectors.js';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cortex-vectors-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function hashOf(i: number): string {
  return i.toString(16).padStart(32, '0');
}

/** Deterministic pseudo-random unit vectors (LCG), so no test depends on Math.random. */
function unitVectors(count: number, dims: number, seed = 1): Float32Array[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });
}

function filledCache(model: string, count: number, dims: number): VectorCache {
  const cache = new VectorCache({ model });
  unitVectors(count, dims).forEach((v, i) => cache.set(hashOf(i), v));
  return cache;
}

describe('VectorCache', () => {
  it('stores vectors by hash and fixes its dimensions on the first set', () => {
    const cache = new VectorCache({ model: 'm' });
    expect(cache.dims).toBeUndefined();
    cache.set('a', Float32Array.of(1, 0, 0));
    expect(cache.dims).toBe(3);
    expect(Array.from(cache.get('a')!)).toEqual([1, 0, 0]);
    expect(cache.has('b')).toBe(false);
    expect(cache.size).toBe(1);
    expect(cache.dirty).toBe(true);
  });

  it('rejects a vector of another length and keys the file format cannot hold', () => {
    const cache = new VectorCache({ model: 'm', dims: 3 });
    expect(() => cache.set('a', Float32Array.of(1, 0))).toThrow(RangeError);
    expect(() => cache.set('', Float32Array.of(1, 0, 0))).toThrow(RangeError);
    expect(() => cache.set('a\nb', Float32Array.of(1, 0, 0))).toThrow(RangeError);
  });

  it('prunes every hash that is not live and reports how many', () => {
    const cache = filledCache('m', 5, 4);
    expect(cache.prune([hashOf(1), hashOf(3), 'not-cached'])).toBe(3);
    expect([...cache.keys()].sort()).toEqual([hashOf(1), hashOf(3)]);
    expect(cache.prune(new Set([hashOf(1), hashOf(3)]))).toBe(0);
  });
});

describe('saveVectorCache', () => {
  it('round-trips keys, vectors, model and dimensions through the binary file', async () => {
    const file = path.join(await tempDir(), '.memory', 'vectors.bin');
    const cache = filledCache('Xenova/all-MiniLM-L6-v2:q8', 20, 8);
    await saveVectorCache(file, cache);
    expect(cache.dirty).toBe(false);
    const loaded = await loadVectorCache(file, { model: 'Xenova/all-MiniLM-L6-v2:q8' });
    expect(loaded.status).toBe('loaded');
    expect(loaded.dims).toBe(8);
    expect(loaded.dirty).toBe(false);
    expect([...loaded.keys()].sort()).toEqual([...cache.keys()].sort());
    for (const [hash, vector] of cache.entries()) expect(Array.from(loaded.get(hash)!)).toEqual(Array.from(vector));
  });

  it('writes a compact binary file starting with CXVEC', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    await saveVectorCache(file, filledCache('m', 100, 384));
    const bytes = await readFile(file);
    expect(bytes.toString('latin1', 0, 5)).toBe('CXVEC');
    // keys + float32 vectors + a small header: no JSON-style blow-up
    expect(bytes.length).toBeLessThan(100 * (384 * 4 + 33) + 64);
  });

  it('writes identical bytes for equal caches, whatever the insertion order', () => {
    const vectors = unitVectors(10, 4);
    const forward = new VectorCache({ model: 'm' });
    const backward = new VectorCache({ model: 'm' });
    vectors.forEach((v, i) => forward.set(hashOf(i), v));
    [...vectors.entries()].reverse().forEach(([i, v]) => backward.set(hashOf(i), v));
    expect(renderVectorCache(backward).equals(renderVectorCache(forward))).toBe(true);
  });

  it('replaces the file atomically and leaves no temporary files behind', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'vectors.bin');
    await saveVectorCache(file, filledCache('m', 3, 4));
    const cache = filledCache('m', 7, 4);
    await saveVectorCache(file, cache);
    expect(await readdir(dir)).toEqual(['vectors.bin']);
    expect((await loadVectorCache(file, { model: 'm' })).size).toBe(7);
  });

  it('saves and loads an empty cache', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    await saveVectorCache(file, new VectorCache({ model: 'm', dims: 384 }));
    const loaded = await loadVectorCache(file, { model: 'm' });
    expect(loaded.status).toBe('loaded');
    expect(loaded.size).toBe(0);
    expect(loaded.dims).toBe(384);
  });
});

describe('loadVectorCache', () => {
  it('returns an empty cache with status "missing" when there is no file', async () => {
    const cache = await loadVectorCache(path.join(await tempDir(), 'nope', 'vectors.bin'), { model: 'm' });
    expect(cache.status).toBe('missing');
    expect(cache.size).toBe(0);
  });

  it('returns an empty cache for another model id (the model changed)', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    await saveVectorCache(file, filledCache('model-a:q8', 5, 4));
    const cache = await loadVectorCache(file, { model: 'model-b:q8' });
    expect(cache.status).toBe('stale');
    expect(cache.size).toBe(0);
    expect(cache.model).toBe('model-b:q8');
  });

  it('returns an empty cache when the expected dimensions differ', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    await saveVectorCache(file, filledCache('m', 5, 4));
    expect((await loadVectorCache(file, { model: 'm', dims: 8 })).size).toBe(0);
    expect((await loadVectorCache(file, { model: 'm', dims: 4 })).size).toBe(5);
  });

  it('returns an empty cache for another format version', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const bytes = renderVectorCache(filledCache('m', 2, 4));
    bytes[5] = 99;
    await writeFile(file, bytes);
    expect(await loadVectorCache(file, { model: 'm' })).toMatchObject({ status: 'stale', size: 0 });
  });

  it('returns an empty cache for garbage, an empty file, a JSON file or a directory', async () => {
    const dir = await tempDir();
    const cases: Record<string, string | Buffer> = {
      garbage: Buffer.from('not a vector file at all, certainly not one with a header'),
      empty: Buffer.alloc(0),
      json: JSON.stringify({ model: 'm', vectors: {} }),
    };
    for (const [name, content] of Object.entries(cases)) {
      await writeFile(path.join(dir, name), content);
      expect(await loadVectorCache(path.join(dir, name), { model: 'm' }), name).toMatchObject({ status: 'corrupt', size: 0 });
    }
    expect(await loadVectorCache(dir, { model: 'm' })).toMatchObject({ status: 'corrupt', size: 0 });
  });

  it('returns an empty cache for any truncation of a valid file', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const bytes = renderVectorCache(filledCache('m', 6, 5));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), async (length) => {
        await writeFile(file, bytes.subarray(0, length));
        const cache = await loadVectorCache(file, { model: 'm' });
        expect(cache.size).toBe(0);
        expect(cache.status).toBe('corrupt');
      }),
      { numRuns: 60 },
    );
  });

  it('never throws on a flipped byte, and never returns altered vectors', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const original = filledCache('m', 6, 5);
    const bytes = renderVectorCache(original);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, mask) => {
        const damaged = Buffer.from(bytes);
        damaged[at] = (damaged[at] ?? 0) ^ mask;
        await writeFile(file, damaged);
        const cache = await loadVectorCache(file, { model: 'm' });
        // Either the damage is detected (empty), or it hit padding/reserved bytes and the data is intact.
        if (cache.size > 0) {
          for (const [hash, vector] of original.entries()) expect(Array.from(cache.get(hash)!)).toEqual(Array.from(vector));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('detects every change to the block lengths in the header, which the CRC does not cover', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const original = filledCache('m', 6, 5);
    const bytes = renderVectorCache(original);
    // Bytes 16-23: the model and key block lengths. A key length off by one can land on the
    // same padded offset; that once shifted the last key by a byte, undetected.
    for (let at = 16; at < 24; at++) {
      for (let mask = 1; mask < 256; mask++) {
        const damaged = Buffer.from(bytes);
        damaged[at] = damaged[at]! ^ mask;
        await writeFile(file, damaged);
        const cache = await loadVectorCache(file, { model: 'm' });
        expect(cache.size, `byte ${at} ^ ${mask}`).toBe(0);
      }
    }
  });

  it('still loads a literal version-1 file (format back-compat)', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    // 'CXVEC', v1, dims 2, count 1, model "m", keys "ab", CRC 0 (unchecked), pad, then [1, 0] as float32.
    const literal = Buffer.from(
      '43585645430100000200000001000000010000000200000000000000000000006d616200' + '0000803f00000000',
      'hex',
    );
    await writeFile(file, literal);
    const cache = await loadVectorCache(file, { model: 'm' });
    expect(cache.status).toBe('loaded');
    expect(Array.from(cache.get('ab')!)).toEqual([1, 0]);
  });

  // Its speed is measured by bench/embed.mjs (whole-process), not here.
  it('loads 10,000 × 384 vectors intact', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const saved = filledCache('Xenova/all-MiniLM-L6-v2:q8', 10_000, 384);
    await saveVectorCache(file, saved);
    const cache: VectorCache = await loadVectorCache(file, { model: 'Xenova/all-MiniLM-L6-v2:q8', dims: 384 });
    expect(cache.size).toBe(10_000);
    for (const key of [...saved.keys()].filter((_, i) => i % 1000 === 0)) expect(Array.from(cache.get(key)!)).toEqual(Array.from(saved.get(key)!));
  });
});

describe('embedMissing', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ hash: hashOf(i), text: `memory ${i} about topic ${i % 3}` }));

  it('embeds every missing hash, in batches of batchSize, and reports progress', async () => {
    const embedder = createTestEmbedder({ dims: 16 });
    const cache = new VectorCache({ model: embedder.model });
    const progress: number[] = [];
    const result = await embedMissing({ items, cache, embedder, batchSize: 4, onProgress: (p) => progress.push(p.done) });
    expect(result).toEqual({ total: 10, cached: 0, embedded: 10, aborted: false });
    expect(embedder.calls).toBe(3);
    expect(progress).toEqual([0, 4, 8, 10]);
    const [expected] = await embedder.embed([items[7]!.text]);
    expect(Array.from(cache.get(hashOf(7))!)).toEqual(Array.from(expected!));
  });

  it('embeds nothing when every hash is cached', async () => {
    const embedder = createTestEmbedder();
    const cache = new VectorCache({ model: embedder.model });
    await embedMissing({ items, cache, embedder });
    const before = embedder.embeddedCount;
    const again = await embedMissing({ items, cache, embedder });
    expect(again).toEqual({ total: 10, cached: 10, embedded: 0, aborted: false });
    expect(embedder.embeddedCount).toBe(before);
  });

  it('embeds only new hashes, and a duplicated hash once', async () => {
    const embedder = createTestEmbedder();
    const cache = new VectorCache({ model: embedder.model });
    await embedMissing({ items: items.slice(0, 6), cache, embedder });
    const extra = [...items, { hash: hashOf(9), text: items[9]!.text }];
    const result = await embedMissing({ items: extra, cache, embedder });
    expect(result).toMatchObject({ total: 10, cached: 6, embedded: 4 });
    expect(embedder.embeddedCount).toBe(10);
  });

  it('checkpoints after every batch so an aborted backfill resumes where it stopped', async () => {
    const file = path.join(await tempDir(), 'vectors.bin');
    const embedder = createTestEmbedder();
    const controller = new AbortController();
    const first = await loadVectorCache(file, { model: embedder.model });
    let checkpoints = 0;
    const interrupted = await embedMissing({
      items,
      cache: first,
      embedder,
      batchSize: 4,
      signal: controller.signal,
      checkpoint: async () => {
        checkpoints++;
        await saveVectorCache(file, first);
      },
      onProgress: (p) => {
        if (p.done >= 4) controller.abort();
      },
    });
    expect(interrupted).toEqual({ total: 10, cached: 0, embedded: 4, aborted: true });
    expect(checkpoints).toBe(1);

    // A new process: only the file survives.
    const resumed = await loadVectorCache(file, { model: embedder.model });
    expect(resumed.size).toBe(4);
    const before = embedder.embeddedCount;
    const rest = await embedMissing({ items, cache: resumed, embedder, batchSize: 4 });
    expect(rest).toEqual({ total: 10, cached: 4, embedded: 6, aborted: false });
    expect(embedder.embeddedCount - before).toBe(6);
  });

  it('checkpoints every n batches and after the last one', async () => {
    const embedder = createTestEmbedder();
    const cache = new VectorCache({ model: embedder.model });
    let checkpoints = 0;
    await embedMissing({ items, cache, embedder, batchSize: 2, checkpointEvery: 2, checkpoint: () => void checkpoints++ });
    expect(checkpoints).toBe(3); // after batches 2 and 4, and the 5th (last)
  });

  it('does nothing when already aborted', async () => {
    const embedder = createTestEmbedder();
    const result = await embedMissing({ items, cache: new VectorCache({ model: embedder.model }), embedder, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ embedded: 0, aborted: true });
    expect(embedder.calls).toBe(0);
  });

  it('clears a cache whose dimensions differ from the embedder', async () => {
    const embedder = createTestEmbedder({ dims: 16 });
    const cache = filledCache(embedder.model, 3, 8);
    const result = await embedMissing({ items: [{ hash: hashOf(0), text: 'x' }], cache, embedder });
    expect(result.embedded).toBe(1);
    expect(cache.dims).toBe(16);
    expect(cache.size).toBe(1);
  });

  it('keeps the batches finished before an embedder failure', async () => {
    const inner = createTestEmbedder();
    let calls = 0;
    const failing: Embedder = {
      model: inner.model,
      dims: inner.dims,
      embed: async (texts) => {
        if (++calls === 2) throw new Error('model crashed');
        return inner.embed(texts);
      },
    };
    const cache = new VectorCache({ model: failing.model });
    await expect(embedMissing({ items, cache, embedder: failing, batchSize: 4 })).rejects.toThrow('model crashed');
    expect(cache.size).toBe(4);
  });
});
