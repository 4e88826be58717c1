/**
 * What the git hooks do (`cortex git-hook <event>`, called by the scripts in hooks/git/):
 *
 * - `pre-commit`: refuses a commit whose staged `.cortex/` files hold a secret or
 *   conflict markers, or whose staged projections differ from the staged memories'.
 *   It checks the index (what will be committed), not the work tree.
 * - `post-merge`, `post-rewrite`: regenerate the projections (normally already right,
 *   thanks to the merge driver) and refresh the search index.
 * - `post-checkout`: refresh the search index when a branch switch changed the memories.
 *
 * The git binary reads the index here: git is the one running the hook.
 */
import { findSecrets } from '../core/redact.js';
import { isTempFileName } from '../store/atomic.js';
import { PROJECTION_FILES } from '../core/projection.js';
import { catFileBatch, lsIndex, lsTree, tryGit } from '../git/cli.js';
import type { Context } from './context.js';
import { openIndexes } from './indexes.js';
import { openProjectionCache, project, renderFromBlobs, type MemoryBlob } from './project.js';

export interface Refusal {
  file: string;
  line?: number | undefined;
  /** `secret`, `conflict-markers`, `stale-projection`, `temp-file`. */
  kind: 'secret' | 'conflict-markers' | 'stale-projection' | 'temp-file';
  reason: string;
}

export interface PreCommitOutput {
  /** Staged files under `.cortex/` that differ from HEAD. */
  checked: string[];
  refusals: Refusal[];
  /** The commands that fix the refusals, in order. */
  fixes: string[];
}

const CORTEX_PREFIX = '.cortex/';
const MEMORY_DIR = '.cortex/memories/';

function isMemoryPath(path: string): boolean {
  const name = path.slice(MEMORY_DIR.length);
  return path.startsWith(MEMORY_DIR) && name.endsWith('.md') && !name.includes('/') && !name.startsWith('.');
}

/**
 * The pre-commit checks on the staged `.cortex/` files.
 *
 * @example
 * const { refusals, fixes } = preCommitCheck(ctx); // refusals.length > 0 → refuse the commit
 */
export function preCommitCheck(ctx: Context): PreCommitOutput {
  const opts = { cwd: ctx.root };
  const staged = lsIndex(CORTEX_PREFIX, opts);
  const head = tryGit(['rev-parse', '--verify', '-q', 'HEAD'], opts) ? lsTree('HEAD', CORTEX_PREFIX, opts) : new Map<string, string>();
  const changed = [...staged.keys()].filter((p) => staged.get(p) !== head.get(p));
  const deleted = [...head.keys()].some((p) => !staged.has(p));
  const out: PreCommitOutput = { checked: changed, refusals: [], fixes: [] };
  if (changed.length === 0 && !deleted) return out;

  const blobs = catFileBatch(changed.map((p) => staged.get(p)!), opts);
  for (const path of changed) {
    if (isTempFileName(path.slice(path.lastIndexOf('/') + 1))) {
      out.refusals.push({ file: path, kind: 'temp-file', reason: 'is the temporary file of an interrupted write' });
      continue;
    }
    const text = blobs.get(staged.get(path)!)?.toString('utf8');
    if (text === undefined || text.includes('\0')) continue;
    for (const f of findSecrets(text)) {
      out.refusals.push({ file: path, line: f.line, kind: 'secret', reason: `looks like a secret (${f.kind})` });
    }
    const lines = text.split('\n');
    const at = lines.findIndex((l) => /^<{7}(?: |$)/.test(l));
    if (at >= 0 && lines.some((l) => /^>{7}(?: |$)/.test(l))) {
      out.refusals.push({ file: path, line: at + 1, kind: 'conflict-markers', reason: 'has unresolved conflict markers' });
    }
  }

  const touchesProjections = changed.some((p) => isMemoryPath(p) || PROJECTION_FILES.some((f) => p === `${CORTEX_PREFIX}${f}`)) || deleted;
  if (touchesProjections) {
    const memories: MemoryBlob[] = [...staged.keys()].filter(isMemoryPath).map((p) => ({ id: p.slice(MEMORY_DIR.length, -3), oid: staged.get(p)! }));
    const readTexts = (oids: string[]) => new Map([...catFileBatch(oids, opts)].map(([oid, b]) => [oid, b.toString('utf8')]));
    const { projections } = renderFromBlobs({ memories, readTexts, cache: openProjectionCache(ctx.paths.cacheDir) });
    const current = catFileBatch(PROJECTION_FILES.flatMap((f) => (staged.has(`${CORTEX_PREFIX}${f}`) ? [staged.get(`${CORTEX_PREFIX}${f}`)!] : [])), opts);
    for (const f of PROJECTION_FILES) {
      const oid = staged.get(`${CORTEX_PREFIX}${f}`);
      const text = oid === undefined ? undefined : current.get(oid)?.toString('utf8');
      if (text === projections[f]) continue;
      out.refusals.push({
        file: `${CORTEX_PREFIX}${f}`,
        kind: 'stale-projection',
        reason: text === undefined ? 'is not staged, but the memories are' : 'does not match the staged memories',
      });
    }
  }
  if (out.refusals.some((r) => r.kind === 'secret')) {
    out.fixes.push('remove the secret from the file (cortex redacts what it writes itself; this one was typed or pasted in), then `git add` it');
  }
  if (out.refusals.some((r) => r.kind === 'conflict-markers')) out.fixes.push('resolve the conflict in the file, then `git add` it');
  for (const r of out.refusals.filter((x) => x.kind === 'temp-file')) out.fixes.push(`git rm --cached -q ${r.file} && rm -f ${r.file}`);
  if (out.refusals.some((r) => r.kind === 'stale-projection')) out.fixes.push('cortex project && git add .cortex/decisions.md .cortex/plan.md .cortex/decisions-archive.md');
  return out;
}

export interface RefreshOutput {
  /** Projection files rewritten. */
  regenerated: string[];
  /** Memories added, updated or removed in the index. */
  indexChanges: number;
}

/**
 * After a merge or rewrite: regenerate stale projections and refresh the index.
 *
 * @example
 * const { regenerated } = await refreshAfterGit(ctx, { projections: true });
 */
export async function refreshAfterGit(ctx: Context, options: { projections: boolean }): Promise<RefreshOutput> {
  const regenerated = options.projections ? (await project(ctx)).files.filter((f) => f.state === 'created' || f.state === 'updated').map((f) => f.file) : [];
  const tiers = openIndexes(ctx, { scope: 'project' });
  const indexChanges = tiers.reduce((n, t) => n + t.report.added + t.report.updated + t.report.removed, 0);
  return { regenerated, indexChanges };
}
