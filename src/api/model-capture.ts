/**
 * `modelCapture`: the opt-in model layer of capture, run once by the SessionEnd worker
 * (docs/claude-code.md, "Model capture"). Off by default: with `capture.mode` other than
 * `claude` or `endpoint` it returns at once — no process is started, no connection made.
 *
 * It condenses the session (the person's words, the assistant's prose, commands and their
 * failures, files edited; never tool output in bulk), passes it through the redaction gate,
 * caps it, and sends it with the versioned prompt (`templates/capture/prompt-v1.md`) and
 * answer schema to headless Claude Code (`claude -p`, the person's own login) or to an
 * OpenAI-compatible or Anthropic endpoint. The answer goes through the same validation,
 * redaction, dedup and review threshold as every other layer. A failed, slow, malformed or
 * oversized answer is logged and ignored: the rule-based memories are already written.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Candidate, ExtractState } from '../core/extract.js';
import { fingerprintOf, same, type Fingerprint } from '../core/extract/conversation.js';
import { buildModelPrompt, condenseSession, parseModelAnswer, type CaptureMode } from '../core/model-capture.js';
import { redactSecrets } from '../core/redact.js';
import { parseTranscriptChunk } from '../core/transcript.js';
import { readHeadFile } from '../git/head-file.js';
import { readCheckpoint } from '../store/checkpoint.js';
import { readAt } from '../store/safe-read.js';
import { openTranscriptFile } from '../store/transcript-file.js';
import { readTemplate } from '../templates.js';
import { storeCandidates } from './capture.js';
import type { Context } from './context.js';

export interface ModelCaptureInput {
  sessionId: string;
  transcriptPath?: string | undefined;
}

export interface ModelCaptureOutput {
  /** `off`: the mode sends nothing; `skipped`: nothing to send; `failed`: no usable answer. */
  status: 'off' | 'skipped' | 'done' | 'failed';
  mode: CaptureMode | string;
  /** The model asked (as configured, or the command's default). */
  model?: string | undefined;
  /** Characters sent (after redaction and the cap) and bytes received. */
  sent: number;
  received: number;
  ms: number;
  memories: { id: string; type: string; summary: string; action: string }[];
  queued: number;
  /** Why it failed, or which items of the answer were left out. */
  problems: string[];
}

/** The environment a model process runs in: Cortex's own hooks stay off in it. */
export const NESTED_ENV = { CORTEX_HOOKS: 'off' } as const;

/** Transcripts larger than this are condensed from their last bytes only. */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * Runs the configured model over the session once and stores what it proposes.
 * Never throws for a model's failure: it is in `status` and `problems`.
 *
 * @example
 * const out = await modelCapture(ctx, { sessionId, transcriptPath });
 * // { status: 'off', … } unless .cortex/config.yaml sets capture.mode: claude | endpoint
 */
