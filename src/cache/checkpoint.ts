/**
 * Per-session transcript checkpoints in `.memory/transcripts/<session>.json`: how far a
 * transcript has been read, which file it was (inode and size, so a replaced or shrunk
 * transcript restarts from 0), and the extraction state that goes with that offset.
 * Local state: losing it only means the next run starts over (dedup absorbs the repeats).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactDeep, stringsOf } from '../core/redact.js';
import { redactionGateStamp } from './gate-stamp.js';
import { writeFileAtomic } from '../store/atomic.js';
import { sessionFileName } from './session-file.js';
import { TRANSCRIPTS_DIR } from './layout.js';

/** Bump when the shape changes: older checkpoints are ignored (a re-read from 0). 3: candidate keys hashed. */
export const CHECKPOINT_VERSION = 3;

export interface TranscriptCheckpoint {
  version: number;
  session: string;
  /** Absolute path of the transcript as the hook reported it. */
  transcript: string;
  /** Bytes read so far: every complete line before it has been extracted. */
  offset: number;
  /** Identity of the file at `offset`: a different inode, or a size below `offset`, restarts. */
  ino: number;
  dev: number;
  size: number;
  /** The extraction state (`ExtractState`) that goes with `offset`; opaque here. */
  state: unknown;
  /**
   * Hash of the structural memory last written per topic: an unchanged plan or progress
   * summary is not rewritten, so a turn with nothing new loads no index and no file.
   */
  written?: Record<string, string> | undefined;
  /** Progress through the session's subagent transcripts (2.x), by file name. */
  subagents?: Record<string, { offset: number; ino: number; size: number; state: unknown }> | undefined;
  /** Memory id written for each candidate key of the session (later candidates with the key update it). */
  keys?: Record<string, string> | undefined;
  /** ISO-8601 time the structural memories were last written (throttles Stop's rewrites). */
  structuralAt?: string | undefined;
  /** ISO-8601 time of the last write. */
  updated: string;
  /** The redaction gate that wrote it (`redactionGateStamp`): its strings need no second scan. */
  gate?: string | undefined;
}

export function checkpointDir(cacheDir: string): string {
  return join(cacheDir, TRANSCRIPTS_DIR);
}

/** A file name for any session id: readable ids as they are, anything else hashed. */
export const checkpointName = sessionFileName;

function isCheckpoint(value: unknown): value is TranscriptCheckpoint {
  const c = value as TranscriptCheckpoint | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.version === CHECKPOINT_VERSION &&
    typeof c.session === 'string' &&
    typeof c.transcript === 'string' &&
    Number.isSafeInteger(c.offset) &&
    c.offset >= 0 &&
    typeof c.ino === 'number' &&
    typeof c.dev === 'number' &&
    typeof c.size === 'number'
  );
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The session's checkpoint, or `undefined` when there is none or it is unusable. */
export function readCheckpoint(cacheDir: string, session: string): TranscriptCheckpoint | undefined {
  const value = readJson(join(checkpointDir(cacheDir), checkpointName(session)));
  return isCheckpoint(value) && value.session === session ? value : undefined;
}

/**
 * A checkpoint another session id left on the same transcript file (Claude Code 1.0.x
 * resumes append to the file of the session they continue, under a new id).
 */
export function findCheckpointByTranscript(cacheDir: string, transcript: string, ino: number): TranscriptCheckpoint | undefined {
  let names: string[];
  try {
    names = readdirSync(checkpointDir(cacheDir)).filter((n) => n.endsWith('.json'));
  } catch {
    return undefined;
  }
  let best: TranscriptCheckpoint | undefined;
  for (const name of names) {
    const value = readJson(join(checkpointDir(cacheDir), name));
    if (!isCheckpoint(value) || value.transcript !== transcript || value.ino !== ino) continue;
    if (best === undefined || value.offset > best.offset) best = value;
  }
  return best;
}

/**
 * Writes a checkpoint. Every string of the extraction state (recent commands, todo items,
 * proposals, pending tool inputs …, whatever shape the extractor gives it) passes the
 * redaction gate first: the state is a copy of what the transcript said. `previous`, the
 * checkpoint as read from disk, spares the strings it holds a second scan when the same
 * gate wrote it.
 */
export function writeCheckpoint(cacheDir: string, checkpoint: TranscriptCheckpoint, previous?: TranscriptCheckpoint): void {
  const gate = redactionGateStamp();
  // What the previous checkpoint held passed this same gate: only the new strings are scanned.
  const clean = previous?.gate === gate ? stringsOf([previous.state, previous.written, previous.subagents, previous.keys, previous.transcript, previous.session]) : undefined;
  // Every string goes through the gate: the extraction state, the candidate keys (hashed by
  // the capture, so nothing of the transcript is in them), and the hook's own fields.
  const redacted: TranscriptCheckpoint = {
    ...checkpoint,
    transcript: redactDeep(checkpoint.transcript, {}, clean).value,
    session: redactDeep(checkpoint.session, {}, clean).value,
    state: redactDeep(checkpoint.state, {}, clean).value,
    written: redactDeep(checkpoint.written, {}, clean).value,
    subagents: redactDeep(checkpoint.subagents, {}, clean).value,
    keys: redactDeep(checkpoint.keys, {}, clean).value,
    gate,
  };
  writeFileAtomic(join(checkpointDir(cacheDir), checkpointName(checkpoint.session)), `${JSON.stringify(redacted)}\n`);
}

/** Deletes checkpoints not written for `maxAgeMs`; returns how many. */
export function pruneCheckpoints(cacheDir: string, options: { now: number; maxAgeMs: number }): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(checkpointDir(cacheDir));
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(checkpointDir(cacheDir), name);
    try {
      if (options.now - statSync(path).mtimeMs > options.maxAgeMs) {
        rmSync(path, { force: true });
        removed++;
      }
    } catch {
      // Removed by a concurrent run.
    }
  }
  return removed;
}
