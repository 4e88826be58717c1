/**
 * Anticipatory recall: which of the memories keyword recall found for a prompt are
 * relevant enough to put into the context unasked, and how to say so. Pure.
 *
 * BM25 scores are not comparable across corpora, so the floor is judged on the words a
 * prompt and a memory share, not on the score: two of the prompt's own words, or one of
 * them plus a close synonym (the thesaurus behind recall), in the memory's summary, tags,
 * topic, files or the start of its body. The score only trims the tail of the ranking.
 */
import type { MemoryType } from './memory.js';
import { planQuery } from './query.js';
import { DEFAULT_RELEVANCE, aboveFloor } from './recall-rank.js';
import { analyze } from './text.js';

export interface AnticipateCandidate {
  id: string;
  type: MemoryType;
  summary: string;
  /** Recall score (any scale; only compared within one result list). */
  score: number;
  tags?: readonly string[] | undefined;
  topic?: string | undefined;
  files?: readonly string[] | undefined;
  /** The first characters of the body. */
  preview?: string | undefined;
  /** ISO-8601. */
  updated?: string | undefined;
  /** A captured candidate waiting in the review queue, not a stored memory. */
  unconfirmed?: boolean | undefined;
}

export interface AnticipateOptions {
  /** At most this many memories. */
  limit?: number;
  /** The rendered text stays under this many characters. */
  maxChars?: number;
  /** Results scoring below this share of the best one are not considered (config `anticipate.minScoreShare`). */
  minScoreShare?: number;
  /** Ids whose body is in the context already (earlier prompts): never repeated. */
  exclude?: ReadonlySet<string> | readonly string[];
  /** Ids the context shows by their summary line only (the briefing): injected again only with their body. */
  summaryOnly?: ReadonlySet<string> | readonly string[];
  /** Give a row for every candidate (`--explain`); otherwise the rows stop where the selection does. */
  explainAll?: boolean;
}

export const DEFAULT_ANTICIPATE: Required<Omit<AnticipateOptions, 'exclude' | 'summaryOnly'>> = {
  limit: 3,
  maxChars: 1_500,
  minScoreShare: DEFAULT_RELEVANCE.minScoreShare,
  explainAll: false,
};

export interface AnticipatedMemory extends AnticipateCandidate {
  /** The prompt's own words (analysed) the memory contains. */
  shared: string[];
  /** Synonyms of the prompt's words the memory contains. */
  related: string[];
  /** The context already shows its summary line (the briefing): what it adds is the body. */
  summaryShown?: boolean | undefined;
  /** The whole body, when the caller read it (else the preview is shown). */
  body?: string | undefined;
}

/** Why a candidate was or was not injected (`cortex hook user-prompt-submit --explain`). */
export interface AnticipateExplainRow {
  id: string;
  type: MemoryType;
  summary: string;
  score: number;
  /** Score as a share of the best candidate's. */
  share: number;
  shared: string[];
  related: string[];
  unconfirmed: boolean;
  injected: boolean;
  reason: string;
}

/**
 * Words too common in coding prompts to make a memory relevant on their own (analysed
 * forms). They still count as the second word of a match.
 */
const WEAK_TERMS = new Set(
  analyze(
    'add added adding change changes changed check code continue do done file files fix fixed get go help implement ' +
      'look make need new now ok okay please run set show start stop sure task test tests thing things try update use ' +
      'want work works yes next first last good great thanks thank let see write read',
  ),
);

function termsOf(c: AnticipateCandidate): Set<string> {
  const files = (c.files ?? []).map((f) => f.split(/[\\/]/).pop() ?? f);
  return new Set(analyze([c.summary, ...(c.tags ?? []), c.topic ?? '', ...files, c.preview ?? ''].join(' ')));
}

/** Prompt terms found in a memory: exactly, or as the prefix of a longer word (`postgr` → `postgresql`). */
function sharedTerms(promptTerms: readonly string[], memory: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of promptTerms) {
    if (memory.has(t)) out.push(t);
    else if (t.length >= 4) {
      for (const m of memory) {
        if (m.length > t.length && m.startsWith(t)) {
          out.push(t);
          break;
        }
      }
    }
  }
  return out;
}

