/**
 * The file store for memories: `.cortex/memories/<id>.md`.
 * One unreadable or malformed file yields a diagnostic; it never aborts a listing.
 * A file is never rewritten unless its bytes change.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { dirname, join, relative, sep } from 'node:path';
import { MemoryNotFoundError, isErrnoCode } from '../errors.js';
import { formatDate, type Diagnostic, type Memory } from '../core/memory.js';
import { parseMemory } from '../core/memory-format.js';
import { redactSecrets } from '../core/redact.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { type TierPaths } from './paths.js';
import { memoryPath } from './memory-path.js';
import { checkRegularFile, describeFileType, readRegularFile, resolveLinkInside, type FileProblem } from './safe-read.js';

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
  /**
   * `*.md` entries that are not read, and why: FIFOs, devices, directories, links out of
   * the repository or in a loop (empty in a healthy tier; reported as diagnostics).
   */
  skipped: Diagnostic[];
}

const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * The boundary a tier's files must stay inside: the directory that holds `.cortex/` (the
 * repository root; for the global tier, the directory that holds `$CORTEX_HOME`). A link
 * from `.cortex/` to `docs/` is followed; one to `/dev/zero` or `~/.ssh` is not.
 */
function boundaryOf(paths: Pick<TierPaths, 'cortexDir'>): string {
  return dirname(paths.cortexDir);
}

/**
 * The directories a listing of `dir` (a tier's memories or edges) goes through that must be
 * real directories: the tier's own directory (`.cortex/`, the private tier; not
 * `$CORTEX_HOME`, which a person may keep elsewhere by a link of their own) and `dir`.
 */
export function tierDirsOf(paths: TierPaths, dir: string): string[] {
  return (paths as TierPaths & { root?: string }).root === undefined ? [dir] : [paths.cortexDir, dir];
}

/**
 * Why a tier's memories (or edges) directory cannot be listed safely: it, or the tier's
 * directory, is a symbolic link (never followed: a branch can commit one that leads out of
 * the repository) or not a directory. `undefined` when it is fine or missing (a new tier).
 */
export function tierDirProblem(paths: TierPaths, base: string, dir: string = paths.memoriesDir, what = 'memory'): Diagnostic | undefined {
  for (const d of tierDirsOf(paths, dir)) {
    const st = lstatSync(d, NO_THROW);
    if (st === undefined) return undefined;
    if (st.isDirectory()) continue;
    const shown = displayPath(d, base);
    if (st.isSymbolicLink()) {
      const link = resolveLinkInside(d, boundaryOf(paths));
      const reason = 'problem' in link ? link.problem.reason : 'is a symbolic link (Cortex follows no link to a directory)';
      return { file: shown, reason: `${reason}; no ${what} was read`, ruleId: 'file-outside-repository', severity: 'error', hint: `Replace ${shown} with a real directory: rm ${shown} (the link only), then run the command again.` };
    }
    return { file: shown, reason: `is ${describeFileType(st) === 'not a regular file' ? 'a file' : describeFileType(st)}, not a directory; no ${what} was read`, ruleId: 'memories-not-directory', severity: 'error', hint: `Move ${shown} away and run \`cortex init\` to recreate the directory.` };
  }
  return undefined;
}

function memoriesDirProblem(paths: TierPaths, base: string): Diagnostic | undefined {
  return tierDirProblem(paths, base);
}

function skippedEntry(file: string, problem: FileProblem): Diagnostic {
  return {
    file,
    reason: problem.reason,
    ruleId: problem.code === 'outside' || problem.code === 'loop' ? 'file-outside-repository' : 'file-not-regular',
    severity: 'error',
    hint: 'Memory files are regular files inside the repository: remove this entry, or replace it with the file itself.',
  };
}

/** Stats every memory file of a tier (see {@link MemoryFileScan}); a missing directory has none. */
export function scanMemoryFiles(paths: TierPaths, base: string = dirname(paths.cortexDir)): MemoryFileScan {
  const dir = paths.memoriesDir.endsWith(sep) ? paths.memoriesDir : paths.memoriesDir + sep;
  const empty = (skipped: Diagnostic[]): MemoryFileScan => ({ dir, names: [], sizes: new Float64Array(0), mtimes: new Float64Array(0), skipped });
  let listed: string[];
  try {
    listed = readdirSync(paths.memoriesDir);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) return empty([]);
    if (isErrnoCode(err, 'ENOTDIR') || isErrnoCode(err, 'ELOOP')) {
      const problem = memoriesDirProblem(paths, base);
      return empty(problem ? [problem] : []);
    }
    throw err;
  }
  const dirProblem = memoriesDirProblem(paths, base);
  if (dirProblem) return empty([dirProblem]);
  const names: string[] = [];
  const skipped: Diagnostic[] = [];
  const sizes = new Float64Array(listed.length);
  const mtimes = new Float64Array(listed.length);
  // Every warm command stats every memory file: keep this loop lean (no path.join, no
  // exception for a file deleted meanwhile, no object per file).
  const previousDir = enterDirectory(paths.memoriesDir);
  try {
    for (const name of listed) {
      if (!name.endsWith('.md') || name.charCodeAt(0) === 46 /* . */) continue;
      // lstat: cheaper than stat, and a link is seen as one. Only a link to a regular file
      // inside the repository is followed (rare; checked the slow way).
      const target = previousDir ? name : dir + name;
      let st = lstatSync(target, NO_THROW);
      if (st !== undefined && !st.isFile()) {
        const problem = checkRegularFile(dir + name, boundaryOf(paths));
        if (problem !== undefined) {
          if (problem.code !== 'missing' || st.isSymbolicLink()) skipped.push(skippedEntry(displayPath(dir + name, base), problem));
          continue;
        }
        st = statSync(target, NO_THROW);
      }
      if (!st || !st.isFile()) continue;
      sizes[names.length] = st.size;
      mtimes[names.length] = st.mtimeMs;
      names.push(name);
    }
  } finally {
    if (previousDir) leaveDirectory(previousDir);
  }
  return { dir, names, sizes: sizes.subarray(0, names.length), mtimes: mtimes.subarray(0, names.length), skipped };
}

