/**
 * Recall across branches (`recall --branch <b>`, `--all-branches`): reads `.cortex/` of
 * other refs straight from git (isomorphic-git; no checkout) and marks what is not merged
 * into the current branch.
 *
 * Each branch's keyword index is cached in `.memory/branches/<tree id>/`, keyed by the id
 * of its `.cortex/memories` tree: a tree id names its content, so the cache never needs
 * checking, and a branch that did not move costs one tree read. Building it reads a blob
 * from git only when the work tree does not hold the same bytes.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseMemory } from '../../core/memory-format.js';
import { GitError, UsageError } from '../../errors.js';
import { readHead } from '../../git/head.js';
import { blobOid } from '../../git/oid.js';
import { gitReader, isAncestor, listBranches, readBlobText, readCortexTree, resolveCommit, type CortexTree, type GitReader } from '../../git/repo.js';
import { openSearchIndex, type SearchIndex } from '../../cache/index/search-index.js';
import { CORTEX_DIR, findGitRoot, tierPaths } from '../../store/paths.js';
import type { Context } from '../../services/context.js';
import { searchOptionsOf, toResult, type RecallInput, type RecallOutput, type RecallResult, type RefInfo } from './results.js';
import { BRANCHES_DIR } from '../../cache/layout.js';

async function branchIndex(ctx: Context, r: GitReader, tree: CortexTree, root: string): Promise<SearchIndex> {
  const paths = tierPaths(ctx.paths.cortexDir, join(ctx.paths.cacheDir, BRANCHES_DIR, tree.memoriesTree ?? 'empty'));
  const cached = openSearchIndex(paths);
  if (!cached.rebuilt || tree.memories.size === 0) return cached;
  const index = openSearchIndex(paths, { empty: true });
  for (const [id, oid] of tree.memories) {
    const path = join(root, CORTEX_DIR, 'memories', `${id}.md`);
    let text: string | undefined;
    try {
      const local = readFileSync(path, 'utf8');
      if (blobOid(local) === oid) text = local;
    } catch {
      // Not in the work tree: read it from git.
    }
    text ??= await readBlobText(r, oid);
    const { memory } = parseMemory(text, { file: `.cortex/memories/${id}.md`, expectedId: id });
    if (memory) index.upsert(memory, { path, id, size: 0, mtimeMs: 0 }, text, { base: root });
  }
  try {
    index.save(paths);
    pruneBranchCaches(join(ctx.paths.cacheDir, BRANCHES_DIR));
  } catch {
    // A cache that cannot be written is rebuilt next time.
  }
  return index;
}

/** Branch caches kept; older ones (branches that moved on) are deleted. */
export const BRANCH_CACHES_KEPT = 16;

function pruneBranchCaches(dir: string): void {
  const entries = readdirSync(dir).map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }));
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const e of entries.slice(BRANCH_CACHES_KEPT)) rmSync(join(dir, e.name), { recursive: true, force: true });
}

/**
 * Recall from other branches: `input.branch` alone, or (`allBranches`) the work tree
 * plus every other local branch, each memory once (the current branch's copy wins when
 * the bytes are the same).
 *
 * @example
 * const { results } = await recallBranches(ctx, { query: 'cache', branch: 'feature' }, recall);
 * results[0].ref // { branch: 'feature', merged: false, inCurrent: 'absent', … }
 */
export async function recallBranches(
  ctx: Context,
  input: RecallInput & { branch?: string; allBranches?: boolean },
  /** Recall in the work tree (the caller's `recall`), for `--all-branches`. */
  recallHere: (ctx: Context, input: RecallInput) => Promise<RecallOutput>,
): Promise<RecallOutput> {
  const root = findGitRoot(ctx.root);
  if (!root) throw new GitError('--branch and --all-branches need a git repository.');
  const query = input.query.trim();
  if (query === '') throw new UsageError('The query is empty.', { hint: 'Example: cortex recall "database choice" --branch feature' });
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit };
  const r = gitReader(root);
  const head = readHead(root);
  const current = head.commit ? await readCortexTree(r, head.commit) : undefined;

  const { branch: _b, allBranches: _a, ...plain } = input;
  const results: (RecallResult & { ref?: RefInfo })[] = [];
  const diagnostics: RecallOutput['diagnostics'] = [];
  let names: string[];
  if (input.allBranches) {
    // Keyword search here too, so the scores of every branch compare.
    const here = await recallHere(ctx, { ...plain, mode: 'keyword' });
    results.push(...here.results);
    diagnostics.push(...here.diagnostics);
    names = (await listBranches(r)).filter((b) => b !== head.branch);
  } else {
    names = [input.branch!];
  }
  const seen = new Set(results.map((x) => x.id));
  for (const name of names) {
    const commit = await resolveCommit(r, name);
    const tree = await readCortexTree(r, commit);
    const merged = head.commit ? await isAncestor(r, commit, head.commit) : false;
    const index = await branchIndex(ctx, r, tree, root);
    for (const hit of index.query(query, options)) {
      const doc = index.docs.get(hit.id);
      if (!doc) continue;
      const mine = current?.memories.get(hit.id);
      const inCurrent = mine === undefined ? 'absent' : mine === tree.memories.get(hit.id) ? 'same' : 'changed';
      // With --all-branches, a memory the current branch already holds as is appears once.
      if (input.allBranches && (seen.has(hit.id) && inCurrent !== 'changed')) continue;
      seen.add(hit.id);
      results.push({ ...toResult(doc, hit.score, hit.terms), ref: { branch: name, commit, merged: merged || inCurrent === 'same', inCurrent } });
    }
  }
  results.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { query, mode: 'keyword', results: results.slice(0, limit), diagnostics };
}
