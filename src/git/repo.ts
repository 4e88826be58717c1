/**
 * Reading refs, commits, trees and blobs with isomorphic-git: no `git` binary at run time.
 * Everything here reads; nothing writes to the repository.
 */
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { PROJECTION_FILES } from '../core/projection.js';

export { blobOid } from './oid.js';
export { commonGitDirOf, gitDirOf } from './dirs.js';
import { commonGitDirOf, gitDirOf } from './dirs.js';

/**
 * How to read one repository: its work tree, the git directory holding objects and refs
 * (the common one, for linked worktrees), the work tree's own git directory (its HEAD),
 * and isomorphic-git's object cache, so packfile indexes are parsed once per process.
 */
export interface GitReader {
  dir: string;
  gitdir: string;
  headGitdir: string;
  cache: object;
}

export function gitReader(dir: string): GitReader {
  return { dir, gitdir: commonGitDirOf(dir), headGitdir: gitDirOf(dir), cache: {} };
}

/** Resolves a branch, tag, remote branch or (abbreviated) commit id to a commit id. */
export async function resolveCommit(r: GitReader, ref: string): Promise<string> {
  try {
    if (/^[0-9a-f]{4,40}$/i.test(ref)) {
      try {
        const oid = ref.length === 40 ? ref : await git.expandOid({ fs, dir: r.dir, gitdir: r.gitdir, oid: ref, cache: r.cache });
        return await peel(r, oid);
      } catch {
        // Not an object id: maybe a branch named like one.
      }
    }
    // HEAD belongs to the work tree (linked worktrees have their own); branches are shared.
    const oid = ref === 'HEAD' ? await resolveHead(r) : await git.resolveRef({ fs, dir: r.dir, gitdir: r.gitdir, ref });
    return await peel(r, oid);
  } catch (err) {
    throw new GitError(`Unknown revision "${ref}".`, {
      hint: 'Name a branch, tag or commit that exists here (`git branch -a` lists branches).',
      cause: err,
    });
  }
}

async function resolveHead(r: GitReader): Promise<string> {
  const branch = await git.currentBranch({ fs, dir: r.dir, gitdir: r.headGitdir, fullname: true });
  if (branch) return git.resolveRef({ fs, dir: r.dir, gitdir: r.gitdir, ref: branch });
  return git.resolveRef({ fs, dir: r.dir, gitdir: r.headGitdir, ref: 'HEAD' });
}

async function peel(r: GitReader, oid: string): Promise<string> {
  const { type, object } = await git.readObject({ fs, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  if (type === 'commit') return oid;
  if (type === 'tag') return peel(r, (object as { object: string }).object);
  throw new GitError(`${oid.slice(0, 12)} is a ${type}, not a commit.`);
}

/** Local branch names. */
export async function listBranches(r: GitReader): Promise<string[]> {
  return (await git.listBranches({ fs, dir: r.dir, gitdir: r.gitdir })).sort();
}

/** Remote-tracking branch names (`origin/main`), for every remote. */
export async function listRemoteBranches(r: GitReader): Promise<string[]> {
  const out: string[] = [];
  let remotes: { remote: string }[] = [];
  try {
    remotes = await git.listRemotes({ fs, dir: r.dir, gitdir: r.gitdir });
  } catch {
    return out;
  }
  for (const { remote } of remotes) {
    for (const b of await git.listBranches({ fs, dir: r.dir, gitdir: r.gitdir, remote }).catch(() => [] as string[])) {
      if (b !== 'HEAD') out.push(`${remote}/${b}`);
    }
  }
  return out.sort();
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(r: GitReader, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  try {
    return await git.isDescendent({ fs, dir: r.dir, gitdir: r.gitdir, oid: descendant, ancestor, depth: -1, cache: r.cache });
  } catch {
    return false;
  }
}

/** The merge bases of two commits (usually one). */
export async function mergeBases(r: GitReader, a: string, b: string): Promise<string[]> {
  return git.findMergeBase({ fs, dir: r.dir, gitdir: r.gitdir, oids: [a, b], cache: r.cache });
}

export async function readConfig(r: GitReader, path: string): Promise<string | undefined> {
  try {
    const v = await git.getConfig({ fs, dir: r.dir, gitdir: r.gitdir, path });
    return v === undefined || v === null ? undefined : String(v);
  } catch {
    return undefined;
  }
}

/** What `.cortex/` holds in one commit: blob ids by file name. */
export interface CortexTree {
  commit: string;
  /** Tree id of `.cortex/memories` (undefined when absent): a cache key for the memory set. */
  memoriesTree: string | undefined;
  /** `<id>` → blob id. */
  memories: Map<string, string>;
  /** `<source>--<relation>--<target>.md` → blob id. */
  edges: Map<string, string>;
  /** `decisions.md` … → blob id. */
  projections: Map<string, string>;
}

async function treeEntries(r: GitReader, oid: string): Promise<{ path: string; oid: string; type: string }[]> {
  const { tree } = await git.readTree({ fs, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  return tree;
}

/**
 * Lists `.cortex/memories/*.md`, `.cortex/edges/*.md` and the projections of a commit,
 * reading three tree objects (no blob).
 */
export async function readCortexTree(r: GitReader, commit: string): Promise<CortexTree> {
  const out: CortexTree = { commit, memoriesTree: undefined, memories: new Map(), edges: new Map(), projections: new Map() };
  const { commit: c } = await git.readCommit({ fs, dir: r.dir, gitdir: r.gitdir, oid: commit, cache: r.cache });
  const top = await treeEntries(r, c.tree);
  const cortex = top.find((e) => e.path === '.cortex' && e.type === 'tree');
  if (!cortex) return out;
  for (const e of await treeEntries(r, cortex.oid)) {
    if (e.type === 'blob' && (PROJECTION_FILES as readonly string[]).includes(e.path)) out.projections.set(e.path, e.oid);
    if (e.type !== 'tree' || (e.path !== 'memories' && e.path !== 'edges')) continue;
    if (e.path === 'memories') out.memoriesTree = e.oid;
    for (const f of await treeEntries(r, e.oid)) {
      if (f.type !== 'blob' || !f.path.endsWith('.md') || f.path.startsWith('.')) continue;
      if (e.path === 'memories') out.memories.set(f.path.slice(0, -3), f.oid);
      else out.edges.set(f.path, f.oid);
    }
  }
  return out;
}

/** The text of a blob (UTF-8). */
export async function readBlobText(r: GitReader, oid: string): Promise<string> {
  const { blob } = await git.readBlob({ fs, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  return Buffer.from(blob).toString('utf8');
}

/**
 * The blob id of `path` (relative to the work tree root) in a commit, or null when the
 * commit has no such file. Tree objects are cached in `trees`, so many lookups in commits
 * that share directories read each tree once.
 */
export async function blobAt(r: GitReader, commit: string, path: string, trees: Map<string, Map<string, { oid: string; type: string }>> = new Map()): Promise<string | null> {
  const { commit: c } = await git.readCommit({ fs, dir: r.dir, gitdir: r.gitdir, oid: commit, cache: r.cache });
  let oid = c.tree;
  const parts = path.split('/').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    let entries = trees.get(oid);
    if (!entries) {
      entries = new Map((await treeEntries(r, oid)).map((e) => [e.path, { oid: e.oid, type: e.type }]));
      trees.set(oid, entries);
    }
    const entry = entries.get(parts[i]!);
    if (!entry) return null;
    if (i === parts.length - 1) return entry.type === 'blob' ? entry.oid : null;
    if (entry.type !== 'tree') return null;
    oid = entry.oid;
  }
  return null;
}
