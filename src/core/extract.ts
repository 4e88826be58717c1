/**
 * Memory extraction from transcript events, no LLM needed (DESIGN §6).
 *
 * - structural: tool calls → the session's plan (its TodoWrite list) and progress note,
 *   upserted by `topic`.
 * - conversation (layer `keyword`): knowledge read from the whole exchange — what the
 *   person says, approvals of proposals, the assistant's findings, error → cause → fix
 *   sequences, plan mode, answered questions, documents and rules files written,
 *   subagents' reports — scored by signals that generalise (`extract/signals.ts`). At or
 *   above `threshold` they are memories; between `reviewFloor` and it they go to review.
 * - self-report: `[MEMORY: type] text` tags and a person's "remember that …" prompts, at
 *   confidence 1.0.
 *
 * An exchange (a prompt and the work up to the next one) is judged when the next prompt
 * arrives — so the person's reaction counts — or when the caller passes `final` (session
 * end, compaction). Pure: events in, candidates out. Incremental runs pass the previous
 * `state` back in; reading a transcript in pieces yields what reading it whole does.
 */
import type { ToolResultEvent, ToolUseEvent, TranscriptEvent } from './transcript.js';
import {
  acknowledge,
  addDraft,
  answerDrafts,
  asksPerson,
  emptyExchange,
  judgeExchange,
  LIMITS,
  optionsIn,
  personDraft,
  planDraft,
  proposalDrafts,
  proseDrafts,
  reactionTo,
  resolveDrafts,
  type ConversationContext,
} from './extract/conversation.js';
import { addedLines, blockedDraft, documentDraft, programKey, symptomOf, workaroundDraft } from './extract/tool-drafts.js';
import { cleanSummary, clip, oneLine, proseUnits, relativePath, sentences, shorten } from './extract/prose.js';
import { rememberRequests, selfReports, userPreference } from './extract/self-report.js';
import { commitOf, parseTodos, shortCommand, structuralCandidates } from './extract/structural.js';
import type { Candidate, ExtractState, Failure, PendingTool } from './extract/types.js';

export type { Candidate, CandidateLayer, CommitInfo, ExtractState, Speaker, TodoItem } from './extract/types.js';
export { cleanSummary, MAX_CANDIDATE_SUMMARY } from './extract/prose.js';
export { SELF_REPORT_ALIASES, selfReportType } from './extract/self-report.js';

export interface ExtractOptions {
  /** The session the candidates belong to (the hook's `session_id`). */
  sessionId: string;
  /** The current branch as the shell knows it; events' own `gitBranch` is the fallback. */
  branch?: string | undefined;
  /** Candidates at or above it are memories; below it, review. */
  threshold?: number;
  /** Candidates below it are dropped rather than queued for review. */
  reviewFloor?: number;
  /** ISO-8601 or Date; stands in for event timestamps when the events carry none. */
  now: Date | string;
  /** Stop's `last_assistant_message`: the transcript may not hold it yet. */
  lastAssistantMessage?: string | undefined;
  /** State returned by the previous run over the same transcript. */
  state?: ExtractState | undefined;
  /** Every event is a subagent's (its own transcript file in Claude Code 2.x). */
  sidechain?: boolean | undefined;
  /**
   * Near-duplicate fingerprints of what the session already emitted elsewhere (the main
   * transcript, for a subagent's file): a repeat of one of them is not emitted again.
   */
  seen?: ExtractState['emitted'] | undefined;
  /** Knowledge memories one exchange (a prompt and the work it led to) may add at most. */
  memoriesPerExchange?: number;
  /** Review candidates one exchange may add at most. */
  reviewPerExchange?: number;
  /**
   * The session is over (or being compacted): judge the open exchange now instead of
   * waiting for the person's next prompt.
   */
  final?: boolean | undefined;
}

export interface ExtractResult {
  memories: Candidate[];
  review: Candidate[];
  /** Pass back as `options.state` with the next events of the same transcript. */
  state: ExtractState;
}

