/**
 * Claude Code session transcripts: JSONL parsing and normalisation into events.
 * Pure: bytes or text in, events and diagnostics out. The shell reads the file from a
 * per-session byte checkpoint and passes the new bytes here (DESIGN §6).
 *
 * The line format is internal to Claude Code and changes between versions; this module
 * absorbs the variants seen in 1.0.x, 2.0.x and 2.1.x so that extraction sees one shape.
 */
import type { Diagnostic } from './memory.js';

/** Fields every event carries, copied from the line's envelope. */
export interface TranscriptEnvelope {
  /** Absolute byte offset of the line that produced the event (`startOffset` + bytes before it). */
  offset: number;
  uuid?: string | undefined;
  parentUuid?: string | undefined;
  sessionId?: string | undefined;
  /** ISO-8601 as written by Claude Code. */
  timestamp?: string | undefined;
  cwd?: string | undefined;
  /** `undefined` when Claude Code wrote an empty branch (not a repository, or detached). */
  gitBranch?: string | undefined;
  /** Subagent turn written inline (1.0.x `Task` subagents). */
  isSidechain: boolean;
}

/** A prompt the person typed: the only user text that can carry a decision. */
export interface PromptEvent extends TranscriptEnvelope {
  kind: 'prompt';
  text: string;
}

/** A slash command the person ran (`<command-name>` wrapper): not a decision. */
export interface CommandEvent extends TranscriptEnvelope {
  kind: 'command';
  /** With the leading slash, e.g. `/git-tools:commit`. */
  name: string;
  args: string;
}

export interface AssistantTextEvent extends TranscriptEnvelope {
  kind: 'text';
  text: string;
  /** API message id; several lines (and so several events) can share it. */
  messageId?: string | undefined;
  /** True for messages Claude Code made up itself (`model: "<synthetic>"`, API errors). */
  synthetic: boolean;
}

export interface ThinkingEvent extends TranscriptEnvelope {
  kind: 'thinking';
  text: string;
  messageId?: string | undefined;
}

export interface ToolUseEvent extends TranscriptEnvelope {
  kind: 'tool-use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  messageId?: string | undefined;
}

export interface ToolResultEvent extends TranscriptEnvelope {
  kind: 'tool-result';
  toolUseId: string;
  /** Text of the result, blocks joined with newlines. */
  content: string;
  isError: boolean;
  /** The line's `toolUseResult` (e.g. `structuredPatch`, `newTodos`, `stdout`), when present. */
  structured?: unknown;
}

/**
 * Why a line is metadata rather than conversation. Unknown line types keep their own
 * `type` as subtype so new Claude Code versions degrade to metadata, never to errors.
 */
export type MetaSubtype =
  | 'summary'
  | 'system'
  | 'is-meta'
  | 'command-output'
  | 'bash-input'
  | 'bash-output'
  | 'interrupted'
  | 'continuation'
  | 'task-notification'
  | 'memory-input'
  | 'system-reminder'
  | 'permission-mode'
  | 'file-history-snapshot'
  | 'attachment'
  | (string & {});

export interface MetaEvent extends TranscriptEnvelope {
  kind: 'meta';
  subtype: MetaSubtype;
  text?: string | undefined;
}

export type TranscriptEvent =
  | PromptEvent
  | CommandEvent
  | AssistantTextEvent
  | ThinkingEvent
  | ToolUseEvent
  | ToolResultEvent
  | MetaEvent;

/** A diagnostic about one transcript line; `offset` is the line's absolute byte offset. */
export interface TranscriptDiagnostic extends Diagnostic {
  offset: number;
}

export interface ParseTranscriptOptions {
  /** Absolute byte offset of the chunk's first byte (the shell's checkpoint). */
  startOffset?: number;
  /** Name shown in diagnostics. */
  file?: string;
}

export const DEFAULT_PARSE_TRANSCRIPT: Required<ParseTranscriptOptions> = {
  startOffset: 0,
  file: 'transcript.jsonl',
};

