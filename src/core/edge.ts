/**
 * The edge model: relations between memories, their aliases and the edge file name
 * (DESIGN §2.1). One edge per file `.cortex/edges/<source>--<relation>--<target>.md`;
 * the name is the unique key. Pure: no I/O, no clock.
 */
import { checkIdSafety } from './memory.js';

/**
 * The relations an edge may carry. Direction matters: `A <relation> B` reads as a sentence.
 * - `relates_to`: A is related to B (no stronger claim).
 * - `derived_from`: A was derived from (builds on) B.
 * - `contradicts`: A contradicts B.
 * - `exemplifies`: A is an example of B.
 * - `refines`: A refines (narrows, elaborates) B.
 * - `supersedes`: A replaces B. Only a person or a confirmed consolidation creates it.
 * - `source_of`: A is the source of B, e.g. a `code` memory is the source of the
 *   `code_description` memory that describes it.
 */
export const RELATIONS = [
  'relates_to',
  'derived_from',
  'contradicts',
  'exemplifies',
  'refines',
  'supersedes',
  'source_of',
] as const;
export type Relation = (typeof RELATIONS)[number];

/** `suggested` edges await a person's review: traversal and centrality skip them by default. */
export const EDGE_STATUSES = ['active', 'suggested'] as const;
export type EdgeStatus = (typeof EDGE_STATUSES)[number];

/** What created an edge: a person, a similarity measure, a body link, a consolidation or the code indexer. */
export const EDGE_ORIGINS = ['manual', 'jaccard', 'embedding', 'wikilink', 'consolidation', 'code_index'] as const;
export type EdgeOrigin = (typeof EDGE_ORIGINS)[number];

/** One edge: the frontmatter of an edge file plus its body. */
export interface Edge {
  source: string;
  target: string;
  relation: Relation;
  /** 0..1 */
  strength: number;
  status: EdgeStatus;
  /** True when the edge also holds from target to source (traversal and centrality). */
  bidirectional: boolean;
  origin: EdgeOrigin;
  /** ISO-8601 UTC, e.g. `2026-11-21T10:00:00Z`. */
  created: string;
  /** Markdown rationale after the frontmatter; may be ''. */
  body: string;
  /** Unknown frontmatter keys, preserved on rewrite in their original order. */
  extra: Record<string, unknown>;
}

/** Frontmatter keys of an edge file in the order they are written. */
export const EDGE_KEY_ORDER = [
  'source',
  'target',
  'relation',
  'strength',
  'status',
  'bidirectional',
  'origin',
  'created',
] as const;

/**
 * Aliases that mean the canonical relation in the same direction (`A alias B` = `A relation B`).
 * Keys are in normalised form: lower-case words joined by `_`.
 */
export const RELATION_ALIASES: Readonly<Record<string, Relation>> = {
  related: 'relates_to',
  relates: 'relates_to',
  relate: 'relates_to',
  related_to: 'relates_to',
  relate_to: 'relates_to',
  related_with: 'relates_to',
  relates_with: 'relates_to',
  see_also: 'relates_to',
  links_to: 'relates_to',
  linked_to: 'relates_to',
  link: 'relates_to',
  associated_with: 'relates_to',
  similar_to: 'relates_to',
  references: 'relates_to',
  mentions: 'relates_to',
  derives: 'derived_from',
  derived: 'derived_from',
  derive: 'derived_from',
  derive_from: 'derived_from',
  derives_from: 'derived_from',
  based_on: 'derived_from',
  builds_on: 'derived_from',
  follows_from: 'derived_from',
  inspired_by: 'derived_from',
  contradict: 'contradicts',
  contradiction: 'contradicts',
  contradiction_of: 'contradicts',
  conflicts_with: 'contradicts',
  conflict_with: 'contradicts',
  conflicts: 'contradicts',
  conflict: 'contradicts',
  disagrees_with: 'contradicts',
  inconsistent_with: 'contradicts',
  example: 'exemplifies',
  example_of: 'exemplifies',
  exemplify: 'exemplifies',
  is_example_of: 'exemplifies',
  instance_of: 'exemplifies',
  illustrates: 'exemplifies',
  demonstrates: 'exemplifies',
  refine: 'refines',
  refinement: 'refines',
  refinement_of: 'refines',
  elaborates: 'refines',
  elaborates_on: 'refines',
  clarifies: 'refines',
  narrows: 'refines',
  specializes: 'refines',
  extends: 'refines',
  supersede: 'supersedes',
  replaces: 'supersedes',
  replace: 'supersedes',
  obsoletes: 'supersedes',
  deprecates: 'supersedes',
  overrides: 'supersedes',
  source: 'source_of',
  source_for: 'source_of',
  is_source_of: 'source_of',
  origin_of: 'source_of',
  described_by: 'source_of',
  documented_by: 'source_of',
};

