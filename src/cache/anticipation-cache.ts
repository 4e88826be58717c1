/**
 * `.memory/anticipation.json`: the anticipatory-recall index of one tier, with its own
 * stat cache (file → size, mtime) so a refresh re-reads only the memory files that
 * changed, and a stamp of the memories directory so an unchanged tier costs one `stat`.
 * It never loads the keyword index: a prompt hook cannot afford parsing 16 MB of JSON.
 *
 * The directory stamp changes whenever a file is added, removed or replaced by a rename
 * (every Cortex write, every git checkout). An editor saving a file in place does not
 * change it; that edit is seen at the next refresh for any other reason. A missing,
 * corrupt or other-version file is rebuilt silently.
 *
 * The project tier's index also holds the review queue's memory candidates (`extra`), kept
 * by their own stamp (the queue file's and the redaction gate's): a prompt never parses the
 * queue unless it changed.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ANTICIPATION_INDEX_VERSION,
  buildAnticipationIndex,
  updateAnticipationIndex,
  type AnticipateCandidate,
  type AnticipationIndex,
} from '../core/anticipate.js';
import type { Memory } from '../core/memory.js';
import { isNumber, isPlainObject, isString, isStringArray } from '../core/shape.js';
import { writeFileAtomic } from '../store/atomic.js';
import { displayPath, listMemoryFiles, readMemoryFile } from '../store/memory-store.js';
import type { TierPaths } from '../store/paths.js';
import { ANTICIPATION_FILE } from './layout.js';

interface AnticipationFile {
  version: number;
  /** Stamp of the memories directory when the files were listed ('' when it could not be trusted). */
  stamp: string;
  /** File name → [size, mtimeMs, indexed]: indexed is 1 when the memory is in the index. */
  files: Record<string, [number, number, number]>;
  /** Stamp of the extra docs (the review candidates) in the index; '' when there are none. */
  extraStamp?: string;
  /** Ids of the extra docs in the index. */
  extraIds?: string[];
  index: AnticipationIndex;
}

/** Docs kept beside the memory files (the review queue's candidates), with the stamp of their source. */
export interface ExtraDocs {
  /** Changes whenever the docs may have: `load` is called only then. */
  stamp: string;
  load: () => AnticipateCandidate[];
}

export function anticipationPath(paths: TierPaths): string {
  return join(paths.cacheDir, ANTICIPATION_FILE);
}

/**
 * The memories directory's stamp, or '' when its mtime has whole-second precision and is
 * too recent to tell two changes in the same second apart (git's "racy" rule).
 */
function directoryStamp(dir: string, now: number): string | undefined {
  const st = statSync(dir, { throwIfNoEntry: false, bigint: true });
  if (st === undefined) return undefined;
  const coarse = st.mtimeNs % 1_000_000_000n === 0n && now - Number(st.mtimeMs) < 2_000;
  return coarse ? '' : `${st.mtimeNs}:${st.ino}:${st.size}`;
}

const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isOptionalStrings = (v: unknown): boolean => v === undefined || isStringArray(v);

// Plain loops: this runs once per prompt-hook process, before the JIT has warmed up.
function hasCandidates(docs: unknown[]): boolean {
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (!isPlainObject(d) || !isString(d.id) || !isString(d.type) || !isString(d.summary) || !isNumber(d.score)) return false;
    if (!isOptionalStrings(d.tags) || !isOptionalStrings(d.files) || !isOptionalString(d.topic) || !isOptionalString(d.preview) || !isOptionalString(d.updated)) return false;
    if (d.unconfirmed !== undefined && typeof d.unconfirmed !== 'boolean') return false;
  }
  return true;
}

/** Per term: [doc, field, doc, field, …] with every doc a valid index. */
function hasPostings(postings: unknown[], docs: number): boolean {
  for (let t = 0; t < postings.length; t++) {
    const p = postings[t];
    if (!Array.isArray(p) || (p.length & 1) !== 0) return false;
    for (let i = 0; i < p.length; i += 2) {
      const d = p[i] as number;
      if (!(d >= 0 && d < docs && Math.floor(d) === d) || typeof p[i + 1] !== 'number') return false;
    }
  }
  return true;
}