export interface ParseTranscriptResult {
  events: TranscriptEvent[];
  /**
   * Bytes of the chunk that were complete lines. The next read starts at
   * `startOffset + consumedBytes`; a torn last line is left for then.
   */
  consumedBytes: number;
  diagnostics: TranscriptDiagnostic[];
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8');

/**
 * Parses the complete JSONL lines of a transcript chunk into normalised events.
 * Only lines ending in `\n` are consumed: a torn last line (the writer is mid-append)
 * is left for the next call and is not an error. A malformed complete line is skipped
 * with a diagnostic. Never throws on input.
 *
 * Pass a `Uint8Array` (e.g. the Buffer the shell read from its checkpoint) to get exact
 * byte accounting even when the chunk ends inside a multi-byte character; a string is
 * measured as UTF-8.
 *
 * @example
 * const { events, consumedBytes } = parseTranscriptChunk(
 *   '{"type":"user","message":{"role":"user","content":"hi"}}\n{"type":"assi',
 *   { startOffset: 0 },
 * );
 * // events: [{ kind: 'prompt', text: 'hi', offset: 0, isSidechain: false }]; consumedBytes: 57
 */
export function parseTranscriptChunk(
  chunk: string | Uint8Array,
  options: ParseTranscriptOptions = {},
): ParseTranscriptResult {
  const opts = { ...DEFAULT_PARSE_TRANSCRIPT, ...options };
  const state: ParseState = {
    events: [],
    diagnostics: [],
    file: opts.file,
    seenUuids: new Set(),
    seenBlocks: new Set(),
  };
  let consumedBytes = 0;

  if (typeof chunk === 'string') {
    const end = chunk.lastIndexOf('\n');
    let start = 0;
    while (start <= end) {
      const nl = chunk.indexOf('\n', start);
      const line = chunk.slice(start, nl);
      parseLine(line, opts.startOffset + consumedBytes, state);
      consumedBytes += utf8Length(line) + 1;
      start = nl + 1;
    }
  } else {
    const end = chunk.lastIndexOf(NEWLINE);
    let start = 0;
    while (start <= end) {
      const nl = chunk.indexOf(NEWLINE, start);
      // Decoding line by line keeps offsets exact even if a line holds invalid UTF-8.
      parseLine(decoder.decode(chunk.subarray(start, nl)), opts.startOffset + start, state);
      start = nl + 1;
    }
    consumedBytes = end + 1;
  }

  return { events: state.events, consumedBytes, diagnostics: state.diagnostics };
}

interface ParseState {
  events: TranscriptEvent[];
  diagnostics: TranscriptDiagnostic[];
  file: string;
  /** A line replayed with the same uuid (resume, retry) must not be counted twice. */
  seenUuids: Set<string>;
  /** `messageId` + block identity: one API message split over lines, blocks repeated. */
  seenBlocks: Set<string>;
}

type Json = Record<string, unknown>;

/** UTF-8 byte length of a JS string without allocating (lone surrogates count as U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function parseLine(raw: string, offset: number, state: ParseState): void {
  // Tolerate CRLF files and a BOM on the first line: both come from editors, not Claude Code.
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
  if (line.trim() === '') return;

  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    const reason = `Expected one JSON object per line; found ${excerpt(line)} (${(err as Error).message})`;
    state.diagnostics.push(lineDiagnostic(state, offset, 'transcript-invalid-json', reason));
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const reason = `Expected a JSON object such as {"type":"user",…}; found ${excerpt(line)}`;
    state.diagnostics.push(lineDiagnostic(state, offset, 'transcript-not-object', reason));
    return;
  }
  const obj = value as Json;
  const uuid = str(obj.uuid);
  if (uuid !== undefined) {
    if (state.seenUuids.has(uuid)) return;
    state.seenUuids.add(uuid);
  }
  const env = envelope(obj, offset);
  const type = str(obj.type);
  switch (type) {
    case 'user':
      parseUser(obj, env, state);
      return;
    case 'assistant':
      parseAssistant(obj, env, state);
      return;
    case 'summary':
      state.events.push({ ...env, kind: 'meta', subtype: 'summary', text: str(obj.summary) });
      return;
    case 'system':
      state.events.push({ ...env, kind: 'meta', subtype: 'system', text: stripAnsi(str(obj.content) ?? str(obj.subtype) ?? '') });
      return;
    case undefined:
      const reason = `Expected a "type" field such as "user" or "assistant"; found ${excerpt(line)}`;
      state.diagnostics.push(lineDiagnostic(state, offset, 'transcript-missing-type', reason, 'warning'));
      return;
    default:
      // permission-mode, file-history-snapshot, attachment, progress, queue-operation, …
      state.events.push({ ...env, kind: 'meta', subtype: type });
  }
}

function envelope(obj: Json, offset: number): TranscriptEnvelope {
  const env: TranscriptEnvelope = { offset, isSidechain: obj.isSidechain === true };
  const uuid = str(obj.uuid);
  if (uuid !== undefined) env.uuid = uuid;
  const parent = str(obj.parentUuid);
  if (parent !== undefined) env.parentUuid = parent;
  const session = str(obj.sessionId);
  if (session !== undefined) env.sessionId = session;
  const timestamp = str(obj.timestamp);
  if (timestamp !== undefined) env.timestamp = timestamp;
  const cwd = str(obj.cwd);
  if (cwd !== undefined) env.cwd = cwd;
  const branch = str(obj.gitBranch);
  if (branch !== undefined && branch !== '') env.gitBranch = branch;
  return env;
}

function parseUser(obj: Json, env: TranscriptEnvelope, state: ParseState): void {
  const message = isObject(obj.message) ? obj.message : {};
  const content = message.content;
  const isMeta = obj.isMeta === true;
  const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const results = blocks.filter((b) => isObject(b) && b.type === 'tool_result').length;

  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === 'tool_result') {
      const event: ToolResultEvent = {
        ...env,
        kind: 'tool-result',
        toolUseId: str(block.tool_use_id) ?? '',
        content: flattenContent(block.content),
        isError: block.is_error === true,
      };
      // `toolUseResult` describes the line as a whole: only unambiguous with one result on it.
      if (results === 1 && obj.toolUseResult !== undefined) event.structured = obj.toolUseResult;
      state.events.push(event);
    } else if (block.type === 'text') {
      const text = str(block.text) ?? '';
      if (isMeta) state.events.push({ ...env, kind: 'meta', subtype: 'is-meta', text });
      else state.events.push(classifyUserText(text, env));
    }
    // Images and documents carry no text worth extracting.
  }
}

const WRAPPERS: readonly [RegExp, MetaSubtype][] = [
  [/^<local-command-(?:stdout|stderr|caveat)>/, 'command-output'],
  [/^<bash-input>/, 'bash-input'],
  [/^<bash-(?:stdout|stderr)>/, 'bash-output'],
  [/^<task-notification>/, 'task-notification'],
  [/^<user-prompt-submit-hook>/, 'command-output'],
  [/^\[Request interrupted by user/, 'interrupted'],
  [/^This session is being continued from a previous conversation/, 'continuation'],
  [/^Caveat: The messages below were generated by the user while running local commands/, 'is-meta'],
];

/**
 * Sorts one piece of user text into a real prompt or the scaffolding Claude Code wraps
 * around commands, shell escapes and notifications (none of which is a user decision).
 */
function classifyUserText(raw: string, env: TranscriptEnvelope): TranscriptEvent {
  const text = raw.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
  if (text === '') return { ...env, kind: 'meta', subtype: 'system-reminder', text: raw };
  if (text.includes('<command-name>') || text.startsWith('<command-message>')) {
    const name = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim() ?? '';
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
    return { ...env, kind: 'command', name, args };
  }
  const memory = /^<user-memory-input>([\s\S]*?)<\/user-memory-input>/.exec(text);
  if (memory) return { ...env, kind: 'meta', subtype: 'memory-input', text: (memory[1] ?? '').trim() };
  for (const [pattern, subtype] of WRAPPERS) {
    if (pattern.test(text)) return { ...env, kind: 'meta', subtype, text };
  }
  return { ...env, kind: 'prompt', text };
}

function parseAssistant(obj: Json, env: TranscriptEnvelope, state: ParseState): void {
  const message = isObject(obj.message) ? obj.message : {};
  const messageId = str(message.id);
  const synthetic = message.model === '<synthetic>' || obj.isApiErrorMessage === true;
  const content = message.content;
  const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const base = messageId === undefined ? env : { ...env, messageId };

  for (const block of blocks) {
    if (!isObject(block)) continue;
    const key = messageId === undefined ? undefined : `${messageId}\u0000${blockKey(block)}`;
    if (key !== undefined) {
      if (state.seenBlocks.has(key)) continue;
      state.seenBlocks.add(key);
    }
    switch (block.type) {
      case 'text':
        state.events.push({ ...base, kind: 'text', text: str(block.text) ?? '', synthetic });
        break;
      case 'thinking':
      case 'redacted_thinking':
        state.events.push({ ...base, kind: 'thinking', text: str(block.thinking) ?? '' });
        break;
      case 'tool_use':
      case 'server_tool_use':
        state.events.push({
          ...base,
          kind: 'tool-use',
          id: str(block.id) ?? '',
          name: str(block.name) ?? '',
          input: isObject(block.input) ? block.input : {},
        });
        break;
      default:
        break;
    }
  }
}

function blockKey(block: Json): string {
  if (block.type === 'tool_use' || block.type === 'server_tool_use') return `tool:${str(block.id) ?? ''}`;
  if (block.type === 'text') return `text:${str(block.text) ?? ''}`;
  if (block.type === 'thinking') return `thinking:${str(block.thinking) ?? ''}`;
  return `${String(block.type)}:${JSON.stringify(block)}`;
}

function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && typeof block.text === 'string') parts.push(block.text);
  }
  return parts.join('\n');
}

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function lineDiagnostic(
  state: ParseState,
  offset: number,
  ruleId: string,
  reason: string,
  severity: 'error' | 'warning' = 'error',
): TranscriptDiagnostic {
  return { file: state.file, offset, reason, ruleId, severity, hint: 'The line is skipped; the rest of the transcript is still read.' };
}

function excerpt(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
