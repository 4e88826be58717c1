/**
 * What every importer produces and every exporter consumes: plain records, no I/O.
 * An importer maps one source (a file's text, a directory's files) to records and
 * relations; the use case (`api/import.ts`) writes them through the one write gate.
 */
import type { Edge } from '../edge.js';
import type { Memory, MemoryStatus, MemoryType } from '../memory.js';

export const INTEROP_FORMATS = ['claude', 'claude-md', 'agents-md', 'memory-bank', 'mcp-memory', 'basic-memory', 'jsonl'] as const;
export type InteropFormat = (typeof INTEROP_FORMATS)[number];

export const EXPORT_FORMATS = ['jsonl', 'claude', 'memory-bank', 'agents-md', 'claude-md', 'mcp-memory', 'basic-memory'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One memory to import, mapped from a source record. */
export interface ImportRecord {
  /** Stable key of the record within its source (a file stem, an entity name, a heading path). */
  key: string;
  /** The source file it came from, as shown to people (and kept in `source.files`). */
  file: string;
  /** 1-based line of the record in its file, when it has one. */
  line?: number | undefined;
  type: MemoryType;
  summary: string;
  body: string;
  tags: string[];
  created?: string | undefined;
  updated?: string | undefined;
  /** Marked private in the source (`private: true`, Claude's `user` memories): the local tier. */
  private?: boolean | undefined;
  priority?: number | undefined;
  confidence?: number | undefined;
  pinned?: boolean | undefined;
  status?: MemoryStatus | undefined;
  /** Cortex's own JSONL: the whole memory, written as it is (lossless). */
  memory?: Memory | undefined;
}

/** A relation between two records of the source, by their keys (or names the records carry). */
export interface ImportRelation {
  from: string;
  to: string;
  /** As the source wrote it; normalised (or mapped to `relates_to`) when written. */
  relation: string;
  file: string;
  line?: number | undefined;
}

/** A record the source has but that is not imported, and why. */
export interface ImportSkip {
  file: string;
  line?: number | undefined;
  reason: string;
}

export interface ParsedSource {
  records: ImportRecord[];
  relations: ImportRelation[];
  /** Cortex's own JSONL: edges, written as they are. */
  edges: Edge[];
  skipped: ImportSkip[];
}

/** A source file handed to a parser: its path as shown, and its text. */
export interface SourceFile {
  /** Path relative to the source root (`/`-separated). */
  path: string;
  text: string;
}

/** What an exporter writes: files relative to the target directory, with their new text. */
export interface ExportFile {
  path: string;
  text: string;
}

export function emptySource(): ParsedSource {
  return { records: [], relations: [], edges: [], skipped: [] };
}
