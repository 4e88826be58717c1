/**
 * Text processing for keyword search: tokenizing, stop words and stemming.
 * The index and the query go through the same functions, so they always agree.
 */
import { stemmer } from 'stemmer';
import { detachString } from './detach-string.js';

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

/**
 * Irregular English verbs: base form, then past tense and participle. Porter stemming cannot
 * see that "went" is "go" or "bought" is "buy", so a question in one tense misses a note in
 * another. Forms that are mostly other words ("ground", "rose", "bound", "wound", "lay", "bit",
 * "bore", "dove") are left out.
 */
const IRREGULAR_VERBS =
  'arise arose arisen|awake awoke awoken|be was were been|beat beat beaten|become became become|' +
  'begin began begun|bend bent|bet bet|bite bitten|bleed bled|blow blew blown|break broke broken|breed bred|' +
  'bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|cling clung|come came come|' +
  'cost cost|creep crept|cut cut|deal dealt|dig dug|do did done|draw drew drawn|dream dreamt|drink drank drunk|' +
  'drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|' +
  'fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|' +
  'get got gotten|give gave given|go went gone|grow grew grown|hang hung|have had|hear heard|hide hid hidden|' +
  'hit hit|hold held|hurt hurt|keep kept|kneel knelt|know knew known|lead led|lean leant|leap leapt|learn learnt|' +
  'leave left|lend lent|let let|light lit|lose lost|make made|mean meant|meet met|pay paid|put put|quit quit|' +
  'read read|ride rode ridden|ring rang rung|run ran run|say said|see saw seen|seek sought|sell sold|send sent|' +
  'set set|shake shook shaken|shine shone|shoot shot|show showed shown|shrink shrank shrunk|shut shut|' +
  'sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|' +
  'spin spun|split split|spread spread|spring sprang sprung|stand stood|steal stole stolen|stick stuck|' +
  'sting stung|stink stank stunk|strike struck stricken|strive strove striven|swear swore sworn|sweep swept|' +
  'swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|' +
  'throw threw thrown|understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|' +
  'write wrote written|undergo underwent undergone|overcome overcame|withdraw withdrew withdrawn|rebuild rebuilt|' +
  'rewrite rewrote rewritten|undo undid undone|upset upset|mislead misled|misunderstand misunderstood|' +
  'outgrow outgrew outgrown|overhear overheard|oversee oversaw overseen|overtake overtook overtaken|' +
  'withstand withstood|foresee foresaw foreseen|partake partook partaken|uphold upheld|broadcast broadcast|' +
  'forecast forecast|sew sewed sewn|tread trod trodden';

/** Past forms of irregular verbs → base form. */
export const IRREGULAR_BASE: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const group of IRREGULAR_VERBS.split('|')) {
    const [base, ...forms] = group.split(' ');
    for (const form of forms) if (base && form !== base && !map.has(form)) map.set(form, base);
  }
  return map;
})();

/**
 * A token: a run of letters, digits, marks, apostrophes and underscores of any script
 * (`snake_case` identifiers stay whole), or one emoji with its modifiers and joins.
 */
const TOKEN = /[\p{L}\p{N}\p{M}'_]+|\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}\uFE0F]|\u200D\p{Extended_Pictographic})*/gu;

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer,
 * Burmese) and Korean, whose words carry their particles (한국어를, 한국어는). A run of
 * them is indexed as overlapping character bigrams: the query and the memory then share the
 * bigrams of every word they share, without a dictionary, whatever the segmentation.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC\u3005]/u;
const UNSPACED_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC\u3005\p{M}]+)/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}/u;

