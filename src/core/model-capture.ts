/**
 * Opt-in model capture (off by default): what a language model is shown of a session and
 * how its answer becomes memory candidates. Pure: events and text in, text and candidates
 * out; the shell runs the model (`claude -p` or an HTTP endpoint), redacts, and writes the
 * candidates through the same validation, dedup and review threshold as every layer.
 */
import { isMemoryType, type MemoryType } from './memory.js';
import type { Candidate } from './extract/types.js';
import { cleanSummary, clip, filesIn, relativePath } from './extract/prose.js';
import type { TranscriptEvent } from './transcript.js';

export const CAPTURE_MODES = ['off', 'reflect', 'claude', 'endpoint'] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];

/** Types a model may propose: knowledge, not plans, progress or code (the schema's enum). */
export const MODEL_TYPES: readonly MemoryType[] = ['decision', 'rejected', 'gotcha', 'pattern', 'preference', 'architecture', 'context'];

export const DEFAULT_CONDENSE: { maxChars: number; perMessage: number } = {
  /** Characters of the condensed session the model may see. */
  maxChars: 60_000,
  /** Characters kept of one message. */
  perMessage: 2_000,
};

/**
 * The session as a model should read it: the person's words, the assistant's prose (code
 * blocks left out), the commands run with their failures, the files edited — never tool
 * outputs in bulk, never thinking. Over `maxChars`, the start and the end are kept (the
 * first stretch sets the task, the last holds the conclusions) around a marked gap.
 *
 * @example
 * condenseSession(events).text // 'Person: why does the build fail?\nAssistant: The issue is …\nCommand failed: npm test — Error: …'
 */
export function condenseSession(events: readonly TranscriptEvent[], options: Partial<typeof DEFAULT_CONDENSE> = {}): { text: string; truncated: boolean } {
  const opts = { ...DEFAULT_CONDENSE, ...options };
  const lines: string[] = [];
  const pending = new Map<string, string>();
  let root: string | undefined;
  for (const e of events) {
    if (root === undefined && e.cwd !== undefined) root = e.cwd;
    const side = e.isSidechain ? ' (subagent)' : '';
    switch (e.kind) {
      case 'prompt':
        if (!e.isSidechain) lines.push(`Person: ${clip(oneParagraph(e.text), opts.perMessage)}`);
        break;
      case 'text':
        if (!e.synthetic) {
          const prose = withoutCode(e.text);
          if (prose !== '') lines.push(`Assistant${side}: ${clip(prose, opts.perMessage)}`);
        }
        break;
      case 'tool-use': {
        const input = e.input;
        const command = typeof input.command === 'string' ? input.command.split('\n')[0] ?? '' : undefined;
        const path = typeof input.file_path === 'string' ? input.file_path : undefined;
        if (command !== undefined) pending.set(e.id, `Command${side}: ${clip(command, 200)}`);
        else if (path !== undefined && /^(?:Edit|Write|MultiEdit|NotebookEdit)$/.test(e.name)) pending.set(e.id, `Edited${side}: ${relativePath(path, root)}`);
        else if (/exit_?plan_?mode/i.test(e.name) && typeof input.plan === 'string') pending.set(e.id, `Plan proposed: ${clip(oneParagraph(input.plan), opts.perMessage)}`);
        break;
      }
      case 'tool-result': {
        const line = pending.get(e.toolUseId);
        if (line === undefined) break;
        pending.delete(e.toolUseId);
        if (e.isError) {
          const first = e.content.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
          lines.push(`${line} — failed: ${clip(first, 300)}`);
        } else if (line.startsWith('Plan proposed')) lines.push(`${line}\n(approved)`);
        else lines.push(line);
        break;
      }
      case 'meta':
        if (e.subtype === 'interrupted' && !e.isSidechain) lines.push('(The person interrupted the assistant.)');
        break;
      default:
        break;
    }
  }
  const whole = lines.join('\n');
  if (whole.length <= opts.maxChars) return { text: whole, truncated: false };
  const head = Math.floor(opts.maxChars * 0.25);
  const tail = opts.maxChars - head - 40;
  return { text: `${whole.slice(0, head)}\n[… ${whole.length - head - tail} characters left out …]\n${whole.slice(-tail)}`, truncated: true };
}

function oneParagraph(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').replace(/\n{3,}/g, '\n\n').trim();
}

function withoutCode(text: string): string {
  return oneParagraph(text.replace(/```[\s\S]*?(?:```|$)/g, '[code]'));
}

/**
 * The prompt: the versioned template (`templates/capture/prompt-v1.md`) with the answer's
 * JSON Schema (`templates/capture/answer.schema.json`) in place of `{{schema}}` and the
 * condensed session in place of `{{session}}`.
 *
 * @example
 * buildModelPrompt('Schema: {{schema}}\n{{session}}', '{}', 'Person: hi') // 'Schema: {}\nPerson: hi'
 */
export function buildModelPrompt(template: string, schema: string, session: string): string {
  // Replaced by function so `$` in a session is never read as a replacement pattern.
  return template.replace('{{schema}}', () => schema.trim()).replace('{{session}}', () => session);
}

export interface ParsedAnswer {
  candidates: Candidate[];
  /** Why items (or the whole answer) were left out. */
  problems: string[];
}

export interface AnswerContext {
  session: string;
  branch: string | undefined;
  /** The model that answered, recorded with each memory. */
  model: string;
  /** Where the answer came from, for the body's provenance line. */
  via: 'claude' | 'endpoint' | 'replay';
}

