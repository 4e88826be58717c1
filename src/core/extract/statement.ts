/**
 * Statements from conversation: turns what a person or the assistant said into a
 * standalone line a later reader (or a keyword query) can use — what was decided, found or
 * preferred, about what, and why — instead of the sentence as typed. Rules only, no model:
 *
 * - first-person forms become impersonal ("I'd like to review them" → "The user wants to
 *   review them", "we use X" → "The project uses X");
 * - a short answer ("yes", "no, keep it", "option 2") is read with the question it answers
 *   ("Should prompts be reviewed first?" + "yes" → "Prompts should be reviewed first");
 * - a bare pronoun ("make sure it is not pushing") takes the nearest project noun;
 * - a reason given beside it ("because …", "so that …") is attached;
 * - what cannot be made into a clean statement says so (`clean: false`), and the caller
 *   lowers the candidate's confidence instead of storing a fragment.
 *
 * The word lists here are closed grammatical classes (pronouns, auxiliaries, conjunctions),
 * not phrases taken from sample sessions.
 */
import { isAffirmative, isNegative } from './signals.js';
import { cleanInline, maskInline, shorten } from './prose.js';

export interface Statement {
  summary: string;
  /** The rules produced a standalone statement (no first person left, not a question, not a fragment). */
  clean: boolean;
  /** The session named a reason, and the summary carries it. */
  reason: boolean;
}

/** Quoted evidence a memory body may carry in all (turns, questions, messages). */
export const MAX_QUOTATION = 600;

const MAX = 200;
const AUX = 'should|shall|can|could|would|will|must|might|may|do|does|did|is|are|was|were|has|have';
/** Pronoun subjects: the answer speaks about whatever they point at. */
const PRONOUN_SUBJECT = /^(?:it|this|that|these|those|they|there)$/i;
/** Words that open a base-form verb phrase after a noun subject ("prompts *be* reviewed"). */
const BASE_VERB = /^(?:be|have|get|go|use|run|stay|keep|live|need|work|do|make|take|support|include|show|start|stop|become|remain|happen|come|call|read|write|store|load|print|return|accept|allow|require|depend|point|handle|live|move|change|wait|fail|pass|skip|send|create|build|follow|apply)$/i;

