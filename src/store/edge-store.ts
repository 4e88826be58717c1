/**
 * The file store for edges: `.cortex/edges/<source>--<relation>--<target>.md`, one edge
 * per file, the name its unique key (DESIGN §2.1). One unreadable or malformed file
 * yields a diagnostic; it never aborts a listing. A file is never rewritten unless its
 * bytes change.
 */
import { lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError, isErrnoCode } from '../errors.js';
import { checkEdgeId, edgeFileName, type Edge, type EdgeKey } from '../core/edge.js';
import { parseEdge } from '../core/edge-format.js';
import { formatDate, type Diagnostic } from '../core/memory.js';
import { displayPath, redactDiagnostics, tierDirProblem } from './memory-store.js';
import { type TierPaths } from './paths.js';
import { assertSafeId } from './memory-path.js';
import { checkRegularFile, readRegularFile } from './safe-read.js';

/** An edge file is refused above this size: the rationale belongs in a memory. */
export const MAX_EDGE_FILE_BYTES = 64 * 1024;

export interface EdgeFileEntry {
  /** Absolute path. */
  path: string;
  /** File name, `<source>--<relation>--<target>.md`. */
  name: string;
  size: number;
  mtimeMs: number;
}

export interface ReadEdgeResult {
  edge: Edge | undefined;
  diagnostics: Diagnostic[];
  /** The file's text, when it could be read. */
  text: string | undefined;
}

/** True for a name the edge listing considers: `*.md`, not hidden, not a temp file. */
export function isEdgeFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

/**
 * The names of the edge files (no stat), sorted. A missing directory has none.
 */
export function listEdgeNames(paths: TierPaths): string[] {
  // A linked or non-directory .cortex/ or edges/ is not read (listEdgeFiles says why).
  if (tierDirProblem(paths, dirname(paths.cortexDir), paths.edgesDir, 'edge') !== undefined) return [];
  let names: string[];
  try {
    names = readdirSync(paths.edgesDir);
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT') || isErrnoCode(err, 'ENOTDIR')) return [];
    throw err;
  }
  return names.filter(isEdgeFileName).sort();
}

/**
 * The edge files with their size and mtime, sorted by name. Entries that are not regular
 * files inside the repository (FIFOs, devices, directories, links out or in a loop) are
 * skipped; `options.skipped` collects why.
 */
export function listEdgeFiles(paths: TierPaths, options: { base?: string; skipped?: Diagnostic[] } = {}): EdgeFileEntry[] {
  const entries: EdgeFileEntry[] = [];
  const dirProblem = tierDirProblem(paths, options.base ?? dirname(paths.cortexDir), paths.edgesDir, 'edge');
  if (dirProblem !== undefined) {
    options.skipped?.push(dirProblem);
    return entries;
  }
  for (const name of listEdgeNames(paths)) {
    const path = join(paths.edgesDir, name);
    const problem = checkRegularFile(path, dirname(paths.cortexDir));
    if (problem !== undefined) {
      if (problem.code !== 'missing') {
        options.skipped?.push({
          file: displayPath(path, options.base ?? dirname(paths.cortexDir)),
          reason: problem.reason,
          ruleId: problem.code === 'outside' || problem.code === 'loop' ? 'file-outside-repository' : 'file-not-regular',
          severity: 'error',
          hint: 'Edge files are regular files inside the repository: remove this entry.',
        });
      }
      continue;
    }
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile()) entries.push({ path, name, size: st.size, mtimeMs: st.mtimeMs });
  }
  return entries;
}

/**
 * Reads and parses one edge file. Never throws for a bad file: I/O and parse problems
 * come back as diagnostics naming the file.
 */
export function readEdgeFile(entry: Pick<EdgeFileEntry, 'path'>, shownAs: string): ReadEdgeResult {
  let text: string;
  let mtime: Date;
  const problem = (reason: string, ruleId: string, hint: string): ReadEdgeResult => ({
    edge: undefined,
    text: undefined,
    diagnostics: [{ file: shownAs, reason, ruleId, severity: 'error', hint }],
  });
  // `<root>/.cortex/edges/<name>`: a link is followed only inside the repository, a FIFO is
  // not waited on, and no more than the size limit is read.
  const read = readRegularFile(entry.path, { boundary: dirname(dirname(dirname(entry.path))), maxBytes: MAX_EDGE_FILE_BYTES });
  if ('problem' in read) {
    const p = read.problem;
    if (p.code === 'too-large') {
      return problem(`file ${p.reason}; an edge file may be at most ${MAX_EDGE_FILE_BYTES / 1024} KB`, 'file-too-large', 'Keep the rationale short; put long explanations in a memory.');
    }
    if (p.code === 'unreadable' || p.code === 'missing') return problem(p.reason, 'file-unreadable', 'Check the file permissions.');
    return problem(p.reason, p.code === 'not-regular' ? 'file-not-regular' : 'file-outside-repository', 'Edge files are regular files inside the repository: remove this entry.');
  }
  text = read.buffer.toString('utf8');
  mtime = read.stat.mtime;
  const { edge, diagnostics } = parseEdge(text, { file: shownAs, fallbackDate: formatDate(mtime) });
  return { edge, diagnostics: redactDiagnostics(diagnostics), text };
}

/** Validates both endpoints of an edge from the user; throws a usage error (exit 2). */
export function assertEdgeKey(key: EdgeKey): EdgeKey {
  for (const [id, what] of [
    [key.source, 'edge source'],
    [key.target, 'edge target'],
  ] as const) {
    assertSafeId(id, what);
    const problem = checkEdgeId(id);
    if (problem) throw new UsageError(`Invalid ${what} "${id}": it ${problem}.`);
  }
  return key;
}

/** Absolute path of the edge file for `key` (validated). */
export function edgePath(paths: TierPaths, key: EdgeKey): string {
  return join(paths.edgesDir, edgeFileName(assertEdgeKey(key)));
}

/** Reads the edge file for `key`, or `undefined` when there is none. */
export function readEdge(paths: TierPaths, key: EdgeKey, base: string): (ReadEdgeResult & { path: string }) | undefined {
  const path = edgePath(paths, key);
  if (tierDirProblem(paths, base, paths.edgesDir, 'edge') !== undefined) return undefined;
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  return { ...readEdgeFile({ path }, displayPath(path, base)), path };
}

/** Deletes the edge file for `key`; false when it did not exist. */
export function deleteEdge(paths: TierPaths, key: EdgeKey): boolean {
  const path = edgePath(paths, key);
  try {
    rmSync(path);
    return true;
  } catch (err) {
    if (isErrnoCode(err, 'ENOENT')) return false;
    throw err;
  }
}

/**
 * Reads every edge file of a tier (no cache): the parsed edges with the path each came
 * from, and every problem found.
 */
export function readAllEdges(paths: TierPaths, base: string): { edges: Array<{ edge: Edge; file: string }>; diagnostics: Diagnostic[] } {
  const edges: Array<{ edge: Edge; file: string }> = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of listEdgeFiles(paths)) {
    const shown = displayPath(entry.path, base);
    const read = readEdgeFile(entry, shown);
    diagnostics.push(...read.diagnostics);
    if (read.edge) edges.push({ edge: read.edge, file: shown });
  }
  return { edges, diagnostics };
}
