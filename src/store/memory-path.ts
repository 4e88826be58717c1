/**
 * The path of a memory file, from an id that is checked first: an id given by a person
 * never leads out of `.cortex/memories/`.
 */
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { checkIdSafety } from '../core/memory.js';
import type { TierPaths } from './paths.js';

/**
 * Checks an id from the user before it becomes a path. Throws a usage error (exit 2)
 * for anything that could leave `.cortex/`.
 */
export function assertSafeId(id: string, what = 'memory id'): string {
  const why = checkIdSafety(id);
  if (why !== undefined) {
    const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
    throw new UsageError(`Invalid ${what} ${shown}: it ${why}.`, {
      hint: 'Ids are lower-case words joined by dashes, e.g. chose-sqlite-over-postgres-k3f9qa; see `cortex list`.',
    });
  }
  return id;
}

export function memoryPath(paths: TierPaths, id: string): string {
  return join(paths.memoriesDir, `${assertSafeId(id)}.md`);
}
