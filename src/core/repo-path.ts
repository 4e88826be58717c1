/**
 * Paths a memory names (`source.files`), as the repository knows them: relative to its
 * root, with forward slashes. Claude Code's tools name files by absolute path; a memory
 * stored with one is flagged "[POSSIBLY OUTDATED] … no longer exists" in the next briefing
 * (on another machine, or in another clone, it does not). Pure: the roots arrive as
 * arguments (the caller adds the real path of a symlinked root).
 */
import { posix, win32 } from 'node:path';

export type RepoPath = { ok: true; path: string } | { ok: false; reason: 'empty' | 'outside' };

const isWindowsAbsolute = (p: string): boolean => /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

/**
 * `path` relative to the first of `roots` it lies under. Absolute paths inside a root are
 * made relative; relative paths are normalised (`./src//a.ts` → `src/a.ts`); a path that
 * leaves the repository (`/etc/passwd`, `../x`, `src/../../x`) or names the root itself is
 * not a file of the repository.
 *
 * @example
 * toRepoPath('/home/me/app/src/db.ts', ['/home/me/app']) // { ok: true, path: 'src/db.ts' }
 * toRepoPath('./src\\db.ts', ['/home/me/app']) // { ok: true, path: 'src/db.ts' }
 * toRepoPath('/etc/passwd', ['/home/me/app']) // { ok: false, reason: 'outside' }
 * toRepoPath('../x', ['/home/me/app']) // { ok: false, reason: 'outside' }
 */
export function toRepoPath(path: string, roots: readonly string[]): RepoPath {
  const given = path.trim();
  if (given === '') return { ok: false, reason: 'empty' };
  let relative: string | undefined;
  if (posix.isAbsolute(given) || isWindowsAbsolute(given)) {
    for (const root of roots) {
      const windows = isWindowsAbsolute(given) || isWindowsAbsolute(root);
      const r = windows ? win32.relative(root, given).replace(/\\/g, '/') : posix.relative(root, given);
      if (!isOutside(r) && !(windows ? win32.isAbsolute(r) : posix.isAbsolute(r))) {
        relative = r;
        break;
      }
    }
    if (relative === undefined) return { ok: false, reason: 'outside' };
  } else {
    relative = posix.normalize(given.replace(/\\/g, '/'));
  }
  relative = relative.replace(/\/+$/, '');
  if (isOutside(relative) || relative === '' || relative === '.') return { ok: false, reason: 'outside' };
  return { ok: true, path: relative };
}

function isOutside(relative: string): boolean {
  return relative === '..' || relative.startsWith('../');
}