/**
 * Every candidate with the verdict on it, in ranking order: injected (up to `limit`), or
 * why not — already shown, under the score floor, too few shared words, the limit reached.
 *
 * @example
 * explainAnticipated('add a postgres migration', [{ id: 'db', type: 'decision', summary: 'Chose SQLite over PostgreSQL', score: 3 }])[0]
 * // { id: 'db', injected: true, reason: 'shares postgr, related sqlite', … }
 */
export function explainAnticipated(
  prompt: string,
  candidates: readonly AnticipateCandidate[],
  options: AnticipateOptions = {},
): { rows: AnticipateExplainRow[]; selected: AnticipatedMemory[] } {
  const opts = { ...DEFAULT_ANTICIPATE, ...options };
  const exclude = new Set(options.exclude ?? []);
  const summaryOnly = new Set(options.summaryOnly ?? []);
  const plan = planQuery(prompt);
  const rows: AnticipateExplainRow[] = [];
  const selected: AnticipatedMemory[] = [];
  if (candidates.length === 0) return { rows, selected };
  const expansions = new Set(plan.expansions);
  // The prompt's words with their analysed terms: "TypeScript" is one word (type, script, typescript).
  const promptWords = wordTerms(prompt);
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const best = ranked.reduce((m, r) => Math.max(m, r.score), 0);
  // The floor is relative to the best hit (BM25 scores have no fixed scale); the word rule
  // below replaces recall's coverage test (a prompt is long and chatty, so coverage of all
  // its words would say little).
  const above = new Set(aboveFloor(ranked, { minScoreShare: opts.minScoreShare, minCoverage: 0 }));
  const seen = new Set<string>();
  for (const c of ranked) {
    if (seen.has(c.id)) continue;
    // Past the limit only an explanation needs the rest (the prompt hook stops: it runs before every prompt).
    if (!opts.explainAll && selected.length >= opts.limit) break;
    seen.add(c.id);
    if (!opts.explainAll && (exclude.has(c.id) || !above.has(c))) continue;
    const terms = termsOf(c);
    const shared = sharedTerms(plan.terms, terms);
    const related = [...terms].filter((t) => expansions.has(t));
    const strong = shared.filter(isSpecific);
    const strongWords = wordsOf(promptWords, strong);
    const row: AnticipateExplainRow = {
      id: c.id,
      type: c.type,
      summary: c.summary,
      score: c.score,
      share: best > 0 ? c.score / best : 0,
      shared,
      related,
      unconfirmed: c.unconfirmed === true,
      injected: false,
      reason: '',
    };
    rows.push(row);
    const words = `shares ${shared.length > 0 ? shared.join(', ') : 'no word'}${related.length > 0 ? `, related ${related.join(', ')}` : ''}`;
    if (exclude.has(c.id)) row.reason = 'already in the context (its body)';
    else if (!above.has(c)) row.reason = `score ${row.share.toFixed(2)} of the best, under the floor ${opts.minScoreShare} (anticipate.minScoreShare)`;
    else if (!(strongWords >= 2 || (strongWords === 1 && related.length >= 1))) {
      row.reason = `${words}: needs two of the prompt's specific words (a word split in parts, such as TypeScript, counts once; common words and numbers do not count), or one and a synonym`;
    } else if (c.unconfirmed === true && wordsOf(promptWords, sharedTerms(strong, new Set(analyze(c.summary)))) < 2) {
      // Nobody confirmed a candidate, and its summary is often a chatty sentence: it must name
      // two of the prompt's specific words itself, not in its quoted evidence.
      row.reason = `${words}: an unconfirmed candidate needs two of the prompt's specific words in its summary`;
    } else if (selected.length >= opts.limit) row.reason = `${words}; the limit of ${opts.limit} memories is reached`;
    else {
      row.injected = true;
      const again = summaryShown(c.id, summaryOnly);
      row.reason = `${words}${again ? '; the briefing showed its summary, so its body is added' : ''}`;
      selected.push({ ...c, shared, related, ...(again ? { summaryShown: true } : {}) });
    }
  }
  return { rows, selected };
}

/** A word that can make a memory relevant: not a common coding word, not a number or a letter. */
function isSpecific(term: string): boolean {
  return term.length >= 2 && !/^\d+$/.test(term) && !WEAK_TERMS.has(term);
}

