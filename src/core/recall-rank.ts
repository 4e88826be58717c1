/**
 * How a recall is ranked: every weight and rule between a query and the list a person reads,
 * in one place, pure. The engine (`src/cache/index/`) fetches postings and applies what this
 * plans; `api/recall/` merges the tiers and cuts the list with it. In order:
 *
 * 1. The query is planned once ({@link planRecall}): its own words, thesaurus expansions at
 *    {@link DEFAULT_EXPANSION_WEIGHT} and the time words of a "when" question at
 *    {@link DEFAULT_TIME_WEIGHT}, each with how it matches (prefix, fuzzy, exactly).
 * 2. BM25+ ({@link DEFAULT_BM25}) over the fields, weighted by {@link DEFAULT_FIELD_BOOSTS};
 *    memories of a type the question hints at × {@link DEFAULT_TYPE_HINT_BOOST}; a result's
 *    score × the number of the query's own words it matched (expansions do not count).
 * 3. Pseudo-relevance feedback ({@link DEFAULT_RECALL_FEEDBACK}) re-ranks the list below the
 *    head, scaled under it ({@link feedbackTailScale}).
 * 4. The tiers on one scale ({@link oneScale}): each hit's score moved onto the idf of its
 *    words over all tiers, global memories × {@link DEFAULT_GLOBAL_WEIGHT}, and each result's
 *    coverage of the query.
 * 5. Conversation neighbours (`core/neighbours.ts`, {@link rankingDepth}).
 * 6. The floor ({@link aboveFloor}, {@link DEFAULT_RELEVANCE}).
 */
import { expansionsOf, planQuery } from './query.js';

/**
 * BM25+ parameters (MiniSearch's defaults are k 1.2, b 0.7, d 0.5). Memories are short and
 * vary in length for no reason that matters to relevance (a one-line note or the same fact
 * with its context), so length is normalised less: b 0.4 (LoCoMo R@50 86.2 → 86.6).
 */
export const DEFAULT_BM25 = { k: 1.2, b: 0.4, d: 0.5 } as const;

/**
 * Search-time field weights. `text` is the whole memory (summary and body, the summary once),
 * so BM25 normalises length over the memory rather than per field; `summary` adds a bonus on
 * top, which makes a summary word count 1.5 × a body word. Weighting the summary field alone
 * (3 × a body word, as before) let a memory whose text all fits in its summary outrank longer
 * memories saying the same thing (LoCoMo R@5 51.7 → 59.0, bench/locomo/README.md).
 */
export const DEFAULT_FIELD_BOOSTS = { text: 1, summary: 0.5, tags: 1.4, topic: 1.5, files: 1, type: 0.5 } as const;

/** Weight of a thesaurus expansion relative to a word of the query itself. */
export const DEFAULT_EXPANSION_WEIGHT = 0.3;

/**
 * Weight of the time words added to a "when" question ("yesterday", "last week", "March").
 * Small: they only break ties between memories that match the question's own words
 * (LoCoMo R@1 36.5 → 37.5, temporal questions).
 */
export const DEFAULT_TIME_WEIGHT = 0.1;

/** Score multiplier for memories of a type the question hints at. */
export const DEFAULT_TYPE_HINT_BOOST = 1.25;

/**
 * Pseudo-relevance feedback: the `terms` most characteristic words of the first `docs`
 * results are added to the query (the strongest at `weight`), and that second ranking
 * replaces the list below the first `keep` results, which stay as the query ranked them.
 * Feedback finds what answers the question in other words (LoCoMo R@50 80.5 → 86.8), while
 * the head — what a person reads first — is never reordered by it.
 */
export const DEFAULT_RECALL_FEEDBACK = { docs: 5, terms: 10, weight: 0.3, keep: 3 } as const;

/**
 * No word longer than this is matched fuzzily: a pasted blob is matched exactly (MiniSearch's
 * fuzzy matrix grows with the square of the term: 100,000 characters would be 10 GB).
 */
export const MAX_FUZZY_TERM = 64;

/** The most edits a fuzzy match may take, whatever the term's length. */
export const MAX_FUZZY_EDITS = 2;

/**
 * Global memories rank just below project memories of the same relevance: their score is
 * multiplied by this (config `recall.globalWeight`). The scores it scales are on one scale
 * (see {@link oneScale}), so this is the whole project preference.
 */
