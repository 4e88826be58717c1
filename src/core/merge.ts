/**
 * Three-way merge of memory files (DESIGN §5): frontmatter field by field, body line by
 * line. One pure function serves git's `%O %A %B` merge driver and isomorphic-git's
 * `mergeDriver` callback; the adapters only read and write files.
 *
 * Rules (every field is 3-way first: a side that changed wins over a side that did not;
 * the per-field resolver only decides when BOTH sides changed to different values):
 *
 * | field | both sides changed differently |
 * | --- | --- |
 * | `tags`, `source.files` | set merge: union, minus what either side removed from base |
 * | `priority`, `confidence`, `updated` | max |
 * | `created` | min |
 * | `status` | superseded > archived > active |
 * | `source.confirmed` | person > assistant |
 * | `pinned` | true wins |
 * | `id`, `type`, `summary`, `scope`, `topic`, other `source` keys, unknown keys | conflict |
 *
 * A field conflict keeps OUR value in the frontmatter (so the file still parses and the
 * memory stays usable while the merge is resolved) and writes both values, as YAML,
 * in one standard conflict block at the top of the body. Body conflicts leave git's
 * 2-way markers in place. Conflicts carry the 1-based line of their `<<<<<<<` marker so
 * `cortex lint` and the driver can point at it. Content is never dropped.
 *
 * Deletion: deleted on one side and unchanged on the other → deleted. Deleted on one side
 * and modified on the other (git's modify/delete) → the modified text is kept as is and
 * a `modify-delete` conflict is reported, so a person decides. Added on both sides →
 * merged against an empty base. A side that does not parse cleanly (broken YAML, or a
 * field whose value the parser had to replace) → plain line-based diff3 of the whole text,
 * so nothing the parser would have defaulted away is lost. Never throws.
 */
import { diff3Merge } from 'node-diff3';
import { MEMORY_KEY_ORDER, SOURCE_KEY_ORDER } from './memory.js';
import { memoryFrontmatter, normalizeBody, parseMemory, renderFrontmatterFile, renderFrontmatterYaml } from './memory-format.js';

/** Marker labels written after `<<<<<<<` and `>>>>>>>`. */
export interface MergeLabels {
  ours: string;
  theirs: string;
}

/** One place where the merge could not decide. */
export interface Conflict {
  /**
   * `field`: both sides changed a frontmatter field differently. `body`: both sides
   * changed the same body lines. `text`: a conflict hunk of the whole-text fallback.
   * `modify-delete`: one side deleted the file, the other changed it.
   */
  kind: 'field' | 'body' | 'text' | 'modify-delete';
  /** Path shown to people, relative to the repository root. */
  file: string;
  /** Dotted path of the field (`summary`, `source.branch`), for `field` conflicts. */
  field?: string | undefined;
  base?: unknown;
  ours?: unknown;
  theirs?: unknown;
  /** 1-based line of the `<<<<<<<` marker in the result text, when markers were written. */
  line?: number | undefined;
  /** For `modify-delete`: the side that deleted the file. */
  deletedBy?: 'ours' | 'theirs' | undefined;
  reason: string;
}

/** `text` is null when the merged file is deleted. */
export interface MergeResult {
  clean: boolean;
  text: string | null;
  conflicts: Conflict[];
}

/**
 * How one frontmatter field merges when both sides changed it to different values.
 * - `conflict`: keep ours in the frontmatter, report a conflict.
 * - `max` / `min`: numbers, or ISO dates compared as instants.
 * - `or`: booleans; true wins.
 * - `set`: lists of scalars merged as sets (union minus removals), order merged too.
 * - `{ precedence }`: the value listed first wins.
 * - `{ record }`: a nested mapping merged key by key.
 * Values of a type the resolver cannot handle fall back to `conflict`.
 */
export type FieldRule =
  | 'conflict'
  | 'max'
  | 'min'
  | 'or'
  | 'set'
  | { precedence: readonly unknown[] }
  | { record: RecordRules };

