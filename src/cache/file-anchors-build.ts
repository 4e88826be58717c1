/**
 * Builds `.memory/file-anchors.json` (file-anchors.ts) from the memory files of the project
 * and local tiers and the anchor states of the code index.
 */
import { parseAnchor } from '../core/anchor.js';
import { FILE_PREVIEW_CHARS, type FileAnchored } from '../core/file-recall.js';
import type { Memory } from '../core/memory.js';
import { writeFileAtomic } from '../store/atomic.js';
import { readAllMemories } from '../store/memory-store.js';
import { localPaths, projectPaths } from '../store/paths.js';
import { anchorKey, anchorOutdated, readCodeIndex } from './code-index.js';
import { FILE_ANCHORS_VERSION, fileAnchorsItemsPath, fileAnchorsPath, type FileAnchorsIndex, type FileAnchorsMap } from './file-anchors.js';

/** The active memories of the project and local tiers. */
export function anchoredTierMemories(root: string): Memory[] {
  const out: Memory[] = [];
  for (const paths of [projectPaths(root), localPaths(root)]) {
    out.push(...readAllMemories(paths, root).memories.filter((m) => m.status === 'active'));
  }
  return out;
}

/**
 * The map from the memory files, saved under `stamp` (unless '' or writing fails).
 *
 * @example
 * buildFileAnchors('/repo', '/repo/.memory', stamp).files['src/db.ts']
 */
export function buildFileAnchors(root: string, cacheDir: string, stamp: string): FileAnchorsMap {
  const code = readCodeIndex(cacheDir);
  const files: Record<string, FileAnchored[]> = {};
  for (const m of anchoredTierMemories(root)) {
    for (const entry of m.source.files ?? []) {
      const anchor = parseAnchor(entry);
      if (anchor.path === '') continue;
      const state = code.anchors[anchorKey(m.id, entry)];
      const item: FileAnchored = {
        id: m.id,
        type: m.type,
        summary: m.summary,
        preview: m.body.slice(0, FILE_PREVIEW_CHARS),
        updated: m.updated,
        priority: m.priority,
        entry,
        ...(anchorOutdated(state) !== undefined ? { outdated: anchorOutdated(state) } : {}),
      };
      // Listed under the path as written and, after a rename git recorded, under the new one.
      for (const path of new Set([anchor.path, state?.path ?? anchor.path])) (files[path] ??= []).push(item);
    }
  }
  const map: FileAnchorsMap = { version: FILE_ANCHORS_VERSION, stamp, files };
  if (stamp !== '') {
    try {
      // The entries first: the list of paths, written last, is what makes them current.
      writeFileAtomic(fileAnchorsItemsPath(cacheDir), JSON.stringify(map));
      const index: FileAnchorsIndex = { version: FILE_ANCHORS_VERSION, stamp, paths: Object.keys(files).sort() };
      writeFileAtomic(fileAnchorsPath(cacheDir), JSON.stringify(index));
    } catch {
      // Rebuilt next time.
    }
  }
  return map;
}