/** Overlapping character bigrams of a run (marks stay with their base character); one character alone is itself. */
function bigrams(run: string, out: string[]): void {
  const chars = run.match(/\P{M}\p{M}*/gu) ?? [];
  if (chars.length === 1) out.push(chars[0]!);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/**
 * Splits text into raw words (no case folding, no stemming). Runs of scripts written
 * without spaces become character bigrams; emoji are words of their own.
 *
 * @example
 * tokenize("Chose SQLite (zero-config)") // ['Chose', 'SQLite', 'zero', 'config']
 * tokenize('日本語の検索') // ['日本', '本語', '語の', 'の検', '検索']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  // `match` gives the words alone (matchAll made an array per word, with its index and input).
  for (const raw of text.match(TOKEN) ?? []) {
    // Most words have no apostrophe at either end: skip the replace for them.
    const word = raw.charCodeAt(0) === 39 || raw.charCodeAt(raw.length - 1) === 39 ? raw.replace(/^'+|'+$/g, '') : raw;
    if (word === '') continue;
    if (!UNSPACED.test(word)) {
      out.push(word);
      continue;
    }
    for (const part of word.split(UNSPACED_RUN)) {
      if (part === '') continue;
      if (UNSPACED.test(part)) bigrams(part, out);
      else out.push(part);
    }
  }
  return out;
}

/**
 * Folds what people type interchangeably: Latin and Greek diacritics (café → cafe,
 * Müller → muller), Cyrillic ё → е, and Arabic short-vowel marks and tatweel. Marks of
 * other scripts (Thai vowels, Devanagari) are letters of the word and stay.
 *
 * @example
 * foldDiacritics('naïve café') // 'naive cafe'
 */
export function foldDiacritics(text: string): string {
  if (/^[\u0000-\u007f]*$/.test(text)) return text;
  return text
    .replace(/ё/g, 'е')
    .replace(/Ё/g, 'Е')
    .normalize('NFD')
    .replace(/([\p{Script=Latin}\p{Script=Greek}])[\u0300-\u036f]+/gu, '$1')
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .normalize('NFC');
}

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised (the same words recur across thousands of memories). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    // Kept for the life of the process: copies, not views of the text the word came from.
    const key = detachString(word);
    s = /^[a-z]+$/.test(word) ? detachString(stemmer(word)) : key;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(key, s);
  }
  return s;
}

/**
 * Turns one raw word into index terms: lower-cased, possessive dropped, irregular past forms
 * turned into their base form, stop words removed, stemmed. camelCase identifiers also yield their parts, so `getUserById` matches "user".
 *
 * @example
 * processTerm('Databases') // 'databas'
 * processTerm('the') // null
 * processTerm('bought') // 'bui' (as 'buy')
 */
export function processTerm(word: string): string | readonly string[] | null {
  let terms = termCache.get(word);
  if (terms === undefined) {
    // Kept for the life of the process: copies, not views of the text the word came from.
    const found = processWord(word);
    terms = typeof found === 'string' ? detachString(found) : found && found.map(detachString);
    if (termCache.size > 200_000) termCache.clear();
    termCache.set(detachString(word), terms);
  }
  return terms;
}

/** processTerm's results by raw word: a rebuild meets the same words over and over. */
const termCache = new Map<string, string | readonly string[] | null>();

function processWord(word: string): string | string[] | null {
  // An emoji, or one character of a script written without spaces, is a word in itself.
  if (PICTOGRAPHIC.test(word)) return word;
  if (word.includes('_')) return identifierTerms(word);
  const parts = word.length > 3 && /[a-z][A-Z]/.test(word) ? splitCamel(word) : undefined;
  const folded = foldDiacritics(word.toLowerCase()).replace(/'s$/, '').replace(/'/g, '');
  const lower = IRREGULAR_BASE.get(folded) ?? folded;
  const tooShort = lower.length < 2 && !/\d/.test(lower) && !UNSPACED.test(lower);
  const main = tooShort ? null : STOP_WORDS.has(lower) ? null : stem(lower);
  if (!parts) return main;
  const terms = new Set<string>();
  if (main) terms.add(main);
  for (const part of parts) {
    const p = part.toLowerCase();
    if (p.length >= 2 && !STOP_WORDS.has(p)) terms.add(stem(p));
  }
  return terms.size === 0 ? null : [...terms];
}

/** A `snake_case` identifier: itself, whole and lower-cased, and the terms of each part. */
function identifierTerms(word: string): string | string[] | null {
  const terms = new Set<string>();
  const whole = foldDiacritics(word.toLowerCase()).replace(/^_+|_+$/g, '');
  if (whole.includes('_')) terms.add(whole);
  for (const part of word.split('_')) {
    if (part === '') continue;
    const t = processTerm(part);
    if (t === null) continue;
    if (typeof t === 'string') terms.add(t);
    else for (const x of t) terms.add(x);
  }
  if (terms.size === 0) return null;
  return terms.size === 1 ? [...terms][0]! : [...terms];
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
    if (typeof t === 'string') out.push(t);
    else out.push(...t);
  }
  return out;
}