export interface RecordRules {
  /** Rules by key. */
  fields?: Readonly<Record<string, FieldRule>>;
  /** Rule for keys not in `fields`. Default `conflict`. */
  other?: FieldRule;
  /** Keys written first, in this order; the rest follow in merged order. */
  keyOrder?: readonly string[];
}

/** A field that both sides changed differently. `path` is the key path from the top. */
export interface FieldConflict {
  path: string[];
  base: unknown;
  ours: unknown;
  theirs: unknown;
}

export interface MergeFrontmatterRecordOptions {
  /** `undefined` when the record is new on both sides. */
  base?: Record<string, unknown> | undefined;
  ours: Record<string, unknown>;
  theirs: Record<string, unknown>;
  rules?: RecordRules;
}

export const DEFAULT_MERGE_FRONTMATTER_RECORD: Required<Pick<MergeFrontmatterRecordOptions, 'rules'>> = {
  rules: { other: 'conflict' },
};

/** Merge rules for memory frontmatter (see the table at the top of this module). */
export const MEMORY_MERGE_RULES: RecordRules = {
  keyOrder: MEMORY_KEY_ORDER,
  other: 'conflict',
  fields: {
    id: 'conflict',
    type: 'conflict',
    summary: 'conflict',
    scope: 'conflict',
    topic: 'conflict',
    priority: 'max',
    confidence: 'max',
    pinned: 'or',
    status: { precedence: ['superseded', 'archived', 'active'] },
    tags: 'set',
    created: 'min',
    updated: 'max',
    source: { record: { keyOrder: SOURCE_KEY_ORDER, other: 'conflict', fields: { files: 'set', confirmed: { precedence: ['person', 'assistant'] } } } },
  },
};

// ---------------------------------------------------------------------------
// Values

