/**
 * `captureTranscript`: automatic extraction from a Claude Code session transcript.
 * Reads the JSONL from the session's byte checkpoint, runs the three extraction layers,
 * writes the confident candidates through `rememberMany` (redaction, dedup, topic upsert)
 * and queues the others for review, then moves the checkpoint. One lock for the whole
 * run; a held lock means another hook is on it, and this run gives up at once.
 */
import { closeSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_EXTRACT, extractMemories, type Candidate, type ExtractState } from '../core/extract.js';
import { draftScore } from '../core/extract/conversation.js';
import { formatDate } from '../core/memory.js';
import { redactSecrets } from '../core/redact.js';
import { parseTranscriptChunk, type TranscriptEvent } from '../core/transcript.js';
import { LockError } from '../errors.js';
import { readHead } from '../git/head.js';
import { findCheckpointByTranscript, readCheckpoint, writeCheckpoint, CHECKPOINT_VERSION, type TranscriptCheckpoint } from '../cache/checkpoint.js';
import { withLock } from '../store/lock.js';
import { readAt } from '../store/safe-read.js';
import { openTranscriptFile } from '../store/transcript-file.js';
import type { Context } from '../services/context.js';
// Types only: writing loads the index, recall and graph modules (half of what a hook
// imports), so `writeCandidates` imports them when a turn has something to write.
import type { RememberInput, RememberResult } from './remember.js';
import { appendReview, listReview, removeReview, type ReviewEntry } from '../cache/review-queue.js';
import { lockPath } from '../cache/layout.js';

export interface CaptureInput {
  /** The hook's `session_id`: the checkpoint key and the `session/<id>` progress topic. */
  sessionId: string;
  /** The hook's `transcript_path`; without it only `lastAssistantMessage` is read. */
  transcriptPath?: string | undefined;
  /** Stop's `last_assistant_message`: the transcript may not hold it yet. */
  lastAssistantMessage?: string | undefined;
  /**
   * Stop reading further chunks after this many milliseconds; what was read is written
   * and the checkpoint stays at the end of it, so the next run continues from there.
   */
  timeBudgetMs?: number;
  /** Wait this long for another run's lock before giving up (hooks: briefly). */
  lockTimeoutMs?: number;
  /** Bytes read per chunk (the time budget is checked between chunks). */
  chunkBytes?: number;
  /**
   * Rewrite the session's plan and progress memories at most this often (ms). Stop fires
   * every turn: refreshing them each time would keep tracked files permanently modified
   * and cost a file parse per turn. PreCompact and SessionEnd pass 0, so nothing is lost.
   */
  structuralEveryMs?: number;
  /** A line longer than this is skipped, not read whole into memory. */
  maxLineBytes?: number;
  /**
   * The session is ending or being compacted: judge the open exchange now rather than
   * waiting for the person's next prompt (Stop leaves it open: the next prompt is the
   * person's reaction to it).
   */
  final?: boolean;
  /**
   * `later`: the memories are written now and auto-linked by `linkPending` (the session-end
   * worker), listed meanwhile in `.memory/pending-links`. The Stop hook's choice: linking
   * cost it some 40 ms of CPU a turn, and the edges of a memory captured mid-session can
   * wait for the session's end. Default `now`, as `remember` does.
   */
  link?: 'now' | 'later';
}

export const DEFAULT_CAPTURE = {
  timeBudgetMs: 10_000,
  lockTimeoutMs: 250,
  chunkBytes: 4 * 1024 * 1024,
  structuralEveryMs: 0,
  maxLineBytes: 64 * 1024 * 1024,
  final: false,
  link: 'now' as 'now' | 'later',
};

