/**
 * The code half of `cortex diff`: the memories whose code anchors a revision range changes
 * ("this PR changes `acquire`, which 2 memories describe"), so a reviewer sees the knowledge
 * that may need updating. A file anchor is touched when the file changed; a symbol anchor
 * when the symbol's text (whitespace aside) differs between the two ends, or it is gone.
 * Reads the commits with the git CLI; parses only the changed files that symbol anchors
 * name, with tree-sitter.
 */
import { relative } from 'node:path';
import { parseAnchor } from '../core/anchor.js';
import { findSymbol, grammarOf, type CodeSymbol } from '../core/code-symbols.js';
import { parseMemory } from '../core/memory-format.js';
import type { CodeTouch } from '../core/memory-diff.js';
import { catFileBatch, runGit } from '../git/cli.js';

interface Changed {
  status: string;
  /** Path at the base (differs from `path` for a rename). */
  from: string;
  /** Path at the head ('' when deleted). */
  path: string;
}

/** `git diff --name-status -M` between two commits, paths relative to `cwd`. */
function changedFiles(cwd: string, base: string, head: string): Changed[] {
  const out = runGit(['diff', '--name-status', '-M', '-z', '--relative', base, head], { cwd }).toString('utf8').split('\0');
  const changes: Changed[] = [];
  for (let i = 0; i < out.length; ) {
    const status = out[i++];
    if (!status) break;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = out[i++]!;
      const to = out[i++]!;
      changes.push({ status: status[0]!, from, path: to });
    } else {
      const p = out[i++]!;
      changes.push({ status, from: p, path: status === 'D' ? '' : p });
    }
  }
  return changes;
}

/**
 * The anchored memories (at `head`) whose code the range changes, one entry per file or symbol.
 *
 * @example
 * await codeTouched({ root: '/repo', gitRoot: '/repo', base, head, memoryBlobs: after.memories })
 * // [{ path: 'src/db.ts', symbol: 'Pool.acquire', change: 'changed', memories: [{ id, summary, entry }] }]
 */
export async function codeTouched(options: { root: string; gitRoot: string; base: string; head: string; memoryBlobs: Map<string, string> }): Promise<CodeTouch[]> {
  const { root, gitRoot, base, head } = options;
  const changes = changedFiles(root, base, head);
  if (changes.length === 0 || options.memoryBlobs.size === 0) return [];
  const byPath = new Map<string, Changed>();
  for (const c of changes) byPath.set(c.from, c);
  // Only memories whose text names a changed file are parsed.
  const blobs = catFileBatch([...options.memoryBlobs.values()], { cwd: gitRoot });
  const prefix = relative(gitRoot, root).split('\\').join('/');
  const inGit = (p: string): string => (prefix === '' ? p : `${prefix}/${p}`);
  const touches = new Map<string, CodeTouch>();
  const symbolsCache = new Map<string, CodeSymbol[] | undefined>();
  let parser: import('../services/code-parser.js').CodeParser | undefined;
  const symbolsAt = async (commit: string, path: string): Promise<CodeSymbol[] | undefined> => {
    const key = `${commit}:${path}`;
    if (!symbolsCache.has(key)) {
      const grammar = grammarOf(path);
      const text = grammar !== undefined ? catFileBatch([`${commit}:${inGit(path)}`], { cwd: gitRoot }).get(`${commit}:${inGit(path)}`) : undefined;
      if (grammar === undefined || text === undefined) symbolsCache.set(key, undefined);
      else {
        parser ??= await (await import('../services/code-parser.js')).openCodeParser();
        symbolsCache.set(key, parser.symbols(grammar, text.toString('utf8')));
      }
    }
    return symbolsCache.get(key);
  };
  const names = [...byPath.keys()];
  for (const [id, oid] of options.memoryBlobs) {
    const text = blobs.get(oid)?.toString('utf8');
    if (text === undefined || !names.some((n) => text.includes(n))) continue;
    const memory = parseMemory(text, { file: `.cortex/memories/${id}.md`, expectedId: id }).memory;
    if (memory === undefined || memory.status !== 'active') continue;
    for (const entry of memory.source.files ?? []) {
      const anchor = parseAnchor(entry);
      const change = byPath.get(anchor.path);
      if (change === undefined) continue;
      let touch: Omit<CodeTouch, 'memories'> | undefined;
      if (anchor.symbol === undefined && anchor.lines === undefined) {
        touch = { path: change.path || change.from, change: change.status === 'D' ? 'deleted' : change.status === 'R' ? 'renamed' : change.status === 'A' ? 'added' : 'changed' };
      } else {
        const before = await symbolsAt(base, change.from);
        const after = change.path !== '' ? await symbolsAt(head, change.path) : undefined;
        const was = before !== undefined ? findSymbol(before, anchor) : undefined;
        const lookup = anchor.symbol !== undefined ? anchor : was !== undefined ? { path: anchor.path, symbol: was.qualified } : anchor;
        const is = after !== undefined ? findSymbol(after, lookup, was?.kind) : undefined;
        const symbol = is?.qualified ?? was?.qualified ?? anchor.symbol ?? entry.slice(entry.lastIndexOf('#') + 1);
        if (was !== undefined && is === undefined) touch = { path: change.from, symbol, change: 'removed' };
        else if (was === undefined && is !== undefined) touch = { path: change.path, symbol, change: 'added' };
        else if (was !== undefined && is !== undefined && was.hash !== is.hash) touch = { path: change.path, symbol, change: 'changed', kind: is.kind };
      }
      if (touch === undefined) continue;
      const key = `${touch.path}#${touch.symbol ?? ''}`;
      const t = touches.get(key) ?? { ...touch, memories: [] };
      if (!t.memories.some((m) => m.id === memory.id)) t.memories.push({ id: memory.id, summary: memory.summary, entry });
      touches.set(key, t);
    }
  }
  return [...touches.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.symbol ?? '') < (b.symbol ?? '') ? -1 : 1));
}
