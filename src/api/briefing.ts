/**
 * The briefing a session starts with, as the hooks need it: text plus the ids it shows.
 *
 * Interim: builds it from the memory files with the pure surface core on every call.
 * The surface api (cached per branch and content hash) replaces this once it lands.
 */
import { existsSync } from 'node:fs';
import type { Memory } from '../core/memory.js';
import { buildSurface } from '../core/surface.js';
import { renderSurface } from '../core/surface-render.js';
import { readHeadFile } from '../git/head-file.js';
import { listMemoryFiles, readMemoryFile } from '../store/memory-store.js';
import type { Context } from './context.js';

export type BriefingVariant = 'full' | 'compact';

export interface BriefingOutput {
  text: string;
  /** Ids of the memories the text shows. */
  ids: string[];
}

/** After compaction the briefing is re-injected at this share of the token target. */
export const COMPACT_SHARE = 0.5;

function activeMemories(ctx: Context): Memory[] {
  const tiers = [ctx.paths, ...(ctx.includeGlobal && existsSync(ctx.global.memoriesDir) ? [ctx.global] : [])];
  const out: Memory[] = [];
  for (const paths of tiers) {
    for (const entry of listMemoryFiles(paths)) {
      const { memory } = readMemoryFile(entry, entry.path);
      if (memory && memory.status === 'active') out.push(memory);
    }
  }
  return out;
}

/**
 * Builds the briefing: the full one, or a shorter one for after compaction.
 *
 * @example
 * const { text, ids } = await briefing(ctx, { variant: 'full' });
 */
export async function briefing(ctx: Context, options: { variant?: BriefingVariant } = {}): Promise<BriefingOutput> {
  const variant = options.variant ?? 'full';
  const memories = activeMemories(ctx);
  if (memories.length === 0) return { text: '', ids: [] };
  const target = ctx.config.surface.targetTokens;
  const surface = buildSurface(memories, {
    now: ctx.now(),
    config: ctx.config,
    currentBranch: readHeadFile(ctx.root)?.branch,
    ...(variant === 'compact' ? { budget: Math.max(50, Math.round(target * COMPACT_SHARE)) } : {}),
  });
  const rendered = renderSurface(surface);
  return { text: rendered.text, ids: rendered.items.map((i) => i.id) };
}