// Plain assignment of "__proto__" would change the prototype instead of keeping the key.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// Keys such as "constructor" or "__proto__" must not read through to Object.prototype.
function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function isEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => isEqual(item, b[i]));
  }
  if (isPlainRecord(a) && isPlainRecord(b)) {
    const ak = Object.keys(a).filter((k) => own(a, k) !== undefined);
    const bk = Object.keys(b).filter((k) => own(b, k) !== undefined);
    // Key order is part of the bytes; two records that differ only in order are different
    // texts, but the same data: the merge treats them as equal so reordering alone never conflicts.
    return ak.length === bk.length && ak.every((k) => isEqual(own(a, k), own(b, k)));
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/** Comparable form for `max`/`min`, or undefined when the value is not comparable. */
function orderKey(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

function pickExtreme(ours: unknown, theirs: unknown, direction: 1 | -1): { value: unknown } | undefined {
  const a = orderKey(ours);
  const b = orderKey(theirs);
  if (a === undefined || b === undefined || typeof ours !== typeof theirs) return undefined;
  if (a !== b) return { value: (a - b) * direction > 0 ? ours : theirs };
  // Same instant written differently: pick by text so the result is symmetric.
  return { value: String(ours) > String(theirs) ? ours : theirs };
}

function isScalarList(value: unknown): value is Array<string | number | boolean> {
  return Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
}

/**
 * Merged order of three key sequences. Stable regions and one-sided edits keep their
 * order; where both sides reordered or inserted at the same place the union is sorted,
 * so the order never depends on which side is "ours".
 */
function mergeOrder(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (item: string) => {
    if (!seen.has(item)) {
      seen.add(item);
      out.push(item);
    }
  };
  for (const region of diff3Merge<string>([...ours], [...base], [...theirs])) {
    if (region.ok) region.ok.forEach(push);
    else if (region.conflict) [...new Set([...region.conflict.a, ...region.conflict.b])].sort().forEach(push);
  }
  return out;
}

function mergeSet(base: unknown, ours: unknown[], theirs: unknown[]): unknown[] {
  const key = (v: unknown) => JSON.stringify(v);
  const baseList = isScalarList(base) ? base : [];
  const b = new Set(baseList.map(key));
  const o = new Set(ours.map(key));
  const t = new Set(theirs.map(key));
  const values = new Map<string, unknown>();
  for (const v of [...ours, ...theirs]) values.set(key(v), v);
  const keep = (k: string) => (o.has(k) && t.has(k)) || (o.has(k) && !b.has(k)) || (t.has(k) && !b.has(k));
  const order = mergeOrder(baseList.map(key), ours.map(key), theirs.map(key));
  const rest = [...values.keys()].filter((k) => !order.includes(k)).sort();
  return [...order, ...rest].filter(keep).map((k) => values.get(k));
}

function mergeField(path: string[], rule: FieldRule, base: unknown, ours: unknown, theirs: unknown, conflicts: FieldConflict[]): unknown {
  if (isEqual(ours, theirs)) return ours;
  if (isEqual(base, ours)) return theirs;
  if (isEqual(base, theirs)) return ours;
  const conflict = () => {
    conflicts.push({ path, base, ours, theirs });
    return ours;
  };
  if (typeof rule === 'object' && 'record' in rule) {
    const ok = (v: unknown) => v === undefined || isPlainRecord(v);
    if (!ok(base) || !ok(ours) || !ok(theirs)) return conflict();
    return mergeRecord(path, rule.record, (base as Record<string, unknown>) ?? {}, (ours as Record<string, unknown>) ?? {}, (theirs as Record<string, unknown>) ?? {}, conflicts);
  }
  if (typeof rule === 'object') {
    const a = rule.precedence.findIndex((v) => isEqual(v, ours));
    const b = rule.precedence.findIndex((v) => isEqual(v, theirs));
    if (a < 0 || b < 0) return conflict();
    return a <= b ? ours : theirs;
  }
  switch (rule) {
    case 'max':
    case 'min': {
      const picked = pickExtreme(ours, theirs, rule === 'max' ? 1 : -1);
      return picked ? picked.value : conflict();
    }
    case 'or':
      return typeof ours === 'boolean' && typeof theirs === 'boolean' ? ours || theirs : conflict();
    case 'set': {
      const ok = (v: unknown) => v === undefined || v === null || isScalarList(v);
      if (!ok(base) || !ok(ours) || !ok(theirs)) return conflict();
      return mergeSet(base, (ours as unknown[] | undefined) ?? [], (theirs as unknown[] | undefined) ?? []);
    }
    default:
      return conflict();
  }
}

function mergeRecord(
  path: string[],
  rules: RecordRules,
  base: Record<string, unknown>,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
  conflicts: FieldConflict[],
): Record<string, unknown> {
  const present = (r: Record<string, unknown>) => Object.keys(r).filter((k) => own(r, k) !== undefined);
  const first = rules.keyOrder ?? [];
  const merged = mergeOrder(present(base), present(ours), present(theirs)).filter((k) => !first.includes(k));
  const keys = [...first, ...merged, ...new Set([...present(base), ...present(ours), ...present(theirs)])];
  const result: Record<string, unknown> = {};
  const done = new Set<string>();
  for (const key of keys) {
    if (done.has(key)) continue;
    done.add(key);
    const rule = (rules.fields && Object.hasOwn(rules.fields, key) ? rules.fields[key] : undefined) ?? rules.other ?? 'conflict';
    const value = mergeField([...path, key], rule, own(base, key), own(ours, key), own(theirs, key), conflicts);
    if (value !== undefined) setOwn(result, key, value);
  }
  return result;
}

/**
 * Merges three frontmatter mappings field by field under `rules`. Each field is 3-way
 * first; the rule only decides when both sides changed it to different values. A field
 * that still cannot be decided keeps ours and is listed in `conflicts`.
 *
 * @example
 * mergeFrontmatterRecord({
 *   base: { priority: 5, tags: ['a', 'b'] },
 *   ours: { priority: 7, tags: ['a'] },
 *   theirs: { priority: 6, tags: ['a', 'b', 'c'] },
 *   rules: { fields: { priority: 'max', tags: 'set' } },
 * }) // { record: { priority: 7, tags: ['a', 'c'] }, conflicts: [] }
 */
export function mergeFrontmatterRecord(options: MergeFrontmatterRecordOptions): { record: Record<string, unknown>; conflicts: FieldConflict[] } {
  const { base, ours, theirs, rules } = { ...DEFAULT_MERGE_FRONTMATTER_RECORD, ...options };
  const conflicts: FieldConflict[] = [];
  const record = mergeRecord([], rules, base ?? {}, ours, theirs, conflicts);
  return { record, conflicts };
}

// ---------------------------------------------------------------------------
// Lines

interface LineHunk {
  /** 0-based index of the opening marker in the merged lines. */
  index: number;
  base: string[];
  ours: string[];
  theirs: string[];
}

interface MarkerStyle {
  labels: MergeLabels;
  markerSize: number;
}

function openMarker(style: MarkerStyle): string {
  return `${'<'.repeat(style.markerSize)} ${style.labels.ours}`;
}

function conflictBlock(ours: string[], theirs: string[], style: MarkerStyle): string[] {
  return [openMarker(style), ...ours, '='.repeat(style.markerSize), ...theirs, `${'>'.repeat(style.markerSize)} ${style.labels.theirs}`];
}

function mergeLineArrays(base: string[], ours: string[], theirs: string[], style: MarkerStyle): { lines: string[]; hunks: LineHunk[] } {
  const lines: string[] = [];
  const hunks: LineHunk[] = [];
  for (const region of diff3Merge<string>(ours, base, theirs, { excludeFalseConflicts: true })) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      const { a, o, b } = region.conflict;
      hunks.push({ index: lines.length, base: o, ours: a, theirs: b });
      lines.push(...conflictBlock(a, b, style));
    }
  }
  return { lines, hunks };
}

