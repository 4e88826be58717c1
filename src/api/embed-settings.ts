/**
 * Embedding settings and the cheap "are there vectors?" check that recall runs on every
 * call to choose between keyword and hybrid search.
 *
 * Import-light on purpose: `recall.ts` imports this statically, so it must not load the
 * vector cache code or the embedding library (those live in `embed.ts` and `hybrid.ts`,
 * imported dynamically once vectors are actually needed).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { modelIdentity, resolveEmbedOptions, type EmbedOptions } from '../embed/embedder.js';
import type { Scope } from '../core/memory.js';
import { readVectorFileHeader } from '../search/vector-header.js';
import type { TierPaths } from '../store/paths.js';
import type { Context } from './context.js';

/** File name of the vector cache inside a tier's `.memory/`. */
export const VECTORS_FILE = 'vectors.bin';

export interface EmbedSettings extends EmbedOptions {
  /**
   * Identity of the vectors: `Embedder.model` of the injected embedder, else
   * `<model>:<dtype>`. A cache written under another identity is stale.
   */
  identity: string;
  /** Where `modelDir` came from, for messages. */
  modelDirSource: 'env' | 'config' | undefined;
  /** Semantic candidates below this cosine similarity are dropped. */
  minSimilarity: number;
}

/**
 * Resolves the embedding settings: env (`CORTEX_EMBED`, `CORTEX_EMBED_MODEL`,
 * `CORTEX_EMBED_DTYPE`, `CORTEX_MODEL_DIR`) > `embed:` in `.cortex/config.yaml` > defaults.
 * A relative model directory is resolved against the project root (the directory that
 * holds `.cortex/`), so one value works from any subdirectory and with `--dir`.
 *
 * @example
 * embedSettings(ctx).identity // 'Xenova/all-MiniLM-L6-v2:q8'
 */
export function embedSettings(ctx: Context): EmbedSettings {
  const options = resolveEmbedOptions({ env: ctx.env, config: ctx.config });
  const fromEnv = (ctx.env.CORTEX_MODEL_DIR ?? '').trim() !== '';
  const modelDir = options.modelDir === undefined ? undefined : isAbsolute(options.modelDir) ? options.modelDir : resolve(ctx.root, options.modelDir);
  return {
    ...options,
    modelDir,
    modelDirSource: options.modelDir === undefined ? undefined : fromEnv ? 'env' : 'config',
    identity: ctx.embedder?.model ?? modelIdentity(options),
    minSimilarity: ctx.config.embed.minSimilarity,
  };
}

/** `.memory/vectors.bin` of a tier. */
export function vectorsFile(paths: TierPaths): string {
  return join(paths.cacheDir, VECTORS_FILE);
}

/**
 * True when embeddings are enabled and a vector cache for the configured model holds at
 * least one vector in a searched tier: recall then defaults to hybrid. One small read
 * per tier; nothing is decoded.
 *
 * @example
 * hasVectors(ctx) // false before `cortex index --embed`
 */
export function hasVectors(ctx: Context, options: { scope?: Scope } = {}): boolean {
  const settings = embedSettings(ctx);
  if (!settings.enabled) return false;
  const tiers: TierPaths[] = [];
  if (options.scope === undefined || options.scope === 'project') tiers.push(ctx.paths);
  if ((options.scope === undefined || options.scope === 'local') && existsSync(ctx.local.memoriesDir)) tiers.push(ctx.local);
  if ((options.scope === undefined || options.scope === 'global') && ctx.includeGlobal) tiers.push(ctx.global);
  return tiers.some((paths) => {
    const file = vectorsFile(paths);
    if (!existsSync(file)) return false;
    const header = readVectorFileHeader(file);
    return header !== undefined && header.count > 0 && header.model === settings.identity;
  });
}
