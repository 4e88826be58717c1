/**
 * Making destructive commands undoable. Before `forget`, `unlink`, `consolidate --merge`
 * or `lifecycle` change or delete files, `keepForUndo` notes how each one can come back:
 * files committed exactly as they are on disk come back with one `git restore` line; every
 * other file (not committed, changed since, or outside a git repository) is first copied
 * to `.memory/trash/<time>-<command>/`, under the same relative path.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { shellQuote } from '../core/shell.js';
import type { Context } from './context.js';
import type { Scope } from '../core/memory.js';
import { TRASH_DIR } from '../cache/layout.js';

export interface UndoInfo {
  /** Every file the command changed or deleted (relative to the repository root for the project tier). */
  files: string[];
  /** The command that restores the committed ones; absent when none was committed. */
  gitRestore?: string | undefined;
  /** Where copies of the other files were put; absent when there were none. */
  trash?: string | undefined;
  /** The command that puts the copies back. */
  trashRestore?: string | undefined;
  /** Files the command created (undo deletes them), relative like `files`. */
  created?: string[] | undefined;
  /** What to run after restoring: `cortex project`, when the command regenerated the projections. */
  then?: string | undefined;
}

/** Trash directories kept per tier; older ones are removed (`.memory/` is a cache). */
export const TRASH_KEPT = 50;

export interface UndoFile {
  /** Absolute path. */
  path: string;
  scope: Scope;
}

function stamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '').replace('T', '-');
}

function tierBaseOf(ctx: Context, scope: Scope): { base: string; cacheDir: string } {
  if (scope === 'global') return { base: ctx.global.cortexDir, cacheDir: ctx.global.cacheDir };
  return { base: ctx.root, cacheDir: scope === 'local' ? ctx.local.cacheDir : ctx.paths.cacheDir };
}

function shown(base: string, path: string): string {
  const rel = relative(base, path);
  return (rel.startsWith('..') ? path : rel).split(sep).join('/');
}

/**
 * Records how `files` can be restored, copying to the trash what git cannot bring back.
 * Call it before changing them. Never throws for a file that does not exist (it is skipped).
 *
 * @example
 * const undo = await keepForUndo(ctx, [{ path: '/repo/.cortex/memories/a.md', scope: 'project' }], 'forget');
 * undo.gitRestore // 'git restore --source=HEAD --staged --worktree -- .cortex/memories/a.md'
 */
export async function keepForUndo(ctx: Context, files: readonly UndoFile[], label: string): Promise<UndoInfo> {
  const present = files.filter((f) => existsSync(f.path));
  const info: UndoInfo = { files: present.map((f) => shown(tierBaseOf(ctx, f.scope).base, f.path)) };
  if (present.length === 0) return info;
  const project = present.filter((f) => f.scope === 'project').map((f) => f.path);
  const clean = new Set<string>();
  if (project.length > 0) {
    try {
      const { fileStatuses } = await import('../git/status.js');
      const statuses = await fileStatuses(ctx.root, project);
      statuses?.forEach((s, i) => {
        if (s.clean) clean.add(project[i]!);
      });
    } catch {
      // Git cannot say: keep copies of everything.
    }
  }
  const restorable = present.filter((f) => clean.has(f.path));
  if (restorable.length > 0) {
    const { findGitRoot } = await import('../store/paths.js');
    const gitRoot = findGitRoot(ctx.root) ?? ctx.root;
    const paths = restorable.map((f) => shellQuote(relative(gitRoot, f.path).split(sep).join('/')));
    const cd = gitRoot === ctx.root ? '' : `git -C ${shellQuote(gitRoot)} `;
    info.gitRestore = `${cd || 'git '}restore --source=HEAD --staged --worktree -- ${paths.join(' ')}`;
  }
  const copies = present.filter((f) => !clean.has(f.path));
  for (const scope of ['project', 'local', 'global'] as const) {
    const mine = copies.filter((f) => f.scope === scope);
    if (mine.length === 0) continue;
    const { base, cacheDir } = tierBaseOf(ctx, scope);
    const trashRoot = join(cacheDir, TRASH_DIR);
    let dir = join(trashRoot, `${stamp(ctx.now())}-${label}`);
    for (let n = 2; existsSync(dir); n++) dir = join(trashRoot, `${stamp(ctx.now())}-${label}-${n}`);
    for (const f of mine) {
      const target = join(dir, relative(base, f.path));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(f.path, target);
    }
    pruneTrash(trashRoot);
    // Both tiers rarely at once; the project's copies are the ones shown when they are.
    if (info.trash === undefined) {
      info.trash = shown(scope !== 'global' ? ctx.root : base, dir);
      info.trashRestore = scope !== 'global' ? `cp -R ${shellQuote(info.trash)}/. .` : `cp -R ${shellQuote(dir)}/. ${shellQuote(base)}`;
    }
  }
  return info;
}

/**
 * A new directory name under the project tier's trash for `label` (not created), e.g.
 * `.memory/trash/20261207-221500Z-export`; older trash directories beyond the kept count go.
 */
export function trashDirFor(ctx: Context, label: string): string {
  const trashRoot = join(ctx.paths.cacheDir, TRASH_DIR);
  let dir = join(trashRoot, `${stamp(ctx.now())}-${label}`);
  for (let n = 2; existsSync(dir); n++) dir = join(trashRoot, `${stamp(ctx.now())}-${label}-${n}`);
  pruneTrash(trashRoot);
  return dir;
}

function pruneTrash(root: string): void {
  try {
    const names = readdirSync(root).sort();
    for (const name of names.slice(0, Math.max(0, names.length - TRASH_KEPT))) rmSync(join(root, name), { recursive: true, force: true });
  } catch {
    // The trash is a convenience: a failure to prune it changes nothing else.
  }
}

/**
 * The lines that tell a person how to undo: one per way back. Everything after `undo: ` is
 * a shell command that runs as printed from the repository's root (a note is a `#` comment).
 *
 * @example
 * undoLines({ files: ['.cortex/memories/a.md'], gitRestore: 'git restore …' }) // ['undo: git restore …']
 */
export function undoLines(undo: UndoInfo | readonly UndoInfo[] | undefined): string[] {
  if (!undo) return [];
  if (Array.isArray(undo)) return undo.flatMap((u) => undoLines(u));
  const one = undo as UndoInfo;
  return linesOf(one);
}

function linesOf(undo: UndoInfo): string[] {
  const lines: string[] = [];
  const then = undo.then ? ` && ${undo.then}` : '';
  const created = undo.created && undo.created.length > 0 ? `rm ${undo.created.map(shellQuote).join(' ')}` : undefined;
  // Files created go first, so a regeneration after the restore sees the old set.
  const restores = [undo.gitRestore, undo.trashRestore].filter((x): x is string => x !== undefined);
  if (created) lines.push(`undo: ${created}${restores.length === 0 ? then : ''}`);
  restores.forEach((r, i) => {
    // A shell comment, not prose: the line after `undo: ` runs as printed when pasted.
    const note = r === undo.trashRestore ? `   # copies of the uncommitted files are in ${undo.trash}/` : '';
    lines.push(`undo: ${r}${i === restores.length - 1 ? then : ''}${note}`);
  });
  return lines;
}
