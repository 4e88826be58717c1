/**
 * `index-code`: parses the repository's source (TypeScript/JavaScript, Python, Go, Rust)
 * with tree-sitter into a symbol table in `.memory/code-index.json`, and resolves every code
 * anchor of the memories (`files:` entries with `#symbol` or `#L10-L20`): where the symbol is
 * now (the same name and kind in the same file wherever it moved, or in the file git
 * recorded a rename to), the hash of its text when the memory was made (at
 * `source.commit`) and now. Staleness then names the symbol that changed, and the file hook
 * shows which anchored memories may be outdated.
 *
 * Incremental: a file whose size and mtime did not change is not parsed again.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAnchor, type Anchor } from '../core/anchor.js';
import { findSymbol, grammarOf, type CodeSymbol } from '../core/code-symbols.js';
import type { Memory } from '../core/memory.js';
import { GitError } from '../errors.js';
import { runGit, tryGit } from '../git/cli.js';
import { anchorKey, readCodeIndex, writeCodeIndex, type AnchorState, type CodeFileEntry, type CodeIndex } from '../cache/code-index.js';
import { findGitRoot } from '../store/paths.js';
import { readAllMemories } from '../store/memory-store.js';
import { openCodeParser, type CodeParser } from '../services/code-parser.js';
import { scopePaths, type Context } from '../services/context.js';
import { tierBase } from '../services/indexes.js';

/** Files larger than this are generated or vendored code, not something a memory describes. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export interface IndexCodeInput {
  /** Parse every file again, ignoring the stat cache. */
  rebuild?: boolean;
  onProgress?: (p: { phase: 'parse'; done: number; total: number }) => void;
}

export interface AnchorReport extends AnchorState {
  summary: string;
}

export interface IndexCodeOutput {
  /** Source files in the index. */
  files: number;
  /** Files parsed in this run (the others were unchanged). */
  parsed: number;
  symbols: number;
  /** Files skipped: too large, not regular, unreadable. */
  skipped: number;
  /** Every code anchor of the project's memories, with where it resolves and its status. */
  anchors: AnchorReport[];
}

/** The memories of the project and local tiers, with the anchors among their `files:`. */
function anchoredMemories(ctx: Context): { memory: Memory; entry: string; anchor: Anchor }[] {
  const out: { memory: Memory; entry: string; anchor: Anchor }[] = [];
  for (const scope of ['project', 'local'] as const) {
    const { memories } = readAllMemories(scopePaths(ctx, scope), tierBase(ctx, scope));
    for (const m of memories) {
      if (m.status !== 'active') continue;
      for (const entry of m.source.files ?? []) {
        const anchor = parseAnchor(entry);
        if (anchor.symbol !== undefined || anchor.lines !== undefined) out.push({ memory: m, entry, anchor });
      }
    }
  }
  return out;
}

/** Source files git knows here (tracked, or untracked and not ignored), relative to `cwd`. */
function listSourceFiles(cwd: string): string[] {
  const out = runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd }).toString('utf8');
  return [...new Set(out.split('\0'))].filter((p) => p !== '' && grammarOf(p) !== undefined).sort();
}

/** Renames git recorded (old path → newest path), relative to `cwd`; most recent history first. */
function gitRenames(cwd: string): Map<string, string> {
  const text = tryGit(['log', '-M', '--diff-filter=R', '--name-status', '--format=', '-n', '2000', '--relative', 'HEAD'], { cwd }) ?? '';
  const step = new Map<string, string>();
  // Oldest first, so a chain a → b → c ends at c.
  for (const line of text.split('\n').reverse()) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R') && from && to && !step.has(from)) step.set(from, to);
  }
  const resolve = (p: string): string => {
    let at = p;
    for (let i = 0; i < 50 && step.has(at); i++) at = step.get(at)!;
    return at;
  };
  return new Map([...step.keys()].map((k) => [k, resolve(k)]));
}