/** The third-person singular of a verb ("go" → "goes", "try" → "tries"). */
export function thirdPerson(verb: string): string {
  const v = verb.toLowerCase();
  const irregular: Record<string, string> = { am: 'is', have: 'has', do: 'does', are: 'is', was: 'was', were: 'was', "'m": 'is', "'ve": 'has', be: 'is' };
  if (irregular[v] !== undefined) return irregular[v] as string;
  if (/^(?:can|could|would|will|shall|should|must|might|may|need(?:n't)?|won't|can't|couldn't|wouldn't|shouldn't|didn't|wasn't|had|'d|'ll)$/.test(v)) return verb;
  if (/(?:s|sh|ch|x|z|o)$/.test(v)) return `${verb}es`;
  if (/[^aeiou]y$/.test(v)) return `${verb.slice(0, -1)}ies`;
  if (/ed$/.test(v)) return verb; // already past tense
  return `${verb}s`;
}

const A = "['\u2019]";
const CONTRACTIONS: [RegExp, string][] = [
  [new RegExp(`\\bdon${A}?t\\b`, 'gi'), 'do not'],
  [new RegExp(`\\bdoesn${A}?t\\b`, 'gi'), 'does not'],
  [new RegExp(`\\bcan${A}t\\b`, 'gi'), 'cannot'],
  [new RegExp(`\\bwon${A}t\\b`, 'gi'), 'will not'],
  [new RegExp(`\\bI${A}m\\b`, 'g'), 'I am'],
  [new RegExp(`\\bI${A}ve\\b`, 'g'), 'I have'],
  [new RegExp(`\\bI${A}d\\b`, 'g'), 'I would'],
  [new RegExp(`\\bI${A}ll\\b`, 'g'), 'I will'],
  [new RegExp(`\\bwe${A}re\\b`, 'gi'), 'we are'],
  [new RegExp(`\\bwe${A}ve\\b`, 'gi'), 'we have'],
  [new RegExp(`\\bwe${A}d\\b`, 'gi'), 'we would'],
  [new RegExp(`\\bwe${A}ll\\b`, 'gi'), 'we will'],
  [new RegExp(`\\byou${A}re\\b`, 'gi'), 'you are'],
  [new RegExp(`\\bit${A}s\\b`, 'gi'), 'it is'],
];

function expand(text: string): string {
  let t = text;
  for (const [re, to] of CONTRACTIONS) t = t.replace(re, to);
  return t;
}

function capitalise(text: string): string {
  // A URL, a path or a lower-case identifier keeps its spelling.
  if (/^(?:\w+:\/\/|[\w.-]*[/_.][\w.-]|[a-z]+[A-Z])/.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Auxiliaries and modals a subject keeps as they are (no -s). */
const MODAL = /^(?:can|could|would|will|shall|should|must|might|may|cannot|had|did)$/i;

/**
 * A first-person sentence in impersonal form: the person is "the user", the team or the
 * project ("we", "our") is "the project". Wishes keep their meaning ("I'd like to" → "wants
 * to"); habits and facts keep theirs ("I tend to use" → "The user tends to use").
 *
 * @example
 * impersonal("I'd like to review and edit them.") // 'The user wants to review and edit them'
 * impersonal('We use pnpm, not npm') // 'The project uses pnpm, not npm'
 */
export function impersonal(sentence: string, speaker: 'user' | 'assistant' = 'user'): string {
  const raw = cleanInline(sentence).trim();
  const stop = /[.!]$/.test(raw) ? '.' : '';
  let t = expand(raw).replace(/[.!]+$/, '').trim();
  // Softeners in front of the statement say nothing ("Honestly, …", "Ok so …", "Also …").
  t = t.replace(/^(?:(?:ok(?:ay)?|so|well|also|and|but|honestly|actually|yeah|yes|right|hmm+|oh|please|just)\b[,\s]*)+/i, '');
  if (speaker === 'assistant') {
    // The assistant's own perception is not part of what it found.
    t = t.replace(/^I (?:can )?(?:see|notice|found|think|believe|understand|confirmed|verified|realized|realised|discovered)(?: that)?,?\s+/i, '');
    t = t.replace(/\byou are using\b/gi, 'the project uses').replace(/\byou (use|have|need|want)\b/gi, (_m, v: string) => `the project ${thirdPerson(v)}`);
    t = t.replace(/\byour\b/gi, "the project's").replace(/\byou already have\b/gi, 'the project already has');
  }
  if (speaker === 'assistant') return capitalise(t.replace(/\bwe (are|have|use|need)\b/gi, (_m, v: string) => `the project ${thirdPerson(v)}`).trim()) + stop;
  // Wishes: "I would like (to)", "I want (to)", "I would prefer", "I would rather".
  t = t.replace(/\bI would (?:really |definitely )?(?:like|love)\b/g, 'I want').replace(/\bI would (?:prefer|rather)\b/g, (m) => m.replace('I would', 'I'));
  t = t.replace(/\bwe would (?:really |definitely )?(?:like|love)\b/gi, 'we want');
  // "I" and the verb after it (an adverb may sit between).
  t = t.replace(/\bI (?:(always|usually|generally|often|never|really|definitely|also|only|just|mostly|normally|still) )?([A-Za-z']+)/g, (_m, adv: string | undefined, verb: string) => {
    const v = MODAL.test(verb) || /^(?:not)$/i.test(verb) ? verb : verb.toLowerCase() === 'rather' ? 'would rather' : thirdPerson(verb);
    return `the user ${adv !== undefined ? `${adv} ` : ''}${v}`;
  });
  t = t.replace(/\bwe (?:(always|usually|generally|often|never|really|definitely|also|only|just|mostly|normally|still) )?([A-Za-z']+)/gi, (_m, adv: string | undefined, verb: string) => {
    const v = MODAL.test(verb) || /^not$/i.test(verb) ? verb : thirdPerson(verb);
    return `the project ${adv !== undefined ? `${adv} ` : ''}${v}`;
  });
  t = t
    .replace(/\bmy\b/g, "the user's")
    .replace(/\bmine\b/g, "the user's")
    .replace(/\b(?:me|myself)\b/g, 'the user')
    .replace(/\bour\b/gi, "the project's")
    .replace(/\b(?:us|ourselves)\b/g, 'the project');
  // "the user does not" reads right; "the user do not" came from "I do not".
  t = t.replace(/\bthe (user|project) dos\b/g, 'the $1 does');
  return capitalise(t.trim()) + stop;
}

/** Whether any first person is left in a line. */
export function firstPerson(text: string): boolean {
  return /(?:^|[^\w'])(?:I|I'm|I'd|I've|I'll|me|my|mine|myself)(?![\w'])/.test(maskInline(text));
}

/**
 * A yes/no question turned into the statement a "yes" (or a "no") makes of it, or
 * undefined when its subject cannot be told apart.
 *
 * @example
 * answeredQuestion('Should prompts be reviewed before cards are created?', true)
 * // 'Prompts should be reviewed before cards are created'
 * answeredQuestion('Do you want me to add a --dry-run flag?', false)
 * // 'Decided not to add a --dry-run flag'
 */
export function answeredQuestion(question: string, yes: boolean): string | undefined {
  // The question itself: the last sentence that asks.
  const asked = cleanInline(question).split(/(?<=[.!:])\s+/).filter((x) => x.includes('?')).pop() ?? cleanInline(question);
  const q = expand(asked)
    .replace(/^.*?(?=\b(?:should|shall|can|could|would|will|must|do|does|is|are|want)\b[^?]*\?\s*$)/i, '')
    .replace(/\?+\s*$/, '')
    .trim();
  // Offers and requests for a go-ahead: the answer decides the step.
  const offer = /^(?:(?:do|would) you (?:want|like) (?:me|us) to|want me to|should (?:I|we)|shall (?:I|we)|can (?:I|we)|may I)\s+(.+)$/i.exec(q);
  if (offer) return `Decided ${yes ? 'to' : 'not to'} ${offer[1]}`;
  const wants = /^(?:do|would) you (?:want|like|prefer|need)\s+(.+)$/i.exec(q);
  if (wants) return `The user ${yes ? 'wants' : 'does not want'} ${wants[1]}`;
  const m = new RegExp(`^(${AUX})\\s+(.+)$`, 'i').exec(q);
  if (!m) return undefined;
  const aux = (m[1] ?? '').toLowerCase();
  const words = (m[2] ?? '').split(/\s+/);
  let cut = -1;
  if (PRONOUN_SUBJECT.test(words[0] ?? '') || /^(?:we|you)$/i.test(words[0] ?? '')) cut = 1;
  else {
    for (let i = 1; i < Math.min(words.length, 7); i++) {
      const w = words[i] ?? '';
      if (/^(?:be|is|are)$/.test(aux) ? /^(?:\w+ed|in|on|at|still|already|enough|ok|fine|needed|required|correct|right|wrong|safe|necessary|possible|worth|available|supported|used)$/i.test(w) : BASE_VERB.test(w) || /^not$/i.test(w)) {
        cut = i;
        break;
      }
    }
  }
  if (cut < 1 || cut >= words.length) return undefined;
  let subject = words.slice(0, cut).join(' ');
  const rest = words.slice(cut).join(' ');
  if (/^we$/i.test(subject)) subject = 'the project';
  if (/^you$/i.test(subject)) subject = 'the assistant';
  const verb = /^(?:do|does|did)$/.test(aux) ? (yes ? '' : `${aux} not`) : yes ? aux : `${aux} not`;
  // "Do we need X?" yes → "The project needs X"; the bare verb takes the subject's form.
  if (verb === '' && /^(?:do|does)$/.test(aux)) {
    const [first = '', ...more] = rest.split(' ');
    const singular = /^(?:the project|it|this|that|there)$/i.test(subject) || aux === 'does';
    return capitalise(`${subject} ${singular ? thirdPerson(first) : first}${more.length > 0 ? ` ${more.join(' ')}` : ''}`);
  }
  if (verb === '') return capitalise(`${subject} ${rest}`);
  return capitalise(`${subject} ${verb} ${rest}`);
}

/** The content of a short answer after its "yes"/"no" ("yes, I'd like to edit them" → "I'd like to edit them"). */
export function answerRest(answer: string): string {
  return cleanInline(answer)
    .replace(/^(?:y|yes|yep|yeah|yup|sure|ok(?:ay)?|no|nope|nah|correct|exactly|right|please|definitely|absolutely|of course)\b[\s,.!;:-]*/i, '')
    .replace(/^(?:please|go ahead|do it|do that|let's do (?:it|that))\b[\s,.!;:-]*/i, '')
    .trim();
}

/** The reason a text gives, as a clause ("because the API rate-limits"), if any. */
export function reasonIn(text: string): string | undefined {
  const m = /\b(because|since|so that|as otherwise|otherwise|due to)\s+([^.;!?\n]{6,160})/i.exec(maskInline(text));
  if (!m) return undefined;
  const start = m.index;
  const clause = cleanInline(text.slice(start, start + m[0].length)).replace(/[,\s]+$/, '');
  // "since 2020", "since then": time, not a reason.
  if (/^since\s+(?:\d|then|yesterday|today|last|the start)/i.test(clause)) return undefined;
  return clause.replace(/^./, (c) => c.toLowerCase());
}

/** A sentence with its reason attached when the reason sits in another sentence of the same text. */
export function withReason(summary: string, context: string): { text: string; reason: boolean } {
  if (reasonIn(summary) !== undefined) return { text: summary, reason: true };
  const reason = reasonIn(context);
  if (reason === undefined) return { text: summary, reason: false };
  const base = summary.replace(/[.!\s]+$/, '');
  return { text: `${base}, ${reason}`, reason: true };
}

/**
 * Whether a summary stands alone: no first person, not a question, not a clause cut out of
 * a list ("Skips X when Y", "and then …"), not a label introducing something else.
 */
export function standsAlone(summary: string): boolean {
  const t = summary.trim();
  if (t.length < 15 || t.split(/\s+/).length < 4) return false;
  if (firstPerson(t)) return false;
  if (/\?\s*$/.test(t) || /:\s*$/.test(t)) return false;
  // A lower-case start or a bare connective: the rest of the sentence is elsewhere.
  if (/^(?:and|or|but|so|then|also|which|it|they|here|there)\b/i.test(t)) return false;
  if (/^(?:this|that|these|those)\s+(?:is|are|was|were|means|will|would|should|can|could|does|did|has|have|follows|separates|makes)\b/i.test(t)) return false;
  // A list item that starts with a verb in the third person or -ing ("Skips the prompt when …"):
  // its subject is the heading. A plural noun ("Prompts should …") has a finite verb after it.
  const first = t.split(/\s/)[0] ?? '';
  if (/^[A-Z][a-z]+(?:s|ing)$/.test(first) && !/ss$/.test(first) && !/^(?:always|sometimes|perhaps|besides|unless|thus|nevertheless|nonetheless|otherwise)$/i.test(first) && !/\b(?:is|are|was|were|should|must|can|cannot|will|would|has|have|does|do|did|may|might)\b/i.test(t)) return false;
  return true;
}

/**
 * The statement a person's answer to the assistant's question makes: a yes/no read with the
 * question, anything the answer adds after it kept (impersonal).
 */
export function answerStatement(question: string, answer: string): Statement | undefined {
  const plain = cleanInline(answer);
  const yes = isAffirmative(plain);
  const no = !yes && isNegative(plain);
  if (!yes && !no) return undefined;
  const base = answeredQuestion(question, yes);
  const rest = answerRest(plain);
  const restStatement = rest.split(/\s+/).length >= 3 ? impersonal(rest) : '';
  if (base === undefined) {
    // A question it cannot turn around: the question and the answer, side by side.
    const q = shorten(cleanInline(question).replace(/\?+\s*$/, ''), 120);
    const summary = shorten(`${q}: ${yes ? 'yes' : 'no'}${restStatement !== '' ? ` — ${restStatement.charAt(0).toLowerCase()}${restStatement.slice(1)}` : ''}`, MAX);
    return { summary, clean: false, reason: reasonIn(plain) !== undefined };
  }
  const joined = restStatement !== '' ? `${base} — ${restStatement.charAt(0).toLowerCase()}${restStatement.slice(1)}` : base;
  const r = withReason(joined, plain);
  const summary = shorten(r.text, MAX);
  return { summary, clean: standsAlone(summary), reason: r.reason };
}

/** The project noun a bare pronoun stands for: the identifier the context names most. */
export function subjectOf(context: string, specific: (text: string) => string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const t of specific(context)) {
    if (t.length < 3 || /^\d/.test(t)) continue;
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [t, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = t;
  return best;
}

/**
 * A person's sentence as a statement: impersonal, the pronoun it opens with resolved to
 * `subject` when given, requests ("can you make sure …") read as the rule they state, the
 * reason from the rest of `context` attached.
 */
export function personStatement(sentence: string, context: string, subject: string | undefined): Statement {
  let s = cleanInline(sentence).replace(/^(?:(?:can|could|would|will) you(?: please)?|please)\s+/i, '');
  // "make sure it is not pushing" states a rule: "X must not push" reads as one.
  if (subject !== undefined) {
    s = s.replace(/\b(it|they)\b(?=\s+(?:is|are|should|must|does|do|has|will|needs?|gets?|can)\b)/i, `\`${subject}\``);
    s = s.replace(/\b(restore|edit|change|remove|delete|keep|use|touch|push|commit|move|rename|revert|run)\s+(that|it|this|them)\b/i, (_m, v: string) => `${v} \`${subject}\``);
  }
  s = capitalise(s);
  const imp = impersonal(s);
  const r = withReason(imp, context);
  const summary = shorten(r.text, MAX);
  // Said to the assistant about its work ("you have not fixed it"): about the session, not the project.
  const addressed = /^you\b/i.test(s) && !/^you (?:should|must|need to|have to)\b/i.test(s);
  const unresolved = addressed || (subject === undefined && /\b(?:that|it|this|them)\b/i.test(summary) && summary.split(/\s+/).length < 9);
  return { summary, clean: standsAlone(summary) && !unresolved, reason: r.reason };
}

/**
 * An objection the person raised right after interrupting ("why are you editing generated
 * code!") as the rule it implies.
 *
 * @example
 * objection('Why tf are you editing generated code!') // 'Do not edit generated code (the user objected)'
 */
export function objection(sentence: string): string | undefined {
  const m = /^\s*why\b(?:\s+(?:tf|the hell|on earth|the fuck))?\s+(?:are|were)\s+you\s+(\w+ing)\b\s*(.*)$/i.exec(cleanInline(sentence).replace(/[!?.]+$/, ''));
  if (!m) return undefined;
  const verb = baseOf(m[1] ?? '');
  if (verb === undefined) return undefined;
  return `Do not ${verb}${m[2] !== '' ? ` ${m[2]}` : ''} (the user objected)`;
}

/** The base form of an -ing verb, where the spelling tells ("editing" → "edit", "making" → "make"). */
export function baseOf(gerund: string): string | undefined {
  const g = gerund.toLowerCase();
  if (!g.endsWith('ing') || g.length < 5) return undefined;
  const stem = g.slice(0, -3);
  if (/([bdgmnprt])\1$/.test(stem)) return stem.slice(0, -1); // running → run
  // Consonant-vowel-consonant before -ing usually drops an e (making, using, writing).
  if (/(?:^|[^aeiou])[aeiou][kvzcsg]$/.test(stem) || /(?:at|it|ut|ot|iz|ur|ar)$/.test(stem) && !/(?:edit|visit|limit|exit|audit|omit|submit|commit|permit|admit|vomit)$/.test(stem)) return `${stem}e`;
  return stem;
}

/**
 * Quotation cut to `max` characters in all: evidence lines (quotes, the question, the
 * assistant's words) share the budget in order; attribution lines ("— the user, …") and
 * one-line facts about the context ("Fixed by editing …") are kept.
 */
export function capQuotation(body: string, max: number = MAX_QUOTATION): string {
  let left = max;
  const out: string[] = [];
  for (const line of body.split('\n')) {
    if (/^— /.test(line) || line.trim() === '') {
      out.push(line);
      continue;
    }
    if (left <= 0) continue;
    if (line.length <= left) {
      out.push(line);
      left -= line.length;
      continue;
    }
    const cut = line.slice(0, Math.max(0, left - 1));
    const space = cut.lastIndexOf(' ');
    out.push(`${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`);
    left = 0;
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
