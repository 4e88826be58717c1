/**
 * The real @huggingface/transformers loading and inference path, run against the
 * synthetic 32-d model in ../shared/models (random weights: similarities are meaningless,
 * so nothing here asserts semantic quality).
 */
import { existsSync } from 'node:fs';
import { cp, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cosine } from '../core/fusion.js';
import { embedMissing, loadVectorCache, saveVectorCache } from '../cache/vectors.js';
import { EmbedUnavailableError, type Embedder } from './embedder.js';
import { loadTransformersEmbedder } from './transformers.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// ../shared/models beside the clone (CI); /work/shared/models for checkouts elsewhere (worktrees).
const MODEL_DIR =
  process.env.CORTEX_MODEL_DIR ?? [path.resolve(REPO, '../shared/models'), '/work/shared/models'].find((d) => existsSync(d)) ?? path.resolve(REPO, '../shared/models');
const MODEL = 'test/tiny-random-static';
const TINY = { modelDir: MODEL_DIR, model: MODEL, dtype: 'fp32' };
const available = existsSync(path.join(MODEL_DIR, MODEL, 'onnx', 'model.onnx'));
if (!available) console.warn(`skipping transformers tests: no synthetic model at ${path.join(MODEL_DIR, MODEL)} (set CORTEX_MODEL_DIR)`);

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cortex-embed-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A writable copy of the tiny model under `<dir>/test/tiny-random-static`. */
async function copyTinyModel(): Promise<string> {
  const dir = await tempDir();
  const target = path.join(dir, MODEL);
  await cp(path.join(MODEL_DIR, MODEL), target, { recursive: true });
  // The shared copy is read-only; cp keeps the modes.
  for (const rel of ['', 'onnx', 'onnx/model.onnx', 'tokenizer.json', 'config.json']) await chmod(path.join(target, rel), rel.endsWith('.json') || rel.endsWith('.onnx') ? 0o644 : 0o755);
  return dir;
}

async function loadError(options: Parameters<typeof loadTransformersEmbedder>[0]): Promise<EmbedUnavailableError> {
  try {
    const embedder = await loadTransformersEmbedder(options);
    await embedder.dispose?.();
  } catch (err) {
    expect(err).toBeInstanceOf(EmbedUnavailableError);
    const e = err as EmbedUnavailableError;
    expect(e.code).toBe('EMBED_UNAVAILABLE');
    expect(e.message).not.toContain('\n');
    expect(e.hint).toBeTruthy();
    return e;
  }
  throw new Error('expected loadTransformersEmbedder to fail');
}

const texts = Array.from({ length: 70 }, (_, i) => `[decision] [project:cortex] memory ${i}\n${'chose sqlite over postgres '.repeat(1 + (i % 7))}`);

