/**
 * The private tier: where it lives, its own `.gitignore`, and the one-time move out of the
 * work tree.
 *
 * It used to be `.cortex/local/`, inside the work tree and ignored by git. Git deletes an
 * ignored directory without a word when a checked-out branch puts a file, a symbolic link
 * or tracked files where it is (and git has no pre-checkout hook to stop it): one hostile
 * or careless branch, and every private memory was gone. It now lives in the git
 * directory, `<git-common-dir>/cortex/local/` (paths.ts `localTierDir`), which no checkout
 * touches; {@link migrateLegacyLocalTier} moves an old `.cortex/local/` there on first use.
 *
 * The tier's `.gitignore` holding `*` stays: it ignores the directory wherever it is
 * (without git the tier stays in `.cortex/local/`; the undo of the move puts it back there).
 */
import { closeSync, constants, copyFileSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { shellQuote } from '../core/shell.js';
import { isErrnoCode } from '../errors.js';
import { isTempFileName, tempPathFor } from './atomic.js';
import { isLocalTier, localTierDir, type TierPaths } from './paths.js';
import { assertInside, assertRealDirectories, describeFileType, isInside } from './safe-read.js';

/** What the private tier's `.gitignore` holds. */
export const LOCAL_GITIGNORE = '# Cortex private tier: never committed (see docs/interop.md).\n*\n';

/**
 * Makes sure a private tier ignores itself; a no-op for other tiers and when the file
 * is there (a person may have added lines to it).
 *
 * @example
 * ensureLocalIgnored(localPaths('/repo')) // writes /repo/.git/cortex/local/.gitignore once
 */
export function ensureLocalIgnored(paths: TierPaths): void {
  if (isLocalTier(paths)) ensureIgnoreFile(paths.cortexDir);
}

function ensureIgnoreFile(dir: string): void {
  const file = join(dir, '.gitignore');
  if (lstatSync(file, { throwIfNoEntry: false }) !== undefined) return;
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, LOCAL_GITIGNORE, { flag: 'wx' });
  } catch (err) {
    // A concurrent writer made it first: what matters is that it is there.
    if ((err as NodeJS.ErrnoException)?.code !== 'EEXIST') throw err;
  }
}

/**
 * Throws unless `dir` (a tier's memories or edges directory) may be written: inside the
 * repository (for a tier in the work tree: no link on the way leads out of it), and neither
 * it nor the tier's directory a symbolic link or something other than a directory.
 *
 * @example
 * assertTierWritable(projectPaths('/repo'), '/repo/.cortex/memories'); // throws when memories/ is a link
 */
export function assertTierWritable(paths: TierPaths, dir: string): void {
  const root = (paths as TierPaths & { root?: string }).root;
  if (root === undefined) {
    assertRealDirectories([dir], dirname(paths.cortexDir));
    return;
  }
  // The project tier first says where a link leads (out of the repository); the private
  // tier, in the git directory, is refused for any link.
  if (!isLocalTier(paths) && isInside(root, paths.cortexDir)) assertInside(dir, root);
  assertRealDirectories([paths.cortexDir, dir], root);
}

/** What a move of the old `.cortex/local/` did (see {@link migrateLegacyLocalTier}). */
export interface LocalTierMigration {
  /** The old directory, `<root>/.cortex/local`. */
  from: string;
  /** The private tier now, `<git-common-dir>/cortex/local`. */
  to: string;
  /** Files moved, relative to the tier (`memories/x.md`, `edges/a--refines--b.md`). */
  moved: string[];
  /** What stayed in the old directory, each with why (`memories/x.md: differs from …`). */
  left: string[];
  /** A shell command, run from anywhere, that puts the moved files back. */
  undo: string;
}

const TIER_SUBDIRS = ['memories', 'edges'] as const;

