/**
 * The edge-file cache of one tier, `.memory/edges.json`: what each edge file said, so
 * that a warm run reads no edge file and does not even list the directory.
 *
 * Staleness is judged by the directory, not by each file: adding, deleting or renaming a
 * file (which is how Cortex writes: temp file + rename, and how git checks files out)
 * changes the directory's mtime. When it changed, the directory is listed and every file
 * is stat'ed; only new or changed files are read. A file rewritten in place without a
 * rename (some editors) is noticed at the next directory change or `cortex index`
 * (`verify`). Writers in this process record their own changes (`record`/`forget`), so
 * the next run stays warm. A missing, corrupt or version-mismatched cache is rebuilt.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_ORIGINS, parseEdgeFileName, type Edge, type EdgeKey, type EdgeOrigin, type EdgeStatus } from '../core/edge.js';
import type { Diagnostic } from '../core/memory.js';
import { isNumber, isRecordOf } from '../core/shape.js';
import { writeFileAtomic } from '../store/atomic.js';
import { dirStamp, isDirStamp, sameStamp, type DirStamp } from './dir-stamp.js';
import { listEdgeNames, readEdgeFile } from '../store/edge-store.js';
import { displayPath } from '../store/memory-store.js';
import type { TierPaths } from '../store/paths.js';
import { EDGE_CACHE_FILE } from './layout.js';

/** Bump when the layout changes: old caches are rebuilt. */
export const EDGE_CACHE_VERSION = 1;

export { RACY_WINDOW_MS, dirStamp, isDirStamp, sameStamp, type DirStamp } from './dir-stamp.js';

/** The graph fields of an edge, as the cache stores them. */
export interface CachedEdge {
  source: string;
  target: string;
  relation: Edge['relation'];
  strength: number;
  status: EdgeStatus;
  bidirectional: boolean;
  origin: EdgeOrigin;
  /** Path shown in diagnostics. */
  file: string;
}

/** [size, mtimeMs, strength, flags] for a usable edge; [size, mtimeMs, null, diagnostics] otherwise. */
type FileRecord = [number, number, number, number] | [number, number, null, Diagnostic[]];

const isFileRecord = (v: unknown): v is FileRecord =>
  Array.isArray(v) && v.length === 4 && isNumber(v[0]) && isNumber(v[1]) && (isNumber(v[2]) ? isNumber(v[3]) : v[2] === null && Array.isArray(v[3]));

interface EdgeCacheFile {
  version: number;
  dir: DirStamp;
  files: Record<string, FileRecord>;
}

// flags: bit 0 suggested, bit 1 bidirectional, bits 2.. origin index.
function packFlags(edge: Pick<Edge, 'status' | 'bidirectional' | 'origin'>): number {
  return (edge.status === 'suggested' ? 1 : 0) | (edge.bidirectional ? 2 : 0) | (EDGE_ORIGINS.indexOf(edge.origin) << 2);
}

export interface EdgeRefreshReport {
  /** True when the directory was listed (its stamp changed or `verify`). */
  listed: boolean;
  read: number;
  removed: number;
}

/**
 * One tier's cached edge files.
 */
export class EdgeCache {
  private files: Record<string, FileRecord>;
  private dir: DirStamp | undefined;
  private dirty: boolean;

  private constructor(data: EdgeCacheFile | undefined) {
    this.files = data?.files ?? (Object.create(null) as Record<string, FileRecord>);
    this.dir = data?.dir;
    this.dirty = data === undefined;
  }

  static cachePath(paths: TierPaths): string {
    return join(paths.cacheDir, EDGE_CACHE_FILE);
  }

  /** Loads the cache; anything unusable gives an empty one. */
  static load(paths: TierPaths): EdgeCache {
    try {
      const parsed = JSON.parse(readFileSync(EdgeCache.cachePath(paths), 'utf8')) as EdgeCacheFile;
      if (parsed?.version === EDGE_CACHE_VERSION && isDirStamp(parsed.dir) && isRecordOf(parsed.files, isFileRecord)) {
        return new EdgeCache({ ...parsed, files: Object.assign(Object.create(null) as Record<string, FileRecord>, parsed.files) });
      }
    } catch {
      // Missing or corrupt: rebuilt below.
    }
    return new EdgeCache(undefined);
  }