/** Each distinct word of a text (split at anything not a letter or digit) with the terms `analyze` makes of it. */
function wordTerms(text: string): Set<string>[] {
  const seen = new Set<string>();
  const out: Set<string>[] = [];
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w === '' || seen.has(w)) continue;
    seen.add(w);
    const terms = new Set(analyze(w));
    if (terms.size > 0) out.push(terms);
  }
  return out;
}

/** How many of the words hold one of `terms` (a word whose parts match twice counts once). */
function wordsOf(words: readonly Set<string>[], terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  let n = 0;
  for (const w of words) if (terms.some((t) => w.has(t))) n++;
  return n;
}

function summaryShown(id: string, summaryOnly: ReadonlySet<string>): boolean {
  return summaryOnly.has(id);
}

/**
 * Picks the memories worth volunteering for a prompt, best first; `[]` when none is.
 *
 * @example
 * selectAnticipated('add a postgres migration', [{ id: 'db', type: 'decision', summary: 'Chose SQLite over PostgreSQL', score: 3 }])
 * // [{ id: 'db', shared: ['postgr'], related: ['sqlite'], … }]
 */
export function selectAnticipated(
  prompt: string,
  candidates: readonly AnticipateCandidate[],
  options: AnticipateOptions = {},
): AnticipatedMemory[] {
  return explainAnticipated(prompt, candidates, options).selected;
}

const TYPE_LABELS: Partial<Record<MemoryType, string>> = {
  rejected: 'rejected approach',
  code_description: 'code description',
};

/** The marker of a review candidate's line: captured, not accepted by anyone yet. */
export const UNCONFIRMED_MARKER = '(unconfirmed)';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (max <= 1) return '';
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The body shown under a memory's line: the whole body when read, else the preview; never a repeat of the summary. */
function detailOf(m: AnticipatedMemory): string {
  const text = (m.body ?? m.preview ?? '').replace(/\s+/g, ' ').trim();
  const summary = m.summary.replace(/\s+/g, ' ').trim();
  if (summary !== '' && text.toLowerCase().startsWith(summary.toLowerCase())) return text.slice(summary.length).replace(/^[\s.:;,—-]+/, '');
  return text;
}

/** At least this many characters of body, or none: a few words cut off say nothing. */
const MIN_DETAIL_CHARS = 40;

/**
 * The context text for the selected memories: facts with their provenance, no
 * instructions. `''` for an empty selection. Always under `maxChars`. Each memory is a
 * line (`[id, date]` tag; review candidates marked `(unconfirmed)`) and, indented below,
 * as much of its body as the budget leaves, shared evenly: a memory the briefing showed by
 * its summary is injected for its body.
 *
 * @example
 * renderAnticipated([{ id: 'db-k3f9qa', type: 'decision', summary: 'Chose SQLite', score: 1, shared: [], related: [] }])
 * // 'Stored project memories related to this prompt (Cortex):\n- decision: Chose SQLite [db-k3f9qa]'
 */
export function renderAnticipated(memories: readonly AnticipatedMemory[], options: Pick<AnticipateOptions, 'maxChars'> = {}): string {
  return layoutAnticipated(memories, options).text;
}

/**
 * `renderAnticipated`'s text and what it shows of each memory: `body` when its body (or
 * all of it that fit) is under its line, `summary` when only the line fit. Memories left
 * out for the budget are not in `shown`.
 *
 * @example
 * layoutAnticipated([{ id: 'db-k3f9qa', type: 'decision', summary: 'Chose SQLite', score: 1, shared: [], related: [] }]).shown // { 'db-k3f9qa': 'summary' }
 */
