/**
 * File-triggered recall: the memories anchored to a file or a symbol in it (their
 * `source.files` entries), chosen and rendered for the file hook and `recall --file`.
 * Pure: the map of anchors comes from the cache (cache/file-anchors.ts).
 */
import { parseAnchor, symbolNameMatches } from './anchor.js';

/** One memory anchored to a file, as the file hook's map keeps it. */
export interface FileAnchored {
  id: string;
  type: string;
  summary: string;
  /** The start of the body. */
  preview: string;
  updated: string;
  priority: number;
  /** The `files:` entry as written (`src/db.ts#acquire`). */
  entry: string;
  /** Why it may be outdated (the anchor's symbol changed, or is gone), from the code index. */
  outdated?: string | undefined;
}

/**
 * The prompt hook's budget (core/anticipate.ts `DEFAULT_ANTICIPATE`: at most 3 memories in
 * at most 1,500 characters), copied so the file hook need not load that module;
 * `file-recall.test.ts` keeps them equal.
 */
export const DEFAULT_FILE_RECALL = { limit: 3, maxChars: 1_500 } as const;

/** Preview characters kept per memory in the map. */
export const FILE_PREVIEW_CHARS = 200;

/**
 * Of the memories anchored to a file (`entries`: its list in the map), those anchored to
 * `symbol` or to the whole file (all of them when no symbol is asked for),
 * without those in `exclude`: anchors to a symbol before anchors to the whole file, then
 * higher priority, then the most recently updated; each memory once.
 *
 * @example
 * selectFileMemories(map.files['src/db.ts'] ?? [], { symbol: 'acquire', exclude: ['shown-before-k3f9qa'] })
 */
export function selectFileMemories(
  entries: readonly FileAnchored[],
  options: { symbol?: string | undefined; exclude?: readonly string[]; limit?: number } = {},
): FileAnchored[] {
  const exclude = new Set(options.exclude ?? []);
  const seen = new Set<string>();
  // The entries are the file's already (under its path as written, or the one git renamed it to).
  const matching = entries.filter((e) => {
    if (exclude.has(e.id)) return false;
    const a = parseAnchor(e.entry);
    return options.symbol === undefined || a.symbol === undefined || symbolNameMatches(a.symbol, options.symbol);
  });
  const symbolFirst = (e: FileAnchored): number => (parseAnchor(e.entry).symbol !== undefined || parseAnchor(e.entry).lines !== undefined ? 0 : 1);
  const sorted = [...matching].sort(
    (a, b) => symbolFirst(a) - symbolFirst(b) || b.priority - a.priority || (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0) || (a.id < b.id ? -1 : 1),
  );
  const out: FileAnchored[] = [];
  for (const e of sorted) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
    if (options.limit !== undefined && out.length >= options.limit) break;
  }
  return out;
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The context text for the memories anchored to a file: facts, one item each, within
 * `maxChars` (an item that does not fit drops its preview, then the rest are left out).
 * Returns the text and the ids it holds ('' and [] for none).
 *
 * @example
 * renderFileMemories('src/db.ts', chosen).text
 * // 'Stored project memories about src/db.ts (Cortex):\n- gotcha (acquire): acquire must not allocate [acquire-must-not-k3f9qa, 2026-11-21]\n  It runs per query …'
 */
export function renderFileMemories(path: string, memories: readonly FileAnchored[], options: { maxChars?: number } = {}): { text: string; ids: string[] } {
  const maxChars = options.maxChars ?? DEFAULT_FILE_RECALL.maxChars;
  const header = `Stored project memories about ${path} (Cortex):`;
  let text = header;
  const ids: string[] = [];
  for (const m of memories) {
    const anchor = parseAnchor(m.entry);
    const at = anchor.symbol ?? (anchor.lines !== undefined ? `lines ${anchor.lines[0]}-${anchor.lines[1]}` : undefined);
    const date = m.updated ? `, ${m.updated.slice(0, 10)}` : '';
    const outdated = m.outdated !== undefined ? ` [POSSIBLY OUTDATED: ${oneLine(m.outdated, 160)}]` : '';
    const line = `\n- ${m.type}${at !== undefined ? ` (${at})` : ''}: ${oneLine(m.summary, 240)} [${m.id}${date}]${outdated}`;
    const detail = m.preview.trim() !== '' ? `\n  ${oneLine(m.preview, 200)}` : '';
    if (text.length + line.length + detail.length <= maxChars) text += line + detail;
    else if (text.length + line.length <= maxChars) text += line;
    else break;
    ids.push(m.id);
  }
  return ids.length === 0 ? { text: '', ids } : { text, ids };
}