describe.skipIf(!available)('loadTransformersEmbedder', () => {
  let embedder: Embedder;
  const batches: number[] = [];

  beforeAll(async () => {
    embedder = await loadTransformersEmbedder({ ...TINY, batchSize: 32, onProgress: (p) => batches.push(p.done) });
  });
  afterAll(async () => {
    await embedder?.dispose?.();
  });

  it('reads the dimensions from the model output (32 for the tiny model)', () => {
    expect(embedder.dims).toBe(32);
  });

  it('names the vectors by model id and dtype', () => {
    expect(embedder.model).toBe('test/tiny-random-static:fp32');
  });

  it('returns one L2-normalised Float32Array per text', async () => {
    const vectors = await embedder.embed(['alpha', 'beta gamma', '']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(32);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    }
  });

  it('returns nothing for no texts', async () => {
    expect(await embedder.embed([])).toEqual([]);
  });

  it('runs 70 texts as 3 batches of at most 32, with the same vectors as one by one', async () => {
    batches.length = 0;
    const batched = await embedder.embed(texts);
    expect(batches).toEqual([32, 64, 70]);
    expect(batched).toHaveLength(70);
    for (const i of [0, 31, 32, 45, 69]) {
      const [single] = await embedder.embed([texts[i]!]);
      expect(cosine(batched[i]!, single!)).toBeCloseTo(1, 5);
      batched[i]!.forEach((x, j) => expect(x).toBeCloseTo(single![j]!, 5));
    }
  });

  it('keeps stdout clean while loading and embedding', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const log = vi.spyOn(console, 'log');
    const info = vi.spyOn(console, 'info');
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    const fresh = await loadTransformersEmbedder(TINY);
    await fresh.embed(texts.slice(0, 5));
    await fresh.dispose?.();
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  it('caches vectors: a second backfill embeds nothing, and a model change invalidates the file', async () => {
    const file = path.join(await tempDir(), '.memory', 'vectors.bin');
    const items = texts.map((text, i) => ({ hash: `h${i}`, text }));
    const cache = await loadVectorCache(file, { model: embedder.model, dims: embedder.dims });
    const first = await embedMissing({ items, cache, embedder, batchSize: 32, checkpoint: () => saveVectorCache(file, cache) });
    expect(first).toEqual({ total: 70, cached: 0, embedded: 70, aborted: false });

    const reloaded = await loadVectorCache(file, { model: embedder.model, dims: embedder.dims });
    expect(reloaded.size).toBe(70);
    const second = await embedMissing({ items, cache: reloaded, embedder });
    expect(second.embedded).toBe(0);
    const [fresh] = await embedder.embed([texts[5]!]);
    expect(cosine(reloaded.get('h5')!, fresh!)).toBeCloseTo(1, 5);

    const other = await loadVectorCache(file, { model: 'Xenova/all-MiniLM-L6-v2:q8' });
    expect(other.size).toBe(0);
    expect(other.status).toBe('stale');
  });

  it('measures throughput of the tiny model', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => texts[i % texts.length]!);
    const start = performance.now();
    const vectors = await embedder.embed(many);
    const seconds = (performance.now() - start) / 1000;
    expect(vectors).toHaveLength(1000);
    console.info(`tiny-random-static throughput: ${Math.round(1000 / seconds)} texts/s`);
  });

  it('refuses to embed after dispose', async () => {
    const fresh = await loadTransformersEmbedder(TINY);
    await fresh.dispose?.();
    await expect(fresh.embed(['x'])).rejects.toBeInstanceOf(EmbedUnavailableError);
  });
});

describe.skipIf(!available)('loadTransformersEmbedder failures', () => {
  it('names the missing model directory and CORTEX_MODEL_DIR', async () => {
    const missing = path.join(await tempDir(), 'no-models-here');
    const err = await loadError({ ...TINY, modelDir: missing });
    expect(err.message).toContain(missing);
    expect(err.message).toContain('CORTEX_MODEL_DIR');
  });

  it('names the missing file when the model is not in the directory', async () => {
    const err = await loadError({ ...TINY, model: 'test/not-a-model' });
    expect(err.message).toContain(path.join(MODEL_DIR, 'test/not-a-model', 'config.json'));
  });

  it('names the ONNX file a dtype needs when it is absent', async () => {
    const err = await loadError({ ...TINY, dtype: 'q8' });
    expect(err.message).toContain(path.join(MODEL_DIR, MODEL, 'onnx', 'model_quantized.onnx'));
  });

  it('names a broken model.onnx', async () => {
    const dir = await copyTinyModel();
    const onnx = path.join(dir, MODEL, 'onnx', 'model.onnx');
    await writeFile(onnx, 'this is not a protobuf '.repeat(50));
    const err = await loadError({ ...TINY, modelDir: dir });
    expect(err.message).toContain(`broken model file ${onnx}`);
    expect(err.hint).toContain(onnx);
  });

  it('names a broken tokenizer.json', async () => {
    const dir = await copyTinyModel();
    const tokenizer = path.join(dir, MODEL, 'tokenizer.json');
    await writeFile(tokenizer, '{"truncated": ');
    const err = await loadError({ ...TINY, modelDir: dir });
    expect(err.message).toContain(`broken model file ${tokenizer}`);
  });

  it('rejects an unknown dtype before loading anything', async () => {
    const err = await loadError({ ...TINY, dtype: 'fp64' });
    expect(err.message).toContain('fp64');
  });
});

describe('loadTransformersEmbedder without the package', () => {
  it('says the package is not installed and how to install it', async () => {
    const err = await loadError({ ...TINY, packageName: '@huggingface/transformers-not-installed' });
    expect(err.message).toBe('@huggingface/transformers-not-installed is not installed (install without --omit=optional)');
    expect(err.hint).toContain('--omit=optional');
  });
});