export interface CaptureOutput {
  /** `locked`: another run holds the lock, nothing was done. `partial`: the time budget ran out. */
  status: 'done' | 'partial' | 'locked';
  /** Byte range of the transcript read by this run. */
  from: number;
  to: number;
  /** True when the checkpoint was reset because the transcript was replaced or shrank. */
  restarted: boolean;
  /** Why the transcript was not read, when it was not (missing, unreadable). */
  transcriptProblem?: string | undefined;
  /** Transcript lines skipped as malformed. */
  skippedLines: number;
  memories: { action: RememberResult['action']; id: string; type: string; layer: string; summary: string }[];
  /** Candidates added to the review queue by this run. */
  queued: number;
  /** Files the memories named that are outside the repository: left out (hooks never fail). */
  droppedFiles?: string[];
  /**
   * What this run found that is not a memory: the candidates it queued and those of the
   * exchange still open (judged at the person's next prompt). `reflect` mode lists them.
   */
  unrecorded: { type: string; summary: string; confidence: number }[];
  /** Prompts and work (commands run, files edited) in the session so far. */
  progress: { prompts: number; work: number };
}

/** The review-queue kind of an extraction candidate (the queue's `candidate`). */
export const MEMORY_CANDIDATE_KIND = 'candidate';

/** A queued extraction candidate. */
export interface MemoryCandidateEntry extends ReviewEntry {
  kind: typeof MEMORY_CANDIDATE_KIND;
  candidate: Candidate;
  commit?: string | undefined;
}

/**
 * Queue id of a candidate: the same proposal made twice is queued once.
 *
 * @example
 * candidateReviewId({ type: 'decision', summary: 'Use Redis for sessions' }) // 'candidate:' + 10 hex digits
 */
export function candidateReviewId(c: Pick<Candidate, 'type' | 'summary'>): string {
  return `candidate:${createHash('sha1').update(`${c.type}\n${c.summary.trim().toLowerCase()}`).digest('hex').slice(0, 10)}`;
}

function extractLockPath(ctx: Context): string {
  return lockPath(ctx.paths.cacheDir, 'extract');
}

interface Opened {
  fd: number;
  stat: Stats;
}

/** Regular files only, never blocking on a FIFO, with a deadline on the open (store/transcript-file.ts). */
function openTranscript(path: string): Promise<Opened | { problem: string }> {
  return openTranscriptFile(path);
}

/** Offset of the first newline at or after `from`, if any before `size`. */
function nextNewline(fd: number, from: number, size: number): number | undefined {
  for (let at = from; at < size; at += 1024 * 1024) {
    const i = readAt(fd, at, Math.min(1024 * 1024, size - at)).indexOf(0x0a);
    if (i !== -1) return at + i;
  }
  return undefined;
}

interface ReadChunks {
  offset: number;
  skippedLines: number;
  partial: boolean;
  ran: boolean;
}

/**
 * Reads the complete lines of a transcript from `from`, in chunks, handing each chunk's
 * events to `onChunk`. A torn last line is left for next time; a line longer than
 * `maxLineBytes` is skipped; past the time budget it stops between chunks (`partial`).
 */
function readChunks(
  opened: Opened,
  from: number,
  opts: Pick<typeof DEFAULT_CAPTURE, 'chunkBytes' | 'maxLineBytes' | 'timeBudgetMs'>,
  started: number,
  file: string,
  onChunk: (events: TranscriptEvent[], lastChunk: boolean) => void,
): ReadChunks {
  const size = opened.stat.size;
  let offset = from;
  let want = opts.chunkBytes;
  let skippedLines = 0;
  let ran = false;
  while (offset < size) {
    const bytes = readAt(opened.fd, offset, Math.min(want, size - offset));
    if (bytes.length === 0) break;
    // Whatever this chunk leaves unconsumed at the end of the file is a torn last line.
    const lastChunk = offset + bytes.length >= size;
    const parsed = parseTranscriptChunk(bytes, { startOffset: offset, file });
    if (parsed.consumedBytes === 0) {
      // A line longer than the chunk: read more. A torn last line: leave it for next time.
      if (lastChunk) break;
      if (want >= opts.maxLineBytes) {
        // Not a transcript line anyone can use (or not a transcript): skip past it.
        const next = nextNewline(opened.fd, offset + want, size);
        if (next === undefined) break;
        offset = next + 1;
        skippedLines++;
        want = opts.chunkBytes;
        continue;
      }
      want *= 2;
      continue;
    }
    want = opts.chunkBytes;
    skippedLines += parsed.diagnostics.filter((d) => d.severity === 'error').length;
    offset += parsed.consumedBytes;
    onChunk(parsed.events, lastChunk);
    ran = true;
    if (lastChunk) break;
    if (Date.now() - started > opts.timeBudgetMs) return { offset, skippedLines, partial: true, ran };
  }
  return { offset, skippedLines, partial: false, ran };
}