export interface MergeTextOptions {
  /** Null when the file is new on both sides. */
  base: string | null;
  ours: string;
  theirs: string;
  file?: string;
  labels?: MergeLabels;
  /** Length of the conflict markers (git's `%L`). */
  markerSize?: number;
}

export const DEFAULT_MERGE_TEXT = {
  file: '<file>',
  labels: { ours: 'ours', theirs: 'theirs' } as MergeLabels,
  markerSize: 7,
};

function splitLines(text: string): { lines: string[]; newline: boolean } {
  if (text === '') return { lines: [], newline: false };
  const newline = text.endsWith('\n');
  return { lines: (newline ? text.slice(0, -1) : text).split('\n'), newline };
}

/**
 * Line-based 3-way merge of whole texts (diff3), with git's 2-way conflict markers.
 * Used for files that do not parse; also usable on its own.
 *
 * @example
 * mergeText({ base: 'a\nb\nc\n', ours: 'A\nb\nc\n', theirs: 'a\nb\nC\n' }) // { clean: true, text: 'A\nb\nC\n', conflicts: [] }
 * // As in git, edits to adjacent lines conflict: keep one unchanged line between them.
 */
export function mergeText(options: MergeTextOptions): MergeResult {
  const o = { ...DEFAULT_MERGE_TEXT, ...options };
  const base = splitLines(o.base ?? '');
  const ours = splitLines(o.ours);
  const theirs = splitLines(o.theirs);
  const { lines, hunks } = mergeLineArrays(base.lines, ours.lines, theirs.lines, o);
  // The final newline merges like any field: a side that changed it wins.
  const newline = ours.newline === theirs.newline ? ours.newline : ours.newline === base.newline ? theirs.newline : ours.newline;
  const text = lines.length === 0 ? '' : `${lines.join('\n')}${newline || hunks.length > 0 ? '\n' : ''}`;
  const conflicts: Conflict[] = hunks.map((h) => ({
    kind: 'text',
    file: o.file,
    base: h.base.join('\n'),
    ours: h.ours.join('\n'),
    theirs: h.theirs.join('\n'),
    line: h.index + 1,
    reason: `both sides changed the same lines (line ${h.index + 1})`,
  }));
  return { clean: conflicts.length === 0, text, conflicts };
}

// ---------------------------------------------------------------------------
// Frontmatter files

