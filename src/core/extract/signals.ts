/**
 * The signals extraction scores candidates with. Each is a property of language or of the
 * conversation's structure that holds across projects, assistants and sessions — who said
 * it, whether the person confirmed or corrected it, whether it names a reason, a cause or a
 * constraint, whether the work acted on it — never a phrase taken from sample sessions.
 * The word classes here are closed grammatical classes (modal verbs, negation, causal
 * connectives, hedges) and the generic vocabulary of diagnosis; `docs/claude-code.md`
 * lists each signal and why it is there.
 */
import { maskInline, MASK } from './prose.js';

/** A signal that fired, by name, and what it adds to the confidence. */
export interface Signal {
  name: string;
  weight: number;
}

/** Every signal name and its weight, in one place (documented in docs/claude-code.md). */
export const SIGNAL_WEIGHTS = {
  // who said it, and how the person answered
  correction: 0.35, // the person's words right after interrupting or refusing the assistant
  answer: 0.2, // the person's words answer a question or a choice the assistant put
  approved: 0.3, // the person approved the proposal (plan mode, "yes", an option picked)
  acknowledged: 0.1, // the assistant's next words accept the person's statement
  personRejected: -0.15, // the person said no to, or corrected, the message it came from
  // what the statement carries
  normative: 0.25, // a rule: must, never, always, don't, only, make sure …
  preference: 0.25, // first-person wish: I prefer, I want, I'd rather …
  choice: 0.2, // a choice made between named options
  alternatives: 0.1, // names what was not chosen: over, instead of, rather than
  projectFact: 0.1, // a person states a fact about the project or themselves
  diagnosis: 0.2, // states a cause: the issue is, because, due to, conflicts with …
  knowledgeLabel: 0.2, // under a heading or label such as Problem, Root cause, Fix, Decision
  constraint: 0.1, // requires, only, cannot, not supported …
  specific1: 0, // names one project-specific thing (file, identifier, flag, version)
  specific2: 0.15, // names two or more
  generic: -0.2, // names nothing specific to the project
  // what happened around it
  afterFailure: 0.1, // said while a command or test was failing
  blockedByHook: 0.25, // a hook of the person's setup refused the call: a standing rule
  resolved: 0.15, // the failure it explains was fixed (the same command passed later)
  actedOn: 0.05, // the files it names were then edited
  repeated: 0.05, // said again later in the session
  finalSummary: 0, // in the message that closed a stretch of work
  // what weakens it
  task: -0.3, // a request to do something now, not a rule or a fact
  question: -0.35, // asks rather than states
  actionReport: -0.2, // reports what the assistant did (Added X, I've updated Y)
  stepAnnouncement: -0.25, // announces the next step (Let me, I'll, Now I)
  hedge: -0.1, // each distinct hedge (might, probably, seems …), at most three
  conditional: -0.1, // opens with if / when / unless
  subagent: -0.25, // a subagent's words, not the main conversation's
  long: -0.1, // over 60 words: rarely one fact
  introducer: -0.25, // ends with a colon: it introduces a list or a quote
  operational: -0.2, // about the session's commits, pushes and merges
  instructions: -0.15, // a list of steps for the person to follow now
  location: -0.1, // anchored to a line number: describes the file as it is today
  enumeration: -0.15, // an introducer and three or more list items: several things at once, for a person to sort
  unclear: -0.15, // the rules could not make it a standalone statement (fragment, first person, unresolved pronoun)
  reason: 0.1, // a person's statement that gives its reason (because, so that, since …)
} as const;

export type SignalName = keyof typeof SIGNAL_WEIGHTS;

export function signal(name: SignalName): Signal {
  return { name, weight: SIGNAL_WEIGHTS[name] };
}

// ---------------------------------------------------------------------------
// Word classes (closed classes and generic vocabulary; matched on masked text)

/** Deontic modality and rule-making negation: the grammar of a rule. */
const NORMATIVE =
  /\b(?:must(?:n't| not)?|should(?:n't| not)?|shall|never|always|no need|needn't|make sure|ensure|only ever|has to|have to|needs? to be|avoid|keep it|keep (?:the|this|them|it) \w+|instead of|rather than|not allowed|forbidden|(?:is|are) required)\b|(?:^|[,;:.!(]\s*|\b(?:please|and|but|so|just|also|then|you|we)\s+)(?:do not|don't|dont|never|stop|no more)\s+\w+/i;
