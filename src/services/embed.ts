/**
 * Embeddings for the use cases: loading the embedder (injected, or the configured
 * @huggingface/transformers model, imported lazily), the per-tier vector caches in
 * `.memory/vectors.bin`, and the backfill behind `cortex index --embed`.
 *
 * Only the commands that need vectors import this module (dynamically, from recall, or
 * from `index --embed`): it loads the vector cache code, and through `loadEmbedder` the
 * embedding library. Memories written by `remember` are not embedded here: that would
 * put a model load on the write path. `index --embed` or the next hybrid recall does it.
 */
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import type { Diagnostic, Memory, Scope } from '../core/memory.js';
import { EmbedUnavailableError, embeddingText, isEmbeddable, type Embedder } from '../embed/embedder.js';
import { normalizeBody } from '../core/memory-format.js';
import { contentKeyOf, type IndexedDoc } from '../cache/index/search-index.js';
import { embedMissing, loadVectorCache, saveVectorCache, VectorCache, type EmbedItem, type EmbedMissingResult } from '../cache/vectors.js';
import { readMemoryFile, readMemoryText } from '../store/memory-store.js';
import { readRegularFile } from '../store/safe-read.js';
import { memoryPath } from '../store/memory-path.js';
import type { Context } from './context.js';
import { embedSettings, vectorsFile, type EmbedSettings } from './embed-settings.js';
import { openIndexes, type TierIndex } from './indexes.js';

/**
 * Version of the embedding text and key scheme. Bump it when `embeddingText` changes
 * what a memory is embedded as: every cached vector is then re-embedded.
 */
export const EMBED_TEXT_VERSION = 1;

/**
 * The name written as `[project:<name>]` in embedding texts: the `name` in the project
 * root's package.json (without an npm scope), else the root directory's name. Changing it
 * changes every key, so vectors are re-embedded with the new text.
 *
 * @example
 * projectName(ctx) // 'cortex-memory'
 */
export function projectName(ctx: Pick<Context, 'root'>): string {
  try {
    const read = readRegularFile(join(ctx.root, 'package.json'), { boundary: ctx.root, maxBytes: 1024 * 1024 });
    if ('problem' in read) return basename(ctx.root);
    const pkg = JSON.parse(read.buffer.toString('utf8')) as { name?: unknown };
    if (typeof pkg.name === 'string' && pkg.name.trim() !== '') return pkg.name.trim().replace(/^@[^/]+\//, '');
  } catch {
    // No package.json (or not JSON): not a Node project.
  }
  return basename(ctx.root);
}

/** The project name used for a tier's memories: none for the global tier, which spans projects. */
export function projectFor(ctx: Pick<Context, 'root'>, scope: Scope): string | undefined {
  return scope === 'project' ? projectName(ctx) : undefined;
}

/**
 * The cache key of a memory's vector: a hash of the key scheme version, the project name
 * and the memory's content key (itself a hash of type, summary and body). Derived from
 * what the keyword index already holds, so recall finds each memory's vector without
 * reading its file; it changes exactly when the embedded text would.
 *
 * @example
 * vectorKey({ contentKey: 'ab12…' }, 'cortex') // '5d41402abc4b2a76b9719d911017c592…'
 */
export function vectorKey(doc: Pick<IndexedDoc, 'contentKey'>, project: string | undefined): string {
  return createHash('sha1').update(`cortex-embed/${EMBED_TEXT_VERSION}\n${project ?? ''}\n${doc.contentKey}`).digest('hex');
}

/** The embedder, or why there is none (already phrased as the one-line notice). */
export type EmbedderLoad = { embedder: Embedder; notice?: undefined } | { embedder: undefined; notice: string; error: unknown };

export interface LoadEmbedderOptions {
  /** Texts per inference call of the transformers embedder. */
  batchSize: number;
  /** Give up (and degrade) when the model is not ready within this many ms; `undefined`: wait. */
  timeoutMs: number | undefined;
}

export const DEFAULT_LOAD_EMBEDDER: LoadEmbedderOptions = { batchSize: 32, timeoutMs: undefined };

/** One load per context: the library's callers (MCP server) recall many times. */
const loads = new WeakMap<Context, Promise<Embedder>>();

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The notice printed (once, on stderr) when recall falls back to keyword search:
 * the cause and the fix on one line.
 *
 * @example
 * degradedNotice(new EmbedUnavailableError('model directory not found: /m', { hint: 'Unset CORTEX_MODEL_DIR.' }))
 * // 'keyword-only recall: model directory not found: /m. Fix: Unset CORTEX_MODEL_DIR.'
 */
export function degradedNotice(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof EmbedUnavailableError ? err.hint : undefined;
  const cause = oneLine(message).replace(/\.$/, '');
  return `keyword-only recall: ${cause}.${hint ? ` Fix: ${oneLine(hint)}` : ''}`;
}

async function loadConfigured(settings: EmbedSettings, batchSize: number): Promise<Embedder> {
  // The only import of the embedding library's loader: the keyword paths never reach it.
  const { loadTransformersEmbedder } = await import('../embed/transformers.js');
  return loadTransformersEmbedder({ model: settings.model, dtype: settings.dtype, modelDir: settings.modelDir, batchSize });
}

/**
 * The embedder for this context: the injected one, or the configured transformers model
 * (loaded once per context). Never throws for an unavailable model: the result carries
 * the notice instead.
 *
 * @example
 * const loaded = await loadEmbedder(ctx)
 * if (!loaded.embedder) console.error(loaded.notice)
 */
export async function loadEmbedder(ctx: Context, options: Partial<LoadEmbedderOptions> = {}): Promise<EmbedderLoad> {
  const { batchSize, timeoutMs } = { ...DEFAULT_LOAD_EMBEDDER, ...options };
  if (ctx.embedder) return { embedder: ctx.embedder };
  const settings = embedSettings(ctx);
  if (!settings.enabled) {
    const error = new EmbedUnavailableError('embeddings are turned off (CORTEX_EMBED=0 or embed.enabled: false)', {
      hint: 'Unset CORTEX_EMBED, or set embed.enabled: true in .cortex/config.yaml.',
    });
    return { embedder: undefined, notice: degradedNotice(error), error };
  }
  let load = loads.get(ctx);
  if (!load) {
    load = loadConfigured(settings, batchSize);
    loads.set(ctx, load);
    // A failed load is retried by the next call (the model may have been fixed meanwhile).
    load.catch(() => loads.delete(ctx));
  }
  try {
    return { embedder: await withTimeout(load, timeoutMs) };
  } catch (error) {
    return { embedder: undefined, notice: degradedNotice(error), error };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number | undefined): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new EmbedUnavailableError(`the embedding model was not ready within ${ms} ms`, {
            hint: 'Run `cortex recall --mode hybrid` once outside the hook to check the model loads, or raise the time budget.',
          }),
        ),
      ms,
    );
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A tier's vector cache with the key of each memory in its keyword index. */
export interface TierVectors {
  tier: TierIndex;
  file: string;
  cache: VectorCache;
  project: string | undefined;
  /** Memory id → vector key, for every embeddable memory of the tier. */
  keys: Map<string, string>;
}