export function layoutAnticipated(
  memories: readonly AnticipatedMemory[],
  options: Pick<AnticipateOptions, 'maxChars'> = {},
): { text: string; shown: Record<string, 'summary' | 'body'> } {
  const maxChars = options.maxChars ?? DEFAULT_ANTICIPATE.maxChars;
  const shown: Record<string, 'summary' | 'body'> = {};
  // A memory whose line the context has already (the briefing) is worth injecting only for its body.
  memories = memories.filter((m) => !m.summaryShown || detailOf(m) !== '');
  if (memories.length === 0) return { text: '', shown };
  const header = memories.some((m) => m.unconfirmed)
    ? 'Stored project memories related to this prompt (Cortex; "(unconfirmed)": captured, not yet accepted by anyone):'
    : 'Stored project memories related to this prompt (Cortex):';
  const lines: string[] = [];
  let used = header.length;
  for (const m of memories) {
    const date = m.updated ? `, ${m.updated.slice(0, 10)}` : '';
    const label = `${TYPE_LABELS[m.type] ?? m.type}${m.unconfirmed ? ` ${UNCONFIRMED_MARKER}` : ''}`;
    const line = `\n- ${label}: ${oneLine(m.summary, 240)} [${m.id}${date}]`;
    if (used + line.length > maxChars) break;
    lines.push(line);
    used += line.length;
  }
  if (lines.length === 0) return { text: '', shown };
  // The characters left, shared evenly by the memories shown; what one does not use goes to the next.
  let text = header;
  let left = maxChars - used;
  lines.forEach((line, i) => {
    const m = memories[i] as AnticipatedMemory;
    const share = Math.floor(left / (lines.length - i));
    const detail = detailOf(m);
    const room = share - 3; // '\n  '
    let part = '';
    if (detail !== '' && room >= Math.min(MIN_DETAIL_CHARS, detail.length)) part = oneLine(detail, room);
    if (part === '…') part = '';
    const block = part === '' ? '' : `\n  ${part}`;
    text += line + block;
    left -= block.length;
    shown[m.id] = part === '' && detail !== '' ? 'summary' : 'body';
  });
  return { text, shown };
}

/**
 * The id a review-queue candidate (`candidate:3f9a2c1d04`) carries where memories carry
 * theirs (an injection's `[id, date]` tag, a session's state): letters, digits and dashes.
 *
 * @example
 * candidateTagId('candidate:3f9a2c1d04') // 'candidate-3f9a2c1d04'
 */
export function candidateTagId(queueId: string): string {
  return queueId.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
}

// ---------------------------------------------------------------------------
// A small inverted index for anticipatory recall

/** Bump when the layout or the analysis changes: older files are rebuilt. */
export const ANTICIPATION_INDEX_VERSION = 5;

/** Preview characters kept per memory (what the floor reads and the context shows). */
export const ANTICIPATION_PREVIEW_CHARS = 200;

/**
 * A compact index of the fields anticipatory recall reads (summary, tags, topic, file
 * names, the start of the body), small enough to load on every prompt. Terms are sorted,
 * so a prefix is a binary search; `postings[i]` lists the docs holding `terms[i]`, each
 * doc once, with the field it is best found in: 1 for the head (summary, tags, topic,
 * file names), 0 for the body preview.
 */
export interface AnticipationIndex {
  version: number;
  docs: AnticipateCandidate[];
  terms: string[];
  /** Per term: [doc, field, doc, field, …]. */
  postings: number[][];
  /** Per doc: [head terms, preview terms], for length normalisation. */
  lengths: number[];
}

/**
 * Distinct analysed terms of a doc: the head (summary, tags, topic, file names), and the
 * body preview's terms that are not in the head (a term counts in its best field only).
 */
function docTerms(d: AnticipateCandidate): { head: string[]; body: string[] } {
  const files = (d.files ?? []).map((f) => f.split(/[\\/]/).pop() ?? f);
  const preview = d.preview === undefined ? '' : d.preview.slice(0, ANTICIPATION_PREVIEW_CHARS);
  const head = [...new Set(analyze([d.summary, ...(d.tags ?? []), d.topic ?? '', ...files].join(' ')))];
  const inHead = new Set(head);
  return { head, body: [...new Set(analyze(preview))].filter((t) => !inHead.has(t)) };
}

/** Assembles the index from docs and their terms (field 1 wins over 0 for a term in both). */
function assemble(entries: readonly { doc: AnticipateCandidate; head: readonly string[]; body: readonly string[] }[]): AnticipationIndex {
  const byTerm = new Map<string, Map<number, number>>();
  const docs: AnticipateCandidate[] = [];
  const lengths: number[] = [];
  entries.forEach(({ doc, head, body }, i) => {
    const preview = doc.preview === undefined ? undefined : doc.preview.slice(0, ANTICIPATION_PREVIEW_CHARS);
    docs.push({ ...doc, score: 0, ...(preview !== undefined ? { preview } : {}) });
    lengths.push(head.length, body.length);
    const add = (terms: readonly string[], field: number): void => {
      for (const t of terms) {
        let docsOf = byTerm.get(t);
        if (docsOf === undefined) byTerm.set(t, (docsOf = new Map()));
        if ((docsOf.get(i) ?? -1) < field) docsOf.set(i, field);
      }
    };
    add(head, 1);
    add(body, 0);
  });
  const terms = [...byTerm.keys()].sort();
  const postings = terms.map((t) => [...(byTerm.get(t) as Map<number, number>)].flat());
  return { version: ANTICIPATION_INDEX_VERSION, docs, terms, postings, lengths };
}

