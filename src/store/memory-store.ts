/**
 * The file store for memories: `.cortex/memories/<id>.md`.
 * One unreadable or malformed file yields a diagnostic; it never aborts a listing.
 * A file is never rewritten unless its bytes change.
 */
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { join, relative, sep } from 'node:path';
import { MemoryNotFoundError, isErrnoCode } from '../errors.js';
import { formatDate, type Diagnostic, type Memory } from '../core/memory.js';
import { parseMemory, renderMemory } from '../core/memory-format.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { writeIfChanged } from './atomic.js';
import { memoryPath, type TierPaths } from './paths.js';

/** A memory file is refused above this size: it is not a memory, it is a mistake. */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;

export interface MemoryFileEntry {
  /** Absolute path. */
  path: string;
  /** File name without `.md`: the id it must hold. */
  id: string;
  size: number;
  mtimeMs: number;
}

export interface ReadMemoryResult {
  memory: Memory | undefined;
  diagnostics: Diagnostic[];
  /** The file's text, when it could be read. */
  text: string | undefined;
}

/**
 * The `*.md` files of a memories directory (temp and hidden files skipped) as columns, in
 * the order the directory lists them: what every warm command stats, so nothing is
 * allocated per file beyond its name.
 */
export interface MemoryFileScan {
  /** The directory, ending with a path separator. */
  dir: string;
  names: string[];
  sizes: Float64Array;
  mtimes: Float64Array;
}

const NO_THROW = { throwIfNoEntry: false } as const;

/** Stats every memory file of a tier (see {@link MemoryFileScan}); a missing directory has none. */
export function scanMemoryFiles(paths: TierPaths): MemoryFileScan {
  const dir = paths.memoriesDir.endsWith(sep) ? paths.memoriesDir : paths.memoriesDir + sep;
  let listed: string[];
  try {
    listed = readdirSync(paths.memoriesDir);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return { dir, names: [], sizes: new Float64Array(0), mtimes: new Float64Array(0) };
    throw err;
  }
  const names: string[] = [];
  const sizes = new Float64Array(listed.length);
  const mtimes = new Float64Array(listed.length);
  // Every warm command stats every memory file: keep this loop lean (no path.join, no
  // exception for a file deleted meanwhile, no object per file).
  const previousDir = enterDirectory(paths.memoriesDir);
  try {
    for (const name of listed) {
      if (!name.endsWith('.md') || name.charCodeAt(0) === 46 /* . */) continue;
      // lstat: cheaper than stat (no link to follow); a symlinked memory is stat'ed through.
      const target = previousDir ? name : dir + name;
      let st = lstatSync(target, NO_THROW);
      if (st !== undefined && !st.isFile()) st = st.isSymbolicLink() ? statSync(target, NO_THROW) : undefined;
      if (!st || !st.isFile()) continue;
      sizes[names.length] = st.size;
      mtimes[names.length] = st.mtimeMs;
      names.push(name);
    }
  } finally {
    if (previousDir) leaveDirectory(previousDir);
  }
  return { dir, names, sizes: sizes.subarray(0, names.length), mtimes: mtimes.subarray(0, names.length) };
}

/** Lists `*.md` files in the memories directory (temp and hidden files skipped), sorted by name. */
export function listMemoryFiles(paths: TierPaths): MemoryFileEntry[] {
  const scan = scanMemoryFiles(paths);
  const order = scan.names.map((_, i) => i).sort((a, b) => (scan.names[a]! < scan.names[b]! ? -1 : scan.names[a]! > scan.names[b]! ? 1 : 0));
  return order.map((i) => scanEntry(scan, i));
}

/** The entry of file `i` of a scan. */
export function scanEntry(scan: MemoryFileScan, i: number): MemoryFileEntry {
  const name = scan.names[i]!;
  return { path: scan.dir + name, id: name.slice(0, -3), size: scan.sizes[i]!, mtimeMs: scan.mtimes[i]! };
}

/**
 * Makes `dir` the working directory for a loop of stats by file name, and returns the
 * directory to go back to; `undefined` when that cannot be done (a worker thread, a
 * working directory that no longer exists), and the caller uses absolute paths.
 *
 * A stat by bare name resolves one path component where an absolute path resolves all
 * of them (and is validated by Node character by character): over 10,000 memory files
 * that is 38 → 21 ms of every warm command. The loop is synchronous, so nothing else in
 * the process runs while the directory is changed.
 */
function enterDirectory(dir: string): string | undefined {
  try {
    const previous = process.cwd();
    process.chdir(dir);
    return previous;
  } catch {
    return undefined;
  }
}

function leaveDirectory(previous: string): void {
  try {
    process.chdir(previous);
  } catch {
    // The previous directory was removed meanwhile: every path this program uses is absolute.
  }
}

/** Path shown to people: relative to `base` (the repository root) when inside it. */
export function displayPath(path: string, base: string): string {
  const rel = relative(base, path);
  return rel.startsWith('..') ? path : rel;
}

/**
 * Reads and parses one memory file. Never throws for a bad file: I/O and parse problems
 * come back as diagnostics naming the file. With the size and mtime of a listing's entry it
 * trusts them (no second stat).
 */
