/**
 * The edge file format (DESIGN §2.1): YAML frontmatter plus an optional markdown
 * rationale, written exactly like memory files. `parseEdge` and `renderEdge` are a pair:
 * parse(render(e)) equals e, and render is byte-stable.
 * Pure: strings in, data out.
 */
import {
  DEFAULT_EDGE,
  EDGE_KEY_ORDER,
  EDGE_ORIGINS,
  EDGE_STATUSES,
  RELATIONS,
  checkEdgeId,
  isEdgeOrigin,
  isEdgeStatus,
  parseEdgeFileName,
  resolveRelation,
  type Edge,
  type EdgeOrigin,
  type EdgeStatus,
  type Relation,
} from './edge.js';
import type { Diagnostic } from './memory.js';
import {
  YamlFrontmatterError,
  excerpt,
  normalizeBody,
  renderFrontmatterFile,
  setOwn,
  splitFrontmatter,
  type ParsedFrontmatter,
} from './memory-format.js';

export interface ParseEdgeOptions {
  /**
   * Path shown in diagnostics. When it ends in `.md`, its base name must be the edge's
   * `<source>--<relation>--<target>.md`.
   */
  file?: string;
  /** Date used when `created` is missing (e.g. the file's mtime). */
  fallbackDate?: string;
}

export interface ParseEdgeResult {
  /** Undefined when an error makes the file unusable. */
  edge: Edge | undefined;
  diagnostics: Diagnostic[];
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const EDGE_EXAMPLE =
  '---\\nsource: a-k3f9qa\\ntarget: b-p2x81d\\nrelation: refines\\nstrength: 0.8\\nstatus: active\\n---\\nWhy they are linked.';

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/**
 * Parses an edge file. Never throws: every problem is a `Diagnostic`. The edge is
 * returned when it is usable: endpoints, relation and file name are sound; a bad
 * strength, status, origin or date is an error with a safe default.
 * A relation alias (`related`, `derives` …) is accepted with a warning; a reversed
 * alias (`superseded_by`) is an error, because the endpoints would have to be swapped.
 *
 * @example
 * parseEdge('---\nsource: a\ntarget: b\nrelation: related\ncreated: 2026-01-01T00:00:00Z\n---\n').edge?.relation
 * // 'relates_to' (with a 'relation-alias' warning)
 */
export function parseEdge(text: string, options: ParseEdgeOptions = {}): ParseEdgeResult {
  const file = options.file ?? '<edge>';
  const diagnostics: Diagnostic[] = [];
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const fail = (reason: string, ruleId: string, line?: number, column?: number, hint?: string): ParseEdgeResult => {
    diagnostics.push({ file, line, column, reason, ruleId, severity: 'error', hint });
    return { edge: undefined, diagnostics };
  };

  if (!normalized.startsWith('---\n')) {
    return fail(
      `expected YAML frontmatter between "---" lines at the top, found "${excerpt(normalized)}"`,
      'frontmatter-missing',
      1,
      1,
      `Start the file with frontmatter, e.g. ${EDGE_EXAMPLE}`,
    );
  }
  let fm: ParsedFrontmatter;
  try {
    fm = splitFrontmatter(normalized);
  } catch (err) {
    if (err instanceof YamlFrontmatterError) {
      const line = err.line;
      const lineText = line === undefined ? '' : (normalized.split('\n')[line - 1] ?? '');
      return fail(
        `invalid YAML in frontmatter: ${err.message}${lineText ? ` (found "${excerpt(lineText)}")` : ''}`,
        'yaml-syntax',
        line,
        err.column,
        'Fix the YAML syntax (quote values containing ": " or "#"), then run `cortex lint`.',
      );
    }
    return fail(`cannot read frontmatter: ${(err as Error).message}`, 'frontmatter-invalid', 1, 1);
  }
  const data = fm.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail('frontmatter must be a YAML mapping of keys to values', 'frontmatter-shape', 2, 1, `Example: ${EDGE_EXAMPLE}`);
  }
  const raw = data as Record<string, unknown>;
  const lineOf = (key: string): number => fm.lines.get(key) ?? 1;
  const report = (severity: Diagnostic['severity'], key: string, reason: string, ruleId: string, hint?: string) =>
    diagnostics.push({ file, line: lineOf(key), reason, ruleId, severity, hint });
  let usable = true;