/** A markdown-with-frontmatter file format, as far as the merge needs to know it. */
export interface FrontmatterFormat {
  /**
   * The canonical record and body, or undefined when the text cannot be merged field by
   * field (broken YAML, or a value the parser would have had to replace).
   */
  parse(text: string, file: string): { record: Record<string, unknown>; body: string } | undefined;
  /** Canonical text of a record and a normalised body; the body must end the file. */
  render(record: Record<string, unknown>, body: string): string;
  rules: RecordRules;
}

export interface MergeFrontmatterTextOptions {
  base: string | null;
  ours: string | null;
  theirs: string | null;
  format: FrontmatterFormat;
  file?: string;
  labels?: MergeLabels;
  markerSize?: number;
}

function nestPaths(conflicts: FieldConflict[], side: 'ours' | 'theirs'): string[] {
  const tree: Record<string, unknown> = {};
  const absent: string[] = [];
  for (const c of conflicts) {
    const value = c[side];
    if (value === undefined) {
      absent.push(`# ${c.path.join('.')}: (absent)`);
      continue;
    }
    let node = tree;
    for (const key of c.path.slice(0, -1)) {
      if (!Object.hasOwn(node, key) || !isPlainRecord(node[key])) setOwn(node, key, {});
      node = node[key] as Record<string, unknown>;
    }
    setOwn(node, c.path[c.path.length - 1] ?? '', value);
  }
  const yaml = Object.keys(tree).length === 0 ? '' : renderFrontmatterYaml(tree);
  return [...(yaml === '' ? [] : yaml.replace(/\n$/, '').split('\n')), ...absent];
}