/**
 * Loads a tier's vector cache for `embedder`. A file for another model or dimension
 * loads as an empty cache (everything is re-embedded); a corrupt one too.
 */
export async function loadTierVectors(
  ctx: Context,
  tier: TierIndex,
  embedder: Pick<Embedder, 'model' | 'dims'>,
  options: { fresh?: boolean } = {},
): Promise<TierVectors> {
  const file = vectorsFile(tier.paths);
  const identity = { model: embedder.model, dims: embedder.dims };
  // An unreadable file (permissions, I/O) is a cache miss too: recall must not fail over a cache.
  const cache = options.fresh ? new VectorCache(identity) : await loadVectorCache(file, identity).catch(() => new VectorCache(identity));
  const project = projectFor(ctx, tier.scope);
  const keys = new Map<string, string>();
  for (const doc of tier.index.docs.values()) if (isEmbeddable(doc)) keys.set(doc.id, vectorKey(doc, project));
  return { tier, file, cache, project, keys };
}

/**
 * The body of a memory file without parsing its YAML: the text after the closing `---`.
 * Only a guess: callers accept it when it reproduces the indexed content key.
 */
function quickBody(text: string): string | undefined {
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  if (!normalized.startsWith('---\n')) return undefined;
  const close = /\n---[ \t]*(?:\n|$)/.exec(normalized.slice(3));
  if (!close) return undefined;
  return normalizeBody(normalized.slice(3 + close.index + close[0].length));
}

/**
 * Reads the files of `docs` and returns what to embed for each: the key and the text.
 * The type and summary come from the index and the body from the file; when that body
 * does not reproduce the indexed content key (the file changed since, or has an unusual
 * layout) the file is parsed in full and keyed as it is now. Parsing YAML is most of the
 * cost of reading a memory, so the fast path matters for a 10,000-memory backfill.
 * Unreadable or broken files are skipped with their diagnostics.
 */
