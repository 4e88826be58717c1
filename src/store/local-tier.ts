/**
 * The private tier's own `.gitignore`: `.cortex/local/.gitignore` holding `*` ignores the
 * whole directory, itself included, in any clone and whatever the repository's own
 * `.gitignore` says, so a private memory is never listed by `git status` nor added by
 * `git add -A`. Written before the first private file, by every writer.
 */
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLocalTier, type TierPaths } from './paths.js';

/** What the private tier's `.gitignore` holds. */
export const LOCAL_GITIGNORE = '# Cortex private tier: never committed (see docs/interop.md).\n*\n';

/**
 * Makes sure a private tier ignores itself; a no-op for other tiers and when the file
 * is there (a person may have added lines to it).
 *
 * @example
 * ensureLocalIgnored(localPaths('/repo')) // writes /repo/.cortex/local/.gitignore once
 */
export function ensureLocalIgnored(paths: TierPaths): void {
  if (!isLocalTier(paths)) return;
  const file = join(paths.cortexDir, '.gitignore');
  if (lstatSync(file, { throwIfNoEntry: false }) !== undefined) return;
  mkdirSync(paths.cortexDir, { recursive: true });
  try {
    writeFileSync(file, LOCAL_GITIGNORE, { flag: 'wx' });
  } catch (err) {
    // A concurrent writer made it first: what matters is that it is there.
    if ((err as NodeJS.ErrnoException)?.code !== 'EEXIST') throw err;
  }
}
