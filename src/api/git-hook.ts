/**
 * What the git hooks do (`cortex git-hook <event>`, called by the scripts in hooks/git/):
 *
 * - `pre-commit`: in a commit of the whole tree (`git commit -a`, a plain `git commit`,
 *   `--amend`), first takes the memory and edge files that are new, changed or deleted in
 *   the work tree (services/stage.ts: no intent-to-add entries, which break `git stash`);
 *   then refuses a commit whose staged `.cortex/` files hold a secret, conflict
 *   markers or a memory that does not parse; regenerates the projections from the staged
 *   memories and stages them (refusing only when that would overwrite unstaged hand edits
 *   of a projection). It reads the index being committed (`GIT_INDEX_FILE`), not the work
 *   tree, so `git commit -a`, `git commit <paths>` and a plain commit all get it right.
 * - `post-merge`, `post-rewrite`: regenerate the projections (normally already right,
 *   thanks to the merge driver) and refresh the search index.
 * - `post-checkout`: refresh the search index when a branch switch changed the memories.
 * - all three rewrite the briefing in the rules files that hold one (AGENTS.md, GEMINI.md, …:
 *   `refreshSurfaceTargets`), so assistants without Cortex hooks read the branch's memory.
 *
 * The git binary reads the index here: git is the one running the hook.
 */
import { isUtf8 } from 'node:buffer';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseMemory } from '../core/memory-format.js';
import { findSecrets } from '../core/redact.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { PROJECTION_FILES, type ProjectionFile } from '../core/projection.js';
import { EMPTY_BLOB, catFileBatch, lsIndex, lsTree, stageBlob, tryGit, writeBlob } from '../git/cli.js';
import { isTempFileName, readFileIfExists, writeIfChanged } from '../store/atomic.js';
import type { Context } from '../services/context.js';
import { openIndexes } from '../services/indexes.js';
import { filesToTake, parseStatus, stageFiles, statusOf } from '../services/stage.js';
import { openProjectionCache, project, renderFromBlobs, renderWorkTreeProjections, type MemoryBlob } from './project.js';

export interface Refusal {
  file: string;
  line?: number | undefined;
  /**
   * `secret`, `conflict-markers`, `broken-memory` (a staged memory file that does not
   * parse), `projection-edited` (a projection with unstaged edits that regenerating it
   * would overwrite), `temp-file` (the temporary file of an interrupted write), `private`
   * (a file of the private tier `.cortex/local/`, or a memory marked `private: true` or
   * `scope: local` outside it).
   */
  kind: 'secret' | 'conflict-markers' | 'broken-memory' | 'projection-edited' | 'temp-file' | 'private';
  reason: string;
}

export interface PreCommitOutput {
  /**
   * Memory and edge files taken from the work tree into this commit (new, changed or
   * deleted there and not staged by the person: services/stage.ts); none in a commit
   * limited to paths (`git commit <paths>`, `--only`).
   */
  taken: string[];
  /**
   * True when files were taken but nothing else was staged: git decides whether there is
   * anything to commit before it runs the hook, so it answers "nothing to commit" and the
   * memories need `git add` (the message says so).
   */
  onlyTaken: boolean;
  /** Staged files under `.cortex/` that differ from HEAD. */
  checked: string[];
  refusals: Refusal[];
  /** The commands that fix the refusals, in order. */
  fixes: string[];
  /** Projections regenerated from the staged memories and staged with the commit. */
  staged: string[];
  /** Projections whose edits in the work tree were kept (the commit has the regenerated ones). */
  kept: string[];
}

const CORTEX_PREFIX = '.cortex/';
const MEMORY_DIR = '.cortex/memories/';
const LOCAL_PREFIX = '.cortex/local/';

function isMemoryPath(path: string): boolean {
  const name = path.slice(MEMORY_DIR.length);
  return path.startsWith(MEMORY_DIR) && name.endsWith('.md') && !name.includes('/') && !name.startsWith('.');
}

/**
 * Refuses a tracked `.cortex/local` of any kind (a link, a file, or files under it that an
 * earlier commit brought, which the loop over changed files does not see) and a
 * `.cortex/memories` or `.cortex/edges` that is a file or a link: checking such a commit out
 * would replace the directory (an old private tier in the work tree was deleted that way).
 */
