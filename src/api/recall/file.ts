/**
 * `recall --file <path>[#symbol]`: the memories anchored to a file or a symbol in it — the
 * same answer the file hook gives when the assistant opens that file (without the
 * once-per-session rule), from the same map (`.memory/file-anchors.json`).
 */
import { parseAnchor, repoRelative } from '../../core/anchor.js';
import { selectFileMemories, type FileAnchored } from '../../core/file-recall.js';
import { UsageError } from '../../errors.js';
import { buildFileAnchors } from '../../cache/file-anchors-build.js';
import { fileAnchorsStamp, lookupFileAnchors } from '../../cache/file-anchors.js';
import type { Context } from '../../services/context.js';

export interface RecallFileInput {
  /** `path` or `path#symbol`, relative to the project root (or absolute, inside it). */
  file: string;
  /** At most this many (default: all). */
  limit?: number;
}

export interface RecallFileOutput {
  /** The repository-relative path asked about. */
  path: string;
  symbol?: string | undefined;
  /** Anchored to the symbol first, then to the whole file; by priority, then most recent. */
  results: FileAnchored[];
}

/**
 * The memories anchored to a file or symbol.
 * Throws `UsageError` when the path is outside the project.
 *
 * @example
 * (await recallFile(ctx, { file: 'src/db/pool.ts#acquire' })).results.map((r) => r.id)
 */
export function recallFile(ctx: Context, input: RecallFileInput): RecallFileOutput {
  const anchor = parseAnchor(input.file);
  const path = repoRelative(ctx.root, anchor.path);
  if (path === undefined || path === '') {
    throw new UsageError(`${input.file} is not a file in this project (${ctx.root}).`, { hint: 'Give a path inside the repository, e.g. src/db.ts or src/db.ts#acquire.' });
  }
  const cacheDir = ctx.paths.cacheDir;
  const stamp = fileAnchorsStamp(ctx.root, cacheDir, ctx.now().getTime());
  const entries = lookupFileAnchors(cacheDir, stamp, path) ?? buildFileAnchors(ctx.root, cacheDir, stamp).files[path] ?? [];
  const results = selectFileMemories(entries, {
    ...(anchor.symbol !== undefined ? { symbol: anchor.symbol } : {}),
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
  });
  return { path, ...(anchor.symbol !== undefined ? { symbol: anchor.symbol } : {}), results };
}