/** First-person wishes. */
const PREFERENCE = /\b(?:I|we)(?:'d| would)? (?:prefer|like|want|rather|lean|need)\b|\bI(?:'m| am) (?:the only|a solo|the sole)\b|\bmy preference\b/i;
/** A choice between options. */
const CHOICE =
  /\b(?:replac(?:e|ed|ing)\s+(?:\S+\s+){1,5}?with|swap(?:ped)?\s+(?:\S+\s+){1,4}?for|go(?:ing)? with|went with|chose|chosen|choose|pick(?:ed)?|opt(?:ed)? for|settled on|switch(?:ed)? to|decided(?: to| on| against)?|let's use|use (?:the )?\w+ instead|stick(?:ing)? with|in favou?r of)\b/i;
/** A rejection or reversal. */
const REJECTION =
  /\b(?:decided against|decided not to|chose not to|opted against|reject(?:ed)?|ruled? out|abandon(?:ed)?|revert(?:ed)?|roll(?:ed)? back|undo|undid|dropped|didn't work|did not work|doesn't work|does not work|not the fix|won't work|no longer|gave up on|set aside|not (?:going to|gonna) use)\b/i;
/** Statements of cause and diagnosis. */
const DIAGNOSIS =
  /\b(?:the (?:real |actual |main |core |root )?(?:issue|problem|cause|culprit|reason|bug|error|fix|solution|catch|trick) (?:is|was|here|turned out|seems)|root cause|because|due to|since (?!\d|yesterday|today|last|then|morning|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\w+|caused by|causing|results? in|conflicts? with|conflicting|turns? out|turned out|that's why|which is why|this (?:is why|means|explains)|which means|so that|otherwise|the reason|fails? (?:because|when|if|with)|breaks? (?:when|if|because)|(?:found|see|spotted|identified) the (?:issue|problem|bug|cause|culprit))\b/i;
/** Constraints stated as facts. */
const CONSTRAINT =
  /\b(?:requires?|required|only (?:works?|accepts?|supports?|allows?|reads?|has|returns?|when)|cannot|can't|can not|doesn't (?:support|accept|allow|exist|have|work)|does not (?:support|accept|allow|exist|have|work)|isn't (?:supported|available|visible|installed)|is not (?:supported|available|visible|installed|read)|not supported|must|needs? (?:to be|a|an|the)|expects?|defaults? to|by default|hard-?coded|deprecated|incompatible|mismatch)\b/i;
/** Problem vocabulary: what makes a statement a gotcha rather than a fact. */
const PROBLEM =
  /\b(?:issue|problem|error|errors|fail(?:s|ed|ure|ing)?|broken|break(?:s|ing)?|bug|conflict(?:s|ing)?|mismatch|missing|wrong|undefined|not found|crash(?:es|ed)?|exception|warning|incorrect|invalid|stuck|pending|leak(?:s|ed)?|timeout|timed out|denied|blocked|blocks)\b/i;
/** Structural description: how the system is put together. */
const ARCHITECTURE =
  /\b(?:architecture|consists? of|composed of|is made of|layers?|pipeline|flow|data flow|entry point|talks to|sends|posts|calls|reads from|writes to|stored in|stores|lives in|live in|backed by|module|service|frontend|backend|workspace|monorepo|repository contains|is a (?:fork|wrapper|thin)|->|→|⟶)\b|->|→/i;
/** A convention: how things are done here. */
const CONVENTION = /\b(?:always|never|convention|every|each time|by convention|we use|use \w+ for|are (?:named|placed|kept|stored)|lives? in|follow(?:s|ing)? the|pattern)\b/i;
/** Hedges: distinct ones weaken a statement. */
const HEDGE = /\b(?:maybe|might|could|perhaps|possibly|probably|likely|seems?|appears?|I think|I believe|I suspect|not sure|suggests?|may|would|if needed|optionally|presumably|typically|usually|generally|normally|hopefully)\b/gi;
/** Something that went against expectation: the mark of a gotcha. */
const SURPRISE = /\b(?:turns? out|turned out|actually|surprisingly|unexpectedly|contrary to|despite|silently|quietly|by default)\b/i;
/** An alternative named beside a choice. */
const ALTERNATIVES = /\b(?:over|instead of|rather than|in favou?r of|vs\.?|versus|not)\s+\S/i;
/** The session's own version-control chores: progress, not knowledge about the project. */
const OPERATIONAL = /\b(?:commit(?:s|ted|ting)?|push(?:ed|ing)?|pull request|PR #?\d*|merged?|staged?|git (?:add|push|commit|pull|checkout|stash))\b/i;
/** A step in the work being announced. */
const STEP = /^(?:let me|let's|let us|I'll|I will|I'm going to|I am going to|I need to|now I|now let|next,? I|first,? I|now,? I'll|I'm now|I can now|time to)\b/i;
/** A report of what was done. */
const ACTION_REPORT =
  /^(?:(?:I|we)(?:'ve| have)? (?:successfully |now |also |just )?(?:added|updated|created|fixed|removed|changed|implemented|modified|refactored|moved|renamed|replaced|wrote|written|made|set|installed|ran|run|committed|pushed|merged|cleaned|deleted|enabled|disabled|converted|migrated|reverted)|(?:successfully|now) \w+ed|(?:added|updated|created|fixed|removed|changed|implemented|modified|refactored|moved|renamed|replaced|wrote|cleaned|deleted|installed|enabled|disabled|converted|migrated|bumped|improved|enhanced|simplified|extracted|integrated)\b)/i;
/** Affirmative answers to a proposal. */
const AFFIRMATIVE =
  /^(?:y|yes|yep|yeah|yup|sure|ok(?:ay)?|k|go ahead|go for it|do it|do that|sounds good|looks good|lgtm|perfect|great|good|agreed?|approved?|proceed|let's do (?:it|that|this)|let's go|please do|please proceed|ship it|that works|correct|exactly|right|continue|go on|carry on|makes sense|alright|cool|nice)\b/i;
/** Negative answers and corrections. */
const NEGATIVE = /^(?:no|nope|nah|don't|dont|do not|stop|wait|wrong|that's (?:not|wrong)|that is not|this is not|not (?:that|what|quite|right)|why (?:tf |the hell |on earth )?(?:are|did|would) you|you (?:have not|haven't|didn't|did not|shouldn't|should not|broke|missed))\b/i;
/** A question asked without a question mark ("how do I …", "can you …"). */
const QUESTION_START = /^(?:how|what|why|where|when|which|who|whose|is|are|was|were|do|does|did|should|shall|have|has|any idea|is there|are there)\b/i;
/** Announces that a finding follows ("I found the issue.", "Found it!"). */
const ANNOUNCE =
  /^(?:(?:i think |now |ok(?:ay)?,? |great,? |perfect,? |ah,? )?(?:i(?:'ve)? )?(?:found|see|spotted|identified|understand|get) (?:it|the (?:\w+ )?(?:issue|problem|bug|cause|culprit|difference|pattern))|found it|there it is|that's it|that explains it|now i (?:see|understand))\b[^.!?]{0,40}[.!:]?$/i;
/** A finding stated in the first person ("I found that …"). */
const FINDING = /\b(?:I (?:found|discovered|noticed|realized|realised|confirmed|verified|learned|see) (?:that|how|why|where)|it turns out|turned out (?:that|to be))\b/i;
/** A request to do something now. */
const TASK =
  /^(?:(?:please|pls|now|then|also|and|ok(?:ay)?|so|can you|could you|would you|will you|can we|let's)\W+)*(?:fix|add|create|make|write|build|run|check|review|look|read|find|implement|update|commit|push|test|investigate|analy[sz]e|explain|show|tell|help|delegate|move|remove|delete|rename|refactor|install|deploy|generate|describe|summari[sz]e|list|open|start|continue|go|try|use|do|setup|set up|give|save|change|bump|plan|research|compare|debug|verify|document|clean|prepare)\b/i;
/** Words that open a conditional. */
const CONDITIONAL = /^(?:if|when|unless|whether|once|in case)\b/i;
/** Words that point back at the previous sentence: this one does not stand alone. */
const ANAPHOR = /^(?:this|that|these|those|it|they|which|so|then|also|and|but|however|instead|here|there)\b/i;
/** An acknowledgement of what the person said. */
const ACKNOWLEDGE = /^(?:you're (?:absolutely |completely |totally )?right|you are (?:absolutely )?right|good (?:point|catch|call)|understood|got it|fair point|makes sense|absolutely|of course|my (?:bad|mistake|apologies)|sorry|I apologi[sz]e|ah,? (?:right|I see)|noted)\b/i;
/** Meta talk that never carries project knowledge. */
const META =
  /^(?:here(?:'s| is| are)|let me know|feel free|hope this|in summary|to summarize|summary|overall|great|perfect|excellent|done|all set|now you can|you can now|try it|restart|please (?:restart|try|test|run|let)|the (?:changes|following|summary)|this (?:change|update|fix|commit) (?:adds|includes|updates))\b/i;

const IDENT =
  /`[^`\n]{2,80}`|"[^"\s]{2,40}"|(?<=[a-z0-9,;:)]\s)[A-Z][a-z]{2,}(?:\s[A-Z][a-z]+)*\b|\b[a-z]+\d+[a-z\d]*\b|(?:^|[\s(])(?:[\w@~.-]*\/[\w@.-]+(?:\/[\w@.-]*)*|\w+\.(?:ts|tsx|js|mjs|cjs|json|md|py|rs|go|nix|yml|yaml|toml|sh|c|h|cpp|templ|java|rb|php|css|html|lock|txt|xlsx|csv)\b)|\b[A-Z][a-z]+[A-Z]\w*\b|\b[a-z]+[A-Z]\w*\b|\b\w+_\w+\b|\b[A-Z]{2,}[A-Z0-9_]*\b|(?:^|\s)--?[a-z][\w-]+|\bv?\d+\.\d+(?:\.\d+)*\b|\b\w+\(\)|\b[\w-]+\.(?:com|org|io|dev|net|app)\b|\b\d{3}\b/g;

/** Project-specific things a text names: code, paths, identifiers, flags, versions, hosts (lower-case, distinct). */
export function specificTokens(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(IDENT)) {
    const raw = m[0].trim().replace(/^[`(]+|[`).,:;]+$/g, '');
    const t = raw.toLowerCase();
    // Anything written as code is specific, however short (`g`, `fs`); prose needs 3 letters.
    if ((t.length < 3 && !m[0].trim().startsWith('`')) || t === '' || COMMON_CAPS.has(t)) continue;
    // Capitals for emphasis ("DOES", "HIGH") are not names; acronyms with digits or _ are.
    if (/^[A-Z]+$/.test(raw) && (raw.length > 5 || EMPHASIS.has(t))) continue;
    seen.add(t);
  }
  return [...seen];
}

/** How many project-specific things a text names. */
export function specificCount(text: string): number {
  return specificTokens(text).length;
}

/** Words written in capitals for emphasis. */
const EMPHASIS = new Set('and not the all any new now does did has have was were are can will must only also but yes for are one two high low none true false done fix feat chore todo note warn info must never always very'.split(' '));
/** Capitalised words and acronyms so common in prose that they say nothing specific. */
const COMMON_CAPS = new Set(['api', 'the', 'url', 'ok', 'todo', 'note', 'ui', 'id', 'ids', 'cli', 'json', 'yaml', 'html', 'css', 'http', 'https', 'i\'m', 'i\'ll', 'i\'ve', 'this', 'that', 'then', 'now', 'also', 'but', 'and', 'let', 'yes', 'not', 'you', 'your', 'our', 'great', 'perfect', 'good', 'done', 'next', 'first', 'however', 'here', 'there', 'true', 'false', 'none', 'null', 'undefined', 'error', 'warning', 'success', 'added', 'updated', 'fixed', 'removed', 'created', 'changed']);

export interface TextFeatures {
  normative: boolean;
  preference: boolean;
  choice: boolean;
  rejection: boolean;
  diagnosis: boolean;
  constraint: boolean;
  problem: boolean;
  architecture: boolean;
  convention: boolean;
  hedges: number;
  step: boolean;
  actionReport: boolean;
  task: boolean;
  question: boolean;
  conditional: boolean;
  anaphoric: boolean;
  /** Announces a finding that the next sentence states. */
  announcement: boolean;
  /** Ends with a colon: it introduces what follows. */
  introducer: boolean;
  /** About commits, pushes, merges of this session. */
  operational: boolean;
  /** Names an alternative to what it chose ("X over Y", "instead of Y"). */
  alternatives: boolean;
  /** States something that went against expectation ("turns out", "actually"). */
  surprise: boolean;
  meta: boolean;
  specific: number;
  words: number;
}

/**
 * The language features of one sentence (cues inside code, quotes and URLs do not count).
 *
 * @example
 * textFeatures('The issue is that `x` is undefined because y.').diagnosis // true
 */
export function textFeatures(sentence: string): TextFeatures {
  const masked = maskInline(sentence).replace(/\*\*|__/g, '');
  const start = masked.replace(/^[\s*_>#-]+/, '').replace(/^(?:\d+[.)]\s+)/, '');
  const plain = start.split(MASK).join(' ');
  const hedges = new Set((plain.match(HEDGE) ?? []).map((h) => h.toLowerCase())).size;
  return {
    normative: NORMATIVE.test(plain),
    preference: PREFERENCE.test(plain),
    choice: CHOICE.test(plain),
    rejection: REJECTION.test(plain),
    diagnosis: DIAGNOSIS.test(plain) || FINDING.test(plain),
    constraint: CONSTRAINT.test(plain),
    problem: PROBLEM.test(plain),
    architecture: ARCHITECTURE.test(plain),
    convention: CONVENTION.test(plain),
    hedges,
    step: STEP.test(start.trim()),
    actionReport: ACTION_REPORT.test(start.trim()),
    task: TASK.test(start.trim()),
    question: /\?\s*$/.test(masked.trim()) || /\?\s/.test(masked),
    conditional: CONDITIONAL.test(start.trim()),
    anaphoric: ANAPHOR.test(start.trim()),
    announcement: ANNOUNCE.test(plain.trim()),
    introducer: /:\s*(?:\*\*|__)?\s*$/.test(sentence.trim()),
    operational: OPERATIONAL.test(plain),
    alternatives: ALTERNATIVES.test(plain),
    surprise: SURPRISE.test(plain),
    meta: META.test(start.trim()),
    specific: specificCount(sentence),
    words: plain.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length,
  };
}

/** A question in a person's words, with or without a question mark. */
export function isPersonQuestion(sentence: string): boolean {
  const t = maskInline(sentence).replace(/^[\s*_>#-]+/, '').trim();
  return /\?\s*$/.test(t) || QUESTION_START.test(t) || /\b(?:how (?:do|can|could|should) (?:i|we|you)|can you tell|do you (?:know|think)|is it (?:possible|worth))\b/i.test(t);
}

/** A short prompt that says yes to what the assistant proposed. */
export function isAffirmative(prompt: string): boolean {
  const first = (prompt.trim().split(/[.!?\n]/)[0] ?? '').trim();
  if (first.split(/\s+/).length > 15) return false;
  return AFFIRMATIVE.test(first) && !/\b(?:but|instead|don't|do not|no,|not|wait)\b/i.test(first);
}

/** A prompt that opens by saying no to, or correcting, what the assistant did or said. */
export function isNegative(prompt: string): boolean {
  return NEGATIVE.test(prompt.trim());
}

/** Assistant text that opens by accepting what the person said. */
export function isAcknowledgement(text: string): boolean {
  return ACKNOWLEDGE.test(text.trim().replace(/^[*_#\s]+/, ''));
}

/** A heading or label that introduces knowledge (a cause, a fix, a decision, a rule). */
export function knowledgeHeadingType(heading: string): 'gotcha' | 'decision' | 'rejected' | 'pattern' | 'architecture' | 'context' | undefined {
  const h = heading.toLowerCase();
  if (h === '') return undefined;
  if (/\b(?:to (?:make|decide)|open questions?|questions?|next steps?|todo|to do|testing|usage|how to (?:test|use)|files? (?:changed|modified|created)|changes? made|what (?:was|i) (?:changed|did)|summary of changes)\b/.test(h)) return undefined;
  if (/\b(?:rejected|ruled out|not doing|alternatives? (?:considered|rejected)|why not|abandoned|didn't work|did not work)\b/.test(h)) return 'rejected';
  if (/\b(?:decision|decided|chosen|recommend|recommendation|recommended|proposed|proposal|approach|plan of record)\b/.test(h)) return 'decision';
  if (/\b(?:root cause|cause|problem|issue|bug|gotcha|pitfall|caveat|warning|lesson|learned|insight|why (?:this|it) (?:happen|fail)|what (?:was )?wrong|diagnosis|finding|the fix|fix|solution|workaround|important|note|critical)\b/.test(h)) return 'gotcha';
  if (/\b(?:convention|pattern|rule|guideline|standard|style|best practice|requirements?)\b/.test(h)) return 'pattern';
  if (/\b(?:architecture|structure|design|overview|how it works|flow|components?|integration points?|key (?:files|components)|current (?:implementation|architecture|state|approach|setup))\b/.test(h)) return 'architecture';
  if (/\b(?:context|background|environment|setup|configuration|key findings|analysis|findings?|evidence|observations?|current|stack|tech stack|technolog(?:y|ies)|dependencies|tooling|requirements|prerequisites|commands|scripts|conventions?)\b/.test(h)) return 'context';
  return undefined;
}

/** Meta talk about the conversation itself. */
export function isMeta(sentence: string): boolean {
  return META.test(maskInline(sentence).replace(/^[\s*_>#-]+/, '').trim());
}
