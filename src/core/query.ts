/**
 * Query planning for keyword recall: the analysed query terms, expansions from a small
 * coding-domain thesaurus (so "which database did we pick" reaches "Chose SQLite over
 * Postgres"), and the memory types a question hints at. Pure.
 */
import type { MemoryType } from './memory.js';
import { analyze, processTerm } from './text.js';

/**
 * Groups of words that people use interchangeably when asking about a codebase.
 * An expansion only adds lower-weighted terms; exact words always rank first.
 */
export const THESAURUS: readonly (readonly string[])[] = [
  ['database', 'db', 'databases', 'sqlite', 'postgres', 'postgresql', 'mysql', 'mariadb', 'mongodb', 'mongo', 'datastore', 'sql', 'dynamodb'],
  ['choose', 'chose', 'chosen', 'pick', 'picked', 'select', 'selected', 'decide', 'decided', 'decision', 'opted', 'adopt', 'adopted', 'prefer'],
  ['reject', 'rejected', 'discard', 'discarded', 'abandon', 'abandoned', 'avoid', 'dropped', 'ruled'],
  ['bug', 'bugs', 'defect', 'crash', 'crashes', 'broken', 'breaks', 'failure', 'regression', 'fix', 'fixed'],
  ['test', 'tests', 'testing', 'spec', 'specs', 'vitest', 'jest', 'mocha', 'pytest'],
  ['auth', 'authentication', 'authorization', 'login', 'signin', 'oauth', 'jwt', 'sso', 'credentials'],
  ['deploy', 'deployment', 'deploys', 'release', 'releases', 'rollout', 'ship', 'shipping'],
  ['ci', 'pipeline', 'workflow', 'github-actions', 'actions', 'jenkins'],
  ['config', 'configuration', 'settings', 'options', 'env', 'environment'],
  ['slow', 'slower', 'performance', 'latency', 'perf', 'speed', 'fast', 'faster', 'bottleneck', 'throughput'],
  ['cache', 'caching', 'cached', 'memoize', 'memoization'],
  ['queue', 'queues', 'jobs', 'worker', 'workers', 'background'],
  ['api', 'endpoint', 'endpoints', 'route', 'routes', 'rest', 'graphql', 'http'],
  ['frontend', 'ui', 'react', 'vue', 'svelte', 'component', 'components', 'css'],
  ['lint', 'linter', 'eslint', 'prettier', 'formatting', 'formatter'],
  ['docs', 'documentation', 'readme'],
  ['dependency', 'dependencies', 'package', 'packages', 'library', 'libraries', 'npm'],
  ['log', 'logs', 'logging', 'logger'],
  ['container', 'containers', 'docker', 'kubernetes', 'k8s', 'image'],
  ['typescript', 'ts', 'javascript', 'js', 'node', 'nodejs'],
  ['timezone', 'utc', 'timestamp', 'timestamps', 'date', 'dates'],
  ['secret', 'secrets', 'password', 'passwords', 'token', 'tokens', 'key', 'keys', 'credential'],
  ['style', 'convention', 'conventions', 'guideline', 'guidelines'],
  ['error', 'errors', 'exception', 'exceptions', 'throw', 'throws'],
  ['migrate', 'migration', 'migrations', 'schema'],
  ['lock', 'locks', 'locking', 'mutex', 'concurrency', 'concurrent', 'race'],
];

/** Question words that hint at a memory type: "why did we pick …" is about decisions. */
const TYPE_HINTS: readonly { words: readonly string[]; types: readonly MemoryType[] }[] = [
  { words: ['decide', 'decided', 'decision', 'chose', 'choose', 'pick', 'picked', 'why', 'opted', 'went'], types: ['decision', 'rejected'] },
  { words: ['reject', 'rejected', 'ruled', 'instead', 'alternative', 'alternatives', 'tried'], types: ['rejected', 'decision'] },
  { words: ['gotcha', 'pitfall', 'careful', 'trap', 'beware', 'bug', 'broke', 'breaks', 'flaky'], types: ['gotcha'] },
  { words: ['pattern', 'convention', 'usually', 'idiom', 'how'], types: ['pattern'] },
  { words: ['plan', 'next', 'todo', 'remaining', 'progress', 'status', 'done'], types: ['plan', 'progress'] },
  { words: ['architecture', 'structure', 'layout', 'design', 'component', 'components'], types: ['architecture'] },
  { words: ['prefer', 'preference', 'like', 'likes', 'want', 'wants'], types: ['preference'] },
];

/**
 * Words that date an event in a note ("yesterday", "last week", "in March"). A question
 * asking when something happened is answered by the note that says when, and these are how
 * notes say it; the question itself rarely contains them.
 */
export const TIME_WORDS: readonly string[] = (
  'yesterday today tomorrow last next week weekend month year ago recently since days ' +
  'monday tuesday wednesday thursday friday saturday sunday ' +
  'january february march april may june july august september october november december'
).split(' ');

const TEMPORAL_QUESTION = /\bwhen\b|\bwhat (?:year|date|month|day|time)\b|\bhow long ago\b/i;

export interface QueryPlan {
  /** The query's own terms, analysed like the index. */
  terms: string[];
  /** Extra terms from the thesaurus, not already in `terms`. */
  expansions: string[];
  /** For a question about when something happened: time words, not already in `terms` or `expansions`. */
  timeTerms: string[];
  /** Types the question hints at (boosted, never filtered). */
  typeHints: MemoryType[];
}

function termsOf(word: string): string[] {
  const t = processTerm(word);
  return t === null ? [] : typeof t === 'string' ? [t] : [...t];
}