  // endpoints
  const endpoint = (key: 'source' | 'target'): string | undefined => {
    let value = raw[key];
    if (typeof value === 'number') value = String(value);
    if (typeof value !== 'string' || value.trim() === '') {
      report('error', key, `missing or empty "${key}"`, 'edge-endpoint-missing', `Add \`${key}: <memory id>\`.`);
      return undefined;
    }
    const problem = checkEdgeId(value);
    if (problem) {
      report('error', key, `${key} "${excerpt(value, 40)}" ${problem}`, 'edge-endpoint-unsafe', 'Use the id of an existing memory, e.g. `chose-sqlite-k3f9qa`.');
      return undefined;
    }
    return value;
  };
  const source = endpoint('source');
  const target = endpoint('target');
  if (source === undefined || target === undefined) usable = false;

  // relation
  let relation: Relation | undefined;
  const rawRelation = raw.relation;
  const validList = `Use one of: ${RELATIONS.join(', ')}.`;
  if (typeof rawRelation !== 'string' || rawRelation.trim() === '') {
    report('error', 'relation', 'missing or empty "relation"', 'edge-relation-missing', validList);
    usable = false;
  } else {
    const resolved = resolveRelation(rawRelation);
    if (!resolved) {
      report('error', 'relation', `unknown relation "${excerpt(rawRelation, 30)}"`, 'edge-relation-unknown', validList);
      usable = false;
    } else if (resolved.reversed) {
      report(
        'error',
        'relation',
        `relation "${excerpt(rawRelation, 30)}" reads from target to source`,
        'edge-relation-reversed',
        `Swap source and target and write \`relation: ${resolved.relation}\`.`,
      );
      usable = false;
    } else {
      relation = resolved.relation;
      if (rawRelation !== relation) {
        report('warning', 'relation', `relation "${excerpt(rawRelation, 30)}" is an alias of "${relation}"`, 'relation-alias', `Write \`relation: ${relation}\`.`);
      }
    }
  }

  // file name = unique key
  if (options.file !== undefined && file.endsWith('.md') && source !== undefined && target !== undefined && relation !== undefined) {
    const name = baseName(file);
    const expected = `${source}--${relation}--${target}.md`;
    const parts = parseEdgeFileName(name);
    if (!parts) {
      report('error', 'source', `file name "${name}" is not <source>--<relation>--<target>.md`, 'edge-name-invalid', `Rename the file to ${expected}.`);
      usable = false;
    } else if (parts.source !== source || parts.relation !== relation || parts.target !== target) {
      report('error', 'source', `frontmatter says ${expected} but the file is named ${name}`, 'edge-name-mismatch', `Rename the file to ${expected}, or fix the frontmatter to match the name.`);
      usable = false;
    }
  }

  // strength
  const rawStrength = raw.strength ?? DEFAULT_EDGE.strength;
  let strength: number = DEFAULT_EDGE.strength;
  if (typeof rawStrength !== 'number' || !Number.isFinite(rawStrength) || rawStrength < 0 || rawStrength > 1) {
    report('error', 'strength', `strength must be a number from 0 to 1, found ${excerpt(JSON.stringify(rawStrength) ?? '', 20)}`, 'field-invalid', 'Set `strength:` to a value such as 0.8.');
  } else {
    // -0 would render as "-0": keep one zero.
    strength = rawStrength === 0 ? 0 : rawStrength;
  }