export function embedItemsFor(tv: TierVectors, docs: Iterable<IndexedDoc>): { items: EmbedItem[]; diagnostics: Diagnostic[] } {
  const items: EmbedItem[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const doc of docs) {
    // Unreadable: reported by the full read below.
    const text = readMemoryText(memoryPath(tv.tier.paths, doc.id));
    const body = text === undefined ? undefined : quickBody(text);
    if (body !== undefined && contentKeyOf({ type: doc.type, summary: doc.summary, body }) === doc.contentKey) {
      items.push({ hash: vectorKey(doc, tv.project), text: embeddingText({ type: doc.type, summary: doc.summary, body }, { project: tv.project }) });
      continue;
    }
    const read = readMemoryFile({ path: memoryPath(tv.tier.paths, doc.id), id: doc.id }, doc.file);
    diagnostics.push(...read.diagnostics.filter((d) => d.severity === 'error'));
    const memory: Memory | undefined = read.memory;
    if (!memory || !isEmbeddable(memory)) continue;
    items.push({ hash: vectorKey({ contentKey: contentKeyOf(memory) }, tv.project), text: embeddingText(memory, { project: tv.project }) });
  }
  return { items, diagnostics };
}

/** Embeddable memories of the tier whose vector is not cached. */
export function missingDocs(tv: TierVectors, docs: Iterable<IndexedDoc> = tv.tier.index.docs.values()): IndexedDoc[] {
  const out: IndexedDoc[] = [];
  for (const doc of docs) {
    const key = tv.keys.get(doc.id);
    if (key !== undefined && !tv.cache.has(key)) out.push(doc);
  }
  return out;
}

/** Saves a tier's cache, dropping vectors no memory uses any more. Never throws: it is a cache. */
export async function saveTierVectors(tv: TierVectors, options: { prune: boolean }): Promise<boolean> {
  if (options.prune) tv.cache.prune(new Set(tv.keys.values()));
  if (!tv.cache.dirty) return true;
  try {
    await saveVectorCache(tv.file, tv.cache);
    return true;
  } catch {
    return false;
  }
}

export interface EmbedIndexProgress {
  /** `load`: the model is loading; `read`: reading the memories to embed; `embed`: embedding. */
  phase: 'load' | 'read' | 'embed';
  done: number;
  total: number;
}

export interface EmbedIndexInput {
  /** Memories per embedding call; also the unit of progress and of resumability. */
  batchSize: number;
  onProgress: ((progress: EmbedIndexProgress) => void) | undefined;
  /** Stops between batches; what was embedded is saved, and the next run resumes from there. */
  signal: AbortSignal | undefined;
  /** Discard the cached vectors and embed everything again. */
  rebuild: boolean;
  scope: Scope | undefined;
  /** Minimum time between saves while embedding (each save rewrites the whole file). */
  checkpointMs: number;
  /** Already opened keyword indexes (default: opened and refreshed here). */
  tiers: TierIndex[] | undefined;
}

export const DEFAULT_EMBED_INDEX: EmbedIndexInput = {
  batchSize: 32,
  onProgress: undefined,
  signal: undefined,
  rebuild: false,
  scope: undefined,
  checkpointMs: 3_000,
  tiers: undefined,
};

export interface EmbedTierReport {
  scope: Scope;
  file: string;
  /** Memories that get a vector (all but `code`). */
  embeddable: number;
  /** Vectors found in the cache. */
  cached: number;
  /** Vectors computed by this run. */
  embedded: number;
  /** Vectors dropped because no memory uses them any more. */
  removed: number;
  /** Embeddable memories still without a vector (interrupted, or unreadable files). */
  missing: number;
}

export interface EmbedIndexOutput {
  /** False when no embedder could be loaded; `notice` says why and what to do. */
  available: boolean;
  notice?: string | undefined;
  /** Identity of the vectors (`<model>:<dtype>` for the transformers model). */
  model?: string | undefined;
  dims?: number | undefined;
  project?: string | undefined;
  /** False when every vector was cached already, so the model was never loaded. */
  modelLoaded: boolean;
  tiers: EmbedTierReport[];
  /** True when the signal stopped the run; run it again to resume. */
  aborted: boolean;
  /** Time spent loading the model, reading the memories to embed, and embedding them. */
  timings: { loadMs: number; readMs: number; embedMs: number };
  diagnostics: Diagnostic[];
}

/**
 * Backfills the vector caches: embeds every embeddable memory whose vector is missing
 * (new, edited, or everything after a model change), in batches, saving as it goes.
 * Interrupted runs keep what they embedded and the next run resumes. The model is loaded
 * only when something is missing. An unavailable model is not an error: `available` is
 * false and `notice` says why.
 *
 * @example
 * const out = await embedIndex(ctx, { onProgress: ({ done, total }) => draw(done, total) })
 * out.tiers[0].embedded // 0 when nothing changed since the last run
 */
