/**
 * `.memory/code-index.json`: the symbol table `cortex index-code` builds (file → size,
 * mtime, symbols) and the state of every code anchor of the memories (where it resolves
 * now, the hash of its symbol when the memory was made and now). A cache: a missing,
 * corrupt or other-version file is an empty index, and the next `index-code` rebuilds it.
 * Node built-ins only: staleness and the file hook read the anchors.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeGrammar, CodeSymbol, SymbolKind } from '../core/code-symbols.js';
import { writeFileAtomic } from '../store/atomic.js';
import { CODE_INDEX_FILE } from './layout.js';

export const CODE_INDEX_VERSION = 1;

export interface CodeFileEntry {
  size: number;
  mtimeMs: number;
  grammar: CodeGrammar;
  symbols: CodeSymbol[];
}

/** `ok`: the symbol is unchanged; `changed`: its text changed; `missing`: no such symbol (or file) now. */
export type AnchorStatus = 'ok' | 'changed' | 'missing';

/** Where one `files:` entry with a symbol or a line range resolves, and whether it changed. */
export interface AnchorState {
  /** The memory's id. */
  id: string;
  /** The `files:` entry as written. */
  entry: string;
  /** The file it resolves to now (a rename git recorded moves it). */
  path: string;
  /** The path as written, when git recorded a rename since. */
  renamedFrom?: string | undefined;
  /** The symbol's qualified name, when found. */
  symbol?: string | undefined;
  kind?: SymbolKind | undefined;
  startLine?: number | undefined;
  endLine?: number | undefined;
  /** The symbol's hash when the memory was made (at `source.commit`, else when first indexed). */
  baseline?: string | undefined;
  /** What `baseline` was taken from: an abbreviated commit, or `index` (first indexed). */
  baselineFrom?: string | undefined;
  /** Its hash now. */
  current?: string | undefined;
  status: AnchorStatus;
}

export interface CodeIndex {
  version: number;
  /** HEAD when built. */
  head: string;
  files: Record<string, CodeFileEntry>;
  /** Key: `<id>\u0000<entry>`. */
  anchors: Record<string, AnchorState>;
}

export function codeIndexPath(cacheDir: string): string {
  return join(cacheDir, CODE_INDEX_FILE);
}

/** The key of an anchor in `CodeIndex.anchors`. */
export function anchorKey(id: string, entry: string): string {
  return `${id}\u0000${entry}`;
}

export function emptyCodeIndex(): CodeIndex {
  return { version: CODE_INDEX_VERSION, head: '', files: {}, anchors: {} };
}

/**
 * The project's code index, or an empty one when there is none (or it is unreadable).
 *
 * @example
 * readCodeIndex('/repo/.memory').anchors
 */
export function readCodeIndex(cacheDir: string): CodeIndex {
  try {
    const c = JSON.parse(readFileSync(codeIndexPath(cacheDir), 'utf8')) as Partial<CodeIndex>;
    if (c?.version !== CODE_INDEX_VERSION || typeof c.files !== 'object' || c.files === null || typeof c.anchors !== 'object' || c.anchors === null) {
      return emptyCodeIndex();
    }
    return { version: CODE_INDEX_VERSION, head: typeof c.head === 'string' ? c.head : '', files: c.files, anchors: c.anchors };
  } catch {
    return emptyCodeIndex();
  }
}

export function writeCodeIndex(cacheDir: string, index: CodeIndex): void {
  writeFileAtomic(codeIndexPath(cacheDir), JSON.stringify(index));
}

/**
 * A stamp that changes whenever the code index is rewritten ('' when there is none): what
 * the caches derived from it are keyed by.
 */
export function codeIndexStamp(cacheDir: string): string {
  const st = statSync(codeIndexPath(cacheDir), { throwIfNoEntry: false });
  return st === undefined ? '' : `${st.mtimeMs}:${st.size}`;
}

/**
 * Whether an anchor's state still describes the file in the work tree: the file has the
 * size and mtime `index-code` read it with (or is absent, as it was then). A branch switch
 * or an edit since rewrites the file, and the state then says nothing about the code
 * checked out now (the caller falls back to comparing the file between commits).
 *
 * @example
 * isAnchorCurrent(readCodeIndex('/repo/.memory'), '/repo', 'src/db.ts') // true until src/db.ts changes
 */
export function isAnchorCurrent(index: CodeIndex, root: string, path: string): boolean {
  const entry = index.files[path];
  const st = statSync(join(root, path), { throwIfNoEntry: false });
  if (entry === undefined || st === undefined) return entry === undefined && st === undefined;
  return entry.size === st.size && entry.mtimeMs === st.mtimeMs;
}

/**
 * Why an anchor may be outdated, from its state in the code index; `undefined` when it is
 * current or was never indexed.
 *
 * @example
 * anchorOutdated({ status: 'changed', symbol: 'acquire', kind: 'function', path: 'src/db.ts', baselineFrom: '3f2a9c1', … })
 * // 'symbol acquire (function) in src/db.ts changed since 3f2a9c1'
 */
export function anchorOutdated(state: AnchorState | undefined): string | undefined {
  if (state === undefined || state.status === 'ok') return undefined;
  const what = state.symbol !== undefined ? `symbol ${state.symbol}${state.kind !== undefined ? ` (${state.kind})` : ''}` : state.entry;
  if (state.status === 'missing') return `${what} no longer found in ${state.path}`;
  const since = state.baselineFrom !== undefined && state.baselineFrom !== 'index' ? ` since ${state.baselineFrom}` : ' since it was first indexed';
  return `${what} in ${state.path} changed${since}`;
}
