/**
 * The git merge driver (`cortex merge-driver %O %A %B %P %L`): reads the three versions,
 * calls the pure merge for the kind of file, writes the result into `%A`.
 *
 * - Memory and edge files: the field-by-field 3-way merge (core/merge.ts, merge-edge.ts).
 * - Projections: regenerated from the merged memories when the driver can name the three
 *   commits (`git merge`: HEAD and the `GITHEAD_<oid>` variable git sets; `git rebase`: the
 *   commit being picked), each checked against the blob git handed over. The memories are
 *   merged with the same pure function as the memory files, so the projection equals what
 *   `cortex project` gives on the merged tree, in the merge commit itself. When the commits
 *   cannot be named (`cherry-pick`, `am`, `stash`, criss-cross merges) the projection merges
 *   entry by entry from the three versions alone (core/projection-merge.ts).
 * - Anything else: a line-based 3-way merge.
 *
 * Content is never dropped: an unexpected failure falls back to the line merge with
 * conflict markers. The git binary is used here because git is the one running us.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeEdgeText } from '../core/merge-edge.js';
import { mergeMemoryText, mergeText, type Conflict, type MergeLabels, type MergeResult } from '../core/merge.js';
import { mergeProjectionText } from '../core/projection-merge.js';
import { isProjectionFile, type ProjectionFile } from '../core/projection.js';
import { batchCheck, catFileBatch, lsTree, tryGit } from '../git/cli.js';
import { blobOid } from '../git/oid.js';
import { gitDirOf } from '../git/head.js';
import { CACHE_DIR } from '../store/paths.js';
import { openProjectionCache, projectionTemplates, renderFromBlobs, type MemoryBlob } from './project.js';

export interface MergeDriverInput {
  /** `%O`: file holding the ancestor's version (empty when the file is new on both sides). */
  base: string;
  /** `%A`: file holding our version; the result is written here. */
  ours: string;
  /** `%B`: file holding their version. */
  theirs: string;
  /** `%P`: the path being merged, relative to the work tree root. */
  path: string;
  /** `%L`: conflict marker size. */
  markerSize?: number;
  /** The work tree root (git runs drivers there). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface MergeDriverOutput {
  clean: boolean;
  /** What the file was merged as. */
  kind: 'memory' | 'edge' | 'projection' | 'text';
  /** For projections: regenerated from the merged memories, or merged entry by entry. */
  method?: 'regenerated' | 'entries' | undefined;
  conflicts: Conflict[];
  /** Why the projection could not be regenerated (when `method` is `entries`). */
  note?: string | undefined;
}

export const DEFAULT_MARKER_SIZE = 7;

function kindOf(path: string): MergeDriverOutput['kind'] {
  const p = path.replace(/\\/g, '/');
  if (/(^|\/)\.cortex\/memories\/[^/]+\.md$/.test(p)) return 'memory';
  if (/(^|\/)\.cortex\/edges\/[^/]+\.md$/.test(p)) return 'edge';
  if (isProjectionFile(p)) return 'projection';
  return 'text';
}

/** Labels like git's own: `HEAD` and, during `git merge`, the name of the other branch. */
function labelsOf(env: NodeJS.ProcessEnv): MergeLabels {
  const named = Object.entries(env).find(([k]) => /^GITHEAD_[0-9a-f]{40,64}$/.test(k));
  return { ours: 'HEAD', theirs: named?.[1] || 'theirs' };
}

interface Commits {
  base: string;
  ours: string;
  theirs: string;
}

/**
 * The commits being merged, when they can be named and each one's copy of `path` is
 * exactly the blob git handed over; otherwise a reason.
 */
