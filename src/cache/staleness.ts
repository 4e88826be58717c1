/**
 * Reality checks from git for the briefing's `[POSSIBLY OUTDATED]` marker (DESIGN §4):
 * a file a memory refers to (`source.files`) no longer exists, or changed since the
 * commit the memory was recorded at (`source.commit`), or the memory's branch is gone
 * without its work being in this branch.
 *
 * Compares blob ids, never contents: the blob of each file in the memory's commit against
 * the blob in HEAD, with isomorphic-git. Results are cached in `.memory/staleness.json`
 * keyed by HEAD and the branch list, and the blob ids of old commits (which never change)
 * are kept across HEAD moves, so a warm call reads no git object at all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemorySource } from '../core/memory.js';
import { isRecordOf, isString, isStringArray } from '../core/shape.js';
import { writeFileAtomic } from '../store/atomic.js';
import { findGitRoot } from '../store/paths.js';
import { readHead } from '../git/head.js';
import { blobAt, gitReader, isAncestor, listBranches, listRemoteBranches, resolveCommit, type GitReader } from '../git/repo.js';
import { STALENESS_FILE } from './layout.js';
import { parseAnchor } from '../core/anchor.js';
import { anchorKey, anchorOutdated, codeIndexStamp, isAnchorCurrent, readCodeIndex, type AnchorState, type CodeIndex } from './code-index.js';

/** What staleness needs of a memory. */
export interface StalenessInput {
  id: string;
  source: Pick<MemorySource, 'commit' | 'files' | 'branch'>;
}

/** What staleness needs of the project: its root and its local cache directory. */
export interface StalenessContext {
  root: string;
  paths: { cacheDir: string };
}

export const STALENESS_CACHE_VERSION = 1;

interface CacheFile {
  version: number;
  /** HEAD commit and branch list the `reasons` were computed against. */
  head: string;
  refs: string;
  reasons: Record<string, string[]>;
  /** `<commit>:<path>` → blob id (null: no such file). Immutable, kept across HEAD moves. */
  blobs: Record<string, string | null>;
  /** Abbreviated commit → full id ('' when unknown). */
  commits: Record<string, string>;
}

const isBlob = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** The cache when it has the version and the shape this code reads; else `undefined` (recomputed). */
function loadCache(path: string): CacheFile | undefined {
  try {
    const c = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (c?.version !== STALENESS_CACHE_VERSION || !isString(c.head) || !isString(c.refs)) return undefined;
    if (!isRecordOf(c.reasons, isStringArray) || !isRecordOf(c.blobs, isBlob) || !isRecordOf(c.commits, isString)) return undefined;
    return c as CacheFile;
  } catch {
    return undefined;
  }
}

function keyOf(m: StalenessInput): string {
  // The id too: an anchor's state in the code index is the memory's own.
  const anchored = (m.source.files ?? []).some((f) => f.includes('#'));
  return `${anchored ? `${m.id}|` : ''}${m.source.commit ?? ''}|${m.source.branch ?? ''}|${(m.source.files ?? []).join('\0')}`;
}

/**
 * Reasons each memory may be outdated, by id; memories with none are absent. Outside a
 * git repository, or on an unborn branch, there is nothing to compare with: `{}`.
 * Memories without `source.commit` are never flagged (nothing to compare against).
 *
 * @example
 * await computeStaleness(ctx, memories)
 * // { 'use-pool-in-db-k3f9qa': ['src/db.ts changed since 3f2a9c1'], 'old-flag-p2x81d': ['branch feat/x is gone'] }
 */