export async function modelCapture(ctx: Context, input: ModelCaptureInput): Promise<ModelCaptureOutput> {
  const cfg = ctx.config.capture;
  const started = Date.now();
  const base = { mode: cfg.mode, sent: 0, received: 0, memories: [], queued: 0, problems: [] as string[] };
  if (cfg.mode !== 'claude' && cfg.mode !== 'endpoint') return { ...base, status: 'off', ms: 0 };
  if (input.transcriptPath === undefined) return { ...base, status: 'skipped', ms: 0, problems: ['no transcript path'] };

  const transcript = resolve(ctx.root, input.transcriptPath);
  const opened = await openTranscriptFile(transcript);
  if ('problem' in opened) return { ...base, status: 'skipped', ms: Date.now() - started, problems: [opened.problem] };
  let bytes: Buffer;
  try {
    const size = opened.stat.size;
    const from = Math.max(0, size - MAX_TRANSCRIPT_BYTES);
    bytes = readAt(opened.fd, from, size - from);
    if (from > 0) bytes = bytes.subarray(bytes.indexOf(0x0a) + 1);
  } finally {
    closeSync(opened.fd);
  }
  const { events } = parseTranscriptChunk(bytes, { file: transcript });
  const condensed = condenseSession(events, { maxChars: cfg.maxInputChars });
  if (condensed.text.trim() === '') return { ...base, status: 'skipped', ms: Date.now() - started, problems: ['the session has nothing to read'] };
  // The gate runs on the whole text before anything leaves the machine.
  const session = redactSecrets(condensed.text).text;
  const prompt = buildModelPrompt(readTemplate('capture/prompt-v1.md'), JSON.stringify(JSON.parse(readTemplate('capture/answer.schema.json'))), session);

  const asked =
    cfg.mode === 'claude'
      ? await askClaude(prompt, { command: cfg.claudeCommand, model: cfg.model, timeoutMs: cfg.timeoutMs, maxBytes: cfg.maxAnswerBytes, env: { ...ctx.env, CORTEX_SESSION_ID: input.sessionId } })
      : await askEndpoint(prompt, { ...cfg.endpoint, model: cfg.model, timeoutMs: cfg.timeoutMs, maxBytes: cfg.maxAnswerBytes, env: ctx.env });
  const out: ModelCaptureOutput = { ...base, status: 'failed', model: asked.model, sent: prompt.length, received: asked.received, ms: Date.now() - started };
  if ('problem' in asked) return { ...out, problems: [asked.problem] };

  const head = readHeadFile(ctx.root);
  const parsed = parseModelAnswer(asked.answer, { session: input.sessionId, branch: head?.branch, model: asked.model ?? cfg.mode, via: cfg.mode });
  if (parsed.candidates.length === 0 && parsed.problems.length > 0) return { ...out, problems: parsed.problems };
  const fresh = againstSession(ctx, input.sessionId, parsed.candidates);
  const stored = await storeCandidates(ctx, fresh.candidates);
  return {
    ...out,
    status: 'done',
    ms: Date.now() - started,
    memories: stored.memories.map((r) => ({ id: r.memory.id, type: r.memory.type, summary: r.memory.summary, action: r.action })),
    queued: stored.queued,
    problems: [...parsed.problems, ...(fresh.repeats > 0 ? [`${fresh.repeats} item(s) repeat what the rules already stored`] : [])],
  };
}

/**
 * The model's candidates measured against what the session's rule-based capture stored:
 * a repeat of a memory is dropped; a repeat of a review candidate that the model holds
 * confident enough takes its key, so storing it takes that entry out of the queue.
 */
function againstSession(ctx: Context, session: string, candidates: Candidate[]): { candidates: Candidate[]; repeats: number } {
  const state = readCheckpoint(ctx.paths.cacheDir, session)?.state as ExtractState | undefined;
  const emitted = Array.isArray(state?.emitted) ? state.emitted : [];
  const kept: Candidate[] = [];
  const seen: Fingerprint[] = [];
  let repeats = 0;
  for (const c of candidates) {
    const fp = fingerprintOf(c.type, c.summary);
    if (seen.some((s) => same(s, fp))) continue;
    seen.push(fp);
    // Same kind and same content: a decision that shares words with a gotcha says something else.
    const twin = emitted.find((e) => e.type === c.type && same(e, fp));
    if (twin !== undefined && (twin.memory || c.confidence < ctx.config.extraction.threshold)) {
      repeats++;
      continue;
    }
    kept.push(twin !== undefined ? { ...c, key: twin.key } : c);
  }
  return { candidates: kept, repeats };
}

type Asked = { answer: unknown; model: string | undefined; received: number } | { problem: string; model: string | undefined; received: number };

interface ClaudeOptions {
  command: string;
  model: string | null;
  timeoutMs: number;
  maxBytes: number;
  env: NodeJS.ProcessEnv;
}

/**
 * `claude -p` with the prompt on stdin, JSON output, one turn, in an empty temporary
 * directory (no project instructions loaded, nothing to edit), with Cortex's hooks off.
 */
