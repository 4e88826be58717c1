/**
 * The embedder seam: the interface recall depends on, the text a memory is embedded as,
 * and the resolution of embedding options.
 *
 * Import-light on purpose: recall's keyword path imports this file, so it must never pull
 * in @huggingface/transformers (see `transformers.ts` for the lazy loader).
 */
import { readEmbedEnv } from '../env.js';
import { CortexError, type CortexErrorOptions } from '../errors.js';
import { DEFAULT_CONFIG, type CortexConfig } from '../core/config.js';
import type { Memory } from '../core/memory.js';

/**
 * Turns texts into L2-normalised vectors. Implementations: the transformers-backed
 * loader (`loadTransformersEmbedder`) and the deterministic test embedder.
 */
export interface Embedder {
  /**
   * Identity of the vectors this embedder produces: caches keyed by it are invalidated
   * when it changes (model id plus anything that changes the numbers, such as dtype).
   */
  readonly model: string;
  /** Vector length; `undefined` until known (read from the model's first output). */
  readonly dims: number | undefined;
  /** One L2-normalised vector per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Frees native resources (ONNX sessions). Optional; safe to call twice. */
  dispose?(): Promise<void>;
}

/** Error code of {@link EmbedUnavailableError}. */
export const EMBED_UNAVAILABLE = 'EMBED_UNAVAILABLE';

/**
 * No embedding model can be loaded or run. Callers degrade to keyword search and show
 * the one-line message; it is never fatal.
 *
 * @example
 * try { await loadTransformersEmbedder(options) } catch (err) {
 *   if (err instanceof EmbedUnavailableError) notice(err.message) // keyword-only recall
 * }
 */
export class EmbedUnavailableError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super(EMBED_UNAVAILABLE, message, options);
  }
}

/** The fields of a memory that its embedding text is built from. */
export type EmbeddableMemory = Pick<Memory, 'type' | 'summary' | 'body'>;

export interface EmbeddingTextOptions {
  /** Project name, written as `[project:<name>]`; omitted when empty. */
  project: string | undefined;
  /**
   * Cap on the text length. The tokenizer truncates at 512 tokens anyway, so longer text
   * only costs tokenizing time (a pasted log can be megabytes).
   */
  maxChars: number;
}

export const DEFAULT_EMBEDDING_TEXT: EmbeddingTextOptions = { project: undefined, maxChars: 4_000 };

/**
 * The text a memory is embedded as: `[type] [project:<name>] summary\ncontent`.
 * Its content hash keys the vector cache, so any change here re-embeds everything.
 *
 * @example
 * embeddingText({ type: 'decision', summary: 'Use SQLite', body: 'Simple.' }, { project: 'cortex' })
 * // '[decision] [project:cortex] Use SQLite\nSimple.'
 */
export function embeddingText(memory: EmbeddableMemory, options: Partial<EmbeddingTextOptions> = {}): string {
  const { project, maxChars } = { ...DEFAULT_EMBEDDING_TEXT, ...options };
  const name = project?.trim();
  const head = name ? `[${memory.type}] [project:${name}] ` : `[${memory.type}] `;
  const summary = memory.summary.trim();
  const body = memory.body.trim();
  const text = body === '' ? `${head}${summary}` : `${head}${summary}\n${body}`;
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

export interface QueryEmbeddingTextOptions {
  /** Project name, written as `[project:<name>]` like the memories'; omitted when empty. */
  project: string | undefined;
  /** The memory type asked for, written as `[type]` when the query is about exactly one. */
  type: string | undefined;
  maxChars: number;
}

export const DEFAULT_QUERY_EMBEDDING_TEXT: QueryEmbeddingTextOptions = { project: undefined, type: undefined, maxChars: 1_000 };

/**
 * The text a query is embedded as: the same metadata prefix as the memories
 * (`[type] [project:<name>] `, each part only when known), then the query. Without the
 * prefix, every memory would share tokens the query lacks, which skews the similarities.
 *
 * @example
 * queryEmbeddingText('which database', { project: 'cortex' }) // '[project:cortex] which database'
 * queryEmbeddingText('which database', { project: 'cortex', type: 'decision' }) // '[decision] [project:cortex] which database'
 */
export function queryEmbeddingText(query: string, options: Partial<QueryEmbeddingTextOptions> = {}): string {
  const { project, type, maxChars } = { ...DEFAULT_QUERY_EMBEDDING_TEXT, ...options };
  const name = project?.trim();
  const text = `${type ? `[${type}] ` : ''}${name ? `[project:${name}] ` : ''}${query.trim()}`;
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/**
 * The identity of the vectors a transformers model produces: the model id and the dtype
 * (q8 and fp32 vectors of one model differ). Vector caches are keyed by it.
 *
 * @example
 * modelIdentity({ model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8' }) // 'Xenova/all-MiniLM-L6-v2:q8'
 */
export function modelIdentity(options: Pick<EmbedOptions, 'model' | 'dtype'>): string {
  return `${options.model}:${options.dtype}`;
}

/**
 * Whether a memory gets an embedding. Raw `code` memories never do: source text embeds
 * poorly with a sentence model and would crowd out prose in semantic recall.
 *
 * @example
 * isEmbeddable({ type: 'code' }) // false
 */
export function isEmbeddable(memory: Pick<Memory, 'type'>): boolean {
  return memory.type !== 'code';
}

/** Fully resolved embedding settings. */
export interface EmbedOptions {
  /** Hub id, or a path relative to `modelDir` (e.g. `test/tiny-random-static`). */
  model: string;
  /** ONNX weight variant: `q8` (quantized, the default), `fp32`, `fp16` … */
  dtype: string;
  /** Local model root (offline); `undefined` means the library's download-to-cache. */
  modelDir: string | undefined;
  /** False when embeddings are switched off: recall is keyword-only. */
  enabled: boolean;
}

export interface ResolveEmbedOptionsInput {
  /** Environment variables (pass `process.env`). */
  env: Record<string, string | undefined>;
  /** Project config; only `embed` is read. Defaults apply when absent. */
  config: Pick<CortexConfig, 'embed'> | undefined;
}

export const DEFAULT_RESOLVE_EMBED: ResolveEmbedOptionsInput = { env: {}, config: undefined };

/**
 * Resolves embedding settings with the precedence env > `config.embed` > defaults.
 * Env: `CORTEX_EMBED_MODEL`, `CORTEX_EMBED_DTYPE`, `CORTEX_MODEL_DIR`, and `CORTEX_EMBED`
 * (`0`/`false`/`off`/`no` disables, `1`/`true`/`on`/`yes` enables). Empty values are unset.
 *
 * @example
 * resolveEmbedOptions({ env: { CORTEX_MODEL_DIR: '/models' }, config: undefined })
 * // { model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8', modelDir: '/models', enabled: true }
 */
export function resolveEmbedOptions(input: Partial<ResolveEmbedOptionsInput> = {}): EmbedOptions {
  const { env, config } = { ...DEFAULT_RESOLVE_EMBED, ...input };
  const base = config?.embed ?? DEFAULT_CONFIG.embed;
  const fromEnv = readEmbedEnv(env);
  return {
    model: fromEnv.model ?? (base.model.trim() || DEFAULT_CONFIG.embed.model),
    dtype: fromEnv.dtype ?? (base.dtype.trim() || DEFAULT_CONFIG.embed.dtype),
    modelDir: fromEnv.modelDir ?? (base.modelDir?.trim() || undefined),
    enabled: fromEnv.enabled ?? base.enabled,
  };
}
