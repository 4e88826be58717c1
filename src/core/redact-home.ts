/**
 * Home directories are personal: `/Users/<name>/…` and `/home/<name>/…` carry a user
 * name into a repository the team shares. The gate's first step rewrites them: paths
 * inside the repository become relative to it, other paths under the home directory start
 * with `~`. Pure: the repository root and the home directory are given.
 */

/** Where the paths of one machine are. */
export interface HomePaths {
  /** The repository's root (absolute): paths inside it become relative. */
  root?: string | undefined;
  /** The current user's home (`$HOME`), whatever its shape (`/var/lib/ci`). */
  home?: string | undefined;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A path starts at the text's start, after a char that cannot be part of a path or URL, or a `file://`. */
const START = String.raw`(?:(?<=file://)|(?<![\w.~/\\:@%-]))`;
/** Generic home directories of any user: macOS, Linux, Windows (either slash). */
const GENERIC = new RegExp(
  String.raw`${START}(?:/Users/(?!Shared\b)[A-Za-z0-9._-]+|/home/(?!linuxbrew\b)[A-Za-z0-9._-]+|[A-Za-z]:[\\/]Users[\\/](?!Public\b|Default\b)[A-Za-z0-9._ -]+?)(?=[\\/]|(?![\w.-]))`,
  'g',
);

/**
 * `text` with absolute home paths rewritten: the repository's own paths relative to it
 * (`/home/ada/proj/src/a.ts` → `src/a.ts`), other home paths from `~`
 * (`/Users/ada/.aws/config` → `~/.aws/config`). The same string when there is none.
 *
 * @example
 * rewriteHomePaths('see /home/ada/proj/src/a.ts and /Users/bob/x', { root: '/home/ada/proj' }) // 'see src/a.ts and ~/x'
 */
export function rewriteHomePaths(text: string, paths: HomePaths = {}): string {
  if (!text.includes('/') && !text.includes('\\')) return text;
  let out = text;
  const root = paths.root?.replace(/[\\/]+$/, '');
  if (root !== undefined && root.length > 1 && out.includes(root)) {
    // `<root>/x` → `x`, `<root>` alone → `.`.
    out = out.replace(new RegExp(`${START}${escapeRegex(root)}(?:[\\\\/]|(?![\\w.-]))`, 'g'), (m) => (m.length > root.length ? '' : '.'));
  }
  const home = paths.home?.replace(/[\\/]+$/, '');
  if (home !== undefined && home.length > 1 && out.includes(home)) {
    out = out.replace(new RegExp(`${START}${escapeRegex(home)}(?=[\\\\/]|(?![\\w.-]))`, 'g'), '~');
  }
  return out.replace(GENERIC, '~');
}