export async function embedIndex(ctx: Context, input: Partial<EmbedIndexInput> = {}): Promise<EmbedIndexOutput> {
  const { batchSize, onProgress, signal, rebuild, scope, checkpointMs, tiers: opened } = { ...DEFAULT_EMBED_INDEX, ...input };
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const timings = { loadMs: 0, readMs: 0, embedMs: 0 };
  const unavailable = (notice: string): EmbedIndexOutput => ({ available: false, notice, modelLoaded: false, tiers: [], aborted: false, timings, diagnostics: [] });
  const settings = embedSettings(ctx);
  if (!ctx.embedder && !settings.enabled) return unavailable((await loadEmbedder(ctx)).notice ?? '');
  const tiers = opened ?? openIndexes(ctx, scope ? { scope } : {});

  // The identity is known without loading the model: when nothing is missing, it never loads.
  const vectors = await Promise.all(tiers.map((tier) => loadTierVectors(ctx, tier, { model: settings.identity, dims: undefined }, { fresh: rebuild })));
  const missing = vectors.map((tv) => missingDocs(tv));
  const readTotal = missing.reduce((n, docs) => n + docs.length, 0);
  const report = (tv: TierVectors, cached: number, embedded: number, removed: number): EmbedTierReport => {
    let left = 0;
    for (const key of tv.keys.values()) if (!tv.cache.has(key)) left++;
    return { scope: tv.tier.scope, file: tv.file, embeddable: tv.keys.size, cached, embedded, removed, missing: left };
  };
  if (readTotal === 0) {
    const reports: EmbedTierReport[] = [];
    for (const tv of vectors) {
      const before = tv.cache.size;
      await saveTierVectors(tv, { prune: true });
      reports.push(report(tv, tv.keys.size, 0, before - tv.cache.size));
    }
    const dims = vectors.find((tv) => tv.cache.dims !== undefined)?.cache.dims;
    return { available: true, model: settings.identity, dims, project: projectName(ctx), modelLoaded: false, tiers: reports, aborted: false, timings, diagnostics: [] };
  }

  onProgress?.({ phase: 'load', done: 0, total: 1 });
  let started = Date.now();
  const loaded = await loadEmbedder(ctx, { batchSize });
  timings.loadMs = Date.now() - started;
  if (!loaded.embedder) return unavailable(loaded.notice);
  const embedder = loaded.embedder;
  onProgress?.({ phase: 'load', done: 1, total: 1 });

  started = Date.now();
  const plans: { tv: TierVectors; cachedBefore: number; items: EmbedItem[] }[] = [];
  const diagnostics: Diagnostic[] = [];
  let read = 0;
  onProgress?.({ phase: 'read', done: 0, total: readTotal });
  for (const [i, tv] of vectors.entries()) {
    const docs = missing[i] ?? [];
    const { items, diagnostics: found } = embedItemsFor(tv, docs);
    read += docs.length;
    onProgress?.({ phase: 'read', done: read, total: readTotal });
    diagnostics.push(...found);
    plans.push({ tv, cachedBefore: tv.keys.size - docs.length, items });
  }
  timings.readMs = Date.now() - started;

  started = Date.now();
  const total = plans.reduce((n, p) => n + new Set(p.items.map((i) => i.hash)).size, 0);
  let offset = 0;
  let aborted = false;
  const reports: EmbedTierReport[] = [];
  if (total > 0) onProgress?.({ phase: 'embed', done: 0, total });
  for (const { tv, cachedBefore, items } of plans) {
    let lastSave = Date.now();
    const result: EmbedMissingResult = aborted
      ? { embedded: 0, aborted: true, total: 0, cached: 0 }
      : await embedMissing({
          items,
          cache: tv.cache,
          embedder,
          batchSize,
          signal,
          onProgress: ({ done }) => {
            if (done > 0) onProgress?.({ phase: 'embed', done: offset + done, total });
          },
          checkpoint: async () => {
            if (Date.now() - lastSave < checkpointMs) return;
            await saveTierVectors(tv, { prune: false });
            lastSave = Date.now();
          },
        });
    offset += result.embedded;
    aborted ||= result.aborted;
    // Pruning only after a complete pass: an interrupted run must not drop vectors it did not get to check.
    const before = tv.cache.size;
    await saveTierVectors(tv, { prune: !result.aborted });
    reports.push(report(tv, cachedBefore, result.embedded, result.aborted ? 0 : before - tv.cache.size));
  }
  timings.embedMs = Date.now() - started;
  return {
    available: true,
    model: embedder.model,
    dims: embedder.dims,
    project: projectName(ctx),
    modelLoaded: true,
    tiers: reports,
    aborted,
    timings,
    diagnostics,
  };
}
