/**
 * Shapes shared by the extraction modules. `ExtractState` is what one incremental run
 * hands to the next: JSON-serialisable and bounded, so a long session costs the same per
 * turn as a short one.
 */
import type { MemoryType } from '../memory.js';

export type CandidateLayer = 'structural' | 'keyword' | 'self-report' | 'llm';

/** Who a candidate's knowledge came from. */
export type Speaker = 'user' | 'assistant' | 'both';

/** A memory proposed by extraction. The shell redacts, dedups across runs and writes it. */
export interface Candidate {
  type: MemoryType;
  /** One line, at most `MAX_CANDIDATE_SUMMARY` characters, markdown stripped. */
  summary: string;
  /** Markdown: the evidence (a short quote, who said it, when, the files). */
  body: string;
  /** 0..1. Self-reports are 1.0; inferred candidates never reach it. */
  confidence: number;
  tags: string[];
  /** Upsert key: `plan/<session>` and `session/<sessionId>` for structural candidates. */
  topic?: string | undefined;
  layer: CandidateLayer;
  files?: string[] | undefined;
  session: string;
  branch?: string | undefined;
  /** Written archived (a finished plan leaves plan.md and the briefing). */
  status?: 'archived' | undefined;
  /**
   * Stable key of the candidate within its session (from the transcript offsets it came
   * from): a later candidate with the same key replaces it, in the queue or on disk.
   */
  key?: string | undefined;
  /** Who said it. */
  speaker?: Speaker | undefined;
  /** The signals that set its confidence, for the review queue (`name+0.20`). */
  signals?: string[] | undefined;
  /** The model that proposed it (layer `llm`), recorded as `source.model`. */
  model?: string | undefined;
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface CommitInfo {
  hash?: string | undefined;
  subject: string;
}

/** A tool call whose result has not been read yet (the transcript lags). */
export interface PendingTool {
  name: string;
  /** Edited or read path, relative to the session root where possible. */
  file?: string | undefined;
  command?: string | undefined;
  sidechain?: boolean | undefined;
  /** Plan mode: the plan text shown for approval (clipped). */
  plan?: string | undefined;
  /** AskUserQuestion: the questions and their option labels. */
  questions?: { question: string; options: string[] }[] | undefined;
  /** A knowledge draft built from the call's input, kept until the call succeeds. */
  draft?: Draft | undefined;
}

/** A candidate under construction, with the signals that score it. */
export interface Draft {
  key: string;
  type: MemoryType;
  summary: string;
  body: string;
  speaker: Speaker;
  /** What produced it; the person's reaction affects kinds differently. */
  kind: 'person' | 'finding' | 'proposal' | 'plan' | 'answer' | 'failure' | 'document' | 'convention';
  base: number;
  signals: { name: string; weight: number }[];
  files: string[];
  tags: string[];
  words: string[];
  /** Project-specific identifiers it names (lower-case), for near-duplicates in other words. */
  idents: string[];
  /** True when it came from the message that closed a stretch of work. */
  final?: boolean | undefined;
  at?: string | undefined;
}

/** A command that failed and has not passed since. */
export interface Failure {
  key: string;
  /** Program and first argument(s): the same key passing later resolves it. */
  program: string;
  command: string;
  symptom: string;
  at?: string | undefined;
  /** Keys of drafts that explain it (said while it was failing). */
  explained: string[];
  /** What the assistant said it would change to fix it ("Let me remove the platform setting …"). */
  fixes: string[];
  edits: string[];
  attempts: number;
  /** Exchange in which it failed. */
  exchange: number;
}

/** The stretch of conversation since the person's last prompt. */
export interface Exchange {
  n: number;
  /** The prompt that opened it (clipped). */
  prompt?: { text: string; at?: string | undefined; correction: boolean; answer: boolean } | undefined;
  drafts: Draft[];
  /** The latest main-thread assistant message (clipped): what the next prompt answers. */
  finalText?: string | undefined;
  finalKey?: string | undefined;
  /** Whether the assistant has spoken yet in this exchange (its first words can acknowledge). */
  spoke: boolean;
  /** The person interrupted or refused a tool call: their next prompt is a correction. */
  interrupted: boolean;
  /** The last main-thread tool call, described in a few words. */
  lastAction?: string | undefined;
  edited: string[];
  tools: number;
}

/** A candidate already emitted in this session, for near-duplicate detection. */
export interface Emitted {
  key: string;
  type: string;
  /** Its summary, so a later wording that replaces it can keep it as evidence. */
  summary: string;
  words: string[];
  idents: string[];
  confidence: number;
  memory: boolean;
}

/**
 * What an incremental run carries to the next one: JSON-serialisable and bounded.
 * Persist it next to the byte checkpoint.
 */
export interface ExtractState {
  version: 2;
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
  todos?: { items: TodoItem[]; branch?: string | undefined; title?: string | undefined } | undefined;
  prompts: number;
  /** Latest `gitBranch` seen; `branches` lists every one in first-seen order. */
  branch?: string | undefined;
  branches: string[];
  sessions: string[];
  firstTimestamp?: string | undefined;
  lastTimestamp?: string | undefined;
  pendingTools: Record<string, PendingTool>;
  exchange: Exchange;
  failures: Failure[];
  emitted: Emitted[];
  /** Hash of Stop's `last_assistant_message` read before the transcript held it. */
  injected?: string | undefined;
  /** Hash of the latest main-thread message read. */
  lastText?: string | undefined;
  /** The main thread's last command, when it failed and no file was edited since. */
  lastFailed?: { command: string; symptom: string; at?: string | undefined } | undefined;
}
