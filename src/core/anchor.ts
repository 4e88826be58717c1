/**
 * Code anchors: a `source.files` entry that points at a file, a symbol in it or a range of
 * its lines — `src/db/pool.ts`, `src/db/pool.ts#acquire`, `src/db/pool.ts#Pool.acquire`,
 * `src/db/pool.ts#L10-L24`. Paths are repository-relative and `/`-separated.
 * Pure: strings in, values out.
 */
import { toRepoPath } from './repo-path.js';

/** One parsed `files:` entry. */
export interface Anchor {
  /** Repository-relative, `/`-separated. */
  path: string;
  /** A symbol name, possibly qualified by its container (`Pool.acquire`). */
  symbol?: string | undefined;
  /** A 1-based inclusive line range. */
  lines?: readonly [number, number] | undefined;
}

const LINE_RANGE = /^L?(\d+)(?:-L?(\d+))?$/;

/**
 * Parses a `files:` entry. The part after the last `#` is a line range (`L10-L24`, `L7`)
 * or a symbol; an empty one is ignored.
 *
 * @example
 * parseAnchor('src/db.ts#acquire') // { path: 'src/db.ts', symbol: 'acquire' }
 * parseAnchor('./src/db.ts#L3-L9') // { path: 'src/db.ts', lines: [3, 9] }
 */
export function parseAnchor(entry: string): Anchor {
  const hash = entry.lastIndexOf('#');
  const path = normalizeRepoPath(hash >= 0 ? entry.slice(0, hash) : entry);
  const rest = hash >= 0 ? entry.slice(hash + 1).trim() : '';
  if (rest === '') return { path };
  const range = LINE_RANGE.exec(rest);
  if (range && (rest.startsWith('L') || /^\d/.test(rest))) {
    const start = Number(range[1]);
    const end = range[2] !== undefined ? Number(range[2]) : start;
    if (start >= 1 && end >= start) return { path, lines: [start, end] };
  }
  return { path, symbol: rest };
}

/**
 * The `files:` entry of an anchor.
 *
 * @example
 * renderAnchor({ path: 'src/db.ts', symbol: 'acquire' }) // 'src/db.ts#acquire'
 * renderAnchor({ path: 'a.go', lines: [3, 3] }) // 'a.go#L3'
 */
export function renderAnchor(anchor: Anchor): string {
  if (anchor.symbol !== undefined) return `${anchor.path}#${anchor.symbol}`;
  if (anchor.lines !== undefined) {
    const [a, b] = anchor.lines;
    return `${anchor.path}#L${a}${b !== a ? `-L${b}` : ''}`;
  }
  return anchor.path;
}

/**
 * A path as the memory files store it: `/`-separated, no leading `./`, no trailing `/`.
 *
 * @example
 * normalizeRepoPath('.\\src\\db.ts') // 'src/db.ts'
 */
export function normalizeRepoPath(path: string): string {
  let p = path.trim().replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p.replace(/\/$/, '');
}

/**
 * A path relative to the repository root, given both as absolute `/`- or `\`-separated
 * paths (or an already relative path); `undefined` when it is outside the repository.
 * `toRepoPath` with one root: pure string work, so a symlinked root must be resolved by the
 * caller.
 *
 * @example
 * repoRelative('/repo', '/repo/src/db.ts') // 'src/db.ts'
 * repoRelative('/repo', 'src/db.ts') // 'src/db.ts'
 * repoRelative('/repo', '/elsewhere/x.ts') // undefined
 */
export function repoRelative(root: string, path: string): string | undefined {
  const r = toRepoPath(path, [root]);
  return r.ok ? r.path : undefined;
}

/**
 * Whether a `files:` entry (parsed) refers to `path` and, when a symbol is asked for, to
 * that symbol (an anchor to the whole file covers every symbol in it; `Pool.acquire`
 * matches a request for `acquire` and the other way round).
 *
 * @example
 * anchorMatches(parseAnchor('src/db.ts#Pool.acquire'), 'src/db.ts', 'acquire') // true
 * anchorMatches(parseAnchor('src/db.ts#release'), 'src/db.ts', 'acquire') // false
 */
export function anchorMatches(anchor: Anchor, path: string, symbol?: string): boolean {
  if (anchor.path !== path) return false;
  if (symbol === undefined || anchor.symbol === undefined) return true;
  return symbolNameMatches(anchor.symbol, symbol);
}

/**
 * Whether two symbol references name the same symbol: equal, or one is the other's last
 * segments (`Pool.acquire` and `acquire`).
 *
 * @example
 * symbolNameMatches('Pool.acquire', 'acquire') // true
 */
export function symbolNameMatches(a: string, b: string): boolean {
  if (a === b) return true;
  return a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}
