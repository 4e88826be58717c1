/**
 * `project`: regenerate `.cortex/decisions.md`, `plan.md` and `decisions-archive.md` from
 * the memories in the work tree, or (`check`) report which are stale without writing.
 * Also the one rendering path of the merge driver and the pre-commit check
 * (`renderFromBlobs`), so all three produce the same bytes.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Diagnostic } from '../core/memory.js';
import { projectMemoryText } from '../core/projection-source.js';
import {
  PROJECTION_FILES,
  projectedTypes,
  renderEntry,
  renderProjectionEntries,
  type ProjectionFile,
  type Projections,
  type RenderedEntry,
} from '../core/projection.js';
import { blobOid } from '../git/oid.js';
import { ProjectionCache } from '../cache/projection-cache.js';
import { redactionGateStamp } from '../cache/gate-stamp.js';
import { redactSecrets } from '../core/redact.js';
import { readFileIfExists, writeIfChanged } from '../store/atomic.js';
import { withLock } from '../store/lock.js';
import { listMemoryFiles, readMemoryText } from '../store/memory-store.js';
import { readTemplate } from '../templates.js';
import type { Context } from '../services/context.js';
import { lockPath } from '../cache/layout.js';
export interface ProjectInput {
  /** Compare only; write nothing. */
  check?: boolean;
}

export interface ProjectFileState {
  /** `.cortex/decisions.md` … */
  file: string;
  /**
   * `unchanged`: already up to date. `created` / `updated`: written now.
   * `stale` / `missing`: differs or is absent (with `check`, nothing is written).
   */
  state: 'unchanged' | 'created' | 'updated' | 'stale' | 'missing';
}

export interface ProjectOutput {
  files: ProjectFileState[];
  /** True when a projection was (with `check`: is) out of date. */
  stale: boolean;
  /** Memories listed in the projections. */
  listed: number;
  diagnostics: Diagnostic[];
}

const TEMPLATE_NAMES: Record<ProjectionFile, string> = {
  'decisions.md': 'projection-decisions.md',
  'plan.md': 'projection-plan.md',
  'decisions-archive.md': 'projection-archive.md',
};

/** The projection header templates shipped in `templates/`. */
export function projectionTemplates(): Record<ProjectionFile, string> {
  return Object.fromEntries(PROJECTION_FILES.map((f) => [f, readTemplate(TEMPLATE_NAMES[f])])) as Record<ProjectionFile, string>;
}

/**
 * Ids that belong only in the archive. Decision tiering (age, caps) lives with the
 * briefing; until it feeds this, archived and superseded decisions are the archive.
 * Whatever goes here must depend on tracked data only, or two clones would render
 * different bytes and `project --check` would fail for one of them.
 */
export const DEFAULT_ARCHIVE_IDS: readonly string[] = [];

/** A memory file named by its id and git blob id. */
export interface MemoryBlob {
  id: string;
  oid: string;
}

export interface RenderFromBlobsOptions {
  memories: readonly MemoryBlob[];
  /** Reads the texts of blobs the cache does not know (called once, maybe with none). */
  readTexts: (oids: string[]) => Map<string, string>;
  /** The projection cache (`openProjectionCache`); saved at the end. None: no cache. */
  cache?: ProjectionCache | undefined;
  /** Work-tree file names still present, so the cache forgets the others. */
  presentFiles?: ReadonlySet<string> | undefined;
  /** Render only this projection. */
  only?: ProjectionFile | undefined;
}

export interface RenderFromBlobsResult {
  projections: Partial<Projections>;
  /** Memories listed in some projection. */
  listed: number;
  diagnostics: Diagnostic[];
}

let fingerprintMemo: string | undefined;

/** Changes whenever entry rendering or the templates change: the projection cache's version. */
function renderFingerprint(): string {
  fingerprintMemo ??= createHash('sha1')
    .update(
      renderEntry({
        id: 'fingerprint-aaaaaa',
        type: 'decision',
        summary: 'A *summary* with [[links]] & <tags>',
        scope: 'project',
        priority: 7,
        confidence: 1,
        pinned: true,
        status: 'superseded',
        tags: ['a', 'b_c'],
        created: '2026-01-02T03:04:05Z',
        updated: '2026-01-02T03:04:05Z',
        source: { kind: 'manual' },
        body: '# Why\n\n- [ ] item\n\n> quote\n\n```\n### code\n```',
        extra: {},
      }).text,
    )
    .update(JSON.stringify(projectionTemplates()))
    // Entries are cached redacted: a new gate renders them again.
    .update(redactionGateStamp())
    .digest('hex')
    .slice(0, 16);
  return fingerprintMemo;
}

/** The projection cache of a work tree's `.memory/`. */
export function openProjectionCache(cacheDir: string): ProjectionCache {
  return ProjectionCache.load(cacheDir, renderFingerprint());
}