function loadFile(paths: TierPaths): AnticipationFile | undefined {
  try {
    const file = JSON.parse(readFileSync(anticipationPath(paths), 'utf8')) as Partial<AnticipationFile>;
    const index = file.index;
    if (file.version !== ANTICIPATION_INDEX_VERSION || typeof file.stamp !== 'string' || typeof file.files !== 'object' || file.files === null) return undefined;
    if ((file.extraStamp !== undefined && typeof file.extraStamp !== 'string') || (file.extraIds !== undefined && !isStringArray(file.extraIds))) return undefined;
    if (index?.version !== ANTICIPATION_INDEX_VERSION || !Array.isArray(index.docs) || !Array.isArray(index.terms) || !Array.isArray(index.postings) || !Array.isArray(index.lengths)) return undefined;
    if (index.terms.length !== index.postings.length || index.lengths.length !== 2 * index.docs.length) return undefined;
    // The shape of every element the prompt hook reads: a wrong one means a rebuild, not a
    // failing hook. (File rows are only compared with a stat: a wrong one reads as changed.)
    if (!isStringArray(index.terms) || !index.lengths.every(isNumber) || !hasCandidates(index.docs) || !hasPostings(index.postings, index.docs.length)) return undefined;
    return file as AnticipationFile;
  } catch {
    return undefined;
  }
}

/**
 * The tier's anticipation index, brought up to date with the memory files: unchanged
 * directory → the stored index as is; otherwise every file is `stat`ed and only new or
 * changed ones are read. `include` says which memories belong in it. Saves when changed.
 *
 * @example
 * const index = openAnticipationIndex(ctx.paths, { base: ctx.root, include: (m) => m.status === 'active', toDoc });
 */
export function openAnticipationIndex(
  paths: TierPaths,
  options: { base: string; include: (memory: Memory) => boolean; toDoc: (memory: Memory) => AnticipateCandidate; now?: number; extra?: ExtraDocs },
): AnticipationIndex {
  const now = options.now ?? Date.now();
  const stamp = directoryStamp(paths.memoriesDir, now);
  const stored = loadFile(paths);
  const extraStamp = options.extra?.stamp ?? '';
  const extraCurrent = (stored?.extraStamp ?? '') === extraStamp;
  if (stored !== undefined && stamp !== undefined && stamp !== '' && stored.stamp === stamp && extraCurrent) return stored.index;

  // Only the extra docs changed: the memory files need no listing.
  const filesCurrent = stored !== undefined && stamp !== undefined && stamp !== '' && stored.stamp === stamp;
  const entries = filesCurrent ? [] : listMemoryFiles(paths);
  const files: AnticipationFile['files'] = filesCurrent ? { ...stored.files } : {};
  const add: AnticipateCandidate[] = [];
  const remove: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const name = `${entry.id}.md`;
    seen.add(name);
    const known = stored?.files[name];
    if (known !== undefined && known[0] === entry.size && known[1] === entry.mtimeMs) {
      files[name] = known;
      continue;
    }
    const { memory } = readMemoryFile(entry, displayPath(entry.path, options.base));
    const indexed = memory !== undefined && memory.id === entry.id && options.include(memory);
    if (indexed) add.push(options.toDoc(memory));
    else if (known?.[2] === 1) remove.push(entry.id);
    files[name] = [entry.size, entry.mtimeMs, indexed ? 1 : 0];
  }
  if (!filesCurrent) {
    for (const [name, known] of Object.entries(stored?.files ?? {})) {
      if (!seen.has(name) && known[2] === 1) remove.push(name.slice(0, -3));
    }
  }
  // The extra docs: replaced whole when their stamp changed (a memory file never has their ids).
  let extraIds = stored?.extraIds ?? [];
  if (!extraCurrent || stored === undefined) {
    remove.push(...extraIds);
    const docs = extraStamp === '' ? [] : (options.extra?.load() ?? []);
    const ids = new Set(add.map((d) => d.id));
    const fresh = docs.filter((d) => !ids.has(d.id) && files[`${d.id}.md`] === undefined);
    add.push(...fresh);
    extraIds = fresh.map((d) => d.id);
  }
  const unchanged = stored !== undefined && extraCurrent && add.length === 0 && remove.length === 0 && Object.keys(files).length === Object.keys(stored.files).length;
  const index =
    stored === undefined
      ? buildAnticipationIndex(add.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
      : unchanged
        ? stored.index
        : updateAnticipationIndex(stored.index, { remove, add });
  if (!unchanged || stored?.stamp !== (stamp ?? '')) {
    try {
      const file: AnticipationFile = { version: ANTICIPATION_INDEX_VERSION, stamp: stamp ?? '', files, ...(extraStamp !== '' ? { extraStamp, extraIds } : {}), index };
      writeFileAtomic(anticipationPath(paths), JSON.stringify(file));
    } catch {
      // A cache: rebuilt next time.
    }
  }
  return index;
}
