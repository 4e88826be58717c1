/**
 * Text processing for keyword search: tokenizing, stop words and stemming.
 * The index and the query go through the same functions, so they always agree.
 */
import { stemmer } from 'stemmer';

/** English stop words dropped from the index and from queries. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are aren\'t as at be because been before being below between both but by ' +
    'can can\'t cannot could couldn\'t did didn\'t do does doesn\'t doing don\'t down during each few for from further had hadn\'t has hasn\'t ' +
    'have haven\'t having he he\'d he\'ll he\'s her here here\'s hers herself him himself his how how\'s i i\'d i\'ll i\'m i\'ve if in into is ' +
    'isn\'t it it\'s its itself let\'s me more most mustn\'t my myself no nor not of off on once only or other ought our ours ourselves out ' +
    'over own same shan\'t she she\'d she\'ll she\'s should shouldn\'t so some such than that that\'s the their theirs them themselves then ' +
    'there there\'s these they they\'d they\'ll they\'re they\'ve this those through to too under until up very was wasn\'t we we\'d we\'ll ' +
    'we\'re we\'ve were weren\'t what what\'s when when\'s where where\'s which while who who\'s whom why why\'s with won\'t would wouldn\'t ' +
    'you you\'d you\'ll you\'re you\'ve your yours yourself yourselves also just will shall may might must us ever'
  ).split(' '),
);

/** Word characters: letters, digits and marks of any script. */
const SPLIT = /[^\p{L}\p{N}\p{M}']+/u;

/**
 * Splits text into raw words (no case folding, no stemming).
 *
 * @example
 * tokenize("Chose SQLite (zero-config)") // ['Chose', 'SQLite', 'zero', 'config']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(SPLIT)) {
    const word = raw.replace(/^'+|'+$/g, '');
    if (word !== '') out.push(word);
  }
  return out;
}

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised (the same words recur across thousands of memories). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/**
 * Turns one raw word into index terms: lower-cased, possessive dropped, stop words removed,
 * stemmed. camelCase identifiers also yield their parts, so `getUserById` matches "user".
 *
 * @example
 * processTerm('Databases') // 'databas'
 * processTerm('the') // null
 */
export function processTerm(word: string): string | string[] | null {
  const parts = word.length > 3 && /[a-z][A-Z]/.test(word) ? splitCamel(word) : undefined;
  const lower = word.toLowerCase().replace(/'s$/, '').replace(/'/g, '');
  const main = lower.length < 2 && !/\d/.test(lower) ? null : STOP_WORDS.has(lower) ? null : stem(lower);
  if (!parts) return main;
  const terms = new Set<string>();
  if (main) terms.add(main);
  for (const part of parts) {
    const p = part.toLowerCase();
    if (p.length >= 2 && !STOP_WORDS.has(p)) terms.add(stem(p));
  }
  return terms.size === 0 ? null : [...terms];
}

function splitCamel(word: string): string[] {
  return word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
}

/**
 * All index terms of a text, in order, with repeats.
 *
 * @example
 * analyze('Which database did we pick?') // ['databas', 'pick']
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const word of tokenize(text)) {
    const t = processTerm(word);
    if (t === null) continue;
    if (Array.isArray(t)) out.push(...t);
    else out.push(t);
  }
  return out;
}