  /** The directory stamp the cached listing belongs to. */
  get stamp(): DirStamp | undefined {
    return this.dir;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  get size(): number {
    return Object.keys(this.files).length;
  }

  /**
   * Brings the cache up to date with the directory. Warm (stamp unchanged): no I/O
   * beyond one stat of the directory. `verify` lists and stats every file regardless.
   */
  refresh(paths: TierPaths, options: { base: string; verify?: boolean; now?: number }): EdgeRefreshReport {
    const report: EdgeRefreshReport = { listed: false, read: 0, removed: 0 };
    // Stamp first, list second: a change after the stamp is then seen next time.
    const stamp = dirStamp(paths.edgesDir, options.now);
    if (!options.verify && sameStamp(stamp, this.dir)) return report;
    report.listed = true;
    const names = stamp.exists ? listEdgeNames(paths) : [];
    const seen = new Set<string>();
    for (const name of names) {
      seen.add(name);
      const path = join(paths.edgesDir, name);
      let size: number;
      let mtimeMs: number;
      try {
        const st = statSync(path);
        if (!st.isFile()) continue;
        size = st.size;
        mtimeMs = st.mtimeMs;
      } catch {
        seen.delete(name);
        continue;
      }
      const known = this.files[name];
      if (known && known[0] === size && known[1] === mtimeMs) continue;
      const read = readEdgeFile({ path }, displayPath(path, options.base));
      report.read++;
      this.files[name] = read.edge ? [size, mtimeMs, read.edge.strength, packFlags(read.edge)] : [size, mtimeMs, null, read.diagnostics];
      this.dirty = true;
      this.sorted = undefined;
    }
    for (const name of Object.keys(this.files)) {
      if (!seen.has(name)) {
        delete this.files[name];
        this.sorted = undefined;
        report.removed++;
        this.dirty = true;
      }
    }
    if (!this.dir || JSON.stringify(this.dir) !== JSON.stringify(stamp)) this.dirty = true;
    this.dir = stamp;
    return report;
  }

  /**
   * Records an edge file this process just wrote, and adopts the directory's new stamp
   * as trusted: the writer holds the write lock, so the change is its own.
   */
  record(paths: TierPaths, name: string, edge: Edge): void {
    const path = join(paths.edgesDir, name);
    const st = statSync(path);
    this.files[name] = [st.size, st.mtimeMs, edge.strength, packFlags(edge)];
    this.sorted = undefined;
    this.adopt(paths);
  }

  /** Records an edge file this process just deleted. */
  forget(paths: TierPaths, name: string): void {
    delete this.files[name];
    this.sorted = undefined;
    this.adopt(paths);
  }

  private adopt(paths: TierPaths): void {
    const stamp = dirStamp(paths.edgesDir);
    delete stamp.racy;
    this.dir = stamp;
    this.dirty = true;
  }

  /** Every usable cached edge, in file-name order, with its displayed path. */
  edges(paths: TierPaths, base: string): CachedEdge[] {
    const out: CachedEdge[] = [];
    const names = this.sortedNames();
    const prefix = displayPath(paths.edgesDir, base);
    for (const name of names) {
      const rec = this.files[name]!;
      if (rec[2] === null) continue;
      const key = parseEdgeFileName(name);
      if (!key) continue;
      const flags = rec[3];
      out.push({
        source: key.source,
        target: key.target,
        relation: key.relation,
        strength: rec[2],
        status: flags & 1 ? 'suggested' : 'active',
        bidirectional: (flags & 2) !== 0,
        origin: EDGE_ORIGINS[flags >> 2] ?? 'manual',
        file: `${prefix}/${name}`,
      });
    }
    return out;
  }

  /** The problems of the files that could not be used. */
  diagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const name of this.sortedNames()) {
      const rec = this.files[name]!;
      if (rec[2] === null) out.push(...rec[3]);
    }
    return out;
  }

  private sorted: string[] | undefined;

  // Callers ask for the edges and then the diagnostics: sort 30,000 names once.
  private sortedNames(): string[] {
    return (this.sorted ??= Object.keys(this.files).sort());
  }

  /** True when a file with this name is cached (usable or not). */
  has(key: EdgeKey | string): boolean {
    const name = typeof key === 'string' ? key : `${key.source}--${key.relation}--${key.target}.md`;
    return name in this.files;
  }

  /** Saves atomically when anything changed. */
  save(paths: TierPaths): void {
    if (!this.dirty || !this.dir) return;
    const data: EdgeCacheFile = { version: EDGE_CACHE_VERSION, dir: this.dir, files: this.files };
    writeFileAtomic(EdgeCache.cachePath(paths), JSON.stringify(data));
    this.dirty = false;
  }
}