function findCommits(input: MergeDriverInput, texts: { base: string; ours: string; theirs: string }): Commits | string {
  const opts = { cwd: input.cwd, env: input.env };
  const ours = tryGit(['rev-parse', '--verify', '-q', 'HEAD'], opts);
  if (!ours) return 'HEAD is not a commit';
  let theirs: string | undefined;
  let base: string | undefined;
  const githead = Object.keys(input.env).find((k) => /^GITHEAD_[0-9a-f]{40,64}$/.test(k));
  if (githead) {
    theirs = githead.slice('GITHEAD_'.length);
    const bases = (tryGit(['merge-base', '--all', ours, theirs], opts) ?? '').split('\n').filter(Boolean);
    if (bases.length !== 1) return `${bases.length} merge bases`;
    base = bases[0];
  } else {
    // `git rebase` (the merge backend) lists the commit being picked last in rebase-merge/done.
    let done = '';
    try {
      done = readFileSync(join(gitDirOf(input.cwd), 'rebase-merge', 'done'), 'utf8');
    } catch {
      return 'not a git merge or rebase (no GITHEAD_* variable, no rebase in progress)';
    }
    const last = done.trim().split('\n').pop() ?? '';
    const oid = /^\S+\s+([0-9a-f]{7,64})\b/.exec(last)?.[1];
    if (!oid) return 'cannot read the commit being rebased';
    theirs = tryGit(['rev-parse', '--verify', '-q', `${oid}^{commit}`], opts);
    base = theirs && tryGit(['rev-parse', '--verify', '-q', `${theirs}^`], opts);
    if (!theirs || !base) return 'cannot resolve the commit being rebased and its parent';
  }
  if (!base || !theirs) return 'cannot name the commits being merged';
  const names = [base, ours, theirs].map((c) => `${c}:${input.path}`);
  const found = batchCheck(names, opts);
  const matches = (name: string, text: string, mayBeAbsent: boolean) => {
    const oid = found.get(name);
    return oid === undefined ? mayBeAbsent && text === '' : oid === blobOid(text);
  };
  if (!matches(names[0]!, texts.base, true) || !matches(names[1]!, texts.ours, false) || !matches(names[2]!, texts.theirs, false)) {
    return 'the versions git handed over are not the ones in the commits found';
  }
  return { base, ours, theirs };
}

/**
 * The memory files of the merged result, as blobs, each merged with the same pure function
 * the memory driver uses: a side that changed a file wins, both changed → `mergeMemoryText`.
 * Texts are read only for memories changed on both sides; the rest come from the cache or,
 * when it does not know them, from git in one batch.
 */
function mergedMemories(commits: Commits, input: MergeDriverInput, labels: MergeLabels, markerSize: number): { memories: MemoryBlob[]; texts: Map<string, string> } {
  const opts = { cwd: input.cwd, env: input.env };
  const dir = '.cortex/memories/';
  const [b, o, t] = [commits.base, commits.ours, commits.theirs].map((c) => lsTree(c, dir, opts));
  const paths = new Set([...o!.keys(), ...t!.keys(), ...b!.keys()]);
  const memories: MemoryBlob[] = [];
  const both: { id: string; path: string; oids: (string | undefined)[] }[] = [];
  for (const path of paths) {
    const name = path.slice(dir.length);
    if (name.includes('/') || !name.endsWith('.md') || name.startsWith('.')) continue;
    const id = name.slice(0, -3);
    const [ob, oo, ot] = [b!.get(path), o!.get(path), t!.get(path)];
    const chosen = oo === ot ? oo : ob === oo ? ot : ob === ot ? oo : null;
    if (chosen === null) both.push({ id, path, oids: [ob, oo, ot] });
    else if (chosen !== undefined) memories.push({ id, oid: chosen });
  }
  const texts = new Map<string, string>();
  if (both.length > 0) {
    const blobs = catFileBatch([...new Set(both.flatMap((x) => x.oids.filter((v): v is string => v !== undefined)))], opts);
    const text = (oid: string | undefined) => (oid === undefined ? null : (blobs.get(oid)?.toString('utf8') ?? null));
    for (const { id, path, oids } of both) {
      const r = mergeMemoryText({ base: text(oids[0]), ours: text(oids[1]), theirs: text(oids[2]), file: path, labels, markerSize });
      // A memory that conflicts is listed as ours until a person resolves it: conflict
      // markers must not leak into a file git will consider merged. Committing the
      // resolution runs the pre-commit check, which asks for `cortex project`.
      const merged = r.clean ? r.text : (text(oids[1]) ?? r.text);
      if (merged === null) continue;
      const oid = blobOid(merged);
      texts.set(oid, merged);
      memories.push({ id, oid });
    }
  }
  return { memories, texts };
}