export function readMemoryFile(entry: Pick<MemoryFileEntry, 'path' | 'id'> & Partial<Pick<MemoryFileEntry, 'size' | 'mtimeMs'>>, shownAs: string): ReadMemoryResult {
  let text: string;
  let mtime: Date;
  try {
    // A listing's entry already has the size and mtime (a rebuild reads 10,000 files).
    const st = entry.size !== undefined && entry.mtimeMs !== undefined ? { size: entry.size, mtime: new Date(entry.mtimeMs) } : statSync(entry.path);
    if (st.size > MAX_MEMORY_FILE_BYTES) {
      return {
        memory: undefined,
        text: undefined,
        diagnostics: [
          {
            file: shownAs,
            reason: `file is ${(st.size / 1024 / 1024).toFixed(1)} MB; a memory file may be at most 1 MB`,
            ruleId: 'file-too-large',
            severity: 'error',
            hint: 'Move large content out of .cortex/ and link to it from a short memory.',
          },
        ],
      };
    }
    mtime = st.mtime;
    const bytes = readFileSync(entry.path);
    if (!isUtf8(bytes)) return notUtf8(bytes, shownAs);
    text = bytes.toString('utf8');
  } catch (err) {
    return {
      memory: undefined,
      text: undefined,
      diagnostics: [
        {
          file: shownAs,
          reason: `cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
          ruleId: 'file-unreadable',
          severity: 'error',
          hint: 'Check the file permissions.',
        },
      ],
    };
  }
  const { memory, diagnostics } = parseMemory(text, {
    file: shownAs,
    expectedId: entry.id,
    fallbackDate: formatDate(mtime),
  });
  return { memory, diagnostics, text };
}

/**
 * A file that is not UTF-8 (saved as Latin-1, say) is unreadable rather than decoded with
 * replacement characters: a rewrite of that text would lose the original bytes.
 */
function notUtf8(bytes: Buffer, shownAs: string): ReadMemoryResult {
  const at = findInvalidUtf8(bytes);
  return {
    memory: undefined,
    text: undefined,
    diagnostics: [
      {
        file: shownAs,
        ...(at ? { line: at.line } : {}),
        reason: `is not UTF-8 text (byte ${at?.offset ?? '?'} is 0x${(bytes[at?.offset ?? 0] ?? 0).toString(16).padStart(2, '0')})`,
        ruleId: 'not-utf8',
        severity: 'error',
        hint: `Convert it to UTF-8, e.g. \`iconv -f latin1 -t utf-8 ${shownAs} > tmp && mv tmp ${shownAs}\`; nothing rewrites it until then.`,
      },
    ],
  };
}

/** Reads the memory with `id`, or throws `MemoryNotFoundError`. */
export function readMemoryById(paths: TierPaths, id: string, base: string): ReadMemoryResult & { path: string } {
  const path = memoryPath(paths, id);
  try {
    statSync(path);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) throw new MemoryNotFoundError(id);
    throw err;
  }
  return { ...readMemoryFile({ path, id }, displayPath(path, base)), path };
}

/** Writes a memory file atomically; a no-op when the rendered bytes are unchanged. */
export function writeMemory(paths: TierPaths, memory: Memory): { path: string; result: 'created' | 'updated' | 'unchanged' } {
  const path = memoryPath(paths, memory.id);
  return { path, result: writeIfChanged(path, renderMemory(memory)) };
}

/** Deletes a memory file; returns false when it did not exist. */
export function deleteMemory(paths: TierPaths, id: string): boolean {
  const path = memoryPath(paths, id);
  try {
    statSync(path);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) return false;
    throw err;
  }
  rmSync(path);
  return true;
}

/** Files up to this size are read into one reused buffer (no stat, no allocation per file). */
const SMALL_FILE = 64 * 1024;
let scratch: Buffer | undefined;

/** The text of a small file, `undefined` when it is larger, `null` when it vanished or is not a file. */
function readSmall(path: string): string | undefined | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'EISDIR')) return null;
    return undefined;
  }
  try {
    scratch ??= Buffer.allocUnsafe(SMALL_FILE + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, scratch, n, scratch.length - n, n);
      if (got === 0) break;
      n += got;
      if (n > SMALL_FILE) return undefined;
    }
    // Not UTF-8: the full reader reports it.
    return isUtf8(scratch.subarray(0, n)) ? scratch.toString('utf8', 0, n) : undefined;
  } catch (err) {
    return isErrnoCode(err, 'EISDIR') ? null : undefined;
  } finally {
    closeSync(fd);
  }
}

export interface ReadAllMemoriesResult {
  memories: Memory[];
  diagnostics: Diagnostic[];
}

/**
 * Reads every memory of a tier, sorted by file name, as fast as the disk allows: one
 * open/read/close per file and the fast frontmatter reader. Files the fast reader does
 * not take (hand-edited forms, large or broken files) go through `readMemoryFile`, with
 * the same diagnostics as everywhere else.
 */
export function readAllMemories(paths: TierPaths, base: string): ReadAllMemoriesResult {
  let names: string[];
  try {
    names = readdirSync(paths.memoriesDir);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return { memories: [], diagnostics: [] };
    throw err;
  }
  const memories: Memory[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.md') || name.startsWith('.')) continue;
    const path = join(paths.memoriesDir, name);
    const id = name.slice(0, -3);
    const text = readSmall(path);
    if (text === null) continue;
    // Clean files need no stat (for the fallback date) and no second read.
    const parsed = text === undefined ? undefined : parseMemory(text, { file: displayPath(path, base), expectedId: id });
    if (parsed?.memory && parsed.diagnostics.length === 0) {
      memories.push(parsed.memory);
      continue;
    }
    const read = readMemoryFile({ path, id }, displayPath(path, base));
    if (read.memory) memories.push(read.memory);
    diagnostics.push(...read.diagnostics);
  }
  return { memories, diagnostics };
}