/**
 * Renders the projections of memory files named by blob id, with the shipped templates.
 * Parses and renders only blobs the projection cache does not know.
 *
 * @example
 * renderFromBlobs({ memories: [{ id, oid }], readTexts: (oids) => readFromGit(oids), cacheDir }).projections['decisions.md']
 */
export function renderFromBlobs(options: RenderFromBlobsOptions): RenderFromBlobsResult {
  const templates = projectionTemplates();
  const types = projectedTypes({ templates });
  const { cache } = options;
  const entries: RenderedEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const missing: MemoryBlob[] = [];
  for (const m of options.memories) {
    const known = cache?.entry(m.oid, m.id);
    if (known === undefined) missing.push(m);
    else if (known !== null) entries.push(known);
  }
  const texts = missing.length > 0 ? options.readTexts([...new Set(missing.map((m) => m.oid))]) : new Map<string, string>();
  for (const m of missing) {
    const text = texts.get(m.oid);
    if (text === undefined) continue;
    const r = projectMemoryText({ id: m.id, text, types });
    diagnostics.push(...r.diagnostics);
    if (r.entry === undefined) continue;
    // A second gate pass: a memory file typed by hand never went through the store's
    // gate. Entries are cached redacted (keyed by blob id and the gate's stamp, see
    // renderFingerprint), so each blob is scanned once, not on every render.
    const entry = r.entry === null ? null : { ...r.entry, text: redactSecrets(r.entry.text).text };
    cache?.setEntry(m.oid, entry);
    if (entry !== null) entries.push(entry);
  }
  cache?.save(options.presentFiles ? { presentFiles: options.presentFiles } : {});
  const render = { templates, archiveIds: DEFAULT_ARCHIVE_IDS };
  const files = options.only ? [options.only] : PROJECTION_FILES;
  const projections: Partial<Projections> = Object.fromEntries(files.map((f) => [f, renderProjectionEntries(f, entries, render)]));
  return { projections, listed: entries.length, diagnostics };
}

/**
 * The memory files of the work tree as blobs. Blob ids come from the stat cache when a
 * file's size and mtime are unchanged, so a warm run reads no memory file.
 */
function workTreeBlobs(ctx: Context, cache: ProjectionCache): Omit<RenderFromBlobsOptions, 'cache' | 'only'> {
  const memories: MemoryBlob[] = [];
  const texts = new Map<string, string>();
  const paths = new Map<string, string>();
  const present = new Set<string>();
  for (const entry of listMemoryFiles(ctx.paths)) {
    const name = `${entry.id}.md`;
    present.add(name);
    let oid = cache.statOid(name, entry.size, entry.mtimeMs);
    if (oid === undefined) {
      const text = readMemoryText(entry.path);
      if (text === undefined) continue; // Vanished or unreadable: `cortex lint` reports it.
      oid = blobOid(text);
      texts.set(oid, text);
      cache.setStat(name, entry.size, entry.mtimeMs, oid);
    }
    paths.set(oid, entry.path);
    memories.push({ id: entry.id, oid });
  }
  const readTexts = (oids: string[]) => {
    const out = new Map<string, string>();
    for (const oid of oids) {
      const text = texts.get(oid) ?? readFileIfExists(paths.get(oid) ?? '')?.toString('utf8');
      if (text !== undefined) out.set(oid, text);
    }
    return out;
  };
  return { memories, readTexts, presentFiles: present };
}

/**
 * The projections the work tree's memories give, without writing them.
 *
 * @example
 * renderWorkTreeProjections(ctx)['decisions.md'] // '# Decisions\n…'
 */
export function renderWorkTreeProjections(ctx: Context): Partial<Projections> {
  const cache = openProjectionCache(ctx.paths.cacheDir);
  return renderFromBlobs({ ...workTreeBlobs(ctx, cache), cache }).projections;
}

/**
 * Regenerates the projections (or, with `check`, reports the stale ones).
 *
 * @example
 * const { stale } = await project(ctx, { check: true }); // true when `cortex project` would change a file
 */
export async function project(ctx: Context, input: ProjectInput = {}): Promise<ProjectOutput> {
  const run = (): ProjectOutput => {
    const cache = openProjectionCache(ctx.paths.cacheDir);
    const { projections, listed, diagnostics } = renderFromBlobs({ ...workTreeBlobs(ctx, cache), cache });
    const files: ProjectFileState[] = PROJECTION_FILES.map((name) => {
      const path = join(ctx.paths.cortexDir, name);
      const file = `.cortex/${name}`;
      if (input.check) {
        const existing = readFileIfExists(path);
        if (existing === undefined) return { file, state: 'missing' };
        return { file, state: existing.toString('utf8') === projections[name] ? 'unchanged' : 'stale' };
      }
      return { file, state: writeIfChanged(path, projections[name] ?? '') };
    });
    return { files, stale: files.some((f) => f.state !== 'unchanged'), listed, diagnostics };
  };
  if (input.check) return run();
  return withLock(lockPath(ctx.paths.cacheDir, 'write'), run);
}
