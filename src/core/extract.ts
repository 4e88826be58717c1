/**
 * Memory extraction from transcript events: three layers, no LLM (DESIGN §6).
 *
 * - structural: tool calls → one `plan` candidate per branch (latest TodoWrite list) and one
 *   `progress` candidate per session (files edited, commits, commands), upserted by `topic`.
 * - keyword: decision / rejection / gotcha / pattern markers in assistant prose, scored 0..1;
 *   at or above `threshold` they are memories, between `reviewFloor` and it they go to review.
 * - self-report: `[MEMORY: type] text` tags in assistant prose, and a person's
 *   "remember that …" prompts, at confidence 1.0.
 *
 * Pure: events in, candidates out. Incremental runs pass the previous `state` back in,
 * so the work done is proportional to the new events only and the structural
 * candidates still summarise the whole session.
 */
import type { MemoryType } from './memory.js';
import { isMemoryType, normalizeTags } from './memory.js';
import type { ToolResultEvent, ToolUseEvent, TranscriptEvent } from './transcript.js';

export type CandidateLayer = 'structural' | 'keyword' | 'self-report';

/** A memory proposed by extraction. The shell redacts, dedups across runs and writes it. */
export interface Candidate {
  type: MemoryType;
  /** One line, at most `MAX_CANDIDATE_SUMMARY` characters, markdown stripped. */
  summary: string;
  /** Markdown. */
  body: string;
  /** 0..1. Self-reports are 1.0; keyword candidates never reach it. */
  confidence: number;
  tags: string[];
  /** Upsert key: `plan/<branch>` and `session/<sessionId>` for structural candidates. */
  topic?: string | undefined;
  layer: CandidateLayer;
  files?: string[] | undefined;
  session: string;
  branch?: string | undefined;
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface CommitInfo {
  hash?: string | undefined;
  subject: string;
}

interface PendingTool {
  name: string;
  /** Edited or read path, relative to the session root where possible. */
  file?: string | undefined;
  command?: string | undefined;
}

/**
 * What an incremental run carries to the next one: JSON-serialisable and small
 * (paths, counts, the latest todo list). Persist it next to the byte checkpoint.
 */
export interface ExtractState {
  version: 1;
  /** First `cwd` seen: paths under it are written relative to it. */
  root?: string | undefined;
  /** Edited paths, in first-edit order. */
  edited: string[];
  /** Distinct read paths, in first-read order. */
  read: string[];
  commands: number;
  /** Most recent distinct commands (first line, shortened), oldest first. */
  recentCommands: string[];
  commits: CommitInfo[];
  todos?: { items: TodoItem[]; branch?: string | undefined } | undefined;
  prompts: number;
  /** Latest `gitBranch` seen; `branches` lists every one in first-seen order. */
  branch?: string | undefined;
  branches: string[];
  sessions: string[];
  firstTimestamp?: string | undefined;
  lastTimestamp?: string | undefined;
  /** Tool calls whose result has not been read yet (the transcript lags). */
  pendingTools: Record<string, PendingTool>;
  /** Keyword candidates of the last assistant turn, boosted if the next prompt accepts them. */
  proposals: Candidate[];
}

export interface ExtractOptions {
  /** The session the candidates belong to (the hook's `session_id`). */
  sessionId: string;
  /** The current branch as the shell knows it; events' own `gitBranch` is the fallback. */
  branch?: string | undefined;
  /** Keyword candidates at or above it are memories; below it, review. */
  threshold?: number;
  /** Keyword candidates below it are dropped rather than queued for review. */
  reviewFloor?: number;
  /** ISO-8601 or Date; stands in for event timestamps when the events carry none. */
  now: Date | string;
  /** Stop's `last_assistant_message`: the transcript may not hold it yet. */
  lastAssistantMessage?: string | undefined;
  /** State returned by the previous run over the same transcript. */
  state?: ExtractState | undefined;
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
  reviewFloor: 0.4,
} as const;

/** Summaries are one line of at most this many characters (memory files allow 300). */
export const MAX_CANDIDATE_SUMMARY = 200;

/**
 * Self-report tag aliases. `learned` maps to `gotcha`: what an assistant "learns" mid-task
 * is almost always something that did not work as expected, and gotchas outlive context
 * (45 vs 30 days) and get more briefing budget. Unknown tags fall back to `context`.
 */
export const SELF_REPORT_ALIASES: Readonly<Record<string, MemoryType>> = {
  learned: 'gotcha',
  learning: 'gotcha',
  lesson: 'gotcha',
  til: 'gotcha',
  pitfall: 'gotcha',
  warning: 'gotcha',
  bug: 'gotcha',
  decided: 'decision',
  choice: 'decision',
  reject: 'rejected',
  rejection: 'rejected',
  'rejected-approach': 'rejected',
  arch: 'architecture',
  design: 'architecture',
  convention: 'pattern',
  pref: 'preference',
  todo: 'plan',
  note: 'context',
  fact: 'context',
  info: 'context',
};

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_TOOLS = new Set(['Read', 'NotebookRead']);
const RECENT_COMMANDS = 10;
const MAX_LISTED_FILES = 30;
const MAX_PENDING_TOOLS = 200;

/**
 * Extracts memory candidates from transcript events with three layers (structural,
 * keyword, self-report). Deterministic: the same events and options give the same result.
 *
 * @example
 * const { events } = parseTranscriptChunk(text);
 * const { memories, review, state } = extractMemories(events, {
 *   sessionId: 'a9185eb7', branch: 'main', now: '2026-11-21T10:00:00Z',
 * });
 * // memories: [{ type: 'plan', topic: 'plan/main', summary: 'Plan on main: 3/7 done — …', … }, …]
 */
export function extractMemories(events: readonly TranscriptEvent[], options: ExtractOptions): ExtractResult {
  const opts = { ...DEFAULT_EXTRACT, ...options };
  const state = cloneState(opts.state);
  const candidates: Candidate[] = [];
  const session = opts.sessionId;
  const toolIds = new Set<string>();
  let lastTextByMessage: { id: string | undefined; texts: string[] } = { id: undefined, texts: [] };
  const seenTexts = new Set<string>();

  // Proposals carried from the previous run were already emitted; a boost re-emits them.
  let turn: Candidate[] = state.proposals;
  state.proposals = [];

  const emitText = (text: string, branch: string | undefined, sidechain: boolean): void => {
    for (const c of selfReports(text, { session, branch })) candidates.push(c);
    for (const c of keywordCandidates(text, { session, branch, sidechain })) {
      candidates.push(c);
      if (!sidechain && (c.type === 'decision' || c.type === 'rejected')) turn.push(c);
    }
  };

  for (const event of events) {
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

    switch (event.kind) {
      case 'prompt': {
        if (event.isSidechain) break; // a subagent's task prompt, written by the assistant
        state.prompts++;
        if (isAcceptance(event.text)) {
          for (const c of turn) {
            const boosted = { ...c, confidence: round(clamp(c.confidence + ACCEPTANCE_BOOST, 0, 0.95)) };
            if (boosted.confidence !== c.confidence) candidates.push(boosted);
          }
        }
        turn = [];
        for (const c of rememberRequests(event.text, { session, branch })) candidates.push(c);
        break;
      }
      case 'meta':
        if (event.subtype === 'memory-input' && event.text !== undefined && event.text.trim() !== '' && !event.isSidechain) {
          candidates.push(userPreference(event.text.replace(/^#\s*/, ''), { session, branch }));
        }
        break;
      case 'text': {
        if (event.synthetic) break;
        const key = normalizeSpace(event.text);
        if (seenTexts.has(key) && key.length > 40) break; // the same prose replayed (resume, retry)
        seenTexts.add(key);
        if (lastTextByMessage.id !== event.messageId || event.messageId === undefined) lastTextByMessage = { id: event.messageId, texts: [] };
        lastTextByMessage.texts.push(event.text);
        emitText(event.text, branch, event.isSidechain);
        break;
      }
      case 'tool-use':
        if (toolIds.has(event.id) || (event.id !== '' && state.pendingTools[event.id] !== undefined)) break;
        toolIds.add(event.id);
        // The assistant kept working: an earlier proposal is no longer what the next prompt answers.
        if (!event.isSidechain) turn = [];
        onToolUse(event, state, opts.branch);
        break;
      case 'tool-result':
        onToolResult(event, state);
        break;
      default:
        break;
    }
  }

  // Stop's message is the freshest text; skip it when the transcript already caught up.
  const last = opts.lastAssistantMessage?.trim();
  if (last !== undefined && last !== '') {
    const norm = normalizeSpace(last);
    const caughtUp = seenTexts.has(norm) || normalizeSpace(lastTextByMessage.texts.join('\n\n')) === norm;
    if (!caughtUp) emitText(last, opts.branch ?? state.branch, false);
  }

  state.proposals = turn;

  const branch = opts.branch ?? state.branch;
  const structural = structuralCandidates(state, { session, branch, now: opts.now });
  const all = dedupe([...structural, ...candidates]);
  const memories: Candidate[] = [];
  const review: Candidate[] = [];
  for (const c of all) {
    if (c.layer !== 'keyword' || c.confidence >= opts.threshold) memories.push(c);
    else if (c.confidence >= opts.reviewFloor) review.push(c);
  }
  return { memories, review, state };
}

function emptyState(): ExtractState {
  return {
    version: 1,
    edited: [],
    read: [],
    commands: 0,
    recentCommands: [],
    commits: [],
    prompts: 0,
    branches: [],
    sessions: [],
    pendingTools: {},
    proposals: [],
  };
}

function cloneState(state: ExtractState | undefined): ExtractState {
  if (state === undefined || state.version !== 1) return emptyState();
  // A structured copy: the caller's object is never mutated.
  return JSON.parse(JSON.stringify(state)) as ExtractState;
}

// ---------------------------------------------------------------------------
// Structural layer

function onToolUse(event: ToolUseEvent, state: ExtractState, branchOption: string | undefined): void {
  const input = event.input;
  if (event.name === 'TodoWrite') {
    // Subagents keep their own scratch lists; the plan is the main thread's.
    if (event.isSidechain) return;
    const items = parseTodos(input.todos);
    if (items !== undefined) state.todos = { items, branch: event.gitBranch ?? branchOption };
    return;
  }
  const pending: PendingTool = { name: event.name };
  if (EDIT_TOOLS.has(event.name) || READ_TOOLS.has(event.name)) {
    const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
    if (path === undefined) return;
    pending.file = relativePath(path, state.root);
  } else if (event.name === 'Bash') {
    const command = str(input.command);
    if (command === undefined) return;
    pending.command = command;
  } else {
    return;
  }
  if (event.id === '') return;
  state.pendingTools[event.id] = pending;
  // Calls whose results never come (interrupted sessions) must not grow the state forever.
  const ids = Object.keys(state.pendingTools);
  if (ids.length > MAX_PENDING_TOOLS) delete state.pendingTools[ids[0] ?? ''];
}

function onToolResult(event: ToolResultEvent, state: ExtractState): void {
  const pending = state.pendingTools[event.toolUseId];
  if (pending === undefined) return;
  delete state.pendingTools[event.toolUseId];
  if (event.isError && NOT_RUN.test(event.content)) return;
  // A failed edit changed nothing and a failed read taught nothing; a failed command still ran.
  if (pending.file !== undefined) {
    if (event.isError) return;
    const list = EDIT_TOOLS.has(pending.name) ? state.edited : state.read;
    if (!list.includes(pending.file)) list.push(pending.file);
    return;
  }
  if (pending.command === undefined) return;
  state.commands++;
  const shown = shortCommand(pending.command);
  const at = state.recentCommands.indexOf(shown);
  if (at !== -1) state.recentCommands.splice(at, 1);
  state.recentCommands.push(shown);
  if (state.recentCommands.length > RECENT_COMMANDS) state.recentCommands.shift();
  const commit = commitOf(pending.command, event);
  if (commit !== undefined) state.commits.push(commit);
}

/** Results of calls that never ran: refused by the person or blocked by a hook. */
const NOT_RUN = /^(?:The user doesn't want to proceed|\[Request interrupted|\w+:\w+ hook error|Permission to use \w+ has been denied)/;

const GIT_COMMIT = /(?:^|[\s;&|(])git\s+(?:-[Cc]\s+\S+\s+|--?[\w-]+(?:=\S+)?\s+)*commit\b/;
const COMMIT_LINE = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m;

/** A commit made by a Bash call: the subject from git's own output, else from `-m`. */
function commitOf(command: string, result: Pick<ToolResultEvent, 'content' | 'isError' | 'structured'>): CommitInfo | undefined {
  if (!GIT_COMMIT.test(command)) return undefined;
  const stdout = isObject(result.structured) && typeof result.structured.stdout === 'string' ? result.structured.stdout : result.content;
  const line = COMMIT_LINE.exec(stdout);
  if (line) return { hash: line[2], subject: (line[3] ?? '').trim() };
  if (result.isError || /nothing to commit|no changes added to commit/i.test(stdout)) return undefined;
  const message = commitMessage(command);
  return message === undefined ? undefined : { subject: message };
}

function commitMessage(command: string): string | undefined {
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1\b/.exec(command);
  // -m, combined short flags such as -am, or --message=
  const quoted = /(?:\s-[a-zA-Z]*m|\s--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(command);
  const text = quoted?.[1] !== undefined && !quoted[1].startsWith('$(') ? quoted[1] : quoted?.[2] ?? heredoc?.[2];
  const subject = text
    ?.replace(/\\"/g, '"')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return subject === undefined ? undefined : subject.slice(0, 150);
}

function parseTodos(value: unknown): TodoItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: TodoItem[] = [];
  for (const raw of value) {
    if (!isObject(raw)) continue;
    const content = str(raw.content) ?? str(raw.subject);
    if (content === undefined || content.trim() === '') continue;
    const status = raw.status === 'completed' || raw.status === 'in_progress' ? raw.status : 'pending';
    items.push({ content: oneLine(content), status });
  }
  return items;
}

function checklistLine(t: TodoItem): string {
  const box = t.status === 'completed' ? 'x' : ' ';
  return `- [${box}] ${t.content}${t.status === 'in_progress' ? ' (in progress)' : ''}`;
}

interface StructuralContext {
  session: string;
  branch: string | undefined;
  now: Date | string;
}

function structuralCandidates(state: ExtractState, ctx: StructuralContext): Candidate[] {
  const out: Candidate[] = [];
  const todos = state.todos;
  if (todos !== undefined && todos.items.length > 0) {
    const branch = ctx.branch ?? todos.branch;
    const name = branch ?? 'no-branch';
    const done = todos.items.filter((t) => t.status === 'completed').length;
    const current = todos.items.find((t) => t.status === 'in_progress');
    const next = todos.items.find((t) => t.status === 'pending');
    const tail = current ? current.content : next ? `next: ${next.content}` : 'all done';
    out.push({
      type: 'plan',
      summary: truncate(`${branch === undefined ? 'Plan' : `Plan on ${branch}`}: ${done}/${todos.items.length} done — ${tail}`),
      body: todos.items.map(checklistLine).join('\n'),
      confidence: 0.9,
      tags: normalizeTags(['plan', ...(branch === undefined ? [] : [branch])]),
      topic: `plan/${name}`,
      layer: 'structural',
      session: ctx.session,
      ...(branch === undefined ? {} : { branch }),
    });
  }

  const edited = state.edited.length;
  const commits = state.commits.length;
  if (edited + commits + state.commands + state.read.length > 0) {
    const parts: string[] = [];
    if (edited > 0) {
      const names = state.edited.slice(0, 3).map(basename).join(', ');
      parts.push(`edited ${plural(edited, 'file')} (${names}${edited > 3 ? ` +${edited - 3}` : ''})`);
    } else if (state.read.length > 0) parts.push(`read ${plural(state.read.length, 'file')}`);
    if (commits > 0) parts.push(plural(commits, 'commit'));
    if (state.commands > 0) parts.push(`ran ${plural(state.commands, 'command')}`);
    const where = ctx.branch === undefined ? 'Session' : `Session on ${ctx.branch}`;
    const lastCommit = state.commits[commits - 1];
    const summary = `${where}: ${parts.join(', ')}${lastCommit ? `; last commit: ${lastCommit.subject}` : ''}`;

    const lines: string[] = [];
    const others = state.sessions.filter((s) => s !== ctx.session);
    const span = `${shortTime(state.firstTimestamp ?? ctx.now)} – ${shortTime(state.lastTimestamp ?? ctx.now)}`;
    const also = others.length > 0 ? ` (also ${others.map(code).join(', ')})` : '';
    const on = state.branches.length > 0 ? ` on ${state.branches.map(code).join(' → ')}` : '';
    lines.push(`Session ${code(ctx.session)}${also}${on}, ${span}, ${plural(state.prompts, 'prompt')}.`);
    if (edited > 0) {
      lines.push('', `Edited (${edited}):`);
      for (const f of state.edited.slice(0, MAX_LISTED_FILES)) lines.push(`- ${f}`);
      if (edited > MAX_LISTED_FILES) lines.push(`- … and ${edited - MAX_LISTED_FILES} more`);
    }
    if (commits > 0) {
      lines.push('', `Commits (${commits}):`);
      for (const c of state.commits) lines.push(`- ${c.hash === undefined ? '' : `\`${c.hash.slice(0, 7)}\` `}${c.subject}`);
    }
    if (state.commands > 0) {
      lines.push('', `Commands (${state.commands}), latest:`);
      for (const c of state.recentCommands) lines.push(`- \`${c.replace(/`/g, "'")}\``);
    }
    if (state.read.length > 0) lines.push('', `Read ${plural(state.read.length, 'file')}.`);

    out.push({
      type: 'progress',
      summary: truncate(summary),
      body: lines.join('\n'),
      confidence: commits > 0 ? 0.9 : edited > 0 ? 0.85 : 0.8,
      tags: normalizeTags(['session', ...(ctx.branch === undefined ? [] : [ctx.branch])]),
      topic: `session/${ctx.session}`,
      layer: 'structural',
      ...(edited > 0 ? { files: state.edited.slice(0, MAX_LISTED_FILES) } : {}),
      session: ctx.session,
      ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Prose segmentation shared by the keyword and self-report layers

interface Unit {
  /** Raw markdown of one paragraph line group or list item. */
  text: string;
  /** The paragraph (or list) the unit belongs to: the candidate body. */
  block: string;
  /** Nearest heading or label line above, for context. */
  heading: string;
  /** Heading or label line directly above this list, with no paragraph in between. */
  introducer: string | undefined;
  isListItem: boolean;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING = /^\s{0,3}#{1,6}\s+/;
const LABEL_LINE = /^\s*(?:\*\*|__)?[^*_:\n]{2,40}(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$/;

/** Prose units of a markdown text, with fenced code, blockquotes and tables left out. */
function proseUnits(markdown: string): Unit[] {
  const units: Unit[] = [];
  let fence: string | undefined;
  let heading = '';
  let introducer: string | undefined;
  let block: Unit[] = [];
  let current: Unit | undefined;

  const push = (): void => {
    if (current) block.push(current);
    current = undefined;
  };
  const closeBlock = (): void => {
    push();
    const text = block.map((u) => u.text).join('\n');
    for (const u of block) units.push({ ...u, block: text });
    block = [];
  };

  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      closeBlock();
      fence = f[1];
      introducer = undefined;
      continue;
    }
    const trimmed = line.trim();
    // Blockquotes and tables quote tool output or compare options; neither states a decision.
    if (trimmed.startsWith('>') || trimmed.startsWith('|') || /^[-*_]{3,}$/.test(trimmed)) {
      closeBlock();
      introducer = undefined;
      continue;
    }
    if (trimmed === '') {
      closeBlock();
      continue;
    }
    if (HEADING.test(line)) {
      closeBlock();
      heading = trimmed.replace(/^#+\s*/, '').replace(/\s*#+$/, '');
      introducer = heading;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      push();
      current = { text: trimmed.replace(LIST_ITEM, ''), block: '', heading, introducer, isListItem: true };
      continue;
    }
    if (LABEL_LINE.test(trimmed) && current === undefined) {
      // "**Architecture Decisions**:" introduces the list that follows, like a heading.
      closeBlock();
      heading = trimmed;
      introducer = trimmed;
      continue;
    }
    if (current && (!current.isListItem || /^\s/.test(line))) current.text += ` ${trimmed}`;
    else {
      push();
      // A paragraph between a heading and a list means the heading no longer introduces it.
      introducer = undefined;
      current = { text: trimmed, block: '', heading, introducer, isListItem: false };
    }
  }
  closeBlock();
  return units;
}

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|Mr|Mrs|Dr|St|No)|\b[A-Z])\.$/;

/**
 * Sentence boundaries of a (masked) text: after . ! ? followed by space and a capital or
 * markup. Splitting the masked text keeps a period inside code or quotes from ending a sentence.
 */
function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?]+(?=\s+[A-Z0-9`*_"'([\u00a4])/g;
  let start = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    const end = match.index + match[0].length;
    if (ABBREVIATIONS.test(text.slice(start, end))) continue;
    out.push([start, end]);
    start = end;
  }
  if (text.slice(start).trim() !== '') out.push([start, text.length]);
  return out;
}

function sentences(text: string): string[] {
  const masked = maskInline(text);
  return sentenceSpans(masked)
    .map(([a, b]) => text.slice(a, b).trim())
    .filter((s) => s !== '');
}

const MASK = '\u00a4';

/**
 * Inline code, quoted strings and URLs overwritten with `¤` (same length, so offsets still
 * match the original): words inside them never count as markers.
 */
function maskInline(text: string): string {
  const hide = (m: string): string => MASK.repeat(m.length);
  return text
    .replace(/`+[^`]*`+/g, hide)
    .replace(/\]\([^)\s]*\)/g, (m) => `]${hide(m.slice(1))}`)
    .replace(/https?:\/\/\S+/g, hide)
    .replace(/"[^"\n]*"|\u201c[^\u201d\n]*\u201d/g, hide);
}

/**
 * Markdown stripped to one plain line, at most `MAX_CANDIDATE_SUMMARY` characters,
 * cut at a word boundary.
 *
 * @example
 * cleanSummary('- **Chose** `pnpm` over [npm](https://npmjs.com)') // 'Chose pnpm over npm'
 */
export function cleanSummary(markdown: string): string {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, '$1$2')
    .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/, '')
    .replace(/\*\*|__/g, '');
  return truncate(oneLine(text));
}

// ---------------------------------------------------------------------------
// Keyword layer

interface Marker {
  name: string;
  re: RegExp;
  type: MemoryType;
  base: number;
}

/**
 * Markers, strongest first within a type. Present-tense "decide"/"choose" are deliberately
 * absent: "Let me decide…", "I'll choose a name" announce a step, not a decision.
 */
const MARKERS: readonly Marker[] = [
  { name: 'decided-against', re: /\bdecided (?:against|not to)\b/i, type: 'rejected', base: 0.7 },
  { name: 'ruled-out', re: /\bruled (?:\w+ )?out\b/i, type: 'rejected', base: 0.7 },
  { name: 'rejected', re: /\brejected\b/i, type: 'rejected', base: 0.55 },
  { name: 'we-wont-use', re: /\bwe(?:'ll| will)? (?:not|won't|don't|do not) (?:use|go with|adopt|need)\b/i, type: 'rejected', base: 0.5 },
  { name: 'chose-over', re: /\b(?:chose|chosen|picked|prefer(?:red)?|opted for|went with|going with|go with|settled on)\b[^.;]{1,80}?\bover\b/i, type: 'decision', base: 0.75 },
  { name: 'decided', re: /\b(?:decided|decision (?:is|was)|made the (?:call|decision))\b/i, type: 'decision', base: 0.6 },
  { name: 'go-with', re: /\b(?:we'll|we will|let's|we're|we are|I'll|I will|I'm)\s+(?:go(?:ing)?|stick(?:ing)?)\s+with\b/i, type: 'decision', base: 0.6 },
  { name: 'opted', re: /\b(?:opted (?:for|to)|settled on|chose|went with)\b/i, type: 'decision', base: 0.6 },
  { name: 'cleanest-way', re: /\bis the (?:cleanest|simplest|best|right|safest) (?:way|approach|option|choice|fix)\b/i, type: 'decision', base: 0.55 },
  { name: 'stick-with', re: /\bstick(?:ing)? with\b/i, type: 'decision', base: 0.5 },
  { name: 'recommend', re: /\b(?:I(?:'d| would)? recommend|recommendation)\b/i, type: 'decision', base: 0.45 },
  { name: 'instead-of', re: /\binstead of\b/i, type: 'decision', base: 0.45 },
  { name: 'root-cause', re: /\broot cause\b/i, type: 'gotcha', base: 0.65 },
  { name: 'the-fix-was', re: /\bthe (?:fix|solution|workaround|trick) (?:was|is|turned out)\b/i, type: 'gotcha', base: 0.65 },
  { name: 'gotcha', re: /\bgotcha\b/i, type: 'gotcha', base: 0.65 },
  { name: 'turns-out', re: /\bturn(?:s|ed) out\b/i, type: 'gotcha', base: 0.6 },
  { name: 'the-problem-was', re: /\bthe (?:issue|problem|bug|culprit) (?:was|is) (?:that|caused by)\b/i, type: 'gotcha', base: 0.5 },
  { name: 'convention', re: /\bthe (?:convention|pattern|rule) (?:here |in this (?:repo|codebase|project) )?is\b/i, type: 'pattern', base: 0.6 },
  { name: 'always-never', re: /\b(?:always|never) (?:use|call|run|import|put|write|pass|wrap|prefer|add|keep)\b/i, type: 'pattern', base: 0.5 },
];

/** "**Decision**: …" style labels at the start of a unit. */
const LABELS: readonly [RegExp, MemoryType, number][] = [
  [/^(?:decision|decided|final decision)$/i, 'decision', 0.7],
  [/^(?:rejected|ruled out|not doing|dropped|out of scope|cut|won't do|alternatives? rejected)$/i, 'rejected', 0.65],
  [/^(?:root cause|gotcha|pitfall|lesson(?:s)? learned|lesson|caveat)$/i, 'gotcha', 0.7],
  [/^(?:fix|solution|workaround)$/i, 'gotcha', 0.5],
  [/^(?:convention|pattern|rule)$/i, 'pattern', 0.6],
  [/^(?:recommendation|recommended approach|proposed solution|approach)$/i, 'decision', 0.5],
];
const LABEL = /^(?:\*\*|__)?([A-Za-z][A-Za-z' ]{1,30}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s+(?=\S)/;

/** Headings and label lines whose list items are decisions or rejections themselves. */
const DECISION_HEADING = /\bdecisions?\b|\bdecided\b/i;
const REJECTED_HEADING = /\b(?:rejected|ruled out|not doing|out of scope|cut|alternatives considered)\b/i;
/** "Decisions to make", "Open decisions?": the list holds questions, not answers. */
const OPEN_HEADING = /\b(?:to (?:make|take|decide)|open|pending|needed|outstanding|undecided|questions?|challenges|issues|problems)\b|\?/i;

const REASON = /\b(?:because|since|so that|due to|given that|as it|which means|in order to)\b|, so\b/i;
const WE = /\b(?:we|we've|we'll|we're|let's|our)\b/i;
const HEDGE = /\b(?:maybe|might|could|perhaps|possibly|probably|I think|not sure|consider(?:ing)?|would|may|if needed|optionally)\b/gi;
const FIRST_PERSON_STEP = /\b(?:I'll|I will|let me|I'm going to|I need to|I'm about to|now I)\b/i;
const CONDITIONAL = /^(?:if|when|unless|whether|once)\b/i;
/** "I decided to read the file first": a step in the work, not a decision about the code. */
const PROCEDURAL =
  /\b(?:decided|chose|opted|going|go|decide)\s+(?:to\s+)?(?:first\s+)?(?:read|check|look|start|run|search|open|inspect|examine|explore|investigate|review|verify|test|try|see|grep|list|scan|debug|dig|take a look|begin|continue|re-?run|fetch)\b/i;
/** "rejected" about tools, promises and requests is runtime behaviour, not a design choice. */
const REJECTED_RUNTIME =
  /\b(?:tool use|promise|request|permission|prompt|hook|push|commit|connection|credentials|token|by the (?:user|server|api|remote))\b[^.]{0,40}\brejected\b|\brejected\b[^.]{0,40}\b(?:tool use|promise|request|permission|by the (?:user|server|api|remote)|with (?:status|error|an? error))\b|\bwas rejected \(/i;

const MIN_WORDS = 5;
const MIN_LIST_WORDS = 3;
const MAX_WORDS = 60;
const MAX_SENTENCE_CHARS = 400;
const MAX_BODY_CHARS = 1200;
const ACCEPTANCE_BOOST = 0.15;

interface TextContext {
  session: string;
  branch: string | undefined;
  sidechain?: boolean;
}

function listHeadingType(unit: Unit): 'decision' | 'rejected' | undefined {
  const intro = unit.introducer;
  if (!unit.isListItem || intro === undefined || OPEN_HEADING.test(intro)) return undefined;
  if (REJECTED_HEADING.test(intro)) return 'rejected';
  if (DECISION_HEADING.test(intro)) return 'decision';
  return undefined;
}

function keywordCandidates(text: string, ctx: TextContext): Candidate[] {
  const out: Candidate[] = [];
  for (const unit of proseUnits(text)) {
    const parts = sentences(unit.text);
    const underDecisions = listHeadingType(unit);
    for (let i = 0; i < parts.length; i++) {
      const sentence = parts[i] ?? '';
      if (/\[MEMORY:/i.test(sentence)) continue; // the self-report layer owns tagged sentences
      const headingType = i === 0 ? underDecisions : undefined;
      const scored = scoreSentence(sentence, { headingType, heading: unit.heading, sidechain: ctx.sidechain === true });
      if (scored === undefined) continue;
      // A bare list item ("No GraphQL layer needed") needs its heading to make sense alone.
      const intro = headingType !== undefined && unit.introducer !== undefined ? `${cleanSummary(unit.introducer).replace(/:$/, '')}: ` : '';
      const summary = cleanSummary(intro + sentence);
      if (summary.length < 12) continue;
      out.push({
        type: scored.type,
        summary,
        body: truncateBody(unit.block),
        confidence: scored.confidence,
        tags: tagsOf(sentence),
        layer: 'keyword',
        ...filesField(unit.block),
        session: ctx.session,
        ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
      });
    }
  }
  return out;
}

interface Scored {
  type: MemoryType;
  confidence: number;
}

interface ScoreContext {
  headingType: 'decision' | 'rejected' | undefined;
  heading: string;
  sidechain: boolean;
}

/**
 * Scores one sentence: the strongest marker sets type and base; a reason clause, a "we"
 * subject and a decision heading raise it; hedges, questions, conditionals, first-person
 * step announcements and subagent chatter lower it.
 */
function scoreSentence(sentence: string, ctx: ScoreContext): Scored | undefined {
  if (sentence.length > MAX_SENTENCE_CHARS) return undefined;
  const masked = maskInline(sentence);
  const words = masked.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
  const total = masked.split(/\s+/).filter(Boolean).length;
  if (total > MAX_WORDS) return undefined;

  let type: MemoryType | undefined;
  let base = 0;
  let markers = 0;

  const label = LABEL.exec(masked.trim());
  if (label) {
    const name = (label[1] ?? '').trim();
    for (const [re, t, b] of LABELS) {
      if (re.test(name)) {
        type = t;
        base = b;
        markers++;
        break;
      }
    }
  }
  for (const m of MARKERS) {
    if (!m.re.test(masked)) continue;
    markers++;
    if (type === undefined || m.base > base) {
      if (type !== undefined && type !== m.type && label) continue; // a label names the type
      type = m.type;
      base = m.base;
    }
  }
  if (type === undefined && ctx.headingType !== undefined) {
    // Explicitly listed under "Decisions:" / "Rejected:": the list item is the record itself.
    type = ctx.headingType;
    base = 0.65;
    markers = 1;
  }
  if (type === undefined) return undefined;
  if (words < (ctx.headingType !== undefined || label ? MIN_LIST_WORDS : MIN_WORDS)) return undefined;
  if (PROCEDURAL.test(masked)) return undefined;
  if (type === 'rejected' && REJECTED_RUNTIME.test(masked)) return undefined;
  if (masked.includes('?')) return undefined; // a question asks for a decision; it does not record one

  let confidence = base;
  if (markers > 1) confidence += 0.05;
  if (REASON.test(masked)) confidence += 0.15;
  if (WE.test(masked)) confidence += 0.05;
  if (ctx.headingType !== undefined && markers > 1) confidence += 0.05;
  if (DECISION_HEADING.test(ctx.heading) && type === 'decision') confidence += 0.05;
  // Each distinct hedge weakens it further: "maybe we could" is two steps from a decision.
  const hedges = new Set((masked.match(HEDGE) ?? []).map((h) => h.toLowerCase())).size;
  confidence -= Math.min(0.45, hedges * 0.2);
  if (FIRST_PERSON_STEP.test(masked)) confidence -= 0.2;
  if (CONDITIONAL.test(masked.trim())) confidence -= 0.2;
  if (ctx.sidechain) confidence -= 0.15;
  return { type, confidence: round(clamp(confidence, 0, 0.95)) };
}

const AFFIRMATIVE =
  /^(?:y|yes|yep|yeah|yup|sure|ok(?:ay)?|go ahead|go for it|do it|do that|sounds good|looks good|lgtm|perfect|great|agreed?|approved?|proceed|let's do (?:it|that)|please do|ship it|that works|correct|exactly)\b/i;

/** A short prompt that accepts what the assistant just proposed ("yes", "go ahead"). */
function isAcceptance(prompt: string): boolean {
  const text = prompt.trim();
  if (text.split(/\s+/).length > 15) return false;
  return AFFIRMATIVE.test(text) && !/\b(?:but|instead|don't|do not|no,)\b/i.test(text);
}

// ---------------------------------------------------------------------------
// Self-report layer

const MEMORY_TAG = /\[MEMORY:\s*([A-Za-z_-]*)\s*\]/gi;

function selfReports(text: string, ctx: TextContext): Candidate[] {
  if (!/\[MEMORY:/i.test(text)) return [];
  const out: Candidate[] = [];
  for (const block of proseBlocks(text)) {
    // A tag inside inline code documents the syntax; it does not report anything.
    const masked = block.replace(/`+[^`]*`+/g, (m) => ' '.repeat(m.length));
    const tags = [...masked.matchAll(MEMORY_TAG)];
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i];
      if (tag === undefined) continue;
      const start = (tag.index ?? 0) + tag[0].length;
      const end = tags[i + 1]?.index ?? block.length;
      const raw = block.slice(start, end).split(/\n\s*(?:[-*+]|\d+[.)])\s+/)[0] ?? '';
      const body = raw.trim();
      if (body === '') continue;
      const summary = cleanSummary(sentences(oneLine(body))[0] ?? body);
      if (summary === '') continue;
      out.push({
        type: selfReportType(tag[1] ?? ''),
        summary,
        body: truncateBody(body),
        confidence: 1,
        tags: tagsOf(body),
        layer: 'self-report',
        ...filesField(body),
        session: ctx.session,
        ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
      });
    }
  }
  return out;
}

/**
 * The memory type a `[MEMORY: …]` tag names: a known type, an alias, or `context`.
 *
 * @example
 * selfReportType('Decision') // 'decision'
 * selfReportType('learned')  // 'gotcha'
 * selfReportType('whatever') // 'context'
 */
export function selfReportType(tag: string): MemoryType {
  const key = tag.trim().toLowerCase();
  if (isMemoryType(key)) return key;
  return SELF_REPORT_ALIASES[key] ?? 'context';
}

/** Paragraphs of prose with fenced code removed (tags there are examples, not reports). */
function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let fence: string | undefined;
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1]?.[0] === fence[0] && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      flush();
      fence = f[1];
      continue;
    }
    if (line.trim() === '' || line.trim().startsWith('>')) flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

/** "remember" opening a sentence (after please/also/and), up to the end of that sentence. */
const REMEMBER =
  /(?:^|[.!?]\s+|\n\s*)(?:(?:please|also|and|oh|btw),?\s+)*(?:always\s+)?remember(?:\s+that\b|\s*:|,)\s*([^\n]+?(?:[.!?](?=\s|$)|(?=\n)|$))/gi;

/** "remember that …" / "remember: …" in a real prompt: a preference stated by the person. */
function rememberRequests(prompt: string, ctx: TextContext): Candidate[] {
  const out: Candidate[] = [];
  for (const match of prompt.matchAll(REMEMBER)) {
    const first = (match[1] ?? '').trim();
    if (first.endsWith('?')) continue;
    const c = userPreference(first, ctx);
    if (c.summary.length >= 8) out.push(c);
  }
  return out;
}

function userPreference(text: string, ctx: TextContext): Candidate {
  const clean = cleanSummary(text);
  const summary = clean.charAt(0).toUpperCase() + clean.slice(1);
  return {
    type: 'preference',
    summary,
    body: truncateBody(text.trim()),
    confidence: 1,
    tags: tagsOf(text),
    layer: 'self-report',
    ...filesField(text),
    session: ctx.session,
    ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
  };
}

// ---------------------------------------------------------------------------
// Shared helpers

const LAYER_RANK: Record<CandidateLayer, number> = { 'self-report': 0, structural: 1, keyword: 2 };

/** One candidate per normalised summary (and per topic): the most authoritative layer wins, then confidence. */
function dedupe(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, { c: Candidate; order: number }>();
  candidates.forEach((c, order) => {
    const key = c.topic !== undefined ? `topic:${c.topic}` : `summary:${normalizeSummary(c.summary)}`;
    const prev = best.get(key);
    if (prev === undefined) best.set(key, { c, order });
    else if (LAYER_RANK[c.layer] < LAYER_RANK[prev.c.layer] || (c.layer === prev.c.layer && c.confidence > prev.c.confidence)) {
      best.set(key, { c, order: prev.order });
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

const CODE_TAG = /`([^`\s]{2,40})`/g;

/** Tags from identifiers quoted as inline code (`skipPermissions`, `@linear/sdk`), at most three. */
function tagsOf(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.matchAll(CODE_TAG)) {
    const t = m[1] ?? '';
    if (!/^[@\w][\w@./-]*$/.test(t) || /\.\w{1,5}$/.test(t) || /^[\d.]+$/.test(t)) continue;
    tags.push(t);
    if (tags.length === 3) break;
  }
  return normalizeTags(tags);
}

const FILE_PATH =
  /(?:^|[\s`'"(])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|rb|ya?ml|toml|css|scss|html|sh|sql|vue|svelte|c|h|cpp|hpp|cs|kt|swift|php|lock|txt))(?=[\s`'"),:;]|\.(?:\s|$)|$)/g;

function filesField(text: string): { files?: string[] } {
  const files: string[] = [];
  for (const m of text.matchAll(FILE_PATH)) {
    const f = m[1] ?? '';
    if (!files.includes(f)) files.push(f);
    if (files.length === 10) break;
  }
  return files.length > 0 ? { files } : {};
}

function relativePath(path: string, root: string | undefined): string {
  if (root === undefined || root === '') return path;
  const base = root.endsWith('/') || root.endsWith('\\') ? root : `${root}${root.includes('\\') && !root.includes('/') ? '\\' : '/'}`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function basename(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function shortCommand(command: string): string {
  const first = command.trim().split('\n')[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function shortTime(value: Date | string): string {
  const iso = typeof value === 'string' ? value : value.toISOString();
  return iso.replace(/:\d{2}(?:\.\d+)?Z$/, 'Z');
}

function code(text: string): string {
  return `\`${text}\``;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function truncate(text: string, max: number = MAX_CANDIDATE_SUMMARY): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/, '')}…`;
}

function truncateBody(text: string): string {
  return text.length <= MAX_BODY_CHARS ? text : `${text.slice(0, MAX_BODY_CHARS - 1).trimEnd()}…`;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