export async function computeStaleness(ctx: StalenessContext, memories: readonly StalenessInput[]): Promise<Record<string, string[]>> {
  const root = findGitRoot(ctx.root);
  if (!root) return {};
  const head = readHead(root);
  if (!head.commit) return {};
  const r = gitReader(root);
  const cachePath = join(ctx.paths.cacheDir, STALENESS_FILE);
  const local = await listBranches(r).catch(() => [] as string[]);
  const remote = await listRemoteBranches(r);
  // The anchors' states come from the code index: a new `index-code` run recomputes the reasons.
  const codeStamp = codeIndexStamp(ctx.paths.cacheDir);
  const refs = [...local, ...remote, `code-index:${codeStamp}`].join('\n');
  let codeIndex: CodeIndex | undefined;
  const anchorState = (id: string, entry: string): AnchorState | undefined => {
    if (codeStamp === '') return undefined;
    codeIndex ??= readCodeIndex(ctx.paths.cacheDir);
    const state = codeIndex.anchors[anchorKey(id, entry)];
    // Recorded for the code as `index-code` read it: after a branch switch or an edit of the
    // file it answers for other code, so the file's own history decides instead.
    return state !== undefined && isAnchorCurrent(codeIndex, root, state.path) ? state : undefined;
  };
  const old = loadCache(cachePath);
  const cache: CacheFile = {
    version: STALENESS_CACHE_VERSION,
    head: head.commit,
    refs,
    reasons: old && old.head === head.commit && old.refs === refs ? old.reasons : {},
    blobs: old?.blobs ?? {},
    commits: old?.commits ?? {},
  };
  let dirty = old === undefined || cache.reasons !== old.reasons;
  const branches = new Set([...local, ...remote.map((b) => b.slice(b.indexOf('/') + 1))]);
  const trees = new Map<string, Map<string, { oid: string; type: string }>>();
  const out: Record<string, string[]> = {};

  const fullCommit = async (short: string): Promise<string | undefined> => {
    if (!(short in cache.commits)) {
      cache.commits[short] = await resolveCommit(r, short).catch(() => '');
      dirty = true;
    }
    return cache.commits[short] || undefined;
  };
  const blob = async (commit: string, path: string): Promise<string | null> => {
    const key = `${commit}:${path}`;
    if (!(key in cache.blobs)) {
      cache.blobs[key] = await blobAt(r, commit, path, trees).catch(() => null);
      dirty = true;
    }
    return cache.blobs[key] ?? null;
  };

  for (const m of memories) {
    if (!m.source.commit) continue;
    const key = keyOf(m);
    let reasons = cache.reasons[key];
    if (reasons === undefined) {
      reasons = await reasonsFor(r, m, { head: head.commit, branch: head.branch, root, branches, fullCommit, blob, anchorState });
      cache.reasons[key] = reasons;
      dirty = true;
    }
    if (reasons.length > 0) out[m.id] = reasons;
  }
  if (dirty) {
    try {
      writeFileAtomic(cachePath, JSON.stringify(cache));
    } catch {
      // A cache that cannot be written is recomputed next time.
    }
  }
  return out;
}

interface Probe {
  head: string;
  branch: string | undefined;
  root: string;
  branches: Set<string>;
  fullCommit(short: string): Promise<string | undefined>;
  blob(commit: string, path: string): Promise<string | null>;
  /** The state `cortex index-code` recorded for a memory's code anchor, if it ran. */
  anchorState(id: string, entry: string): AnchorState | undefined;
}

async function reasonsFor(r: GitReader, m: StalenessInput, p: Probe): Promise<string[]> {
  const commit = await p.fullCommit(m.source.commit!);
  // A commit this clone does not have (shallow clone, rewritten history): nothing to compare.
  if (!commit) return [];
  const short = m.source.commit!.slice(0, 7);
  const reasons: string[] = [];
  for (const raw of m.source.files ?? []) {
    const anchor = parseAnchor(raw);
    if (anchor.symbol !== undefined || anchor.lines !== undefined) {
      // A symbol anchor the code index resolved: the symbol's own text decides, not its file's.
      const state = p.anchorState(m.id, raw);
      if (state !== undefined) {
        const why = anchorOutdated(state);
        if (why !== undefined) reasons.push(why);
        continue;
      }
    }
    const path = anchor.path;
    const then = await p.blob(commit, path);
    const now = await p.blob(p.head, path);
    if (now === null && !existsSync(join(p.root, path))) reasons.push(`${path} no longer exists`);
    // A file that did not exist at the memory's commit was new then; its later history says nothing.
    else if (then !== null && now !== then) reasons.push(`${path} changed since ${short}`);
  }
  const branch = m.source.branch;
  if (branch && branch !== p.branch && !p.branches.has(branch) && !(await isAncestor(r, commit, p.head))) {
    reasons.push(`branch ${branch} is gone`);
  }
  return reasons;
}