export const DEFAULT_GLOBAL_WEIGHT = 0.9;

/**
 * The smallest corpus size rarity is judged on for coverage: in a project of three, every word
 * it has would otherwise look common beside one it lacks.
 */
export const COVERAGE_MIN_DOCS = 100;

/** One term of a query as the engine searches it. */
export interface TermSpec {
  term: string;
  prefix: boolean;
  /** Edit distance as a fraction of the term's length (< 1) or absolute (≥ 1); false for none. */
  fuzzy: number | false;
  boost: number;
}

/** A query planned once for every tier's engine and for the merge of their hits. */
export interface RecallPlan {
  /** The query's own words, analysed. */
  terms: string[];
  /** Thesaurus expansions of them (none when expansion is off). */
  expansions: string[];
  /** The time words of a "when" question. */
  timeTerms: string[];
  /** Memory types the question hints at. */
  typeHints: string[];
  /** Every term searched, the query's own first, as the engine matches and weighs it. */
  specs: TermSpec[];
}

/**
 * Plans a query: its terms and how each is matched. Terms the question did not say
 * (expansions, time words) are matched exactly at a lower weight; the question's own words
 * of 4 letters or more also as prefixes, of 6 or more fuzzily (at most
 * {@link MAX_FUZZY_TERM} letters); `exact` matches every term as it is.
 *
 * @example
 * planRecall('which database').specs
 * // [{ term: 'databas', prefix: true, fuzzy: 0.2, boost: 1 }, { term: 'sqlite', prefix: false, fuzzy: false, boost: 0.3 }, …]
 */
export function planRecall(text: string, options: { expand?: boolean; exact?: boolean } = {}): RecallPlan {
  const plan = planQuery(text, { expand: options.expand ?? true });
  const timeTerms = new Set(plan.timeTerms);
  const guessed = new Set([...plan.expansions, ...plan.timeTerms]);
  const exact = options.exact ?? false;
  const specs = [...plan.terms, ...plan.expansions, ...plan.timeTerms].map((term) => ({
    term,
    prefix: !exact && term.length >= 4 && !guessed.has(term),
    fuzzy: !exact && term.length >= 6 && term.length <= MAX_FUZZY_TERM && !guessed.has(term) ? 0.2 : (false as const),
    boost: timeTerms.has(term) ? DEFAULT_TIME_WEIGHT : guessed.has(term) ? DEFAULT_EXPANSION_WEIGHT : 1,
  }));
  return { terms: plan.terms, expansions: plan.expansions, timeTerms: plan.timeTerms, typeHints: plan.typeHints, specs };
}

/**
 * Where the feedback ranking's scores are scaled to: its best result that passes the filters
 * just under `floor`, the last score of the head, so scores still order the whole list.
 */
export function feedbackTailScale(floor: number, best: number): number {
  return best > 0 ? (floor * 0.999) / best : 0;
}

/** How many hits to rank before the neighbours re-rank them: a hit just below the limit may move into it. */
export function rankingDepth(limit: number, neighbourWeight: number): number {
  return neighbourWeight > 0 ? 2 * limit : limit;
}

/** What an index knows of the words of a query: its size and each term's document frequency. */
export interface TermStats {
  documents: number;
  docFreq: ReadonlyMap<string, number>;
}

/**
 * The tiers' hits on one scale. Each tier is a separate index, and BM25 weighs a word by how
 * rare it is *in that index*: the same match scores less in a small global tier than in a
 * large project. So a hit's score is multiplied by `scale`: the idf of its matched words over
 * all tiers together over that in its own tier (an expansion at
 * {@link DEFAULT_EXPANSION_WEIGHT}); with one tier (or an empty one) it is 1. `coverage` is
 * its idf-weighted share of the query ({@link coverageOf}), rarity judged over all tiers as if
 * there were at least {@link COVERAGE_MIN_DOCS} memories. `stats[i]` are tier i's, for the
 * plan's terms and expansions.
 *
 * @example
 * oneScale(plan, [projectStats, globalStats]).place(1, hit.queryTerms) // { scale: 1.4, coverage: 0.75 }
 */