function refuseTrackedTierPaths(staged: ReadonlyMap<string, string>, changed: readonly string[], out: PreCommitOutput): void {
  const changedSet = new Set(changed);
  let local = false;
  for (const path of staged.keys()) {
    if (path === '.cortex/local' || (path.startsWith(LOCAL_PREFIX) && !changedSet.has(path))) {
      out.refusals.push({ file: path, kind: 'private', reason: `is tracked: .cortex/local must not be in git (a checkout of it would replace the directory)` });
      local = true;
    } else if (path === '.cortex/memories' || path === '.cortex/edges') {
      out.refusals.push({ file: path, kind: 'private', reason: 'is tracked as a file or a symbolic link, where Cortex needs a directory' });
      out.fixes.push(`git rm --cached -q ${path}`);
    }
  }
  if (local) out.fixes.push('git rm -r --cached -q .cortex/local');
}

/**
 * The pre-commit step on the staged `.cortex/` files. Refuses secrets, conflict markers
 * and memory files that do not parse. Projections that do not match the staged memories
 * are regenerated from them and staged with the commit (and written to the work tree when
 * that loses nothing); only a projection with unstaged hand edits is refused.
 *
 * @example
 * const { refusals, staged } = preCommit(ctx); // refusals.length > 0 → refuse the commit
 */
