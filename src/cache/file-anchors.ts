/**
 * `.memory/file-anchors.json`: file → the memories anchored to it, for the file hook
 * (PostToolUse on Read/Edit/Write), which runs on every file the assistant opens and so
 * must cost little more than starting Node. Reading it is one `stat` per tier plus one small
 * JSON file; it is rebuilt (file-anchors-build.ts, loaded only then) when a memories
 * directory or the code index changed.
 *
 * The stamp of a directory changes whenever a file in it is added, removed or replaced by a
 * rename (every Cortex write, every git checkout); an editor saving a memory in place does
 * not change it (the same rule as the prompt hook's index). Node built-ins only.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileAnchored } from '../core/file-recall.js';
import { CORTEX_DIR } from '../store/paths.js';
import { codeIndexStamp } from './code-index.js';
import { FILE_ANCHORS_FILE } from './layout.js';

export const FILE_ANCHORS_VERSION = 1;

export interface FileAnchorsMap {
  version: number;
  stamp: string;
  /** Repository-relative path → anchored memories. */
  files: Record<string, FileAnchored[]>;
}

/** The memories directories whose memories may be anchored to the project's files: project and local tiers. */
export function anchoredTierDirs(root: string): string[] {
  return [join(root, CORTEX_DIR, 'memories'), join(root, CORTEX_DIR, 'local', 'memories')];
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
  parts.push(codeIndexStamp(cacheDir));
  return parts.join('|');
}

export function fileAnchorsPath(cacheDir: string): string {
  return join(cacheDir, FILE_ANCHORS_FILE);
}

/**
 * The saved map when it is current (its stamp equals `stamp`), else `undefined`.
 *
 * @example
 * readFileAnchors('/repo/.memory', fileAnchorsStamp('/repo', '/repo/.memory', Date.now()))
 */
export function readFileAnchors(cacheDir: string, stamp: string): FileAnchorsMap | undefined {
  if (stamp === '') return undefined;
  try {
    const m = JSON.parse(readFileSync(fileAnchorsPath(cacheDir), 'utf8')) as Partial<FileAnchorsMap>;
    if (m?.version !== FILE_ANCHORS_VERSION || m.stamp !== stamp || typeof m.files !== 'object' || m.files === null) return undefined;
    return m as FileAnchorsMap;
  } catch {
    return undefined;
  }
}