/**
 * Builds the index; the docs keep their order (ids in `docs[i].id`; pass them sorted by id
 * to get the same index `updateAnticipationIndex` keeps).
 *
 * @example
 * buildAnticipationIndex([{ id: 'db', type: 'decision', summary: 'Chose SQLite', score: 0 }]).terms // ['chose', 'sqlite']
 */
export function buildAnticipationIndex(docs: readonly AnticipateCandidate[]): AnticipationIndex {
  return assemble(docs.map((doc) => ({ doc, ...docTerms(doc) })));
}

/**
 * The index with the docs of `remove` (ids) taken out and `add` put in (replacing a doc
 * with the same id), analysing only the added docs: what a refresh after a few changed
 * files costs. Equal to building from scratch with the same docs in the same order.
 *
 * @example
 * updateAnticipationIndex(index, { remove: ['old-k3f9qa'], add: [newDoc] })
 */
export function updateAnticipationIndex(
  index: AnticipationIndex,
  change: { remove?: Iterable<string>; add?: readonly AnticipateCandidate[] },
): AnticipationIndex {
  const drop = new Set(change.remove ?? []);
  // The last doc of an id wins, as in a build from a list with that doc last.
  const latest = new Map<string, AnticipateCandidate>();
  for (const d of change.add ?? []) {
    drop.add(d.id);
    latest.set(d.id, d);
  }
  const fresh = [...latest.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Kept docs (already in id order) merged with the new ones: old doc number → new (-1: gone).
  const n = index.docs.length;
  const renumber = new Int32Array(n).fill(-1);
  const docs: AnticipateCandidate[] = [];
  const lengths: number[] = [];
  const added: { at: number; head: string[]; body: string[] }[] = [];
  let f = 0;
  const push = (doc: AnticipateCandidate): void => {
    const { head, body } = docTerms(doc);
    const preview = doc.preview === undefined ? undefined : doc.preview.slice(0, ANTICIPATION_PREVIEW_CHARS);
    added.push({ at: docs.length, head, body });
    docs.push({ ...doc, score: 0, ...(preview !== undefined ? { preview } : {}) });
    lengths.push(head.length, body.length);
  };
  for (let i = 0; i < n; i++) {
    const doc = index.docs[i] as AnticipateCandidate;
    if (drop.has(doc.id)) continue;
    while (f < fresh.length && (fresh[f] as AnticipateCandidate).id < doc.id) push(fresh[f++] as AnticipateCandidate);
    renumber[i] = docs.length;
    docs.push(doc);
    lengths.push(index.lengths[2 * i] ?? 0, index.lengths[2 * i + 1] ?? 0);
  }
  while (f < fresh.length) push(fresh[f++] as AnticipateCandidate);
  // The new docs' postings per term, in doc order (head before body: a term is in one field only).
  const extra = new Map<string, number[]>();
  for (const { at, head, body } of added) {
    for (const [terms, field] of [[head, 1], [body, 0]] as const) {
      for (const t of terms) {
        let list = extra.get(t);
        if (list === undefined) extra.set(t, (list = []));
        list.push(at, field);
      }
    }
  }
  const mergeInto = (kept: number[], more: readonly number[] | undefined): number[] => {
    if (more === undefined) return kept;
    const out: number[] = [];
    let a = 0;
    let b = 0;
    while (a < kept.length || b < more.length) {
      if (b >= more.length || (a < kept.length && (kept[a] as number) < (more[b] as number))) out.push(kept[a] as number, kept[a + 1] as number), (a += 2);
      else out.push(more[b] as number, more[b + 1] as number), (b += 2);
    }
    return out;
  };
  const terms: string[] = [];
  const postings: number[][] = [];
  const keep = (term: string, list: number[]): void => {
    if (list.length === 0) return;
    terms.push(term);
    postings.push(list);
  };
  const newTerms = [...extra.keys()].filter((t) => {
    const at = lowerBound(index.terms, t);
    return index.terms[at] !== t;
  });
  newTerms.sort();
  let k = 0;
  for (let t = 0; t < index.terms.length; t++) {
    const term = index.terms[t] as string;
    while (k < newTerms.length && (newTerms[k] as string) < term) keep(newTerms[k] as string, extra.get(newTerms[k++] as string) as number[]);
    const list = index.postings[t] ?? [];
    const kept: number[] = [];
    for (let j = 0; j < list.length; j += 2) {
      const to = renumber[list[j] as number] as number;
      if (to >= 0) kept.push(to, list[j + 1] as number);
    }
    keep(term, mergeInto(kept, extra.get(term)));
  }
  while (k < newTerms.length) keep(newTerms[k] as string, extra.get(newTerms[k++] as string) as number[]);
  return { version: ANTICIPATION_INDEX_VERSION, docs, terms, postings, lengths };
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A term's own word weighs 1, a longer word it prefixes 0.8, a thesaurus synonym 0.3. */
const MATCH_WEIGHT = { exact: 1, prefix: 0.8, expansion: 0.3 };
/** Field boosts (head: summary, tags, topic, files; body: the preview), as in recall. */
const FIELD_BOOST = [1, 3];
/** BM25 saturation and length normalisation (term frequency is taken as 1). */
const BM25 = { k1: 1.2, b: 0.75 };
/** Prefixes that match more words than this are too vague to follow. */
const MAX_PREFIX_TERMS = 50;

/**
 * The best-scoring docs for a prompt (BM25-like: idf × field weight, summed over the
 * prompt's terms), best first, each with its `score`. The relevance floor is
 * `selectAnticipated`'s job.
 *
 * @example
 * searchAnticipationIndex(index, 'add a postgres migration', { limit: 20 })[0]?.id // 'db'
 */
export function searchAnticipationIndex(index: AnticipationIndex, prompt: string, options: { limit?: number } = {}): AnticipateCandidate[] {
  const limit = options.limit ?? 20;
  const plan = planQuery(prompt);
  const n = index.docs.length;
  if (plan.terms.length === 0 || n === 0) return [];
  const scores = new Map<number, number>();
  // Average length per field, indexed like the postings' field (0 body, 1 head).
  let head = 0;
  let body = 0;
  for (let d = 0; d < n; d++) {
    head += index.lengths[2 * d] ?? 0;
    body += index.lengths[2 * d + 1] ?? 0;
  }
  const avg = [Math.max(1, body / n), Math.max(1, head / n)];
  const credit = (termIndex: number, weight: number, seen: Set<number>): void => {
    const list = index.postings[termIndex] ?? [];
    const df = list.length / 2;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < list.length; j += 2) {
      const doc = list[j] as number;
      if (seen.has(doc)) continue;
      seen.add(doc);
      const field = list[j + 1] as number;
      const length = index.lengths[2 * doc + (field === 1 ? 0 : 1)] ?? 0;
      const norm = (BM25.k1 + 1) / (1 + BM25.k1 * (1 - BM25.b + (BM25.b * length) / (avg[field] as number)));
      scores.set(doc, (scores.get(doc) ?? 0) + idf * weight * (FIELD_BOOST[field] as number) * norm);
    }
  };
  for (const term of plan.terms) {
    // Each prompt term counts once per doc: its best form (exact before prefix).
    const seen = new Set<number>();
    const at = lowerBound(index.terms, term);
    if (index.terms[at] === term) credit(at, MATCH_WEIGHT.exact, seen);
    if (term.length >= 4) {
      let end = at;
      while (end < index.terms.length && (index.terms[end] as string).startsWith(term)) end++;
      if (end - at <= MAX_PREFIX_TERMS) for (let k = at; k < end; k++) if (index.terms[k] !== term) credit(k, MATCH_WEIGHT.prefix, seen);
    }
  }
  for (const term of plan.expansions) {
    const at = lowerBound(index.terms, term);
    if (index.terms[at] === term) credit(at, MATCH_WEIGHT.expansion, new Set());
  }
  return [...scores]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([doc, score]) => ({ ...(index.docs[doc] as AnticipateCandidate), score }));
}