export function preCommit(ctx: Context): PreCommitOutput {
  const opts = { cwd: ctx.root };
  // A commit of the whole tree takes the memories; one limited to paths takes what was named.
  // git decides whether there is anything to commit from the index as it was before this
  // hook: when nothing else is staged, it will say "nothing to commit" whatever we add.
  const hasHead = tryGit(['rev-parse', '--verify', '-q', 'HEAD'], opts) !== undefined;
  const before = isPartialCommit() ? [] : filesToTake(parseStatus(statusOf(opts)));
  const onlyTaken = before.length > 0 && hasHead && tryGit(['diff-index', '--cached', '--quiet', 'HEAD', '--'], opts) !== undefined;
  const taken = stageFiles(before, opts);
  // An intent-to-add entry (`git add -N`) is not part of this commit.
  const staged = new Map([...lsIndex(CORTEX_PREFIX, opts)].filter(([, oid]) => oid !== EMPTY_BLOB));
  const head = hasHead ? lsTree('HEAD', CORTEX_PREFIX, opts) : new Map<string, string>();
  const changed = [...staged.keys()].filter((p) => staged.get(p) !== head.get(p));
  const deleted = [...head.keys()].some((p) => !staged.has(p));
  const out: PreCommitOutput = { taken, onlyTaken, checked: changed, refusals: [], fixes: [], staged: [], kept: [] };
  refuseTrackedTierPaths(staged, changed, out);
  if (changed.length === 0 && !deleted) return out;

  const blobs = catFileBatch(changed.map((p) => staged.get(p)!), opts);
  const broken: string[] = [];
  let notText = false;
  for (const path of changed) {
    // The private tier ignores itself; `git add -f` still gets past that.
    if (path.startsWith(LOCAL_PREFIX)) {
      out.refusals.push({ file: path, kind: 'private', reason: 'is in the private tier (.cortex/local/), which is never committed' });
      continue;
    }
    if (isTempFileName(path.slice(path.lastIndexOf('/') + 1))) {
      out.refusals.push({ file: path, kind: 'temp-file', reason: 'is the temporary file of an interrupted write' });
      continue;
    }
    const blob = blobs.get(staged.get(path)!);
    if (blob !== undefined && isMemoryPath(path) && !isUtf8(blob)) {
      const at = findInvalidUtf8(blob);
      out.refusals.push({ file: path, line: at?.line, kind: 'broken-memory', reason: 'is not UTF-8 text' });
      out.fixes.push(`iconv -f latin1 -t utf-8 ${path} > tmp && mv tmp ${path} && git add ${path}`);
      notText = true;
      continue;
    }
    const text = blob?.toString('utf8');
    if (text === undefined || text.includes('\0')) continue;
    for (const f of findSecrets(text)) {
      out.refusals.push({ file: path, line: f.line, kind: 'secret', reason: `looks like a secret (${f.kind})` });
    }
    const lines = text.split('\n');
    const at = lines.findIndex((l) => /^<{7}(?: |$)/.test(l));
    const conflicted = at >= 0 && lines.some((l) => /^>{7}(?: |$)/.test(l));
    if (conflicted) out.refusals.push({ file: path, line: at + 1, kind: 'conflict-markers', reason: 'has unresolved conflict markers' });
    if (isMemoryPath(path) && !conflicted) {
      const id = path.slice(MEMORY_DIR.length, -3);
      const error = parseMemory(text, { file: path, expectedId: id }).diagnostics.find((d) => d.severity === 'error');
      if (error) {
        out.refusals.push({ file: path, line: error.line, kind: 'broken-memory', reason: `is not a valid memory: ${error.reason}` });
        broken.push(id);
      } else if (isMarkedPrivate(text)) {
        out.refusals.push({ file: path, kind: 'private', reason: 'is marked private (private: true or scope: local) but is in the shared tier .cortex/memories/' });
      }
    }
  }

  const touchesProjections = changed.some((p) => isMemoryPath(p) || PROJECTION_FILES.some((f) => p === `${CORTEX_PREFIX}${f}`)) || deleted;
  if (touchesProjections && broken.length === 0 && !notText) {
    const memories: MemoryBlob[] = [...staged.keys()].filter(isMemoryPath).map((p) => ({ id: p.slice(MEMORY_DIR.length, -3), oid: staged.get(p)! }));
    const readTexts = (oids: string[]) => new Map([...catFileBatch(oids, opts)].map(([oid, b]) => [oid, b.toString('utf8')]));
    const { projections } = renderFromBlobs({ memories, readTexts, cache: openProjectionCache(ctx.paths.cacheDir) });
    const names = PROJECTION_FILES.map((f) => `${CORTEX_PREFIX}${f}`);
    const indexed = catFileBatch(names.flatMap((n) => (staged.has(n) ? [staged.get(n)!] : [])), opts);
    const committed = catFileBatch(names.flatMap((n) => (head.has(n) ? [head.get(n)!] : [])), opts);
    const textOf = (map: Map<string, Buffer>, oid: string | undefined) => (oid === undefined ? undefined : map.get(oid)?.toString('utf8'));
    let workTree: Partial<Record<ProjectionFile, string>> | undefined;
    const empty = emptyProjections();
    const stale: { file: ProjectionFile; name: string; next: string; index: string | undefined }[] = [];
    for (const f of PROJECTION_FILES) {
      const name = `${CORTEX_PREFIX}${f}`;
      const index = textOf(indexed, staged.get(name));
      const next = projections[f] ?? '';
      if (index === next) continue;
      const onDisk = readFileIfExists(join(ctx.paths.cortexDir, f))?.toString('utf8');
      if (onDisk !== undefined && onDisk !== index && onDisk !== next && onDisk !== textOf(committed, head.get(name)) && onDisk !== empty[f]) {
        workTree ??= renderWorkTreeProjections(ctx);
        if (onDisk !== workTree[f]) {
          out.refusals.push({ file: name, kind: 'projection-edited', reason: 'is generated from the memories, but has edits that are not staged; regenerating it would overwrite them' });
          continue;
        }
      }
      stale.push({ file: f, name, next, index });
    }
    if (out.refusals.length === 0) {
      const partial = partialCommitIndex(ctx);
      for (const s of stale) {
        const oid = writeBlob(s.next, opts);
        stageBlob(s.name, oid, opts);
        if (partial) stageBlob(s.name, oid, { ...opts, env: { ...process.env, GIT_INDEX_FILE: partial } });
        out.staged.push(s.name);
      }
      if (stale.length > 0) syncWorkTree(ctx, stale, head, committed, out);
    }
  }
  if (out.refusals.some((r) => r.kind === 'secret')) {
    out.fixes.push('remove the secret from the file (cortex redacts what it writes itself; this one was typed or pasted in), then `git add` it');
  }
  if (out.refusals.some((r) => r.kind === 'conflict-markers')) out.fixes.push('resolve the conflict in the file, then `git add` it');
  for (const r of out.refusals.filter((x) => x.kind === 'temp-file')) out.fixes.push(`git rm --cached -q ${r.file} && rm -f ${r.file}`);
  if (out.refusals.some((r) => r.kind === 'private' && r.file.startsWith(LOCAL_PREFIX))) out.fixes.push(`git rm -r --cached -q ${LOCAL_PREFIX} (the files stay on disk, private)`);
  for (const r of out.refusals.filter((x) => x.kind === 'private' && !x.file.startsWith(LOCAL_PREFIX))) {
    out.fixes.push(`git rm --cached -q ${r.file} && mkdir -p ${LOCAL_PREFIX}memories && mv ${r.file} ${LOCAL_PREFIX}memories/ (then set scope: local in it), or remove its private mark and \`git add\` it`);
  }
  for (const id of broken) out.fixes.push(`cortex edit ${id} && git add ${MEMORY_DIR}${id}.md`);
  const edited = out.refusals.filter((r) => r.kind === 'projection-edited').map((r) => r.file);
  if (edited.length > 0) {
    out.fixes.push(`projections are generated: put what you wrote into a memory (cortex remember), then \`cortex project\` (it overwrites ${edited.join(', ')}) and commit again`);
  }
  return out;
}

