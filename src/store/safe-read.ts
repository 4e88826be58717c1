/**
 * Reading files that a repository controls. A committed `.cortex/` may come from anyone's
 * pull request, so a "memory file" may be a symbolic link to `/dev/zero`, to a file in
 * the reader's home, to itself; a FIFO; a directory. Only regular files inside the
 * repository are read, never more than a bound, and nothing here can block:
 *
 * - the last path component is opened with `O_NOFOLLOW`, so a symbolic link is seen for
 *   what it is; a link is followed only when its real path stays inside the boundary
 *   (the repository, or `$CORTEX_HOME` for the global tier), and a loop is a problem,
 *   not an exception;
 * - files are opened with `O_NONBLOCK`, so a FIFO (even one swapped in after a check)
 *   returns at once, and `fstat` on the open descriptor decides: only a regular file is read;
 * - at most `maxBytes` are read, whatever the file claims its size is.
 *
 * Problems come back as values with a one-line reason naming what the path is.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { CortexError, isErrnoCode } from '../errors.js';

/** What is wrong with a path that was not read. */
export interface FileProblem {
  /** `missing`; `outside` (a link out of the boundary); `loop`; `not-regular`; `too-large`; `unreadable`. */
  code: 'missing' | 'outside' | 'loop' | 'not-regular' | 'too-large' | 'unreadable';
  /** One line, e.g. `is a FIFO, not a regular file`. */
  reason: string;
}

/** A file read whole. */
export interface FileRead {
  buffer: Buffer;
  stat: Stats;
}

// Windows has neither flag: there, a FIFO cannot be created in a work tree, and links are
// resolved by the realpath check below.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const OPEN_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;

/** What a non-regular file is, for a reason line. */
export function describeFileType(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

const realBoundaries = new Map<string, string>();

/** The real path of a boundary directory (cached: boundaries do not move during a run). */
function realBoundary(boundary: string): string {
  let real = realBoundaries.get(boundary);
  if (real === undefined) {
    try {
      real = realpathSync(boundary);
    } catch {
      real = boundary;
    }
    realBoundaries.set(boundary, real);
  }
  return real;
}

/** Whether `path` is `dir` or inside it (both absolute and real). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where a symbolic link leads, when that is a place inside `boundary`; else the problem.
 *
 * @example
 * resolveLinkInside('/repo/.cortex/memories/z.md', '/repo') // { problem: { code: 'outside', … } } for a link to /dev/zero
 */
export function resolveLinkInside(path: string, boundary: string): { real: string } | { problem: FileProblem } {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    if (isErrnoCode(err, 'ELOOP')) return { problem: { code: 'loop', reason: 'is a symbolic link that loops' } };
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return { problem: { code: 'missing', reason: 'is a symbolic link to nothing' } };
    return { problem: { code: 'unreadable', reason: `cannot be resolved: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` } };
  }
  if (!isInside(realBoundary(boundary), real)) {
    return { problem: { code: 'outside', reason: 'is a symbolic link to a file outside the repository' } };
  }
  return { real };
}

/**
 * Classifies a directory entry without reading it (for listings): `undefined` when it is a
 * regular file, or a symbolic link to one inside `boundary`; else why it is skipped.
 */
