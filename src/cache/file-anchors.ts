/**
 * `.memory/file-anchors.json` (the paths memories are anchored to) and
 * `.memory/file-anchors-items.json` (path → those memories), for the file hook (PostToolUse
 * on Read/Edit/Write), which runs on every file the assistant opens and so must cost little
 * more than starting Node: one `stat` per tier plus the small list of paths, and the larger
 * file only for a path in it. Both are rebuilt (file-anchors-build.ts, loaded only then)
 * when a memories directory or the code index changed.
 *
 * The stamp of a directory changes whenever a file in it is added, removed or replaced by a
 * rename (every Cortex write, every git checkout); an editor saving a memory in place does
 * not change it (the same rule as the prompt hook's index). Node built-ins only.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileAnchored } from '../core/file-recall.js';
import { CORTEX_DIR, localPaths } from '../store/paths.js';
import { CODE_INDEX_FILE, FILE_ANCHORS_FILE, FILE_ANCHORS_ITEMS_FILE } from './layout.js';

export const FILE_ANCHORS_VERSION = 1;

export interface FileAnchorsMap {
  version: number;
  stamp: string;
  /** Repository-relative path → anchored memories. */
  files: Record<string, FileAnchored[]>;
}

/** The memories directories whose memories may be anchored to the project's files: project and local tiers. */
export function anchoredTierDirs(root: string): string[] {
  return [join(root, CORTEX_DIR, 'memories'), localPaths(root).memoriesDir];
}

function dirStamp(dir: string): string {
  const st = statSync(dir, { throwIfNoEntry: false, bigint: true });
  return st === undefined ? '-' : `${st.mtimeNs}:${st.ino}:${st.size}`;
}

/**
 * What the map is valid for: the memories directories and the code index as they are now.
 * '' (never valid) when a directory changed within the last two seconds on a file system
 * with whole-second times (two changes in the same second would look the same).
 */
export function fileAnchorsStamp(root: string, cacheDir: string, now: number): string {
  const parts: string[] = [];
  for (const dir of anchoredTierDirs(root)) {
    const st = statSync(dir, { throwIfNoEntry: false, bigint: true });
    if (st !== undefined && st.mtimeNs % 1_000_000_000n === 0n && now - Number(st.mtimeMs) < 2_000) return '';
    parts.push(dirStamp(dir));
  }
  // The code index's stamp (code-index.ts `codeIndexStamp`), without loading that module.
  const code = statSync(join(cacheDir, CODE_INDEX_FILE), { throwIfNoEntry: false });
  parts.push(code === undefined ? '' : `${code.mtimeMs}:${code.size}`);
  return parts.join('|');
}

export function fileAnchorsPath(cacheDir: string): string {
  return join(cacheDir, FILE_ANCHORS_FILE);
}

export function fileAnchorsItemsPath(cacheDir: string): string {
  return join(cacheDir, FILE_ANCHORS_ITEMS_FILE);
}

/** `file-anchors.json`: the paths with anchored memories. */
export interface FileAnchorsIndex {
  version: number;
  stamp: string;
  paths: string[];
}

function readCurrent<T extends { version?: unknown; stamp?: unknown }>(path: string, stamp: string): T | undefined {
  if (stamp === '') return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as T;
    return value?.version === FILE_ANCHORS_VERSION && value.stamp === stamp ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The memories anchored to `path` from the saved map when it is current (its stamp equals
 * `stamp`): `[]` for a file no memory names; `undefined` when the map must be rebuilt.
 *
 * @example
 * lookupFileAnchors('/repo/.memory', fileAnchorsStamp('/repo', '/repo/.memory', Date.now()), 'src/db.ts')
 */
export function lookupFileAnchors(cacheDir: string, stamp: string, path: string): FileAnchored[] | undefined {
  const index = readCurrent<Partial<FileAnchorsIndex>>(fileAnchorsPath(cacheDir), stamp);
  if (index === undefined || !Array.isArray(index.paths)) return undefined;
  if (!index.paths.includes(path)) return [];
  const items = readCurrent<Partial<FileAnchorsMap>>(fileAnchorsItemsPath(cacheDir), stamp);
  if (items === undefined || typeof items.files !== 'object' || items.files === null) return undefined;
  const entries = items.files[path];
  return Array.isArray(entries) ? entries : [];
}