/** Where a subagent's progress through its own transcript is kept. */
interface SubagentCheckpoint {
  offset: number;
  ino: number;
  size: number;
  state: unknown;
}

/**
 * The subagent transcripts of a session (Claude Code 2.x): regular files
 * `<session-id>/subagents/agent-*.jsonl` next to the session's transcript.
 */
export function subagentFiles(transcript: string): string[] {
  const dir = join(dirname(transcript), basename(transcript).replace(/\.jsonl$/, ''), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^agent-[\w.-]+\.jsonl$/.test(n))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return lstatSync(p).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * The `remember` input for an extraction candidate, with its provenance.
 *
 * @example
 * candidateToRememberInput(candidate, '3f2a9c1d04e7').source // { kind: 'extraction', layer: 'keyword', session, branch, commit: '3f2a9c1d04e7' }
 */
export function candidateToRememberInput(c: Candidate, commit: string | undefined, options: { link?: 'now' | 'later' } = {}): RememberInput {
  return {
    summary: c.summary,
    body: c.body,
    type: c.type,
    confidence: c.confidence,
    tags: c.tags,
    ...(c.topic !== undefined ? { topic: c.topic } : {}),
    ...(c.status !== undefined ? { status: c.status } : {}),
    // Plan and progress notes change every session: linking them would churn edge files.
    ...(c.layer === 'structural' ? { autoLink: false } : options.link === 'later' ? { autoLink: 'later' as const } : {}),
    // A file the session touched outside the repository is not the memory's to name; capture never fails on it.
    outsideFiles: 'drop',
    source: {
      kind: 'extraction',
      layer: c.layer,
      session: c.session,
      ...(c.branch !== undefined ? { branch: c.branch } : {}),
      ...(commit !== undefined ? { commit } : {}),
      ...(c.files !== undefined && c.files.length > 0 ? { files: c.files } : {}),
      ...(c.model !== undefined ? { extra: { model: c.model } } : {}),
    },
  };
}

function structuralHash(c: Candidate, commit: string | undefined): string {
  const key = JSON.stringify([c.type, c.summary, c.body, c.confidence, c.tags, c.files ?? [], c.branch ?? '', commit ?? '']);
  return createHash('sha1').update(key).digest('hex').slice(0, 16);
}

function redactCandidate(c: Candidate): Candidate {
  return { ...c, summary: redactSecrets(c.summary).text, body: redactSecrets(c.body).text };
}

/**
 * Extracts memories from the part of a session transcript not read yet.
 * Throws only for programming errors; a missing transcript, a held lock or a torn last
 * line are outcomes in the result.
 *
 * @example
 * const out = await captureTranscript(ctx, { sessionId: 'a9185eb7', transcriptPath: '/home/me/.claude/projects/x/a9185eb7.jsonl' });
 * // { status: 'done', from: 0, to: 105921, memories: [{ action: 'created', type: 'progress', … }], queued: 1, … }
 */
export async function captureTranscript(ctx: Context, input: CaptureInput): Promise<CaptureOutput> {
  const opts = { ...DEFAULT_CAPTURE, ...input };
  const started = Date.now();
  try {
    return await withLock(extractLockPath(ctx), () => captureLocked(ctx, opts, started), { timeoutMs: opts.lockTimeoutMs });
  } catch (err) {
    if (err instanceof LockError) {
      return { status: 'locked', from: 0, to: 0, restarted: false, skippedLines: 0, memories: [], queued: 0, unrecorded: [], progress: { prompts: 0, work: 0 } };
    }
    throw err;
  }
}

async function captureLocked(ctx: Context, opts: CaptureInput & typeof DEFAULT_CAPTURE, started: number): Promise<CaptureOutput> {
  const cacheDir = ctx.paths.cacheDir;
  const session = opts.sessionId;
  const transcript = opts.transcriptPath ? resolve(ctx.root, opts.transcriptPath) : undefined;
  let checkpoint = readCheckpoint(cacheDir, session);
  let restarted = false;
  let transcriptProblem: string | undefined;
  let opened: Opened | undefined;
  if (transcript !== undefined) {
    const o = await openTranscript(transcript);
    if ('problem' in o) transcriptProblem = o.problem;
    else opened = o;
  }

  try {
    if (opened !== undefined && transcript !== undefined) {
      const { stat } = opened;
      if (checkpoint === undefined) {
        const other = findCheckpointByTranscript(cacheDir, transcript, stat.ino);
        if (other !== undefined) checkpoint = { ...other, session };
      }
      if (
        checkpoint !== undefined &&
        (checkpoint.transcript !== transcript || checkpoint.ino !== stat.ino || checkpoint.dev !== stat.dev || stat.size < checkpoint.offset)
      ) {
        // Replaced, truncated or another file: what we knew about it no longer applies.
        checkpoint = undefined;
        restarted = true;
      }
    }

    const head = readHead(ctx.root);
    const branch = head.branch;
    const from = checkpoint?.offset ?? 0;
    let offset = from;
    let state = checkpoint?.state as ExtractState | undefined;
    let skippedLines = 0;
    let status: CaptureOutput['status'] = 'done';
    const prose: Candidate[] = [];
    const review: Candidate[] = [];
    let structural: Candidate[] = [];
    const now = ctx.now();
    const extractOptions = { sessionId: session, branch, now, threshold: ctx.config.extraction.threshold };

    const runChunk = (events: TranscriptEvent[], last: string | undefined, final: boolean): void => {
      const result = extractMemories(events, { ...extractOptions, state, lastAssistantMessage: last, final });
      state = result.state;
      // Structural candidates summarise the whole session so far: only the latest count.
      structural = result.memories.filter((c) => c.layer === 'structural');
      prose.push(...result.memories.filter((c) => c.layer !== 'structural'));
      review.push(...result.review);
    };

    let ran = false;
    if (opened !== undefined) {
      const read = readChunks(opened, offset, opts, started, transcript ?? '', (events, lastChunk) => {
        runChunk(events, lastChunk ? opts.lastAssistantMessage : undefined, lastChunk && opts.final);
      });
      offset = read.offset;
      skippedLines += read.skippedLines;
      ran = read.ran;
      if (read.partial) status = 'partial';
    }
    // Nothing new in the file (or no file): Stop's message can still carry tags, and the
    // session's end still judges the open exchange.
    if (!ran) runChunk([], opts.lastAssistantMessage, opts.final);

    // Claude Code 2.x writes each subagent's conversation to its own file beside the
    // session's: read what is new there too, as the subagent's (weaker) words.
    const subagents: Record<string, SubagentCheckpoint> = restarted ? {} : { ...(checkpoint?.subagents ?? {}) };
    if (transcript !== undefined && status === 'done' && state !== undefined) {
      for (const file of subagentFiles(transcript)) {
        const name = basename(file);
        const o = await openTranscript(file);
        if ('problem' in o) continue;
        try {
          let sub = subagents[name];
          if (sub !== undefined && (sub.ino !== o.stat.ino || o.stat.size < sub.offset)) sub = undefined;
          let subState = sub?.state as ExtractState | undefined;
          const read = readChunks(o, sub?.offset ?? 0, opts, started, file, (events) => {
            // The session's near-duplicate memory is shared: a subagent's report also comes
            // back as the parent's tool result, and must be stored once.
            const result = extractMemories(events, { ...extractOptions, state: subState, final: true, sidechain: true, seen: (state as ExtractState).emitted });
            subState = result.state;
            (state as ExtractState).emitted = result.state.emitted;
            prose.push(...result.memories.filter((c) => c.layer !== 'structural'));
            review.push(...result.review);
          });
          skippedLines += read.skippedLines;
          subagents[name] = { offset: read.offset, ino: o.stat.ino, size: o.stat.size, state: subState === undefined ? undefined : { ...subState, emitted: [] } };
          if (read.partial) {
            status = 'partial';
            break;
          }
        } finally {
          closeSync(o.fd);
        }
      }
    }

    // Structural candidates are re-emitted every run; only a changed one is worth a write.
    const writtenBefore = restarted ? {} : (checkpoint?.written ?? {});
    const writtenNow: Record<string, string> = { ...writtenBefore };
    const lastStructural = restarted ? undefined : checkpoint?.structuralAt;
    const due = lastStructural === undefined || now.getTime() - Date.parse(lastStructural) >= opts.structuralEveryMs || !(Date.parse(lastStructural) <= now.getTime());
    const changedStructural = due ? structural.filter((c) => c.topic === undefined || writtenBefore[c.topic] !== structuralHash(c, head.commit)) : [];
    const structuralAt = changedStructural.length > 0 ? formatDate(now) : lastStructural;
    const toWrite = [...changedStructural, ...prose];
    const keys: Record<string, string> = restarted ? {} : { ...(checkpoint?.keys ?? {}) };
    const written = await writeCandidates(ctx, toWrite, head.commit, keys, opts.link);
    for (const c of changedStructural) if (c.topic !== undefined) writtenNow[c.topic] = structuralHash(c, head.commit);
    const queued = await queueCandidates(ctx, review, toWrite, written, head.commit);

    if (opened !== undefined && transcript !== undefined) {
      const next: TranscriptCheckpoint = {
        version: CHECKPOINT_VERSION,
        session,
        transcript,
        offset,
        ino: opened.stat.ino,
        dev: opened.stat.dev,
        size: opened.stat.size,
        state,
        written: writtenNow,
        keys,
        subagents,
        structuralAt,
        updated: formatDate(now),
      };
      writeCheckpoint(cacheDir, next, checkpoint);
    } else if (checkpoint !== undefined) {
      writeCheckpoint(cacheDir, { ...checkpoint, state, written: writtenNow, keys, subagents, structuralAt, updated: formatDate(now) }, checkpoint);
    }
    return {
      status,
      from,
      to: offset,
      restarted,
      transcriptProblem,
      skippedLines,
      memories: written.map((r, i) => ({
        action: r.action,
        id: r.memory.id,
        type: r.memory.type,
        layer: toWrite[i]?.layer ?? 'structural',
        summary: r.memory.summary,
      })),
      queued,
      ...(droppedFiles(written).length > 0 ? { droppedFiles: droppedFiles(written) } : {}),
      unrecorded: [
        ...review.map((c) => ({ type: c.type, summary: c.summary, confidence: c.confidence })),
        ...pendingOf(state),
      ],
      progress: { prompts: state?.prompts ?? 0, work: (state?.commands ?? 0) + (state?.edited.length ?? 0) },
    };
  } finally {
    if (opened !== undefined) closeSync(opened.fd);
  }
}

/** Files the written memories left out, each once. */
function droppedFiles(written: readonly RememberResult[]): string[] {
  return [...new Set(written.flatMap((r) => r.droppedFiles ?? []))];
}

/** The open exchange's candidates that would reach review or better, strongest first. */
function pendingOf(state: ExtractState | undefined): { type: string; summary: string; confidence: number }[] {
  if (state === undefined) return [];
  return state.exchange.drafts
    .map((d) => ({ type: d.type, summary: d.summary, confidence: draftScore(d) }))
    .filter((d) => d.confidence >= DEFAULT_EXTRACT.reviewFloor && d.summary !== '')
    .sort((a, b) => b.confidence - a.confidence);
}

/**
 * Stores candidates another layer produced (a model's answer): those at or above the
 * extraction threshold as memories, those above the review floor in the review queue,
 * through the same redaction, dedup and provenance as the transcript's own.
 */
export async function storeCandidates(ctx: Context, candidates: Candidate[]): Promise<{ memories: RememberResult[]; queued: number }> {
  const threshold = ctx.config.extraction.threshold;
  const memories = candidates.filter((c) => c.confidence >= threshold);
  const review = candidates.filter((c) => c.confidence < threshold && c.confidence >= DEFAULT_EXTRACT.reviewFloor);
  const head = readHead(ctx.root);
  const written = await writeCandidates(ctx, memories, head.commit, {});
  const queued = await queueCandidates(ctx, review, memories, written, head.commit);
  return { memories: written, queued };
}

/**
 * Writes the memory candidates. One whose key this session already wrote (a document
 * edited again, a finding that later earned more confidence) updates that memory instead
 * of adding one; `keys` maps each key to the memory written for it.
 */
async function writeCandidates(
  ctx: Context,
  candidates: Candidate[],
  commit: string | undefined,
  keys: Record<string, string>,
  link: 'now' | 'later' = 'now',
): Promise<RememberResult[]> {
  const results: RememberResult[] = new Array(candidates.length);
  const fresh: number[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as Candidate;
    const id = c.key !== undefined ? keys[checkpointKey(c.key)] : undefined;
    if (id !== undefined && c.topic === undefined) {
      try {
        const updated = await (await import('./memories.js')).updateMemory(ctx, id, { summary: c.summary, body: c.body, type: c.type, confidence: Math.max(c.confidence, 0) });
        results[i] = { action: updated.changed ? 'updated' : 'unchanged', memory: updated.memory, file: updated.file, redacted: [] };
        continue;
      } catch {
        // Deleted or renamed by a person since: write it anew.
      }
    }
    fresh.push(i);
  }
  if (fresh.length > 0) {
    const stored = await (await import('./remember.js')).rememberMany(ctx, fresh.map((i) => candidateToRememberInput(candidates[i] as Candidate, commit, { link })));
    fresh.forEach((i, k) => {
      results[i] = stored[k] as RememberResult;
    });
  }
  candidates.forEach((c, i) => {
    const r = results[i];
    if (c.key !== undefined && r !== undefined && c.topic === undefined) keys[checkpointKey(c.key)] = r.memory.id;
  });
  return results;
}

/**
 * A candidate key as the checkpoint keeps it: hashed, since a key is made of what the
 * transcript said (a file path, a quote) and the checkpoint is written to disk, where every
 * byte passes the redaction gate: a hash holds nothing to redact.
 */
function checkpointKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/**
 * Queues the low-confidence candidates, once each (a candidate whose key is already
 * queued replaces it), and takes out of the queue every candidate that has since become
 * a memory — by content or by key.
 */
async function queueCandidates(ctx: Context, review: Candidate[], stored: Candidate[], written: RememberResult[], commit: string | undefined): Promise<number> {
  const queue = listReview(ctx.paths, { kind: MEMORY_CANDIDATE_KIND });
  const storedIds = new Set(written.map((r) => candidateReviewId(r.memory)));
  const storedKeys = new Set(stored.map((c) => c.key).filter((k): k is string => k !== undefined));
  const reviewKeys = new Set(review.map((c) => c.key).filter((k): k is string => k !== undefined));
  const keyOf = (e: ReviewEntry): string | undefined => {
    const k = (e as Partial<MemoryCandidateEntry>).candidate?.key;
    return typeof k === 'string' ? k : undefined;
  };
  const drop = queue
    .filter((e) => storedIds.has(e.id) || (keyOf(e) !== undefined && (storedKeys.has(keyOf(e) as string) || reviewKeys.has(keyOf(e) as string))))
    .map((e) => e.id);
  if (drop.length > 0) await removeReview(ctx.paths, drop);
  const created = formatDate(ctx.now());
  const entries: MemoryCandidateEntry[] = review
    .map(redactCandidate)
    .filter((c) => !storedIds.has(candidateReviewId(c)) && (c.key === undefined || !storedKeys.has(c.key)))
    .map((c) => ({ kind: MEMORY_CANDIDATE_KIND, id: candidateReviewId(c), created, candidate: c, ...(commit !== undefined ? { commit: commit.slice(0, 12) } : {}) }));
  return appendReview(ctx.paths, entries);
}