export function checkRegularFile(path: string, boundary: string): FileProblem | undefined {
  let st: Stats | undefined;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    return { code: 'unreadable', reason: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  if (st === undefined) return { code: 'missing', reason: 'does not exist' };
  if (st.isFile()) return undefined;
  if (!st.isSymbolicLink()) return { code: 'not-regular', reason: `is ${describeFileType(st)}, not a regular file` };
  const link = resolveLinkInside(path, boundary);
  if ('problem' in link) return link.problem;
  try {
    const target = lstatSync(link.real);
    return target.isFile() ? undefined : { code: 'not-regular', reason: `is a symbolic link to ${describeFileType(target)}, not a regular file` };
  } catch (err) {
    return { code: 'unreadable', reason: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
}

function openNoFollow(path: string): number {
  return openSync(path, OPEN_FLAGS);
}

/**
 * Opens a regular file inside `boundary` for reading, following a symbolic link only to a
 * place inside it. The caller closes the descriptor.
 */
export function openRegularFile(path: string, boundary: string): { fd: number; stat: Stats } | { problem: FileProblem } {
  let fd: number;
  try {
    fd = openNoFollow(path);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return { problem: { code: 'missing', reason: 'does not exist' } };
    // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD).
    if (!isErrnoCode(err, 'ELOOP') && !isErrnoCode(err, 'EMLINK')) {
      return { problem: { code: 'unreadable', reason: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` } };
    }
    const link = resolveLinkInside(path, boundary);
    if ('problem' in link) return link;
    try {
      fd = openNoFollow(link.real);
    } catch (again) {
      return { problem: { code: 'unreadable', reason: `cannot be read: ${(again as NodeJS.ErrnoException).code ?? (again as Error).message}` } };
    }
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      return { problem: { code: 'not-regular', reason: `is ${describeFileType(stat)}, not a regular file` } };
    }
    return { fd, stat };
  } catch (err) {
    closeSync(fd);
    return { problem: { code: 'unreadable', reason: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` } };
  }
}

/**
 * Reads up to `length` bytes at `position` (fewer at the end of the file).
 *
 * @example
 * readAt(fd, 0, 4096).length // ≤ 4096
 */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/**
 * Fills `view` (a typed array: its whole byte length) with the bytes at `position`, straight
 * into its memory (no buffer to copy from); returns the bytes read (fewer at the end of the file).
 *
 * @example
 * const ends = new Uint32Array(rows); readInto(fd, ends, offset) === ends.byteLength
 */
export function readInto(fd: number, view: NodeJS.TypedArray, position: number): number {
  let filled = 0;
  while (filled < view.byteLength) {
    const n = readSync(fd, view, filled, view.byteLength - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

const closeOnCollect = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
});

/**
 * Closes `fd` once `owner` is garbage-collected: for a reader that keeps a file open while
 * it lives (the index's records and postings, read by position), in a process that may
 * open many over its life (the MCP server).
 *
 * @example
 * closeWhenCollected(this, openSync(path, 'r'));
 */
export function closeWhenCollected(owner: object, fd: number): void {
  closeOnCollect.register(owner, fd);
}

/**
 * A file kept open for reading by position by several readers (the columns of one file):
 * closed once none of them holds it any more (see {@link closeWhenCollected}).
 *
 * @example
 * const file = new OpenFile(openSync(path, 'r')); readAt(file.fd, 0, 8);
 */
export class OpenFile {
  constructor(readonly fd: number) {
    closeWhenCollected(this, fd);
  }
}

/**
 * Reads a whole regular file inside `boundary`, refusing one larger than `maxBytes`
 * (by its size, and by what a read returns: a file growing meanwhile is cut, not trusted).
 *
 * @example
 * const read = readRegularFile('/repo/.cortex/memories/x.md', { boundary: '/repo', maxBytes: 1 << 20 });
 * if ('problem' in read) console.error(`x.md ${read.problem.reason}`);
 */
export function readRegularFile(path: string, options: { boundary: string; maxBytes: number }): FileRead | { problem: FileProblem } {
  const opened = openRegularFile(path, options.boundary);
  if ('problem' in opened) return opened;
  try {
    if (opened.stat.size > options.maxBytes) {
      return { problem: { code: 'too-large', reason: `is ${opened.stat.size} bytes, more than the ${options.maxBytes} allowed` } };
    }
    // Sized by the file, not by the limit: a buffer of the limit for every read (1 MB for a
    // memory file of 1 KB) was 100 GB of allocations over a rebuild of 100,000 memories.
    // One byte more than the file tells a file that grew meanwhile; it is then read on up to
    // the limit.
    let buffer = readAt(opened.fd, 0, opened.stat.size + 1);
    if (buffer.length > opened.stat.size) buffer = Buffer.concat([buffer, readAt(opened.fd, buffer.length, options.maxBytes + 1 - buffer.length)]);
    if (buffer.length > options.maxBytes) {
      return { problem: { code: 'too-large', reason: `is more than the ${options.maxBytes} bytes allowed` } };
    }
    return { buffer, stat: opened.stat };
  } catch (err) {
    return { problem: { code: 'unreadable', reason: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` } };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Why `root/rel` must not be written, as far as the file system goes, or `undefined`: no
 * component on the way may be a symbolic link (a committed link could lead the write out of
 * the repository, into a home's `.bashrc`), the directories on the way must be
 * directories, and the file, if it exists, a regular file.
 *
 * @example
 * checkWritablePath('/repo', 'docs/AGENTS.md') // 'docs is a symbolic link' when it is one
 */
export function checkWritablePath(root: string, rel: string): string | undefined {
  const parts = rel.split(/[\\/]/);
  let path = root;
  for (let i = 0; i < parts.length; i++) {
    path = `${path}${sep}${parts[i]}`;
    const shown = parts.slice(0, i + 1).join('/');
    let st: Stats | undefined;
    try {
      st = lstatSync(path, { throwIfNoEntry: false });
    } catch (err) {
      return `${shown} cannot be checked: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
    if (st === undefined) return undefined; // created from here on
    if (st.isSymbolicLink()) return `${shown} is a symbolic link`;
    const last = i === parts.length - 1;
    if (!last && !st.isDirectory()) return `${shown} is not a directory`;
    if (last && !st.isFile()) return `${shown} is ${describeFileType(st)}, not a regular file`;
  }
  return undefined;
}

/**
 * Throws unless `dir` (or, when it does not exist yet, its nearest existing ancestor)
 * really is inside `root`: a committed `.cortex/memories` that is a link to another place
 * would otherwise receive every memory written.
 *
 * @example
 * assertInside('/repo/.cortex/memories', '/repo'); // throws when memories/ links to /home/me
 */
export function assertInside(dir: string, root: string): void {
  let existing = dir;
  for (;;) {
    try {
      const real = realpathSync(existing);
      if (isInside(realBoundary(root), real)) return;
      break;
    } catch (err) {
      const parent = dirname(existing);
      if (!(isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) || parent === existing) break;
      existing = parent;
    }
  }
  throw new CortexError('OUTSIDE_REPOSITORY', `${dir} leads outside the repository (through a symbolic link, or in a loop); nothing was written.`, {
    hint: `Replace ${relative(root, existing) || existing} with a real directory inside the repository.`,
  });
}

/**
 * Why `dir`, a directory Cortex reads or writes (`.cortex`, `.cortex/memories`, `.memory`,
 * the private tier …), must not be used: it is a symbolic link (never followed, wherever it
 * leads: a branch can commit one) or something other than a directory. `undefined` when it
 * is a real directory or does not exist.
 *
 * @example
 * directoryProblem('/repo/.memory') // 'is a symbolic link' when a branch made it one
 */
export function directoryProblem(dir: string): string | undefined {
  let st: Stats | undefined;
  try {
    st = lstatSync(dir, { throwIfNoEntry: false });
  } catch (err) {
    if (isErrnoCode(err, 'ENOTDIR')) return undefined; // a parent is the problem, and is checked first
    return `cannot be checked: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
  if (st === undefined || st.isDirectory()) return undefined;
  if (st.isSymbolicLink()) return 'is a symbolic link';
  const what = describeFileType(st);
  return `is ${what === 'not a regular file' ? 'a file' : what}, not a directory`;
}

/** The fix for a directory that {@link directoryProblem} refuses, as a command. */
export function directoryFix(shown: string, problem: string): string {
  return problem === 'is a symbolic link'
    ? `remove the link (rm ${shown}; what it points to is untouched) and run the command again`
    : `move it away (mv ${shown} ${shown}.bak) and run the command again`;
}

/**
 * Throws, naming the first of `dirs` (outermost first) that is a symbolic link or not a
 * directory, and the fix; nothing has been read or written at that point.
 *
 * @example
 * assertRealDirectories(['/repo/.cortex', '/repo/.cortex/memories'], '/repo');
 */
export function assertRealDirectories(dirs: readonly string[], base: string): void {
  for (const dir of dirs) {
    const problem = directoryProblem(dir);
    if (problem === undefined) continue;
    const rel = relative(base, dir);
    const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
    throw new CortexError('NOT_A_DIRECTORY', `${shown} ${problem}; Cortex reads and writes only real directories, so nothing was read or written.`, {
      hint: directoryFix(shown, problem).replace(/^./, (c) => c.toUpperCase()),
    });
  }
}

/**
 * Why the directory `root/rel` (an export's target directory, say) must not be written
 * into, or `undefined`: no component on the way, itself included, may be a symbolic link
 * (a committed `memory-bank` linked to a home directory would receive every file) or
 * anything but a directory. A part that does not exist yet is created from there on.
 *
 * @example
 * checkWritableDirectory('/repo', 'memory-bank') // 'memory-bank is a symbolic link' when it is one
 */
export function checkWritableDirectory(root: string, rel: string): string | undefined {
  const parts = rel.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  let path = root;
  for (let i = 0; i < parts.length; i++) {
    path = `${path}${sep}${parts[i]}`;
    const problem = directoryProblem(path);
    if (problem !== undefined) return `${parts.slice(0, i + 1).join('/')} ${problem}`;
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  }
  return undefined;
}