/**
 * Aliases that mean the canonical relation in the OPPOSITE direction
 * (`A superseded_by B` = `B supersedes A`). `normalizeRelation` refuses them, because
 * mapping the word alone would silently reverse the meaning; `resolveRelation` returns
 * them with `reversed: true` so a caller can swap source and target.
 */
export const REVERSED_RELATION_ALIASES: Readonly<Record<string, Relation>> = {
  superseded_by: 'supersedes',
  replaced_by: 'supersedes',
  obsoleted_by: 'supersedes',
  deprecated_by: 'supersedes',
  overridden_by: 'supersedes',
  derivation_of: 'derived_from',
  basis_for: 'derived_from',
  basis_of: 'derived_from',
  contradicted_by: 'contradicts',
  exemplified_by: 'exemplifies',
  has_example: 'exemplifies',
  illustrated_by: 'exemplifies',
  refined_by: 'refines',
  elaborated_by: 'refines',
  extended_by: 'refines',
  describes: 'source_of',
  documents: 'source_of',
  has_source: 'source_of',
  sourced_from: 'source_of',
};

const RELATION_SET: ReadonlySet<string> = new Set(RELATIONS);

/**
 * The lookup form of a relation word: camelCase split, lower-case, runs of spaces,
 * dashes and dots as one `_`.
 *
 * @example
 * relationKey(' Relates-To ') // 'relates_to'
 */
export function relationKey(text: string): string {
  return text
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s\-._]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export interface ResolvedRelation {
  relation: Relation;
  /** True when the word names the relation from target to source: swap the endpoints. */
  reversed: boolean;
}

/**
 * Resolves any relation word, including reversed aliases such as `superseded_by`.
 *
 * @example
 * resolveRelation('superseded by') // { relation: 'supersedes', reversed: true }
 * resolveRelation('related') // { relation: 'relates_to', reversed: false }
 */
export function resolveRelation(text: string): ResolvedRelation | undefined {
  if (RELATION_SET.has(text)) return { relation: text as Relation, reversed: false };
  const key = relationKey(text);
  if (RELATION_SET.has(key)) return { relation: key as Relation, reversed: false };
  if (Object.hasOwn(RELATION_ALIASES, key)) return { relation: RELATION_ALIASES[key] as Relation, reversed: false };
  if (Object.hasOwn(REVERSED_RELATION_ALIASES, key)) {
    return { relation: REVERSED_RELATION_ALIASES[key] as Relation, reversed: true };
  }
  return undefined;
}

/**
 * The canonical relation for a word written by a person or an LLM, insensitive to case,
 * spaces and dashes; `undefined` for unknown words AND for reversed aliases
 * (`superseded_by`, `describes` …), whose meaning needs swapped endpoints: use
 * `resolveRelation` for those.
 *
 * @example
 * normalizeRelation('Related-To') // 'relates_to'
 * normalizeRelation('superseded_by') // undefined
 */
export function normalizeRelation(text: string): Relation | undefined {
  const resolved = resolveRelation(text);
  return resolved && !resolved.reversed ? resolved.relation : undefined;
}

/**
 * True for a canonical relation name (aliases are not relations).
 *
 * @example
 * isRelation('refines') // true
 */
export function isRelation(value: unknown): value is Relation {
  return typeof value === 'string' && RELATION_SET.has(value);
}

/**
 * True for `active` or `suggested`.
 *
 * @example
 * isEdgeStatus('suggested') // true
 */
export function isEdgeStatus(value: unknown): value is EdgeStatus {
  return typeof value === 'string' && (EDGE_STATUSES as readonly string[]).includes(value);
}

/**
 * True for a known edge origin.
 *
 * @example
 * isEdgeOrigin('wikilink') // true
 */
export function isEdgeOrigin(value: unknown): value is EdgeOrigin {
  return typeof value === 'string' && (EDGE_ORIGINS as readonly string[]).includes(value);
}

