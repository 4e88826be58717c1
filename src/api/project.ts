/**
 * `project`: regenerate `.cortex/decisions.md`, `plan.md` and `decisions-archive.md` from
 * the memories in the work tree, or (`check`) report which are stale without writing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../core/memory.js';
import { parseProjectedMemories, type MemoryText } from '../core/projection-source.js';
import { PROJECTION_FILES, renderProjection, renderProjections, type ProjectionFile, type Projections } from '../core/projection.js';
import { readFileIfExists, writeIfChanged } from '../store/atomic.js';
import { withLock } from '../store/lock.js';
import { listMemoryFiles } from '../store/memory-store.js';
import { readTemplate } from '../templates.js';
import type { Context } from './context.js';

export interface ProjectInput {
  /** Compare only; write nothing. */
  check?: boolean;
}

export interface ProjectFileState {
  /** `.cortex/decisions.md` … */
  file: string;
  /**
   * `unchanged`: already up to date. `created` / `updated`: written now.
   * `stale` / `missing`: differs or is absent (with `check`, nothing is written).
   */
  state: 'unchanged' | 'created' | 'updated' | 'stale' | 'missing';
}

export interface ProjectOutput {
  files: ProjectFileState[];
  /** True when a projection was (with `check`: is) out of date. */
  stale: boolean;
  /** Memories listed in the projections. */
  listed: number;
  diagnostics: Diagnostic[];
}

const TEMPLATE_NAMES: Record<ProjectionFile, string> = {
  'decisions.md': 'projection-decisions.md',
  'plan.md': 'projection-plan.md',
  'decisions-archive.md': 'projection-archive.md',
};

/** The projection header templates shipped in `templates/`. */
export function projectionTemplates(): Record<ProjectionFile, string> {
  return Object.fromEntries(PROJECTION_FILES.map((f) => [f, readTemplate(TEMPLATE_NAMES[f])])) as Record<ProjectionFile, string>;
}

/**
 * Ids that belong only in the archive. Decision tiering (age, caps) lives with the
 * briefing; until it feeds this, archived and superseded decisions are the archive.
 * Whatever goes here must depend on tracked data only, or two clones would render
 * different bytes and `project --check` would fail for one of them.
 */
export const DEFAULT_ARCHIVE_IDS: readonly string[] = [];

/**
 * Renders the projections (all three, or only `only`) of a set of memory file texts with
 * the shipped templates: the one rendering path of `project`, the merge driver and the
 * pre-commit check.
 */
export function renderFromTexts(memories: Iterable<MemoryText>, only?: ProjectionFile): { projections: Partial<Projections>; listed: number; diagnostics: Diagnostic[] } {
  const templates = projectionTemplates();
  const parsed = parseProjectedMemories({ memories, templates });
  const options = { templates, archiveIds: DEFAULT_ARCHIVE_IDS };
  const projections: Partial<Projections> = only ? { [only]: renderProjection(only, parsed.memories, options) } : renderProjections(parsed.memories, options);
  return { projections, listed: parsed.memories.length, diagnostics: parsed.diagnostics };
}

/** The memory files of the project tier as texts (unreadable files are skipped). */
export function readMemoryTexts(ctx: Context): MemoryText[] {
  const out: MemoryText[] = [];
  for (const entry of listMemoryFiles(ctx.paths)) {
    try {
      out.push({ id: entry.id, text: readFileSync(entry.path, 'utf8'), file: `.cortex/memories/${entry.id}.md` });
    } catch {
      // Vanished or unreadable: `cortex lint` reports it; a projection cannot list it.
    }
  }
  return out;
}

/**
 * Regenerates the projections (or, with `check`, reports the stale ones).
 *
 * @example
 * const { stale } = await project(ctx, { check: true }); // true when `cortex project` would change a file
 */
export async function project(ctx: Context, input: ProjectInput = {}): Promise<ProjectOutput> {
  const run = (): ProjectOutput => {
    const { projections, listed, diagnostics } = renderFromTexts(readMemoryTexts(ctx));
    const files: ProjectFileState[] = PROJECTION_FILES.map((name) => {
      const path = join(ctx.paths.cortexDir, name);
      const file = `.cortex/${name}`;
      if (input.check) {
        const existing = readFileIfExists(path);
        if (existing === undefined) return { file, state: 'missing' };
        return { file, state: existing.toString('utf8') === projections[name] ? 'unchanged' : 'stale' };
      }
      return { file, state: writeIfChanged(path, projections[name] ?? '') };
    });
    return { files, stale: files.some((f) => f.state !== 'unchanged'), listed, diagnostics };
  };
  if (input.check) return run();
  return withLock(join(ctx.paths.cacheDir, 'locks', 'write.lock'), run);
}