export function oneScale(plan: Pick<RecallPlan, 'terms' | 'expansions'>, stats: readonly TermStats[]): { place(tier: number, queryTerms: readonly string[]): { scale: number; coverage: number } } {
  const terms = [...new Set(plan.terms)];
  const expansions = new Set(plan.expansions);
  const documents = stats.reduce((n, s) => n + s.documents, 0);
  const docFreq = (t: string) => stats.reduce((n, s) => n + (s.docFreq.get(t) ?? 0), 0);
  const unionIdf = new Map([...terms, ...expansions].map((t) => [t, idf(docFreq(t), documents)]));
  const coverageIdf = new Map(terms.map((t) => [t, idf(docFreq(t), Math.max(documents, COVERAGE_MIN_DOCS))]));
  const weight = (t: string) => coverageIdf.get(t) ?? 0;
  return {
    place(tier, queryTerms) {
      const own = stats[tier]!;
      const matched = queryTerms.filter((t) => unionIdf.has(t));
      let local = 0;
      let union = 0;
      for (const t of matched) {
        const w = expansions.has(t) ? DEFAULT_EXPANSION_WEIGHT : 1;
        local += w * idf(own.docFreq.get(t) ?? 0, own.documents);
        union += w * (unionIdf.get(t) ?? 0);
      }
      return { scale: local > 0 ? union / local : 1, coverage: coverageOf(terms, new Set(matched), weight) };
    },
  };
}

/**
 * The idf-weighted share of the query's terms a memory contains; a term it has only
 * through the thesaurus counts {@link DEFAULT_EXPANSION_WEIGHT} per synonym found, up to a
 * whole term (the weight synonyms are searched with: "database" is covered by "SQLite" and
 * "Postgres" together more than by either alone).
 *
 * @example
 * coverageOf(['databas', 'choic'], new Set(['databas']), () => 1) // 0.5
 */
export function coverageOf(terms: readonly string[], matched: ReadonlySet<string>, weight: (t: string) => number): number {
  let total = 0;
  let found = 0;
  for (const t of terms) {
    const w = weight(t);
    total += w;
    if (matched.has(t)) found += w;
    else found += Math.min(1, DEFAULT_EXPANSION_WEIGHT * expansionsOf(t).filter((e) => matched.has(e)).length) * w;
  }
  return total > 0 ? found / total : 0;
}

/**
 * Where a ranking stops being relevant: one rule for `recall` (CLI, MCP, library) and the
 * anticipatory prompt hook.
 *
 * BM25 scores have no fixed scale, so the floor is relative to the best hit: a result
 * scoring under `minScoreShare` of the best one is noise beside it. A relative floor alone
 * cannot say that the best hit itself is unrelated, so keyword results must also cover a
 * share of the query: the idf-weighted share of the query's words they contain
 * (`minCoverage`). A memory that shares only "need" with "which houseplants need little
 * sunlight" covers a small part of that question, whatever its rank.
 */
export interface RelevanceOptions {
  /** Results scoring below this share of the best result are dropped (0 turns the floor off). */
  minScoreShare?: number;
  /** Keyword results covering less than this idf-weighted share of the query are dropped (0: off). */
  minCoverage?: number;
}

export const DEFAULT_RELEVANCE: Required<RelevanceOptions> = { minScoreShare: 0.2, minCoverage: 0.2 };

export interface Scored {
  score: number;
  /** Idf-weighted share of the query this result contains, 0..1; absent for results found by meaning alone. */
  coverage?: number | undefined;
}

/**
 * The results above the floor, in their order (best first is assumed, not checked).
 *
 * @example
 * aboveFloor([{ score: 10, coverage: 0.8 }, { score: 5, coverage: 0.1 }, { score: 1 }])
 * // [{ score: 10, coverage: 0.8 }]
 */
export function aboveFloor<T extends Scored>(ranked: readonly T[], options: RelevanceOptions = {}): T[] {
  const { minScoreShare, minCoverage } = { ...DEFAULT_RELEVANCE, ...options };
  const best = ranked.reduce((m, r) => Math.max(m, r.score), 0);
  return ranked.filter((r) => (best <= 0 || r.score >= best * minScoreShare) && (r.coverage === undefined || r.coverage >= minCoverage));
}

/**
 * Inverse document frequency (BM25's, always positive): rare words weigh more. A word no
 * memory contains weighs most.
 *
 * @example
 * idf(0, 100) > idf(50, 100) // true
 */
export function idf(docFreq: number, totalDocs: number): number {
  return Math.log(1 + (totalDocs - docFreq + 0.5) / (docFreq + 0.5));
}