/**
 * Lists `*.md` files in the memories directory (temp and hidden files skipped), sorted by
 * name. Entries that are not read (see `MemoryFileScan.skipped`) go to `options.skipped`.
 */
export function listMemoryFiles(paths: TierPaths, options: { base?: string; skipped?: Diagnostic[] } = {}): MemoryFileEntry[] {
  const scan = scanMemoryFiles(paths, options.base);
  options.skipped?.push(...scan.skipped);
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
  // Opened without following a link out of the repository, without blocking on a FIFO,
  // and read up to the size limit only, whatever the listing said about the file.
  const read = readRegularFile(entry.path, { boundary: dirname(dirname(dirname(entry.path))), maxBytes: MAX_MEMORY_FILE_BYTES });
  if ('problem' in read) {
    const { problem } = read;
    const diagnostic: Diagnostic =
      problem.code === 'too-large'
        ? { file: shownAs, reason: `file ${problem.reason}; a memory file may be at most 1 MB`, ruleId: 'file-too-large', severity: 'error', hint: 'Move large content out of .cortex/ and link to it from a short memory.' }
        : problem.code === 'unreadable'
          ? { file: shownAs, reason: problem.reason, ruleId: 'file-unreadable', severity: 'error', hint: 'Check the file permissions.' }
          : skippedEntry(shownAs, problem);
    return { memory: undefined, text: undefined, diagnostics: [diagnostic] };
  }
  if (!isUtf8(read.buffer)) return notUtf8(read.buffer, shownAs);
  const text = read.buffer.toString('utf8');
  const mtime = read.stat.mtime;
  const { memory, diagnostics } = parseMemory(text, {
    file: shownAs,
    expectedId: entry.id,
    fallbackDate: formatDate(mtime),
  });
  return { memory, diagnostics: redactDiagnostics(diagnostics), text };
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

/**
 * Diagnostics quote what they found (a broken line, a value): they are printed, stored in
 * the index cache and logged, so what they quote passes the redaction gate. Only files with
 * problems have any, so clean reads never load the rules.
 */
export function redactDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length === 0) return diagnostics;
  return diagnostics.map((d) => {
    const reason = redactSecrets(d.reason).text;
    const hint = d.hint === undefined ? undefined : redactSecrets(d.hint).text;
    return reason === d.reason && hint === d.hint ? d : { ...d, reason, ...(hint !== undefined ? { hint } : {}) };
  });
}

/**
 * The text of a memory file as `readMemoryFile` would read it (regular file inside the
 * repository, at most 1 MB), or `undefined` when it cannot be read that way.
 */
export function readMemoryText(path: string): string | undefined {
  const read = readRegularFile(path, { boundary: dirname(dirname(dirname(path))), maxBytes: MAX_MEMORY_FILE_BYTES });
  return 'problem' in read ? undefined : read.buffer.toString('utf8');
}

/** Reads the memory with `id`, or throws `MemoryNotFoundError`. */
export function readMemoryById(paths: TierPaths, id: string, base: string): ReadMemoryResult & { path: string } {
  const path = memoryPath(paths, id);
  const dirProblem = tierDirProblem(paths, base);
  if (dirProblem !== undefined) return { memory: undefined, text: undefined, diagnostics: [dirProblem], path };
  if (lstatSync(path, NO_THROW) === undefined) throw new MemoryNotFoundError(id);
  return { ...readMemoryFile({ path, id }, displayPath(path, base)), path };
}

/** Deletes a memory file; returns false when it did not exist. */
export function deleteMemory(paths: TierPaths, id: string): boolean {
  const path = memoryPath(paths, id);
  // lstat: a link (even one that loops) is removed as the entry it is.
  if (lstatSync(path, NO_THROW) === undefined) return false;
  rmSync(path);
  return true;
}

/** Files up to this size are read into one reused buffer (no stat, no allocation per file). */
const SMALL_FILE = 64 * 1024;
const SMALL_OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
let scratch: Buffer | undefined;

/** The text of a small file, `undefined` when it is larger, `null` when it vanished or is not a file. */
function readSmall(path: string): string | undefined | null {
  let fd: number;
  try {
    // No link followed, no FIFO waited on: anything odd takes the careful path.
    fd = openSync(path, SMALL_OPEN_FLAGS);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'EISDIR')) return null;
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
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
    if (isErrnoCode(err, 'ENOENT')) return { memories: [], diagnostics: [] };
    if (!isErrnoCode(err, 'ENOTDIR') && !isErrnoCode(err, 'ELOOP')) throw err;
    names = [];
  }
  const dirProblem = memoriesDirProblem(paths, base);
  if (dirProblem) return { memories: [], diagnostics: [dirProblem] };
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