/**
 * Why an id cannot be an edge endpoint, or `undefined` when it can: it must be a safe
 * memory id (`checkIdSafety`) and must not contain `--`, the file-name separator.
 *
 * @example
 * checkEdgeId('a--b') // 'contains "--", the edge file-name separator'
 */
export function checkEdgeId(id: string): string | undefined {
  const unsafe = checkIdSafety(id);
  if (unsafe) return unsafe;
  if (id.includes('--')) return 'contains "--", the edge file-name separator';
  return undefined;
}

export interface EdgeKey {
  source: string;
  relation: Relation;
  target: string;
}

/**
 * The file name of an edge: `<source>--<relation>--<target>.md`, its unique key.
 * Throws a `RangeError` for an endpoint that `checkEdgeId` rejects or a non-canonical
 * relation: callers validate first, and a bad name must never reach the disk.
 *
 * @example
 * edgeFileName({ source: 'a-abcdef', relation: 'refines', target: 'b-ghijkl' })
 * // 'a-abcdef--refines--b-ghijkl.md'
 */
export function edgeFileName(key: EdgeKey): string {
  for (const id of [key.source, key.target]) {
    const problem = checkEdgeId(id);
    if (problem) throw new RangeError(`edge endpoint "${id.slice(0, 60)}" ${problem}`);
  }
  if (!isRelation(key.relation)) throw new RangeError(`"${String(key.relation)}" is not a relation`);
  return `${key.source}--${key.relation}--${key.target}.md`;
}

const FILE_NAME_PATTERN = new RegExp(`^(.+)--(${RELATIONS.join('|')})--(.+)\\.md$`);

/**
 * The parts of an edge file name, or `undefined` when the name is not
 * `<source>--<relation>--<target>.md` with a canonical relation and valid endpoints.
 * Accepts a bare name only, not a path.
 *
 * @example
 * parseEdgeFileName('a-abcdef--refines--b-ghijkl.md')
 * // { source: 'a-abcdef', relation: 'refines', target: 'b-ghijkl' }
 */
export function parseEdgeFileName(name: string): EdgeKey | undefined {
  // Greedy source: the target never contains "--", so the last separator pair is the real one.
  const match = FILE_NAME_PATTERN.exec(name);
  if (!match) return undefined;
  const [, source, relation, target] = match as unknown as [string, string, Relation, string];
  if (checkEdgeId(source) !== undefined || checkEdgeId(target) !== undefined) return undefined;
  return { source, relation, target };
}

/**
 * The identity of an edge as one string (same source, relation and target = same edge).
 *
 * @example
 * edgeId({ source: 'a', relation: 'refines', target: 'b' }) // 'a--refines--b'
 */
export function edgeId(key: EdgeKey): string {
  return `${key.source}--${key.relation}--${key.target}`;
}

/**
 * Strength of the edge a body's `[[id]]` link stands for: a person or assistant wrote
 * the link on purpose, which says more than a similarity score in the `relates_to`
 * tier (0.1–0.4) but less than an edge someone weighed and wrote as a file.
 * Lives here, not in wikilinks.ts, so the graph does not load the markdown parser.
 */
export const WIKILINK_STRENGTH = 0.5;

export interface BuildEdgeOptions {
  source: string;
  target: string;
  relation: Relation;
  /** ISO-8601 creation time: the clock is the caller's. */
  created: string;
  strength?: number;
  status?: EdgeStatus;
  bidirectional?: boolean;
  origin?: EdgeOrigin;
  body?: string;
  extra?: Record<string, unknown>;
}

/**
 * Defaults of a new edge. Strength 0.5: a claim nobody has weighed yet; automatic
 * links set their own strength from the similarity score.
 */
export const DEFAULT_EDGE = {
  strength: 0.5,
  status: 'active',
  bidirectional: false,
  origin: 'manual',
  body: '',
} as const satisfies Partial<Edge>;

/**
 * A complete edge from the required fields and `DEFAULT_EDGE`.
 *
 * @example
 * buildEdge({ source: 'a', target: 'b', relation: 'refines', created: '2026-01-01T00:00:00Z' }).strength // 0.5
 */
export function buildEdge(options: BuildEdgeOptions): Edge {
  const o = { ...DEFAULT_EDGE, ...options };
  return {
    source: o.source,
    target: o.target,
    relation: o.relation,
    strength: o.strength,
    status: o.status,
    bidirectional: o.bidirectional,
    origin: o.origin,
    created: o.created,
    body: o.body,
    extra: { ...(o.extra ?? {}) },
  };
}
