/**
 * What the keyword index makes of one memory file: its text's hash, its problems, and for a
 * memory its record ({@link IndexedDoc}) and its analysed search fields. Independent of any
 * index, so that a fresh build can prepare files in a worker thread (see read-worker.ts)
 * while the index adds those prepared before, in order.
 */
import * as crypto from 'node:crypto';
import { sha1OfText } from '../../core/sha1.js';
import type { Diagnostic, Memory } from '../../core/memory.js';
import { normalizeBody } from '../../core/memory-format.js';
import { detachString } from '../../core/detach-string.js';
import { processTerm, tokenize } from '../../core/text.js';
import { readMemoryFile, displayPath, type MemoryFileEntry } from '../../store/memory-store.js';
import type { IndexedDoc } from './doc-table.js';
import { analyzeDocument, type AnalyzedDoc, type Analyzer } from './search-state.js';

/**
 * Extracts `[[id]]` links; replaced by the graph module's parser when present. One that a
 * worker thread can run as well names itself in `inWorker` (see parallel-prepare.ts).
 */
export type LinkExtractor = ((body: string) => string[]) & { readonly inWorker?: 'wikilinks' };
export const NO_LINKS: LinkExtractor = () => [];

/** The search state's fields, in its order: each a key of {@link searchDocOf}'s documents. */
export const INDEXED_FIELDS = ['text', 'summary', 'tags', 'topic', 'files', 'type'] as const;

/** The analysis of the index's fields (the search state's tokenizer and term processing). */
export const ANALYZER: Analyzer = {
  fields: INDEXED_FIELDS,
  idField: 'id',
  tokenize: (text: string) => tokenize(text),
  // A shared, cached array for some words: callers only iterate it.
  processTerm: (term: string) => processTerm(term) as string | string[] | null,
};

type OneShotHash = (algorithm: string, data: string, encoding: 'hex') => string;

/**
 * `crypto.hash` (Node ≥ 20.12): one call, no Hash object; a rebuild hashes 20,000 texts.
 * Looked up on first use, not when this module loads: a `recall` never hashes, and loading
 * `node:crypto` costs it ~10 ms.
 */
let oneShotHash: OneShotHash | null | undefined;

/**
 * Hashes this process made in JavaScript: the first few do not load `node:crypto` (~6 ms: a
 * `remember` hashes once or twice); past them, a process that hashes many (a rebuild hashes
 * every memory) loads it and hashes natively.
 */
let hashedInScript = 0;
const HASHED_IN_SCRIPT = 64;

/** SHA-1 of a text, in hex. */
export function sha1(text: string): string {
  if (oneShotHash === undefined && hashedInScript < HASHED_IN_SCRIPT) {
    hashedInScript++;
    return sha1OfText(text);
  }
  oneShotHash ??= (crypto as { hash?: OneShotHash }).hash ?? null;
  return oneShotHash ? oneShotHash('sha1', text, 'hex') : crypto.createHash('sha1').update(text).digest('hex');
}

/** Hash of what a memory says, ignoring metadata: equal keys mean identical content. */
export function contentKeyOf(memory: Pick<Memory, 'type' | 'summary' | 'body'>): string {
  return contentKeyFor(memory, normalizeBody(memory.body));
}

function contentKeyFor(memory: Pick<Memory, 'type' | 'summary'>, normalizedBody: string): string {
  return sha1(`${memory.type}\n${memory.summary.trim().toLowerCase()}\n${normalizedBody}`);
}

/** What the index keeps of a memory read from `file` (as shown to people), with the `[[links]]` of its body. */
export function indexedDocOf(memory: Memory, file: string, links: string[]): IndexedDoc {
  const body = normalizeBody(memory.body);
  return {
    id: memory.id,
    type: memory.type,
    summary: memory.summary,
    status: memory.status,
    scope: memory.scope,
    tags: memory.tags,
    priority: memory.priority,
    confidence: memory.confidence,
    pinned: memory.pinned,
    topic: memory.topic,
    created: memory.created,
    updated: memory.updated,
    branch: memory.source.branch,
    commit: memory.source.commit,
    session: memory.source.session,
    files: memory.source.files,
    links: links.length > 0 ? links : undefined,
    contentKey: contentKeyFor(memory, body),
    bodyLength: body.length,
    preview: body.slice(0, 240),
    file,
  };
}

/**
 * Summary and body as one text. A long note saved as free text keeps its first sentence as
 * the summary and the whole note as the body; the summary is then not repeated.
 */
export function fullText(memory: Pick<Memory, 'summary' | 'body'>): string {
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  const summary = flat(memory.summary);
  const wanted = summary.replace(/…$/, '');
  // Whitespace aside, does the body start with the summary? Its head says (a rebuild would
  // otherwise rewrite every body); the text is only tokenized, so it keeps its whitespace.
  let head = flat(memory.body.slice(0, 2 * wanted.length + 64));
  if (head.length < wanted.length) head = flat(memory.body);
  return head.startsWith(wanted) ? memory.body : `${summary} ${memory.body}`;
}

/** A memory as the search state indexes it (its fields as {@link INDEXED_FIELDS}). */
export function searchDocOf(memory: Memory) {
  return {
    id: memory.id,
    text: fullText(memory),
    summary: memory.summary,
    tags: memory.tags.join(' '),
    topic: memory.topic ?? '',
    files: (memory.source.files ?? []).join(' '),
    type: memory.type,
  };
}

/** A memory file as the index takes it in (see {@link prepareFile}). */
export interface PreparedFile {
  /** SHA-1 of the text; '' when it could not be read. */
  hash: string;
  diagnostics: Diagnostic[];
  /** The memory's record and its analysed search fields; none for a broken file, or one whose hash was `unchangedHash`. */
  doc?: IndexedDoc;
  analyzed?: AnalyzedDoc;
}

/**
 * Reads and prepares one memory file: its hash, then, unless the hash is `unchangedHash`
 * (the text the index already has), its memory as the index keeps it. Never throws for a
 * bad file: problems come back as diagnostics naming it.
 */
export function prepareFile(entry: MemoryFileEntry, options: { base: string; links: LinkExtractor; unchangedHash?: string }): PreparedFile {
  const shown = displayPath(entry.path, options.base);
  const read = readMemoryFile(entry, shown);
  const hash = read.text === undefined ? '' : sha1(read.text);
  if (hash !== '' && hash === options.unchangedHash) return { hash, diagnostics: read.diagnostics };
  if (!read.memory) return { hash, diagnostics: read.diagnostics };
  const memory = read.memory;
  // The index keeps the id (in its tables, its search state): as a copy, not as a view of
  // the file's text, which it would keep alive (100,000 memories: 93 MB).
  memory.id = detachString(memory.id);
  return { hash, diagnostics: read.diagnostics, doc: indexedDocOf(memory, shown, options.links(memory.body)), analyzed: analyzeDocument(searchDocOf(memory), ANALYZER) };
}
