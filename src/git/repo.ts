/**
 * Reading refs, commits, trees and blobs with isomorphic-git. The `git` binary is asked
 * only to resolve revision syntax (`HEAD~1`, `@{u}`), when it is installed: git is the
 * authority on what a revision names. Everything here reads; nothing writes to the repository.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { PROJECTION_FILES } from '../core/projection.js';
import { parseRevision, type RevisionStep } from '../core/revision.js';

import { commonGitDirOf, gitDirOf } from './head.js';

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

/**
 * Resolves a revision to a commit id: a branch, tag, remote branch or (abbreviated) commit
 * id, and git's revision syntax (`HEAD~1`, `main^`, `@{u}`, `v1.2^{commit}` …). Plain names
 * and ids are read in-process; revision syntax goes to `git rev-parse` when the git command
 * is installed, else to the in-process parser (`core/revision.ts`). Throws a `GitError`
 * naming the revision and what was not understood.
 */
export async function resolveCommit(r: GitReader, ref: string): Promise<string> {
  const rev = ref.trim();
  const parsed = parseRevision(rev);
  if (!parsed.ok && (rev === '' || rev.startsWith('-') || rev.includes('..'))) throw unknownRevision(rev, parsed.reason);
  if (parsed.ok && parsed.revision.steps.length === 0 && !parsed.revision.upstream) {
    try {
      return await resolveName(r, parsed.revision.base);
    } catch (err) {
      // A name isomorphic-git does not find (a worktree-local ref, an odd packed ref) may still be git's.
      const viaGit = revParse(r, rev);
      if (typeof viaGit === 'string') return viaGit;
      throw unknownRevision(rev, undefined, err);
    }
  }
  const viaGit = revParse(r, rev);
  if (typeof viaGit === 'string') return viaGit;
  if (viaGit.ran) throw unknownRevision(rev, viaGit.reason);
  if (!parsed.ok) throw unknownRevision(rev, parsed.reason);
  let oid: string;
  try {
    oid = parsed.revision.upstream ? await resolveUpstream(r, parsed.revision.base) : await resolveName(r, parsed.revision.base);
  } catch (err) {
    if (err instanceof GitError) throw err;
    throw unknownRevision(rev, undefined, err);
  }
  for (const step of parsed.revision.steps) oid = await walk(r, oid, step, rev);
  return oid;
}

function unknownRevision(rev: string, reason: string | undefined, cause?: unknown): GitError {
  return new GitError(`Unknown revision "${rev}"${reason ? `: ${reason}` : ''}.`, {
    hint: 'Name a branch, tag or commit that exists here (`git branch -a`, `git log --oneline`); git syntax such as HEAD~1, main^ and A...B works too.',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** `git rev-parse <rev>^{commit}`: the commit id, or why not (`ran: false` when git is not installed). */
function revParse(r: GitReader, rev: string): string | { ran: boolean; reason?: string } {
  const out = spawnSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    cwd: r.dir,
    encoding: 'utf8',
    // The index and work tree of a hook's environment do not change what a revision names.
    env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined },
  });
  if (out.error) return { ran: false };
  const oid = out.stdout.trim();
  if (out.status === 0 && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(oid)) return oid;
  const said = out.stderr.trim().split('\n').find((l) => l.trim() !== '');
  return { ran: true, reason: said ? `git says: ${said.replace(/^fatal: /, '')}` : 'git rev-parse does not know it' };
}

/** A plain name: a full commit id, a ref (refs win over a short id, as in git), or a short commit id. */
async function resolveName(r: GitReader, name: string): Promise<string> {
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(name)) return peel(r, name.toLowerCase());
  // HEAD belongs to the work tree (linked worktrees have their own); branches are shared.
  if (name === 'HEAD') return peel(r, await resolveHead(r));
  try {
    return await peel(r, await git.resolveRef({ fs, dir: r.dir, gitdir: r.gitdir, ref: name }));
  } catch (err) {
    if (!/^[0-9a-f]{4,39}$/i.test(name)) throw err;
  }
  return peel(r, await git.expandOid({ fs, dir: r.dir, gitdir: r.gitdir, oid: name.toLowerCase(), cache: r.cache }));
}

/** `<branch>@{u}`: the remote-tracking branch of `branch.<name>.remote` and `.merge`. */
async function resolveUpstream(r: GitReader, base: string): Promise<string> {
  const branch = base === 'HEAD' ? await git.currentBranch({ fs, dir: r.dir, gitdir: r.headGitdir }) : base.replace(/^refs\/heads\//, '');
  if (!branch) throw new GitError('HEAD is detached, so it has no upstream (@{u}).', { hint: 'Name the branch: <branch>@{u}, or the remote branch itself.' });
  const remote = await readConfig(r, `branch.${branch}.remote`);
  const merge = await readConfig(r, `branch.${branch}.merge`);
  if (!remote || !merge) {
    throw new GitError(`The branch "${branch}" has no upstream (@{u}).`, { hint: `Set one with \`git branch --set-upstream-to=<remote>/<branch> ${branch}\`, or name the remote branch.` });
  }
  const short = merge.replace(/^refs\/heads\//, '');
  const ref = remote === '.' ? `refs/heads/${short}` : `refs/remotes/${remote}/${short}`;
  return peel(r, await git.resolveRef({ fs, dir: r.dir, gitdir: r.gitdir, ref }));
}

/** One `~n` / `^n` step. */
async function walk(r: GitReader, oid: string, step: RevisionStep, rev: string): Promise<string> {
  let current = oid;
  const parentsOf = async (c: string) => (await git.readCommit({ fs, dir: r.dir, gitdir: r.gitdir, oid: c, cache: r.cache })).commit.parent;
  if (step.op === '^') {
    if (step.n === 0) return current;
    const parent = (await parentsOf(current))[step.n - 1];
    if (parent === undefined) throw unknownRevision(rev, `${current.slice(0, 12)} has no parent number ${step.n}`);
    return parent;
  }
  for (let i = 0; i < step.n; i++) {
    const parent = (await parentsOf(current))[0];
    if (parent === undefined) throw unknownRevision(rev, `the history ends ${i} commit${i === 1 ? '' : 's'} back`);
    current = parent;
  }
  return current;
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