/**
 * The memory candidates in a model's answer: its JSON (the whole text, or the first JSON
 * object in it) checked item by item. An item with an unknown type, a summary out of
 * bounds or a body too long is left out with a reason; a non-JSON answer yields none.
 *
 * @example
 * parseModelAnswer('{"memories":[{"type":"gotcha","summary":"Sandbox blocks rm -rf in hooks"}]}', ctx).candidates.length // 1
 */
export function parseModelAnswer(answer: unknown, ctx: AnswerContext): ParsedAnswer {
  const problems: string[] = [];
  const value = typeof answer === 'string' ? jsonIn(answer) : answer;
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { candidates: [], problems: ['the answer is not a JSON object with a "memories" list'] };
  }
  const list = (value as Record<string, unknown>).memories;
  if (!Array.isArray(list)) return { candidates: [], problems: ['the answer has no "memories" list'] };
  const candidates: Candidate[] = [];
  list.slice(0, 20).forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`item ${i + 1} is not an object`);
      return;
    }
    const item = raw as Record<string, unknown>;
    const type = typeof item.type === 'string' ? item.type.trim().toLowerCase() : '';
    if (!isMemoryType(type) || !MODEL_TYPES.includes(type)) {
      problems.push(`item ${i + 1}: type ${JSON.stringify(item.type)} is not one of ${MODEL_TYPES.join(', ')}`);
      return;
    }
    const summary = typeof item.summary === 'string' ? cleanSummary(item.summary) : '';
    if (summary.length < 10) {
      problems.push(`item ${i + 1}: the summary is missing or shorter than 10 characters`);
      return;
    }
    const body = typeof item.body === 'string' ? item.body.trim() : '';
    if (body.length > 4_000) {
      problems.push(`item ${i + 1}: the body is longer than 4,000 characters`);
      return;
    }
    const confidence = typeof item.confidence === 'number' && item.confidence >= 0 && item.confidence <= 1 ? item.confidence : 0.75;
    const files = Array.isArray(item.files)
      ? item.files.filter((f): f is string => typeof f === 'string' && f !== '' && !f.startsWith('/') && !f.split(/[\\/]/).includes('..')).slice(0, 10)
      : filesIn(body);
    candidates.push({
      type,
      summary,
      body: clip(`${body === '' ? summary : body}\n\n— proposed by ${ctx.model} (${ctx.via === 'replay' ? 'a recorded answer' : ctx.via === 'claude' ? 'headless Claude Code' : 'a model endpoint'}) reading the session.`, 1200),
      // A model's reading is never a person's word: it stays below self-reports.
      confidence: Math.round(Math.min(0.95, confidence) * 100) / 100,
      tags: [],
      layer: 'llm',
      ...(files.length > 0 ? { files } : {}),
      session: ctx.session,
      ...(ctx.branch === undefined ? {} : { branch: ctx.branch }),
      key: `llm:${i}:${summary.toLowerCase().slice(0, 40)}`,
      speaker: 'assistant',
      signals: [`model:${ctx.model}`],
      model: ctx.model,
    });
  });
  return { candidates, problems };
}

/** The first JSON value in a text: the whole of it, or a fenced or bare `{…}` inside it. */
function jsonIn(text: string): unknown {
  const t = text.trim();
  try {
    return JSON.parse(t);
  } catch {
    // fall through
  }
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(t)?.[1];
  if (fenced !== undefined) {
    try {
      return JSON.parse(fenced);
    } catch {
      // fall through
    }
  }
  const start = t.indexOf('{');
  const end = t.lastIndexOf('}');
  if (start !== -1 && end > start) {
    try {
      return JSON.parse(t.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Whether a Stop should ask the assistant to record what it decided (mode `reflect`):
 * never while a Stop hook already continues the turn, never without candidates, at most
 * once per `everyTurns` prompts, and only after work (edits or commands) since the last time.
 *
 * @example
 * shouldReflect({ stopHookActive: false, candidates: 2, prompts: 6, work: 9, last: { prompts: 1, work: 3 }, everyTurns: 5 }) // true
 */
export function shouldReflect(input: {
  stopHookActive: boolean;
  candidates: number;
  prompts: number;
  work: number;
  last: { prompts: number; work: number } | undefined;
  everyTurns: number;
}): boolean {
  if (input.stopHookActive || input.candidates === 0) return false;
  if (input.last === undefined) return input.work > 0;
  return input.prompts - input.last.prompts >= input.everyTurns && input.work > input.last.work;
}

/**
 * The reason a blocking Stop gives the assistant: the candidates seen, stated as facts, and
 * how a reply records them.
 *
 * @example
 * reflectionReason([{ type: 'gotcha', summary: 'npm test needs Postgres', confidence: 0.55 }]).includes('[MEMORY: gotcha]') // true
 */
export function reflectionReason(candidates: readonly { type: string; summary: string; confidence: number }[]): string {
  const listed = candidates
    .slice(0, 8)
    .map((c) => `- (${c.type}, ${c.confidence.toFixed(2)}) ${c.summary}`)
    .join('\n');
  return [
    `Cortex (project memory): ${candidates.length} thing${candidates.length === 1 ? '' : 's'} from this stretch of work may be worth keeping for future sessions and ${candidates.length === 1 ? 'is' : 'are'} not recorded yet:`,
    listed,
    'A reply line of the form `[MEMORY: decision] <what was decided, and why>` (types: decision, rejected, gotcha, pattern, preference, architecture, context) is stored as a memory; one line per durable item, in your own words, with the reason. A reply that says nothing needs recording ends this; it is asked at most once every few turns.',
  ].join('\n');
}

/** Whether a string names a capture mode. */
export function isCaptureMode(value: unknown): value is CaptureMode {
  return typeof value === 'string' && (CAPTURE_MODES as readonly string[]).includes(value);
}