async function askClaude(prompt: string, o: ClaudeOptions): Promise<Asked> {
  const args = ['-p', '--output-format', 'json', '--max-turns', '1', ...(o.model !== null ? ['--model', o.model] : [])];
  const cwd = mkdtempSync(join(tmpdir(), 'cortex-capture-'));
  try {
    const run = await runProcess(o.command, args, { input: prompt, cwd, env: { ...o.env, ...NESTED_ENV }, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
    const model = o.model ?? undefined;
    if ('problem' in run) return { problem: run.problem, model, received: run.received };
    let envelope: unknown;
    try {
      envelope = JSON.parse(run.stdout);
    } catch {
      // An older client, or --output-format ignored: the text is the answer.
      return { answer: run.stdout, model, received: run.received };
    }
    const e = envelope as Record<string, unknown>;
    if (e.is_error === true || e.subtype === 'error') return { problem: `claude reported an error: ${String(e.result ?? e.error ?? e.subtype).slice(0, 200)}`, model, received: run.received };
    const usedModel = typeof e.model === 'string' ? e.model : model;
    return { answer: e.structured_output ?? e.result ?? envelope, model: usedModel, received: run.received };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

interface EndpointOptions {
  url: string | null;
  api: string;
  keyEnv: string | null;
  model: string | null;
  timeoutMs: number;
  maxBytes: number;
  env: NodeJS.ProcessEnv;
}

/** One POST to an OpenAI-compatible (`/chat/completions`) or Anthropic (`/v1/messages`) endpoint. */
async function askEndpoint(prompt: string, o: EndpointOptions): Promise<Asked> {
  const model = o.model ?? undefined;
  if (o.url === null || o.url.trim() === '') return { problem: 'capture.endpoint.url is not set in .cortex/config.yaml', model, received: 0 };
  if (o.model === null) return { problem: 'capture.model is not set in .cortex/config.yaml (the endpoint needs a model name)', model, received: 0 };
  const key = o.keyEnv !== null ? o.env[o.keyEnv] : undefined;
  if (o.keyEnv !== null && (key === undefined || key === '')) return { problem: `the environment variable ${o.keyEnv} (capture.endpoint.keyEnv) is not set`, model, received: 0 };
  const base = o.url.replace(/\/+$/, '');
  const anthropic = o.api === 'anthropic';
  const url = anthropic ? (/\/messages$/.test(base) ? base : `${base}${/\/v1$/.test(base) ? '' : '/v1'}/messages`) : /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (anthropic) {
    headers['anthropic-version'] = '2023-06-01';
    if (key !== undefined) headers['x-api-key'] = key;
  } else if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const body = anthropic
    ? { model: o.model, max_tokens: 4096, messages: [{ role: 'user', content: prompt }] }
    : { model: o.model, messages: [{ role: 'user', content: prompt }], response_format: { type: 'json_object' }, temperature: 0 };
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(o.timeoutMs) });
  } catch (err) {
    const e = err as Error;
    return { problem: e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer from ${url} within ${o.timeoutMs} ms` : `cannot reach ${url}: ${e.message}`, model, received: 0 };
  }
  const text = await readLimited(response, o.maxBytes);
  if (text === undefined) return { problem: `the answer from ${url} is larger than ${o.maxBytes} bytes`, model, received: o.maxBytes };
  const received = Buffer.byteLength(text);
  if (!response.ok) return { problem: `${url} answered HTTP ${response.status}: ${text.slice(0, 200)}`, model, received };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { problem: `${url} did not answer JSON`, model, received };
  }
  const content = anthropic
    ? (json.content as { type?: string; text?: string }[] | undefined)?.find((b) => b.type === 'text')?.text
    : (json.choices as { message?: { content?: string } }[] | undefined)?.[0]?.message?.content;
  if (typeof content !== 'string') return { problem: `${url} answered without a message`, model, received };
  return { answer: content, model: typeof json.model === 'string' ? json.model : model, received };
}

/** The response body as text, or `undefined` once it passes `maxBytes`. */
async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A process with stdin, a deadline and an output cap; never rejects. */
function runProcess(
  command: string,
  args: string[],
  o: { input: string; cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; maxBytes: number },
): Promise<{ stdout: string; received: number } | { problem: string; received: number }> {
  return new Promise((done) => {
    let out = Buffer.alloc(0);
    let err = '';
    let settled = false;
    const finish = (r: { stdout: string; received: number } | { problem: string; received: number }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (e) {
      finish({ problem: `cannot run ${command}: ${(e as Error).message}`, received: 0 });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ problem: `${command} gave no answer within ${o.timeoutMs} ms`, received: out.length });
    }, o.timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      finish({ problem: e.code === 'ENOENT' ? `${command} is not on PATH (install Claude Code, or set capture.claudeCommand)` : `cannot run ${command}: ${e.message}`, received: 0 });
    });
    child.stdout?.on('data', (d: Buffer) => {
      out = Buffer.concat([out, d]);
      if (out.length > o.maxBytes) {
        child.kill('SIGKILL');
        finish({ problem: `the answer of ${command} is larger than ${o.maxBytes} bytes`, received: out.length });
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (err.length < 2000) err += d.toString('utf8');
    });
    child.on('close', (code) => {
      if (code !== 0) finish({ problem: `${command} exited with ${code}${err.trim() !== '' ? `: ${err.trim().split('\n').slice(-2).join(' | ').slice(0, 200)}` : ''}`, received: out.length });
      else finish({ stdout: out.toString('utf8'), received: out.length });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(o.input);
  });
}
