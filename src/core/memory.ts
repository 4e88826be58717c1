/**
 * The memory model: types, constants, id rules and field validation.
 * Pure: no I/O, no clock, no randomness (callers pass them in).
 */

export const MEMORY_TYPES = [
  'architecture',
  'decision',
  'rejected',
  'pattern',
  'gotcha',
  'preference',
  'plan',
  'progress',
  'context',
  'code_description',
  'code',
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const MEMORY_STATUSES = ['active', 'archived', 'superseded'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/**
 * `local` is the project's private tier: `<git-common-dir>/cortex/local/`, never staged or
 * exported unless asked (a preference, a path on this machine).
 */
export const SCOPES = ['project', 'local', 'global'] as const;
export type Scope = (typeof SCOPES)[number];

export const SOURCE_KINDS = ['extraction', 'manual', 'code_index', 'import', 'consolidation'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const SOURCE_LAYERS = ['structural', 'keyword', 'self-report', 'llm', 'manual'] as const;
export type SourceLayer = (typeof SOURCE_LAYERS)[number];

/** Who accepted a captured candidate from the review queue (`source.confirmed`). */
export const SOURCE_CONFIRMERS = ['person', 'assistant'] as const;
export type SourceConfirmer = (typeof SOURCE_CONFIRMERS)[number];

/** Where a memory came from. Unknown keys are kept in `extra`. */
export interface MemorySource {
  kind: SourceKind;
  layer?: SourceLayer | undefined;
  session?: string | undefined;
  branch?: string | undefined;
  commit?: string | undefined;
  files?: string[] | undefined;
  /**
   * Provenance of an imported memory: `<format>:<source file as given>[:<line>]`, the home
   * directory written as `~` (`claude:~/.claude/projects/-home-me-repo/memory/MEMORY.md:12`).
   * Not a code anchor: only `files` drives staleness.
   */
  from?: string | undefined;
  /**
   * Who accepted it from the review queue: a person (`cortex review --accept`) or the
   * assistant (MCP `memory_review`). Absent on automatic captures, which nobody confirmed.
   */
  confirmed?: SourceConfirmer | undefined;
  extra?: Record<string, unknown> | undefined;
}

/**
 * One memory: the frontmatter fields plus the markdown body.
 * Dates are ISO-8601 UTC strings (`2026-11-21T10:00:00Z`) so that a rewrite is byte-stable.
 */
export interface Memory {
  id: string;
  type: MemoryType;
  summary: string;
  scope: Scope;
  priority: number;
  confidence: number;
  pinned: boolean;
  status: MemoryStatus;
  tags: string[];
  topic?: string | undefined;
  created: string;
  updated: string;
  source: MemorySource;
  /** Markdown body after the frontmatter, without the leading blank line. */
  body: string;
  /** Unknown frontmatter keys, preserved on rewrite in their original order. */
  extra: Record<string, unknown>;
}

/** A problem found in a file. Expected outcomes are values, not exceptions. */
export interface Diagnostic {
  file: string;
  line?: number | undefined;
  column?: number | undefined;
  reason: string;
  ruleId: string;
  severity: 'error' | 'warning';
  hint?: string | undefined;
}

/** Frontmatter keys in the order they are written. */
export const MEMORY_KEY_ORDER = [
  'id',
  'type',
  'summary',
  'scope',
  'priority',
  'confidence',
  'pinned',
  'status',
  'tags',
  'topic',
  'created',
  'updated',
  'source',
] as const;

export const SOURCE_KEY_ORDER = ['kind', 'layer', 'session', 'branch', 'commit', 'files', 'from', 'confirmed'] as const;

/**
 * The `source` keys that hold identifiers: kept as written even where YAML would read a
 * number (`commit: 0123456`, `commit: 1234e56`).
 */
export const SOURCE_ID_KEYS = ['session', 'branch', 'commit'] as const;

export const MAX_SLUG_LENGTH = 48;
export const ID_SUFFIX_LENGTH = 6;
export const MAX_SUMMARY_LENGTH = 300;
/** Lower-case RFC 4648 base32 alphabet: the id suffix uses it. */
export const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ids: lower-case slug, a dash, six base32 chars. Nothing that could escape a directory. */
export const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*-[a-z2-7]{6}$/;
/** Looser shape accepted for hand-written or imported ids: still path-safe. */
export const SAFE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * Slug of a summary: lower-case ASCII words joined by `-`, at most `MAX_SLUG_LENGTH`
 * chars, cut at a word boundary where possible.
 *
 * @example
 * slugify('Chose SQLite over PostgreSQL!') // 'chose-sqlite-over-postgresql'
 */
export function slugify(text: string, maxLength: number = MAX_SLUG_LENGTH): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maxLength) {
      if (slug === '') slug = word.slice(0, maxLength);
      break;
    }
    slug = next;
  }
  return slug === '' ? 'memory' : slug;
}

/**
 * Builds a new id from a summary and a source of random bytes.
 *
 * @example
 * buildId('Chose SQLite', () => new Uint8Array([0, 1, 2, 3, 4, 5])) // 'chose-sqlite-abcdef'
 */
export function buildId(summary: string, randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(ID_SUFFIX_LENGTH);
  let suffix = '';
  for (let i = 0; i < ID_SUFFIX_LENGTH; i++) suffix += BASE32_ALPHABET[(bytes[i] ?? 0) % 32];
  return `${slugify(summary)}-${suffix}`;
}

/**
 * Why an id is unsafe to use as a file name under `.cortex/`, or `undefined` when it is safe.
 * Rejects path separators, `..`, absolute paths, NUL, reserved device names and odd characters.
 *
 * @example
 * checkIdSafety('../../etc/passwd') // 'contains a path separator'
 */
export function checkIdSafety(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  if (id.includes('\0')) return 'contains a NUL byte';
  if (id.includes('/') || id.includes('\\')) return 'contains a path separator';
  if (id.includes('..')) return 'contains ".."';
  if (/^[a-zA-Z]:/.test(id)) return 'looks like an absolute path';
  if (WINDOWS_RESERVED.test(id)) return 'is a reserved device name';
  if (!SAFE_ID_PATTERN.test(id)) return 'may only contain lower-case letters, digits, "-" and "_" (at most 100)';
  return undefined;
}

/** True when `id` is safe to use as a file name. */
export function isSafeId(id: string): boolean {
  return checkIdSafety(id) === undefined;
}

/** Normalises a tag: trimmed, lower-case, inner spaces as `-`. */
export function normalizeTag(tag: string): string {
  return tag.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Tags normalised, deduplicated and in first-seen order. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const t = normalizeTag(tag);
    if (t !== '') seen.add(t);
  }
  return [...seen];
}

/** ISO-8601 UTC at second precision: the only date form Cortex writes. */
export function formatDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

export function isMemoryStatus(value: unknown): value is MemoryStatus {
  return typeof value === 'string' && (MEMORY_STATUSES as readonly string[]).includes(value);
}

/** Memory types that never decay (DESIGN §3). */
export const IMMORTAL_TYPES: readonly MemoryType[] = ['architecture', 'decision', 'rejected', 'code_description', 'code'];