interface Thesaurus {
  groups: readonly (readonly string[])[];
  /** The groups each analysed term is in. */
  groupOf: Map<string, number[]>;
}

let analysed: Thesaurus | undefined;
let timeTerms: readonly string[] | undefined;

/**
 * The thesaurus, analysed on first use: a query that does not expand (auto-linking's, once
 * per `remember`) does not stem its few hundred words.
 */
function thesaurus(): Thesaurus {
  if (analysed === undefined) {
    const groups = THESAURUS.map((group) => [...new Set(group.flatMap(termsOf))]);
    const groupOf = new Map<string, number[]>();
    groups.forEach((group, i) => {
      for (const term of group) groupOf.set(term, [...(groupOf.get(term) ?? []), i]);
    });
    analysed = { groups, groupOf };
  }
  return analysed;
}

/** The time words, analysed on first use (only a "when" question needs them). */
function timeWordTerms(): readonly string[] {
  timeTerms ??= [...new Set(TIME_WORDS.flatMap(termsOf))];
  return timeTerms;
}

const HINTS = TYPE_HINTS.map((h) => ({ words: new Set(h.words), types: h.types }));

/**
 * The thesaurus words a query term expands to (analysed), without the term itself.
 *
 * @example
 * expansionsOf('databas').includes('sqlite') // true
 */
export function expansionsOf(term: string): string[] {
  const out = new Set<string>();
  const { groups, groupOf } = thesaurus();
  for (const g of groupOf.get(term) ?? []) for (const other of groups[g] ?? []) if (other !== term) out.add(other);
  return [...out];
}

/**
 * Plans a keyword query.
 *
 * @example
 * planQuery('which database did we pick').expansions.includes('sqlite') // true
 * planQuery('when did we drop Prisma').timeTerms.includes('yesterdai') // true
 */
export function planQuery(query: string, options: { expand?: boolean } = {}): QueryPlan {
  const terms = [...new Set(analyze(query))];
  const own = new Set(terms);
  const expansions = new Set<string>();
  if (options.expand !== false) {
    const { groups, groupOf } = thesaurus();
    for (const term of terms) {
      for (const g of groupOf.get(term) ?? []) {
        for (const other of groups[g] ?? []) if (!own.has(other)) expansions.add(other);
      }
    }
  }
  const words = new Set(query.toLowerCase().split(/[^a-z]+/).filter(Boolean));
  const typeHints: MemoryType[] = [];
  for (const hint of HINTS) {
    if ([...hint.words].some((w) => words.has(w))) {
      for (const t of hint.types) if (!typeHints.includes(t)) typeHints.push(t);
    }
  }
  const timeTerms = options.expand !== false && TEMPORAL_QUESTION.test(query) ? timeWordTerms().filter((t) => !own.has(t) && !expansions.has(t)) : [];
  return { terms, expansions: [...expansions], timeTerms, typeHints };
}

/** One of the first results, as pseudo-relevance feedback sees it. */
export interface FeedbackDoc {
  /** The memory's text (or its beginning). */
  text: string;
  /** Its first-pass score. */
  score: number;
}

export interface FeedbackOptions {
  /** Terms the query already has: never added again. */
  exclude: ReadonlySet<string>;
  /** Number of indexed memories containing a term. */
  docFreq: (term: string) => number;
  /** Number of indexed memories. */
  totalDocs: number;
  /** How many terms to add (default 10). */
  terms?: number;
  /** Weight of the strongest added term relative to a query word (default 0.3). */
  weight?: number;
  /** Terms in fewer memories than this are ignored: a word only one memory has adds nothing (default 2). */
  minDocFreq?: number;
}

export const DEFAULT_FEEDBACK = { terms: 10, weight: 0.3, minDocFreq: 2 } as const;

/**
 * Pseudo-relevance feedback, RM3-style: the words that characterise the best first results
 * (frequent in them, weighted by their score, rare in the collection) become extra, lower-weighted
 * query terms. It finds memories that answer the question in other words than the question's
 * but in the words of the memories it already found. Returns term → weight.
 *
 * @example
 * feedbackTerms([{ text: 'Melanie painted a sunrise at the lake', score: 2 }], {
 *   exclude: new Set(['paint']), docFreq: () => 3, totalDocs: 100,
 * }) // Map { 'sunris' => 0.3, 'lake' => 0.3, 'melani' => 0.3 }
 */
export function feedbackTerms(docs: readonly FeedbackDoc[], options: FeedbackOptions): Map<string, number> {
  const { terms: count, weight, minDocFreq } = { ...DEFAULT_FEEDBACK, ...options };
  const top = docs[0]?.score ?? 0;
  const weights = new Map<string, number>();
  if (top <= 0 || count <= 0) return weights;
  const idf = new Map<string, number>();
  for (const doc of docs) {
    const words = analyze(doc.text);
    if (words.length === 0) continue;
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [term, n] of tf) {
      if (options.exclude.has(term)) continue;
      let w = idf.get(term);
      if (w === undefined) {
        const df = options.docFreq(term);
        w = df < minDocFreq ? 0 : Math.log(1 + (options.totalDocs - df + 0.5) / (df + 0.5));
        idf.set(term, w);
      }
      if (w > 0) weights.set(term, (weights.get(term) ?? 0) + (n / words.length) * (doc.score / top) * w);
    }
  }
  // Ties broken by term so the expansion, and so the ranking, never depends on map order.
  const best = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count);
  const max = best[0]?.[1] ?? 0;
  return new Map(best.map(([term, v]) => [term, (weight * v) / max]));
}