/** A memory's frontmatter says it is private: `private: true` or `scope: local`. */
function isMarkedPrivate(text: string): boolean {
  const end = text.indexOf('\n---', 4);
  const head = end === -1 ? '' : text.slice(0, end);
  return /^private:\s*(?:true|yes)\s*$/m.test(head) || /^scope:\s*['"]?local['"]?\s*$/m.test(head);
}

let emptyMemo: Partial<Record<ProjectionFile, string>> | undefined;

/** The projections of no memories at all: what `cortex init` writes. */
function emptyProjections(): Partial<Record<ProjectionFile, string>> {
  emptyMemo ??= renderFromBlobs({ memories: [], readTexts: () => new Map() }).projections;
  return emptyMemo;
}

/** `git commit <paths>` and `--only` commit from a temporary index, `next-index-*.lock`. */
function isPartialCommit(): boolean {
  const using = process.env.GIT_INDEX_FILE;
  return using !== undefined && /(^|[\\/])next-index-[^\\/]*\.lock$/.test(using);
}

/**
 * `git commit <paths>` commits from a temporary index (`next-index-*.lock`) and then makes
 * the locked real index (`index.lock`) the index; a projection staged only in the first
 * would show as reverted in the second. Returns the locked real index in that case.
 */
function partialCommitIndex(ctx: Context): string | undefined {
  if (!isPartialCommit()) return undefined;
  const gitDir = tryGit(['rev-parse', '--git-dir'], { cwd: ctx.root });
  if (!gitDir) return undefined;
  const lock = resolve(ctx.root, gitDir, 'index.lock');
  return existsSync(lock) ? lock : undefined;
}

/**
 * Brings the work tree's projection files in line after staging regenerated ones: each is
 * rewritten from the work tree's memories unless it holds edits nobody generated (those
 * stay, and are reported in `kept`).
 */
function syncWorkTree(
  ctx: Context,
  stale: { file: ProjectionFile; name: string; index: string | undefined; next: string }[],
  head: Map<string, string>,
  committed: Map<string, Buffer>,
  out: PreCommitOutput,
): void {
  try {
    const workTree = renderWorkTreeProjections(ctx);
    for (const s of stale) {
      const path = join(ctx.paths.cortexDir, s.file);
      const onDisk = readFileIfExists(path)?.toString('utf8');
      const headText = head.has(s.name) ? committed.get(head.get(s.name)!)?.toString('utf8') : undefined;
      // Generated from some set of memories (the staged, the work tree's, HEAD's, none at
      // all as `cortex init` writes them): nothing anyone typed is lost by rewriting it.
      const generated = onDisk === undefined || onDisk === s.next || onDisk === workTree[s.file] || onDisk === headText || onDisk === emptyProjections()[s.file];
      if (generated) writeIfChanged(path, workTree[s.file] ?? s.next);
      else out.kept.push(s.name);
    }
  } catch {
    // The commit has the right projections; the work tree catches up at the next `cortex project`.
  }
}

export interface RefreshOutput {
  /** Projection files rewritten. */
  regenerated: string[];
  /** Memories added, updated or removed in the index. */
  indexChanges: number;
  /** Rules files whose briefing was rewritten (AGENTS.md …). */
  targets: string[];
  /** Why the rules files were not refreshed, when something went wrong there. */
  targetsProblem?: string;
}

/**
 * After a merge or rewrite: regenerate stale projections and refresh the index.
 *
 * @example
 * const { regenerated } = await refreshAfterGit(ctx, { projections: true });
 */
export async function refreshAfterGit(ctx: Context, options: { projections: boolean }): Promise<RefreshOutput> {
  const regenerated = options.projections ? (await project(ctx)).files.filter((f) => f.state === 'created' || f.state === 'updated').map((f) => f.file) : [];
  const tiers = openIndexes(ctx, { scope: 'project', sweep: true });
  const indexChanges = tiers.reduce((n, t) => n + t.report.added + t.report.updated + t.report.removed, 0);
  let targets: string[] = [];
  let targetsProblem: string | undefined;
  try {
    const { refreshSurfaceTargets } = await import('./surface.js');
    targets = (await refreshSurfaceTargets(ctx)).filter((w) => w.action !== 'unchanged').map((w) => w.file);
  } catch (err) {
    // The projections and the index are done; a rules file is a convenience.
    targetsProblem = (err as Error).message;
  }
  return { regenerated, indexChanges, targets, ...(targetsProblem !== undefined ? { targetsProblem } : {}) };
}
