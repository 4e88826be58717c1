/**
 * `.memory/anticipation.json`: the anticipatory-recall index of one tier, stamped with
 * the keyword index it was built from (`.memory/index.json`: size, mtime, inode). Loading
 * it costs a fraction of loading the keyword index, which matters on a hook run before
 * every prompt. Any change the keyword index records changes the stamp, and the file is
 * rebuilt from it; a missing, corrupt or other-version file is rebuilt silently.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ANTICIPATION_INDEX_VERSION, type AnticipationIndex } from '../core/anticipate.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { TierPaths } from '../store/paths.js';
import { KeywordIndex } from './keyword-index.js';

interface AnticipationFile {
  version: number;
  /** Stamp of the keyword index the file was built from. */
  stamp: string;
  index: AnticipationIndex;
}

export function anticipationPath(paths: TierPaths): string {
  return join(paths.cacheDir, 'anticipation.json');
}

/** Size, mtime and inode of the tier's keyword index; `undefined` when there is none. */
export function keywordIndexStamp(paths: TierPaths): string | undefined {
  const st = statSync(KeywordIndex.indexPath(paths), { throwIfNoEntry: false, bigint: true });
  return st === undefined ? undefined : `${st.size}:${st.mtimeNs}:${st.ino}`;
}

/** The stored index when it was built from the keyword index as it is now. */
export function loadAnticipationIndex(paths: TierPaths, stamp: string): AnticipationIndex | undefined {
  try {
    const file = JSON.parse(readFileSync(anticipationPath(paths), 'utf8')) as Partial<AnticipationFile>;
    if (file.version !== ANTICIPATION_INDEX_VERSION || file.stamp !== stamp || file.index?.version !== ANTICIPATION_INDEX_VERSION) return undefined;
    const index = file.index;
    if (!Array.isArray(index.docs) || !Array.isArray(index.terms) || !Array.isArray(index.postings) || !Array.isArray(index.lengths)) return undefined;
    if (index.terms.length !== index.postings.length || index.lengths.length !== 2 * index.docs.length) return undefined;
    return index;
  } catch {
    return undefined;
  }
}

/** Stores the index; a cache, so failing to write it is never an error. */
export function saveAnticipationIndex(paths: TierPaths, stamp: string, index: AnticipationIndex): void {
  try {
    writeFileAtomic(anticipationPath(paths), JSON.stringify({ version: ANTICIPATION_INDEX_VERSION, stamp, index } satisfies AnticipationFile));
  } catch {
    // Rebuilt next time.
  }
}