/** Defaults; `threshold` matches `extraction.threshold` in the config defaults. */
export const DEFAULT_EXTRACT = {
  threshold: 0.7,
  reviewFloor: 0.5,
  memoriesPerExchange: 4,
  reviewPerExchange: 8,
} as const;

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_TOOLS = new Set(['Read', 'NotebookRead']);
const PLAN_TOOLS = /^(?:exit_?plan_?mode)$/i;
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
const RECENT_COMMANDS = 10;
const MAX_PENDING_TOOLS = 200;
/** A step that changes something ("Let me fix this by removing …", "I'll add the import to …"). */
const FIX_STEP =
  /^(?:let me|let's|I'll|I will|I need to|now I'll|I'm going to)\b.{0,60}\b(?:fix|remove|add|replace|move|change|update|use|switch|set|enable|disable|rename|revert|wrap|install|drop|delete|pass|import|pin|downgrade|upgrade|instead)\b/i;

/** Results of calls that never ran: refused by the person or blocked by a hook. */
const NOT_RUN = /^(?:The user doesn't want to proceed|\[Request interrupted|\w+:\w+ hook error|Permission to use \w+ has been denied|The user (?:has )?(?:rejected|denied))/;
const REFUSED_BY_PERSON = /^(?:The user doesn't want to proceed|\[Request interrupted|The user (?:has )?(?:rejected|denied))/;

/**
 * Extracts memory candidates from transcript events. Deterministic: the same events and
 * options give the same result.
 *
 * @example
 * const { events } = parseTranscriptChunk(text);
 * const { memories, review, state } = extractMemories(events, {
 *   sessionId: 'a9185eb7', branch: 'main', now: '2026-11-21T10:00:00Z', final: true,
 * });
 * // memories: [{ type: 'preference', layer: 'keyword', summary: 'Never edit generated files …', … }, …]
 */
export function extractMemories(events: readonly TranscriptEvent[], options: ExtractOptions): ExtractResult {
  const opts = { ...DEFAULT_EXTRACT, ...options };
  const state = cloneState(opts.state);
  if (opts.seen !== undefined) state.emitted = JSON.parse(JSON.stringify(opts.seen)) as ExtractState['emitted'];
  const session = opts.sessionId;
  const candidates: Candidate[] = [];
  const conv: ConversationContext = {
    session,
    branch: opts.branch ?? state.branch,
    threshold: opts.threshold,
    reviewFloor: opts.reviewFloor,
    memoriesPerExchange: opts.memoriesPerExchange,
    reviewPerExchange: opts.reviewPerExchange,
  };

  for (const raw of events) {
    const event = opts.sidechain === true && !raw.isSidechain ? { ...raw, isSidechain: true } : raw;
    if (event.gitBranch !== undefined) {
      state.branch = event.gitBranch;
      if (!state.branches.includes(event.gitBranch)) state.branches.push(event.gitBranch);
    }
    if (event.sessionId !== undefined && !state.sessions.includes(event.sessionId)) state.sessions.push(event.sessionId);
    if (event.timestamp !== undefined) {
      if (state.firstTimestamp === undefined || event.timestamp < state.firstTimestamp) state.firstTimestamp = event.timestamp;
      if (state.lastTimestamp === undefined || event.timestamp > state.lastTimestamp) state.lastTimestamp = event.timestamp;
    }
    if (state.root === undefined && event.cwd !== undefined) state.root = event.cwd;
    // Candidates land in the working tree of the current branch, so that branch wins.
    const branch = opts.branch ?? event.gitBranch;
    conv.branch = opts.branch ?? state.branch;
    const key = `o${event.offset}`;

    switch (event.kind) {
      case 'prompt': {
        if (event.isSidechain) break; // a subagent's task prompt, written by the assistant
        state.prompts++;
        candidates.push(...closeExchange(state, event.text, conv, key, event.timestamp));
        candidates.push(...rememberRequests(event.text, { session, branch, key }));
        break;
      }
      case 'meta':
        if (event.isSidechain) break;
        if (event.subtype === 'memory-input' && event.text !== undefined && event.text.trim() !== '') {
          candidates.push(userPreference(event.text.replace(/^#\s*/, ''), { session, branch, key }));
        } else if (event.subtype === 'interrupted') state.exchange.interrupted = true;
        break;
      case 'text': {
        if (event.synthetic) break;
        const hash = textHash(event.text);
        if (state.injected !== undefined && state.injected === hash) {
          state.injected = undefined; // Stop's message, already read before the transcript held it
          break;
        }
        onText(state, event.text, { key, at: event.timestamp, sidechain: event.isSidechain, branch, session }, candidates);
        break;
      }
      case 'tool-use':
        onToolUse(state, event, opts.branch);
        break;
      case 'tool-result':
        onToolResult(state, event, conv);
        break;
      default:
        break;
    }
  }

  // Stop's message is the freshest text; read it once, whether or not the transcript caught up.
  const last = opts.lastAssistantMessage?.trim();
  if (last !== undefined && last !== '' && textHash(last) !== state.lastText) {
    onText(state, last, { key: `m${textHash(last).slice(0, 10)}`, at: undefined, sidechain: false, branch: opts.branch ?? state.branch, session }, candidates);
    state.injected = textHash(last);
  }

  if (opts.final === true) candidates.push(...closeExchange(state, undefined, conv, 'end', undefined));

  const structural = structuralCandidates(state, { session, branch: opts.branch ?? state.branch, now: opts.now });
  const memories: Candidate[] = [...structural];
  const review: Candidate[] = [];
  for (const c of dedupe(candidates)) {
    if (c.layer !== 'keyword' || c.confidence >= opts.threshold) memories.push(c);
    else if (c.confidence >= opts.reviewFloor) review.push(c);
  }
  return { memories, review, state };
}

/** FNV-1a over the folded text: enough to recognise the same message twice. */
function textHash(text: string): string {
  const s = oneLine(text);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x811c9dc5) >>> 0;
  }
  return `${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

interface TextContext {
  key: string;
  at: string | undefined;
  sidechain: boolean;
  branch: string | undefined;
  session: string;
}

function onText(state: ExtractState, text: string, ctx: TextContext, out: Candidate[]): void {
  const ex = state.exchange;
  out.push(...selfReports(text, { session: ctx.session, branch: ctx.branch, key: ctx.key }));
  if (!ctx.sidechain) {
    if (!ex.spoke) acknowledge(ex, text);
    ex.spoke = true;
    ex.finalText = clip(text, LIMITS.finalText);
    ex.finalKey = ctx.key;
    state.lastText = textHash(text);
    // An earlier message of this exchange is no longer the one that closes it.
    for (const d of ex.drafts) if (d.kind === 'finding') d.final = false;
  }
  const failing = state.failures.some((f) => f.exchange >= ex.n - 1);
  const failure = state.failures[state.failures.length - 1];
  if (failing && failure !== undefined && !ctx.sidechain) {
    // The change the assistant announces while a command fails is the fix, once it passes.
    for (const unit of proseUnits(text)) {
      for (const sentence of sentences(unit.text)) {
        if (FIX_STEP.test(sentence) && sentence.length < 300) failure.fixes = [...failure.fixes, cleanSummary(sentence)].slice(-2);
      }
    }
  }
  const drafts = proseDrafts(text, { key: ctx.key, at: ctx.at, sidechain: ctx.sidechain, failing, final: !ctx.sidechain });
  for (const d of drafts) {
    if (failing && failure !== undefined && d.signals.some((s) => s.name === 'afterFailure')) {
      if (!failure.explained.includes(d.key)) failure.explained = [...failure.explained, d.key].slice(-6);
    }
    addDraft(ex, d);
  }
}

/** Judges the open exchange (the person's `prompt` answers it) and opens the next one. */
function closeExchange(state: ExtractState, prompt: string | undefined, conv: ConversationContext, key: string, at: string | undefined): Candidate[] {
  const ex = state.exchange;
  const reaction = reactionTo(ex, prompt);
  if (prompt !== undefined && ex.finalText !== undefined && !ex.interrupted) {
    for (const d of proposalDrafts(ex.finalText, prompt, { key: ex.finalKey ?? key, at, approved: reaction.approved })) addDraft(ex, d);
  }
  const out = judgeExchange(state, ex, reaction, conv);
  // Failures two exchanges old are history: their explanations were judged with them.
  state.failures = state.failures.filter((f) => f.exchange >= ex.n);
  if (prompt === undefined) {
    state.exchange = { ...emptyExchange(ex.n), finalText: ex.finalText, finalKey: ex.finalKey, spoke: ex.spoke };
    return out;
  }
  state.lastFailed = undefined;
  const next = emptyExchange(ex.n + 1);
  const asked = ex.finalText !== undefined && (asksPerson(ex.finalText) || optionsIn(ex.finalText).length > 1);
  next.prompt = { text: clip(prompt, LIMITS.promptText), at, correction: ex.interrupted, answer: asked };
  const question = asked ? lastQuestion(ex.finalText ?? '') : undefined;
  // A "remember that …" prompt is already a self-report at full confidence.
  const d = rememberRequests(prompt, { session: conv.session, branch: conv.branch, key }).length > 0 ? undefined : personDraft(prompt, { key, at, correction: ex.interrupted, answer: asked, lastAction: ex.lastAction, question, context: ex.finalText });
  if (d !== undefined) addDraft(next, d);
  state.exchange = next;
  return out;
}

function lastQuestion(text: string): string | undefined {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes('?'));
  const line = lines[lines.length - 1];
  if (line === undefined) return undefined;
  // The question itself, not the statements before it on the same line.
  return sentences(line).filter((s) => s.includes('?')).pop() ?? line;
}

function emptyState(): ExtractState {
  return {
    version: 2,
    edited: [],
    read: [],
    commands: 0,
    recentCommands: [],
    commits: [],
    prompts: 0,
    branches: [],
    sessions: [],
    pendingTools: {},
    exchange: emptyExchange(0),
    failures: [],
    emitted: [],
  };
}

function cloneState(state: ExtractState | undefined): ExtractState {
  if (state === undefined || state.version !== 2) return emptyState();
  // A structured copy: the caller's object is never mutated.
  return JSON.parse(JSON.stringify(state)) as ExtractState;
}

// ---------------------------------------------------------------------------
// Tool calls

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function describeAction(event: ToolUseEvent, root: string | undefined): string {
  const input = event.input;
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  if (path !== undefined) return `${event.name} \`${relativePath(path, root)}\``;
  const command = str(input.command);
  if (command !== undefined) return `${event.name} \`${shortCommand(command)}\``;
  return event.name;
}

function onToolUse(state: ExtractState, event: ToolUseEvent, branchOption: string | undefined): void {
  const input = event.input;
  const ex = state.exchange;
  if (event.id !== '' && state.pendingTools[event.id] !== undefined) return; // replayed line
  if (!event.isSidechain) {
    ex.lastAction = describeAction(event, state.root);
    ex.tools++;
  }
  if (event.name === 'TodoWrite') {
    // Subagents keep their own scratch lists; the plan is the main thread's.
    if (event.isSidechain) return;
    const items = parseTodos(input.todos);
    if (items !== undefined) {
      const title = state.todos?.title ?? items[0]?.content;
      state.todos = { items, branch: event.gitBranch ?? branchOption, ...(title !== undefined ? { title } : {}) };
    }
    return;
  }
  const pending: PendingTool = { name: event.name, ...(event.isSidechain ? { sidechain: true } : {}) };
  if (EDIT_TOOLS.has(event.name) || READ_TOOLS.has(event.name)) {
    const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
    if (path === undefined) return;
    pending.file = relativePath(path, state.root);
    if (EDIT_TOOLS.has(event.name) && !event.isSidechain) {
      const written = writtenText(event);
      const requested = ex.prompt !== undefined && /\.(?:md|mdx|txt|rst)\b|\b(?:doc|docs|document|documentation|readme|spec|guide|notes?|write[- ]?up|rules?|claude\.md|agents\.md)\b/i.test(ex.prompt.text);
      const draft = documentDraft(pending.file, written.added, { key: `doc:${pending.file}`, at: event.timestamp, whole: written.whole, requested });
      if (draft !== undefined) pending.draft = draft;
    }
  } else if (event.name === 'Bash') {
    const command = str(input.command);
    if (command === undefined) return;
    pending.command = command;
  } else if (PLAN_TOOLS.test(event.name)) {
    const plan = str(input.plan);
    if (plan === undefined) return;
    pending.plan = clip(plan, 3000);
  } else if (event.name === 'AskUserQuestion') {
    const questions = Array.isArray(input.questions) ? input.questions : [];
    pending.questions = questions
      .filter((q): q is Record<string, unknown> => q !== null && typeof q === 'object')
      .map((q) => ({
        question: str(q.question) ?? '',
        options: Array.isArray(q.options) ? q.options.map((o) => (o !== null && typeof o === 'object' ? str((o as Record<string, unknown>).label) : str(o)) ?? '').filter(Boolean) : [],
      }))
      .filter((q) => q.question !== '');
  } else if (!SUBAGENT_TOOLS.has(event.name)) {
    return;
  }
  if (event.id === '') return;
  state.pendingTools[event.id] = pending;
  // Calls whose results never come (interrupted sessions) must not grow the state forever.
  const ids = Object.keys(state.pendingTools);
  if (ids.length > MAX_PENDING_TOOLS) delete state.pendingTools[ids[0] ?? ''];
}

/** What an edit or write puts into the file: the whole text, or the lines it adds. */
function writtenText(event: ToolUseEvent): { added: string; whole: boolean } {
  const input = event.input;
  if (event.name === 'Write') return { added: str(input.content) ?? '', whole: true };
  if (event.name === 'MultiEdit' && Array.isArray(input.edits)) {
    const parts = input.edits
      .filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object')
      .map((e) => addedLines(str(e.old_string) ?? '', str(e.new_string) ?? ''));
    return { added: parts.join('\n'), whole: false };
  }
  return { added: addedLines(str(input.old_string) ?? '', str(input.new_string) ?? str(input.new_source) ?? ''), whole: false };
}

function onToolResult(state: ExtractState, event: ToolResultEvent, conv: ConversationContext): void {
  const pending = state.pendingTools[event.toolUseId];
  if (pending === undefined) return;
  delete state.pendingTools[event.toolUseId];
  const ex = state.exchange;
  const key = `o${event.offset}`;
  const refused = event.isError && REFUSED_BY_PERSON.test(event.content);
  if (refused && !pending.sidechain) ex.interrupted = true;

  if (pending.plan !== undefined) {
    const approved = !event.isError && /approv/i.test(event.content);
    const draft = planDraft(pending.plan, { key, at: event.timestamp, approved });
    if (draft !== undefined && (approved || refused)) addDraft(ex, draft);
    return;
  }
  if (pending.questions !== undefined) {
    if (!event.isError) for (const d of answerDrafts(pending.questions, event.content, { key, at: event.timestamp })) addDraft(ex, d);
    return;
  }
  if (SUBAGENT_TOOLS.has(pending.name)) {
    // A subagent's report: what it found is read like the assistant's own words, weaker.
    const rejectedPlan = /^The agent proposed a plan that was rejected[\s\S]*?Rejected plan:\s*([\s\S]+)$/.exec(event.content);
    if (rejectedPlan) {
      const draft = planDraft(rejectedPlan[1] ?? '', { key, at: event.timestamp, approved: false });
      if (draft !== undefined) addDraft(ex, draft);
      ex.interrupted = true;
      return;
    }
    if (event.isError || event.content.trim() === '') return;
    for (const d of proseDrafts(event.content, { key, at: event.timestamp, sidechain: true, failing: false, final: false })) addDraft(ex, d);
    return;
  }
  if (event.isError && NOT_RUN.test(event.content)) {
    if (!pending.sidechain && /^\w+:\w+ hook error/.test(event.content)) {
      const what = pending.command !== undefined ? `\`${shorten(shortCommand(pending.command), 80)}\`` : pending.file !== undefined ? `${pending.name} \`${pending.file}\`` : pending.name;
      const draft = blockedDraft(what, event.content, { key, at: event.timestamp });
      if (draft !== undefined) addDraft(ex, draft);
    }
    return;
  }
  // A failed edit changed nothing and a failed read taught nothing; a failed command still ran.
  if (pending.file !== undefined) {
    if (event.isError) return;
    const list = EDIT_TOOLS.has(pending.name) ? state.edited : state.read;
    if (!list.includes(pending.file)) list.push(pending.file);
    if (EDIT_TOOLS.has(pending.name) && !pending.sidechain) {
      if (!ex.edited.includes(pending.file)) ex.edited = [...ex.edited, pending.file].slice(-20);
      state.lastFailed = undefined; // a command passing after an edit is a fix, not another way
      for (const f of state.failures) if (!f.edits.includes(pending.file)) f.edits = [...f.edits, pending.file].slice(-10);
      if (pending.draft !== undefined) addDraft(ex, pending.draft);
    }
    return;
  }
  if (pending.command === undefined) return;
  state.commands++;
  const shown = shortCommand(pending.command);
  const at = state.recentCommands.indexOf(shown);
  if (at !== -1) state.recentCommands.splice(at, 1);
  state.recentCommands.push(shown);
  if (state.recentCommands.length > RECENT_COMMANDS) state.recentCommands.shift();
  const stdout = isObject(event.structured) && typeof event.structured.stdout === 'string' ? event.structured.stdout : event.content;
  const commit = commitOf(pending.command, stdout, event.isError);
  if (commit !== undefined) state.commits.push(commit);
  if (pending.sidechain) return;
  onCommandResult(state, pending.command, event, conv);
}

/** Tracks failing commands; one that passes again resolves the failure its drafts explained. */
function onCommandResult(state: ExtractState, command: string, event: ToolResultEvent, _conv: ConversationContext): void {
  const before = state.lastFailed;
  const shown = shortCommand(command);
  state.lastFailed = event.isError ? { command: shown, symptom: symptomOf(event.content), at: event.timestamp } : undefined;
  if (!event.isError && before !== undefined) {
    const draft = workaroundDraft(before, shown, { key: `w${event.offset}`, at: event.timestamp });
    if (draft !== undefined) addDraft(state.exchange, draft);
  }
  const program = programKey(command);
  if (program === '') return;
  const ex = state.exchange;
  const open = state.failures.find((f) => f.program === program);
  if (event.isError) {
    if (open !== undefined) {
      open.attempts++;
      open.exchange = ex.n;
      return;
    }
    const failure: Failure = {
      key: `f${event.offset}`,
      program,
      command: shortCommand(command),
      symptom: symptomOf(event.content),
      at: event.timestamp,
      explained: [],
      fixes: [],
      edits: [],
      attempts: 1,
      exchange: ex.n,
    };
    state.failures = [...state.failures, failure].slice(-LIMITS.failures);
    return;
  }
  if (open === undefined) return;
  state.failures = state.failures.filter((f) => f !== open);
  resolveDrafts(ex, open.explained, open.edits, open.command);
  // The symptom goes into the explanations' evidence: what it looked like when it failed.
  for (const d of ex.drafts) {
    if (!open.explained.includes(d.key)) continue;
    const line = `Symptom: \`${shorten(open.command, 80)}\` failed${open.attempts > 1 ? ` ${open.attempts} times` : ''}: ${open.symptom}`;
    if (!d.body.includes(line)) d.body = clip(`${d.body}\n${line}`, LIMITS.body);
    for (const fix of open.fixes) if (!d.body.includes(fix)) d.body = clip(`${d.body}\nFix: ${fix}`, LIMITS.body);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------

const LAYER_RANK: Record<Candidate['layer'], number> = { 'self-report': 0, structural: 1, llm: 2, keyword: 3 };

/** One candidate per key and per normalised summary: the most authoritative layer wins, then confidence. */
function dedupe(all: readonly Candidate[]): Candidate[] {
  // A later candidate with a key replaces an earlier one with it (a finding said again
  // later that now earns a memory replaces its review entry).
  const lastOfKey = new Map<string, number>();
  all.forEach((c, i) => {
    if (c.key !== undefined) lastOfKey.set(c.key, i);
  });
  const candidates = all.filter((c, i) => c.key === undefined || lastOfKey.get(c.key) === i);
  const best = new Map<string, { c: Candidate; order: number }>();
  candidates.forEach((c, order) => {
    const keys = [c.topic !== undefined ? `topic:${c.topic}` : `summary:${normalizeSummary(c.summary)}`];
    const prevKey = keys.find((k) => best.has(k));
    const k = prevKey ?? (keys[0] as string);
    const prev = best.get(k);
    if (prev === undefined) best.set(k, { c, order });
    else if (LAYER_RANK[c.layer] < LAYER_RANK[prev.c.layer] || (c.layer === prev.c.layer && c.confidence > prev.c.confidence)) {
      best.set(k, { c, order: prev.order });
    }
  });
  return [...best.values()].sort((a, b) => a.order - b.order).map((v) => v.c);
}

function normalizeSummary(summary: string): string {
  return summary
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
