/**
 * Paths a memory names (`source.files`), as the repository knows them: relative to its
 * root, with forward slashes. Claude Code's tools name files by absolute path; a memory
 * stored with one is flagged "[POSSIBLY OUTDATED] … no longer exists" in the next briefing
 * (on another machine, or in another clone, it does not). Pure: the roots arrive as
 * arguments (the caller adds the real path of a symlinked root).
 */
export type RepoPath = { ok: true; path: string } | { ok: false; reason: 'empty' | 'outside' };

const isWindowsAbsolute = (p: string): boolean => /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

/**
 * The segments of a path with `.` and `..` resolved (a `..` past the start is kept), and
 * whether it was absolute. Backslashes count as separators on a Windows path.
 */
function segmentsOf(path: string, windows: boolean): { absolute: boolean; parts: string[] } {
  const p = windows ? path.replace(/\\/g, '/') : path;
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (!(seg === '..' && absolute && parts.length === 0)) parts.push(seg);
  }
  return { absolute, parts };
}

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
  const windows = isWindowsAbsolute(given) || given.includes('\\');
  const target = segmentsOf(given, windows);
  let parts: string[] | undefined;
  if (target.absolute) {
    for (const root of roots) {
      const base = segmentsOf(root, windows || isWindowsAbsolute(root));
      const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
      if (base.parts.length < target.parts.length && base.parts.every((seg, i) => same(seg, target.parts[i]!))) {
        parts = target.parts.slice(base.parts.length);
        break;
      }
    }
    if (parts === undefined) return { ok: false, reason: 'outside' };
  } else {
    parts = target.parts;
  }
  if (parts.length === 0 || parts[0] === '..') return { ok: false, reason: 'outside' };
  return { ok: true, path: parts.join('/') };
}
