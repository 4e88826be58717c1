/**
 * The projection cache in `.memory/projections.json`: each memory file's rendered
 * projection entry, keyed by the file's git blob id, plus a stat cache (file → size,
 * mtime, blob id) for the work tree. Keys are the ids git already has, so `cortex project`,
 * the pre-commit check and the merge driver share it: a warm run parses and renders only
 * the memories that changed, and the driver does not even read unchanged blobs.
 *
 * A missing, corrupt or other-version cache is an empty one; the version includes a
 * fingerprint of the entry rendering, so a cortex that renders differently starts afresh.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderedEntry } from '../core/projection.js';
import { isNumber, isPlainObject, isRecordOf, isString } from '../core/shape.js';
import { writeFileAtomic } from '../store/atomic.js';
import { PROJECTION_CACHE_FILE } from './layout.js';

export const PROJECTION_CACHE_VERSION = 1;
/** Rewrite the file to drop entries no longer used once they are this share of it. */
export const PRUNE_SHARE = 0.25;

interface CacheFile {
  version: string;
  /** `<id>.md` → [size, mtimeMs, blob id]. */
  files: Record<string, [number, number, string]>;
  /** blob id → entry, or null for a file no projection lists (another type). */
  entries: Record<string, RenderedEntry | null>;
}

const isStatRow = (v: unknown): v is [number, number, string] => Array.isArray(v) && v.length === 3 && isNumber(v[0]) && isNumber(v[1]) && isString(v[2]);
const isEntryOrNull = (v: unknown): v is RenderedEntry | null =>
  v === null || (isPlainObject(v) && isString(v.id) && isString(v.type) && isString(v.status) && isString(v.day) && isString(v.text));

export class ProjectionCache {
  private readonly data: CacheFile;
  private readonly used = new Set<string>();
  private dirty = false;

  private constructor(
    private readonly path: string,
    private readonly version: string,
    data: CacheFile | undefined,
  ) {
    this.data = data ?? { version, files: {}, entries: {} };
    if (!data) this.dirty = true;
  }

  /** Loads the cache for this rendering fingerprint; anything unusable (version or shape) gives an empty cache. */
  static load(cacheDir: string, fingerprint: string): ProjectionCache {
    const path = join(cacheDir, PROJECTION_CACHE_FILE);
    const version = `${PROJECTION_CACHE_VERSION}:${fingerprint}`;
    let data: CacheFile | undefined;
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
      if (parsed?.version === version && isRecordOf(parsed.files, isStatRow) && isRecordOf(parsed.entries, isEntryOrNull)) data = parsed;
    } catch {
      data = undefined;
    }
    return new ProjectionCache(path, version, data);
  }

  /** The blob id recorded for a work-tree file, when its size and mtime are unchanged. */
  statOid(name: string, size: number, mtimeMs: number): string | undefined {
    const f = this.data.files[name];
    return f && f[0] === size && f[1] === mtimeMs ? f[2] : undefined;
  }

  setStat(name: string, size: number, mtimeMs: number, oid: string): void {
    const f = this.data.files[name];
    if (f && f[0] === size && f[1] === mtimeMs && f[2] === oid) return;
    this.data.files[name] = [size, mtimeMs, oid];
    this.dirty = true;
  }

  /** The entry of a blob: an entry, null (not projected), or undefined (unknown). */
  entry(oid: string, id: string): RenderedEntry | null | undefined {
    const e = this.data.entries[oid];
    // The same bytes under another file name are another memory (the id must match the name).
    if (e === undefined || (e !== null && e.id !== id)) return undefined;
    this.used.add(oid);
    return e;
  }

  setEntry(oid: string, entry: RenderedEntry | null): void {
    this.data.entries[oid] = entry;
    this.used.add(oid);
    this.dirty = true;
  }

  /**
   * Saves when something was added, pruning entries this run did not use when they have
   * grown to `PRUNE_SHARE` of the file. `files` names no longer present are dropped too.
   * Failing to save never fails the caller: the cache is an optimisation.
   */
  save(options: { presentFiles?: ReadonlySet<string> } = {}): void {
    const total = Object.keys(this.data.entries).length;
    const unused = total - this.used.size;
    const prune = total > 0 && unused / total >= PRUNE_SHARE;
    if (!this.dirty && !prune) return;
    const entries = prune ? Object.fromEntries([...this.used].map((oid) => [oid, this.data.entries[oid] ?? null])) : this.data.entries;
    const files = options.presentFiles
      ? Object.fromEntries(Object.entries(this.data.files).filter(([name]) => options.presentFiles!.has(name)))
      : this.data.files;
    try {
      writeFileAtomic(this.path, JSON.stringify({ version: this.version, files, entries }));
      this.dirty = false;
    } catch {
      // Rebuilt next time.
    }
  }
}