/** The file's text at a commit, or `undefined`. */
function textAt(cwd: string, commit: string, path: string): string | undefined {
  try {
    return runGit(['show', `${commit}:./${path}`], { cwd }).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Builds or refreshes the code index and resolves every anchor.
 * Throws `GitError` outside a git repository.
 *
 * @example
 * const { files, anchors } = await indexCode(ctx, {});
 * anchors.filter((a) => a.status === 'changed') // [{ id, entry: 'src/db.ts#acquire', symbol: 'acquire', … }]
 */
export async function indexCode(ctx: Context, input: IndexCodeInput = {}): Promise<IndexCodeOutput> {
  const cwd = ctx.root;
  if (findGitRoot(cwd) === undefined) {
    throw new GitError(`${cwd} is not in a git repository: index-code reads the source files git knows.`, { hint: 'Run `git init` (and commit the code) first.' });
  }
  const cacheDir = ctx.paths.cacheDir;
  const old = input.rebuild ? undefined : readCodeIndex(cacheDir);
  const head = tryGit(['rev-parse', '--verify', '-q', 'HEAD'], { cwd }) ?? '';
  const index: CodeIndex = { version: old?.version ?? 1, head, files: {}, anchors: {} };
  const paths = listSourceFiles(cwd);
  let parser: CodeParser | undefined;
  let parsed = 0;
  let skipped = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    input.onProgress?.({ phase: 'parse', done: i, total: paths.length });
    const full = join(cwd, path);
    const st = lstatSync(full, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || st.size > MAX_SOURCE_BYTES) {
      if (st !== undefined) skipped++;
      continue;
    }
    const before = old?.files[path];
    if (before !== undefined && before.size === st.size && before.mtimeMs === st.mtimeMs) {
      index.files[path] = before;
      continue;
    }
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch {
      skipped++;
      continue;
    }
    parser ??= await openCodeParser();
    const grammar = grammarOf(path)!;
    let symbols: CodeSymbol[];
    try {
      symbols = parser.symbols(grammar, text);
    } catch {
      skipped++;
      continue;
    }
    index.files[path] = { size: st.size, mtimeMs: st.mtimeMs, grammar, symbols } satisfies CodeFileEntry;
    parsed++;
  }
  input.onProgress?.({ phase: 'parse', done: paths.length, total: paths.length });

  const anchored = anchoredMemories(ctx);
  let renames: Map<string, string> | undefined;
  const reports: AnchorReport[] = [];
  for (const { memory, entry, anchor } of anchored) {
    let path = anchor.path;
    let renamedFrom: string | undefined;
    if (index.files[path] === undefined) {
      renames ??= gitRenames(cwd);
      const to = renames.get(path);
      if (to !== undefined && index.files[to] !== undefined) {
        renamedFrom = path;
        path = to;
      }
    }
    const file = index.files[path];
    const key = anchorKey(memory.id, entry);
    const previous = old?.anchors[key];
    // The symbol as it was when the memory was made: at its commit, when git has the file there.
    let then: CodeSymbol | undefined;
    let thenFrom: string | undefined;
    const commit = memory.source.commit;
    const grammar = grammarOf(anchor.path);
    if (commit && grammar !== undefined && previous?.baseline === undefined) {
      const text = textAt(cwd, commit, anchor.path);
      if (text !== undefined) {
        parser ??= await openCodeParser();
        try {
          then = findSymbol(parser.symbols(grammar, text), anchor);
          thenFrom = commit.slice(0, 7);
        } catch {
          then = undefined;
        }
      }
    }
    // A line range names the symbol it covered when the memory was made (or first indexed):
    // that symbol is followed from then on, wherever its lines move.
    const covered = then?.qualified ?? previous?.symbol;
    const lookup: Anchor = anchor.symbol !== undefined ? anchor : covered !== undefined ? { path, symbol: covered } : anchor;
    const now = file !== undefined ? findSymbol(file.symbols, lookup, then?.kind ?? previous?.kind) : undefined;
    const baseline = previous?.baseline ?? then?.hash ?? now?.hash;
    const baselineFrom = previous?.baseline !== undefined ? previous.baselineFrom : then !== undefined ? thenFrom : now !== undefined ? 'index' : undefined;
    const state: AnchorState = {
      id: memory.id,
      entry,
      path,
      ...(renamedFrom !== undefined ? { renamedFrom } : {}),
      ...(now !== undefined ? { symbol: now.qualified, kind: now.kind, startLine: now.startLine, endLine: now.endLine, current: now.hash } : {}),
      ...(now === undefined && (then?.qualified ?? previous?.symbol) !== undefined ? { symbol: then?.qualified ?? previous?.symbol, kind: then?.kind ?? previous?.kind } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
      ...(baselineFrom !== undefined ? { baselineFrom } : {}),
      status: now === undefined ? 'missing' : baseline !== undefined && baseline !== now.hash ? 'changed' : 'ok',
    };
    index.anchors[key] = state;
    reports.push({ ...state, summary: memory.summary });
  }
  writeCodeIndex(cacheDir, index);
  const symbols = Object.values(index.files).reduce((n, f) => n + f.symbols.length, 0);
  return { files: Object.keys(index.files).length, parsed, symbols, skipped, anchors: reports };
}