/** Moves `src` to `dest` unless `dest` exists; across file systems by copy, sync, link, unlink. */
function moveFile(src: string, dest: string): 'moved' | 'same' | 'differs' | 'gone' {
  const existing = lstatSync(dest, { throwIfNoEntry: false });
  if (existing !== undefined) {
    // A crash after the copy and before the unlink: the copy is there, the original goes.
    let same = false;
    try {
      same = existing.isFile() && readFileSync(dest).equals(readFileSync(src));
    } catch {
      same = false;
    }
    if (!same) return 'differs';
    rmSync(src, { force: true });
    return 'same';
  }
  try {
    // link + unlink rather than rename: a name that appeared meanwhile is never overwritten.
    linkSync(src, dest);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) return 'gone'; // another process moved it first
    if (isErrnoCode(err, 'EEXIST')) return moveFile(src, dest);
    if (!isErrnoCode(err, 'EXDEV') && !isErrnoCode(err, 'EPERM') && !isErrnoCode(err, 'ENOTSUP') && !isErrnoCode(err, 'EOPNOTSUPP')) throw err;
    // Another file system (a linked work tree elsewhere), or no hard links: copy, sync, link.
    const tmp = tempPathFor(dest);
    try {
      copyFileSync(src, tmp, constants.COPYFILE_EXCL);
      const fd = openSync(tmp, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      try {
        linkSync(tmp, dest);
      } catch (again) {
        if (!isErrnoCode(again, 'EPERM') && !isErrnoCode(again, 'ENOTSUP') && !isErrnoCode(again, 'EOPNOTSUPP')) throw again;
        if (lstatSync(dest, { throwIfNoEntry: false }) !== undefined) return moveFile(src, dest);
        renameSync(tmp, dest);
      }
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  rmSync(src, { force: true });
  return 'moved';
}

/**
 * Moves the private memories and edges of an old `.cortex/local/` (in the work tree) to the
 * private tier in the git directory. Only what git does not track is moved (files a branch
 * committed under `.cortex/local/` are the branch's, not private memories), and only
 * regular files: a link is not followed, a FIFO not opened. A name that exists in both
 * places with other content stays where it is (and is named in `left`).
 *
 * Crash-safe and idempotent: each file is linked into place (or copied, synced and linked)
 * before the original is removed, and a file found in both places with the same bytes only
 * loses its original, so a run interrupted at any point is finished by the next one. Returns
 * `undefined` when there was nothing to move (no old directory, no git directory, or it is
 * a link or not a directory: then it is not read at all).
 *
 * @example
 * migrateLegacyLocalTier('/repo', { tracked: () => new Set() }) // { moved: ['memories/x.md'], undo: "test ! -e … && mv …", … }
 */
export function migrateLegacyLocalTier(root: string, options: { tracked: () => ReadonlySet<string> }): LocalTierMigration | undefined {
  const where = localTierDir(root);
  if (!where.inGitDir) return undefined;
  const from = where.legacy;
  const to = where.dir;
  const st = lstatSync(from, { throwIfNoEntry: false });
  // A link or a file there is not a private tier (a branch put it there): never followed.
  if (st === undefined || !st.isDirectory()) return undefined;
  const cortexSt = lstatSync(join(from, '..'), { throwIfNoEntry: false });
  if (cortexSt === undefined || !cortexSt.isDirectory()) return undefined;

  const tracked = options.tracked();
  const moved: string[] = [];
  const left: string[] = [];
  for (const sub of TIER_SUBDIRS) {
    const dir = join(from, sub);
    const dirSt = lstatSync(dir, { throwIfNoEntry: false });
    if (dirSt === undefined) continue;
    if (!dirSt.isDirectory()) {
      left.push(`${sub}: is ${describeFileType(dirSt)}, not a directory`);
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      left.push(`${sub}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      continue;
    }
    for (const name of names) {
      const rel = `${sub}/${name}`;
      const path = join(dir, name);
      if (tracked.has(rel)) {
        left.push(`${rel}: is tracked by git`);
        continue;
      }
      const fileSt = lstatSync(path, { throwIfNoEntry: false });
      if (fileSt === undefined) continue;
      if (isTempFileName(name)) {
        rmSync(path, { force: true });
        continue;
      }
      if (!fileSt.isFile()) {
        left.push(`${rel}: is ${describeFileType(fileSt)}, not a regular file`);
        continue;
      }
      mkdirSync(join(to, sub), { recursive: true });
      const done = moveFile(path, join(to, sub, name));
      if (done === 'moved') moved.push(rel);
      else if (done === 'differs') left.push(`${rel}: differs from ${join(to, sub, name)}`);
    }
    try {
      rmdirSync(dir);
    } catch {
      // Not empty: what stayed is named in `left`.
    }
  }
  // The old directory's own .gitignore goes with it, when it is the one Cortex wrote.
  const ignore = join(from, '.gitignore');
  let ignoreText: string | undefined;
  try {
    ignoreText = readFileSync(ignore, 'utf8');
  } catch {
    ignoreText = undefined;
  }
  const others = safeList(from).filter((n) => n !== '.gitignore' && !tracked.has(n));
  if (others.length === 0 && left.length === 0 && (ignoreText === undefined || ignoreText === LOCAL_GITIGNORE)) {
    rmSync(ignore, { force: true });
    try {
      rmdirSync(from);
    } catch {
      // Something appeared meanwhile: it stays.
    }
  } else {
    for (const n of others) if (!TIER_SUBDIRS.includes(n as (typeof TIER_SUBDIRS)[number])) left.push(`${n}: is not part of a private tier`);
  }
  if (moved.length === 0) return undefined;
  ensureIgnoreFile(to);
  return { from, to, moved, left, undo: undoCommand(from, to, moved, lstatSync(from, { throwIfNoEntry: false }) === undefined) };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The command that puts the moved files back: the whole tier moved back when the old
 * directory is gone (and only while it still is), else the moved files one by one, never
 * over a file that is there.
 */
function undoCommand(from: string, to: string, moved: readonly string[], fromGone: boolean): string {
  if (fromGone) return `test ! -e ${shellQuote(from)} && mv ${shellQuote(to)} ${shellQuote(from)}`;
  const parts = [`mkdir -p ${TIER_SUBDIRS.map((s) => shellQuote(join(from, s))).join(' ')}`];
  for (const sub of TIER_SUBDIRS) {
    const files = moved.filter((m) => m.startsWith(`${sub}/`));
    if (files.length > 0) parts.push(`mv -n ${files.map((f) => shellQuote(join(to, f))).join(' ')} ${shellQuote(join(from, sub))}/`);
  }
  return parts.join(' && ');
}

/**
 * The one line that says what {@link migrateLegacyLocalTier} did, for stderr and the log
 * (paths relative to `root` when inside it).
 */
export function describeMigration(m: LocalTierMigration, root: string): string {
  const shown = (p: string): string => {
    const rel = relative(root, p);
    return rel.startsWith('..') ? p : rel;
  };
  const left = m.left.length === 0 ? '' : ` ${m.left.length} left in ${shown(m.from)} (${m.left.join('; ')}).`;
  return `cortex: moved ${m.moved.length} private file${m.moved.length === 1 ? '' : 's'} from ${shown(m.from)} to ${shown(m.to)}, where no branch checkout can delete them.${left} Undo (for an older cortex): ${m.undo}`;
}