function mergeProjection(input: MergeDriverInput, texts: { base: string; ours: string; theirs: string }, labels: MergeLabels, markerSize: number): MergeDriverOutput & { text: string } {
  const file = input.path.replace(/\\/g, '/').split('/').pop() as ProjectionFile;
  const commits = findCommits(input, texts);
  if (typeof commits !== 'string') {
    const { memories, texts } = mergedMemories(commits, input, labels, markerSize);
    const readTexts = (oids: string[]) => {
      const out = new Map<string, string>();
      const fromGit = catFileBatch(oids.filter((oid) => !texts.has(oid)), { cwd: input.cwd, env: input.env });
      for (const oid of oids) {
        const t = texts.get(oid) ?? fromGit.get(oid)?.toString('utf8');
        if (t !== undefined) out.set(oid, t);
      }
      return out;
    };
    const cache = openProjectionCache(join(input.cwd, CACHE_DIR));
    const text = renderFromBlobs({ memories, readTexts, cache, only: file }).projections[file] ?? '';
    return { clean: true, kind: 'projection', method: 'regenerated', conflicts: [], text };
  }
  const r = mergeProjectionText({
    base: texts.base === '' ? null : texts.base,
    ours: texts.ours,
    theirs: texts.theirs,
    file,
    templates: projectionTemplates(),
    path: input.path,
    labels,
    markerSize,
  });
  return { clean: r.clean, kind: 'projection', method: 'entries', conflicts: r.conflicts, text: r.text ?? texts.ours, note: commits };
}

/**
 * Merges one file for git. Returns whether the result is clean; the merged text (with
 * conflict markers when not clean) has been written to `input.ours`.
 *
 * @example
 * const r = runMergeDriver({ base: '/tmp/O', ours: '/tmp/A', theirs: '/tmp/B', path: '.cortex/memories/a-k3f9qa.md', cwd, env });
 * process.exitCode = r.clean ? 0 : 1;
 */
export function runMergeDriver(input: MergeDriverInput): MergeDriverOutput {
  const markerSize = input.markerSize ?? DEFAULT_MARKER_SIZE;
  const texts = {
    base: readFileSync(input.base, 'utf8'),
    ours: readFileSync(input.ours, 'utf8'),
    theirs: readFileSync(input.theirs, 'utf8'),
  };
  const labels = labelsOf(input.env);
  const kind = kindOf(input.path);
  let out: MergeDriverOutput;
  let text: string;
  try {
    if (kind === 'projection') {
      const r = mergeProjection(input, texts, labels, markerSize);
      ({ text } = r);
      out = { clean: r.clean, kind, method: r.method, conflicts: r.conflicts, note: r.note };
    } else {
      // git hands over an empty ancestor for a file added on both sides.
      const base = texts.base === '' ? null : texts.base;
      const options = { base, ours: texts.ours, theirs: texts.theirs, file: input.path, labels, markerSize };
      const r: MergeResult = kind === 'memory' ? mergeMemoryText(options) : kind === 'edge' ? mergeEdgeText(options) : mergeText(options);
      // Both sides have the file here (git settles deletions itself); keep ours if ever not.
      text = r.text ?? texts.ours;
      out = { clean: r.clean, kind, conflicts: r.conflicts };
    }
  } catch (err) {
    const r = mergeText({ base: texts.base, ours: texts.ours, theirs: texts.theirs, file: input.path, labels, markerSize });
    text = r.text ?? texts.ours;
    out = {
      clean: false,
      kind: 'text',
      conflicts: [...r.conflicts, { kind: 'text', file: input.path, reason: `cortex could not merge this file (${(err as Error).message}); merged line by line instead` }],
    };
  }
  writeFileSync(input.ours, text);
  return out;
}