function describe(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/**
 * 3-way merge of a markdown file with YAML frontmatter: the engine behind
 * `mergeMemoryText` and `mergeEdgeText`. See the module comment for the rules.
 *
 * @example
 * mergeFrontmatterText({ base, ours, theirs, format: MEMORY_FORMAT }).clean // true when nothing conflicts
 */
export function mergeFrontmatterText(options: MergeFrontmatterTextOptions): MergeResult {
  const o = { ...DEFAULT_MERGE_TEXT, ...options };
  const { base, ours, theirs, format, file } = o;
  const style: MarkerStyle = { labels: o.labels, markerSize: o.markerSize };

  if (ours === theirs) return { clean: true, text: ours, conflicts: [] };
  if (base === ours) return { clean: true, text: theirs, conflicts: [] };
  if (base === theirs) return { clean: true, text: ours, conflicts: [] };

  const parsed = (text: string | null) => (text === null ? undefined : format.parse(text, file));
  const pb = parsed(base);
  const po = parsed(ours);
  const pt = parsed(theirs);
  const same = (a: typeof pb, b: typeof pb) => a !== undefined && b !== undefined && isEqual(a.record, b.record) && a.body === b.body;

  // A side that only reformatted the file (same data, other bytes) counts as unchanged.
  // Both made the same change in different layouts: the canonical text, so neither side's layout wins.
  if (same(po, pt) && po) return { clean: true, text: format.render(po.record, po.body), conflicts: [] };
  if (same(pb, po)) return { clean: true, text: theirs, conflicts: [] };
  if (same(pb, pt)) return { clean: true, text: ours, conflicts: [] };

  if (ours === null || theirs === null) {
    // Both unchanged-vs-deleted cases returned above; what is left is modify/delete.
    const deletedBy = ours === null ? 'ours' : 'theirs';
    const kept = (ours ?? theirs) as string;
    return {
      clean: false,
      text: kept,
      conflicts: [
        {
          kind: 'modify-delete',
          file,
          deletedBy,
          reason: `${deletedBy === 'ours' ? o.labels.ours : o.labels.theirs} deleted the file, ${deletedBy === 'ours' ? o.labels.theirs : o.labels.ours} changed it; the changed version was kept`,
        },
      ],
    };
  }

  if (po === undefined || pt === undefined || (base !== null && pb === undefined)) {
    return mergeText({ base, ours, theirs, file, labels: o.labels, markerSize: o.markerSize });
  }

  const { record, conflicts: fieldConflicts } = mergeFrontmatterRecord({ base: pb?.record, ours: po.record, theirs: pt.record, rules: format.rules });
  const split = (body: string) => (body === '' ? [] : body.split('\n'));
  const bodyMerge = mergeLineArrays(split(pb?.body ?? ''), split(po.body), split(pt.body), style);

  const lines: string[] = [];
  let fieldBlockIndex: number | undefined;
  if (fieldConflicts.length > 0) {
    fieldBlockIndex = 0;
    lines.push(...conflictBlock(nestPaths(fieldConflicts, 'ours'), nestPaths(fieldConflicts, 'theirs'), style));
    if (bodyMerge.lines.length > 0) lines.push('');
  }
  const bodyOffset = lines.length;
  lines.push(...bodyMerge.lines);
  const joined = lines.join('\n');
  const lead = /^(?:[ \t]*\n)+/.exec(joined)?.[0] ?? '';
  const shift = lead.split('\n').length - 1;
  const body = normalizeBody(joined);
  const text = format.render(record, body);

  // The body ends the rendered file, so its first line number follows from the length.
  const bodyStart = body === '' || !text.endsWith(`${body}\n`) ? undefined : text.slice(0, text.length - body.length - 1).split('\n').length;
  const lineOf = (index: number) => (bodyStart === undefined ? undefined : bodyStart + index - shift);

  const conflicts: Conflict[] = fieldConflicts.map((c) => ({
    kind: 'field',
    file,
    field: c.path.join('.'),
    base: c.base,
    ours: c.ours,
    theirs: c.theirs,
    line: fieldBlockIndex === undefined ? undefined : lineOf(fieldBlockIndex),
    reason: `both sides changed "${c.path.join('.')}": ${describe(c.ours)} vs ${describe(c.theirs)}; ours is kept in the frontmatter`,
  }));
  for (const h of bodyMerge.hunks) {
    const line = lineOf(bodyOffset + h.index);
    conflicts.push({
      kind: 'body',
      file,
      base: h.base.join('\n'),
      ours: h.ours.join('\n'),
      theirs: h.theirs.join('\n'),
      line,
      reason: `both sides changed the same body lines${line === undefined ? '' : ` (line ${line})`}`,
    });
  }
  return { clean: conflicts.length === 0, text, conflicts };
}

// ---------------------------------------------------------------------------
// Memories

/** The memory file format for `mergeFrontmatterText`. */
export const MEMORY_FORMAT: FrontmatterFormat = {
  parse(text, file) {
    const { memory, diagnostics } = parseMemory(text, { file });
    // An error diagnostic means the parser replaced a value with a default: merging the
    // parsed memory would silently drop what was written, so such files merge as text.
    if (memory === undefined || diagnostics.some((d) => d.severity === 'error')) return undefined;
    return { record: memoryFrontmatter(memory), body: memory.body };
  },
  render: renderFrontmatterFile,
  rules: MEMORY_MERGE_RULES,
};

export interface MergeMemoryTextOptions {
  /** Text of each side, or null when the file is absent on that side. */
  base: string | null;
  ours: string | null;
  theirs: string | null;
  /** Path shown in conflicts, relative to the repository root. */
  file?: string;
  labels?: MergeLabels;
  markerSize?: number;
}

export const DEFAULT_MERGE_MEMORY = {
  file: '<memory>',
  labels: { ours: 'ours', theirs: 'theirs' } as MergeLabels,
  markerSize: 7,
};

/**
 * 3-way merge of one memory file (see the module comment for every rule).
 * `text` is null when the merged memory is deleted; `clean` is false when conflict
 * markers were written or a modify/delete needs a person.
 *
 * @example
 * const r = mergeMemoryText({ base, ours, theirs, file: '.cortex/memories/a-abcdef.md' });
 * if (!r.clean) for (const c of r.conflicts) console.error(`${c.file}:${c.line ?? 1}: ${c.reason}`);
 */
export function mergeMemoryText(options: MergeMemoryTextOptions): MergeResult {
  const o = { ...DEFAULT_MERGE_MEMORY, ...options };
  return mergeFrontmatterText({ ...o, format: MEMORY_FORMAT });
}
