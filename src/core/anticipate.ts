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
}

export interface AnticipateOptions {
  /** At most this many memories. */
  limit?: number;
  /** The rendered text stays under this many characters. */
  maxChars?: number;
  /** Results scoring below this share of the best one are not considered. */
  minScoreShare?: number;
  /** Ids already in the context (briefing, earlier prompts): never repeated. */
  exclude?: ReadonlySet<string> | readonly string[];
}

export const DEFAULT_ANTICIPATE: Required<Omit<AnticipateOptions, 'exclude'>> = {
  limit: 3,
  maxChars: 1_500,
  minScoreShare: 0.2,
};

export interface AnticipatedMemory extends AnticipateCandidate {
  /** The prompt's own words (analysed) the memory contains. */
  shared: string[];
  /** Synonyms of the prompt's words the memory contains. */
  related: string[];
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
  const opts = { ...DEFAULT_ANTICIPATE, ...options };
  const exclude = new Set(options.exclude ?? []);
  const plan = planQuery(prompt);
  if (plan.terms.length === 0 || candidates.length === 0) return [];
  const expansions = new Set(plan.expansions);
  const best = Math.max(...candidates.map((c) => c.score));
  const out: AnticipatedMemory[] = [];
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  for (const c of ranked) {
    if (out.length >= opts.limit) break;
    if (exclude.has(c.id) || out.some((o) => o.id === c.id)) continue;
    if (best > 0 && c.score < best * opts.minScoreShare) break;
    const terms = termsOf(c);
    const shared = sharedTerms(plan.terms, terms);
    const related = [...terms].filter((t) => expansions.has(t));
    const strong = shared.filter((t) => !WEAK_TERMS.has(t));
    const relevant = shared.length >= 2 ? strong.length >= 1 : strong.length === 1 && related.length >= 1;
    if (relevant) out.push({ ...c, shared, related });
  }
  return out;
}

const TYPE_LABELS: Partial<Record<MemoryType, string>> = {
  rejected: 'rejected approach',
  code_description: 'code description',
};

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/**
 * The context text for the selected memories: facts with their provenance, no
 * instructions. `''` for an empty selection. Always under `maxChars`.
 *
 * @example
 * renderAnticipated([{ id: 'db-k3f9qa', type: 'decision', summary: 'Chose SQLite', score: 1, shared: [], related: [] }])
 * // 'Stored project memories related to this prompt (Cortex):\n- decision: Chose SQLite [db-k3f9qa]'
 */
export function renderAnticipated(memories: readonly AnticipatedMemory[], options: Pick<AnticipateOptions, 'maxChars'> = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_ANTICIPATE.maxChars;
  if (memories.length === 0) return '';
  const header = 'Stored project memories related to this prompt (Cortex):';
  let text = header;
  for (const m of memories) {
    const date = m.updated ? `, ${m.updated.slice(0, 10)}` : '';
    const detail = m.preview && m.preview.trim() !== '' ? `\n  ${oneLine(m.preview, 200)}` : '';
    const label = TYPE_LABELS[m.type] ?? m.type;
    const line = `\n- ${label}: ${oneLine(m.summary, 240)} [${m.id}${date}]`;
    if (text.length + line.length + detail.length <= maxChars) text += line + detail;
    else if (text.length + line.length <= maxChars) text += line;
    else break;
  }
  return text === header ? '' : text;
}