  // status
  const rawStatus = raw.status ?? DEFAULT_EDGE.status;
  let status: EdgeStatus = DEFAULT_EDGE.status;
  if (isEdgeStatus(rawStatus)) status = rawStatus;
  else report('error', 'status', `unknown edge status "${excerpt(String(rawStatus), 30)}"`, 'field-invalid', `Use one of: ${EDGE_STATUSES.join(', ')}.`);

  // bidirectional
  const rawBidirectional = raw.bidirectional ?? DEFAULT_EDGE.bidirectional;
  let bidirectional: boolean = DEFAULT_EDGE.bidirectional;
  if (typeof rawBidirectional === 'boolean') bidirectional = rawBidirectional;
  else report('error', 'bidirectional', `bidirectional must be true or false, found ${excerpt(JSON.stringify(rawBidirectional) ?? '', 20)}`, 'field-invalid');

  // origin
  const rawOrigin = raw.origin ?? DEFAULT_EDGE.origin;
  let origin: EdgeOrigin = DEFAULT_EDGE.origin;
  if (isEdgeOrigin(rawOrigin)) origin = rawOrigin;
  else report('error', 'origin', `unknown edge origin "${excerpt(String(rawOrigin), 30)}"`, 'field-invalid', `Use one of: ${EDGE_ORIGINS.join(', ')}.`);

  // created
  let created: string;
  const rawCreated = raw.created;
  if (rawCreated === undefined || rawCreated === null) {
    if (options.fallbackDate) {
      report('warning', 'created', 'missing "created"', 'date-missing', `Add \`created: ${options.fallbackDate}\`.`);
      created = options.fallbackDate;
    } else {
      report('error', 'created', 'missing "created"', 'date-missing', 'Add an ISO-8601 date such as 2026-11-21T10:00:00Z.');
      created = '1970-01-01T00:00:00Z';
    }
  } else {
    const text = rawCreated instanceof Date ? rawCreated.toISOString() : String(rawCreated);
    if (!DATE_PATTERN.test(text) || Number.isNaN(Date.parse(text))) {
      report('error', 'created', `created is not an ISO-8601 date: "${excerpt(text, 30)}"`, 'date-invalid', 'Use a date such as 2026-11-21T10:00:00Z.');
      created = options.fallbackDate ?? '1970-01-01T00:00:00Z';
    } else {
      created = text;
    }
  }

  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (!(EDGE_KEY_ORDER as readonly string[]).includes(key)) setOwn(extra, key, raw[key]);
  }

  if (!usable || source === undefined || target === undefined || relation === undefined) {
    return { edge: undefined, diagnostics };
  }
  return {
    edge: { source, target, relation, strength, status, bidirectional, origin, created, body: normalizeBody(fm.body), extra },
    diagnostics,
  };
}

/**
 * Frontmatter object of an edge in the canonical key order, unknown keys last.
 *
 * @example
 * Object.keys(edgeFrontmatter(edge)).slice(0, 3) // ['source', 'target', 'relation']
 */
export function edgeFrontmatter(edge: Edge): Record<string, unknown> {
  const fm: Record<string, unknown> = {
    source: edge.source,
    target: edge.target,
    relation: edge.relation,
    strength: edge.strength === 0 ? 0 : edge.strength,
    status: edge.status,
    bidirectional: edge.bidirectional,
    origin: edge.origin,
    created: edge.created,
  };
  for (const [key, value] of Object.entries(edge.extra)) {
    if (!Object.hasOwn(fm, key)) setOwn(fm, key, value);
  }
  return fm;
}

/**
 * Renders an edge file. Byte-stable: same edge, same bytes.
 *
 * @example
 * renderEdge(edge) // '---\nsource: a-k3f9qa\ntarget: b-p2x81d\nrelation: refines\n…---\nWhy.\n'
 */
export function renderEdge(edge: Edge): string {
  return renderFrontmatterFile(edgeFrontmatter(edge), edge.body);
}
