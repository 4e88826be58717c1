/**
 * The memory file format: markdown with YAML frontmatter (DESIGN §2.1).
 * `parseMemory` and `renderMemory` are a pair: parse(render(m)) equals m, and
 * render is byte-stable, so a rewrite that changes nothing shows no diff.
 * Pure: strings in, data out.
 */
import type { Pair, Scalar } from 'yaml';
import { fastFrontmatter, renderFastFrontmatter } from './fast-frontmatter.js';
import { loadMatter, loadYaml } from './lazy.js';
import {
  MEMORY_KEY_ORDER,
  MEMORY_STATUSES,
  MEMORY_TYPES,
  SCOPES,
  SOURCE_ID_KEYS,
  SOURCE_KEY_ORDER,
  SOURCE_KINDS,
  SOURCE_CONFIRMERS,
  SOURCE_LAYERS,
  checkIdSafety,
  normalizeTags,
  type Diagnostic,
  type Memory,
  type MemorySource,
} from './memory.js';

export interface ParseMemoryOptions {
  /** Path shown in diagnostics, relative to the repository root. */
  file?: string;
  /** The id the file name implies (`<id>.md`); a different `id` field is an error. */
  expectedId?: string;
  /** Date used when `created`/`updated` are missing (e.g. the file's mtime). */
  fallbackDate?: string;
}

export interface ParseMemoryResult {
  /** Undefined when an error makes the file unusable. */
  memory: Memory | undefined;
  diagnostics: Diagnostic[];
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const FRONTMATTER_EXAMPLE = '---\\nid: chose-sqlite-k3f9qa\\ntype: decision\\nsummary: Chose SQLite\\n---\\nBody text.';

/** A YAML syntax error in frontmatter, with its file line and column. */
export class YamlFrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
  ) {
    super(message);
  }
}

export interface ParsedFrontmatter {
  data: unknown;
  lines: Map<string, number>;
  body: string;
}

/**
 * Splits `---` frontmatter from the body with gray-matter and parses it with `yaml`
 * (YAML 1.2: dates stay strings; duplicate keys are errors), keeping each key's line.
 * Throws `YamlFrontmatterError` on invalid YAML.
 */
export function splitFrontmatter(text: string): ParsedFrontmatter {
  const fast = fastFrontmatter(text);
  if (fast) return fast;
  const lines = new Map<string, number>();
  let data: unknown = undefined;
  const { LineCounter, isMap, isScalar, parseDocument } = loadYaml();
  const parsed = loadMatter()(text, {
    engines: {
      yaml: (source: string) => {
        const lineCounter = new LineCounter();
        const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
        const first = doc.errors[0];
        if (first) {
          const pos = lineCounter.linePos(first.pos[0]);
          throw new YamlFrontmatterError(first.message.split('\n')[0] ?? 'invalid YAML', pos.line, pos.col);
        }
        if (isMap(doc.contents)) {
          for (const item of doc.contents.items as Pair[]) {
            if (isScalar(item.key) && item.key.range) {
              lines.set(String(item.key.value), lineCounter.linePos(item.key.range[0]).line);
            }
            if (isScalar(item.key) && item.key.value === 'source' && isMap(item.value)) keepIdentifierText(item.value.items as Pair[], isScalar);
          }
        }
        data = doc.toJS();
        return {};
      },
    },
  } as never);
  return { data, lines, body: parsed.content };
}

/**
 * `source.session`, `.branch` and `.commit` are identifiers: a hand-written plain
 * `commit: 0123456` or `1234e56` is a number to YAML (123456, 1.234e+59). Keep the text.
 */
function keepIdentifierText(items: Pair[], isScalar: (node: unknown) => node is Scalar): void {
  for (const item of items) {
    if (!isScalar(item.key) || !isScalar(item.value)) continue;
    if (!(SOURCE_ID_KEYS as readonly unknown[]).includes(item.key.value)) continue;
    const node = item.value;
    if (typeof node.value === 'number' && node.type === 'PLAIN' && node.source !== undefined) node.value = node.source;
  }
}

/** Plain assignment of "__proto__" would change the prototype instead of keeping the key. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Canonical body: no leading blank lines, no trailing white space. */
export function normalizeBody(body: string): string {
  return body.replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}

/** One line of `text`, cut to `max` characters, for quoting in diagnostics. */
export function excerpt(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/**
 * Parses a memory file. Never throws: every problem is a `Diagnostic`; the memory is
 * returned whenever it is usable (warnings only, or errors with a safe default).
 *
 * @example
 * parseMemory('---\nid: a-abcdef\ntype: decision\nsummary: A\n---\nWhy.\n').memory?.summary // 'A'
 */
export function parseMemory(text: string, options: ParseMemoryOptions = {}): ParseMemoryResult {
  const file = options.file ?? '<memory>';
  const diagnostics: Diagnostic[] = [];
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const fail = (reason: string, ruleId: string, line?: number, column?: number, hint?: string): ParseMemoryResult => {
    diagnostics.push({ file, line, column, reason, ruleId, severity: 'error', hint });
    return { memory: undefined, diagnostics };
  };

  if (!normalized.startsWith('---\n') && normalized.trim() !== '---') {
    return fail(
      `expected YAML frontmatter between "---" lines at the top, found "${excerpt(normalized)}"`,
      'frontmatter-missing',
      1,
      1,
      `Start the file with frontmatter, e.g. ${FRONTMATTER_EXAMPLE}`,
    );
  }
  let fm: ParsedFrontmatter;
  try {
    fm = splitFrontmatter(normalized);
  } catch (err) {
    if (err instanceof YamlFrontmatterError) {
      const lineText = err.line === undefined ? '' : (normalized.split('\n')[err.line - 1] ?? '');
      return fail(
        `invalid YAML in frontmatter: ${err.message}${lineText ? ` (found "${excerpt(lineText)}")` : ''}`,
        'yaml-syntax',
        err.line,
        err.column,
        'Fix the YAML syntax (quote values containing ": " or "#"), then run `cortex lint`.',
      );
    }
    return fail(`cannot read frontmatter: ${(err as Error).message}`, 'frontmatter-invalid', 1, 1);
  }
  const data = fm.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail(
      'frontmatter must be a YAML mapping of keys to values',
      'frontmatter-shape',
      2,
      1,
      `Example: ${FRONTMATTER_EXAMPLE}`,
    );
  }
  const raw = data as Record<string, unknown>;
  const lineOf = (key: string): number | undefined => fm.lines.get(key);
  const err = (key: string, reason: string, hint?: string, ruleId = 'field-invalid') =>
    diagnostics.push({ file, line: lineOf(key) ?? 1, reason, ruleId, severity: 'error', hint });
  const warn = (key: string, reason: string, hint?: string, ruleId = 'field-invalid') =>
    diagnostics.push({ file, line: lineOf(key) ?? 1, reason, ruleId, severity: 'warning', hint });
  let usable = true;

  // id
  const id = raw.id;
  if (typeof id !== 'string' || id === '') {
    err('id', 'missing or empty "id"', 'Add `id: <file name without .md>`.', 'id-missing');
    usable = false;
  } else {
    const unsafe = checkIdSafety(id);
    if (unsafe) {
      err('id', `id "${excerpt(id, 40)}" ${unsafe}`, 'Use lower-case letters, digits and dashes, e.g. `chose-sqlite-k3f9qa`.', 'id-unsafe');
      usable = false;
    } else if (options.expectedId !== undefined && options.expectedId !== id) {
      err('id', `id "${id}" does not match the file name "${options.expectedId}.md"`, `Rename the file to ${id}.md or set id: ${options.expectedId}.`, 'id-mismatch');
      usable = false;
    }
  }

  // type
  const type = raw.type;
  if (!(MEMORY_TYPES as readonly unknown[]).includes(type)) {
    err('type', type === undefined ? 'missing "type"' : `unknown type "${excerpt(String(type), 30)}"`, `Use one of: ${MEMORY_TYPES.join(', ')}.`, 'type-invalid');
    usable = false;
  }

  // summary
  let summary = raw.summary;
  if (typeof summary === 'number' || typeof summary === 'boolean') summary = String(summary);
  if (typeof summary !== 'string' || summary.trim() === '') {
    err('summary', 'missing or empty "summary"', 'Add a one-line `summary:`.', 'summary-missing');
    usable = false;
  } else if (summary.includes('\n')) {
    warn('summary', 'summary spans several lines', 'Keep the summary to one line; put details in the body.', 'summary-multiline');
  }

  // scope
  let scope = raw.scope ?? 'project';
  if (!(SCOPES as readonly unknown[]).includes(scope)) {
    err('scope', `unknown scope "${excerpt(String(scope), 30)}"`, `Use one of: ${SCOPES.join(', ')}.`);
    scope = 'project';
  }

  // priority
  let priority = raw.priority ?? 5;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1 || priority > 10) {
    err('priority', `priority must be an integer from 1 to 10, found ${excerpt(JSON.stringify(priority) ?? '', 20)}`, 'Set `priority:` to 1..10 (5 is the default).');
    priority = 5;
  }

  // confidence
  let confidence = raw.confidence ?? 1;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    err('confidence', `confidence must be a number from 0 to 1, found ${excerpt(JSON.stringify(confidence) ?? '', 20)}`, 'Set `confidence:` to a value such as 0.8.');
    confidence = 1;
  }

  // pinned
  let pinned = raw.pinned ?? false;
  if (typeof pinned !== 'boolean') {
    err('pinned', `pinned must be true or false, found ${excerpt(JSON.stringify(pinned) ?? '', 20)}`);
    pinned = false;
  }

  // status
  let status = raw.status ?? 'active';
  if (!(MEMORY_STATUSES as readonly unknown[]).includes(status)) {
    err('status', `unknown status "${excerpt(String(status), 30)}"`, `Use one of: ${MEMORY_STATUSES.join(', ')}.`);
    status = 'active';
  }

  // tags
  let tags: string[] = [];
  const rawTags = raw.tags ?? [];
  if (typeof rawTags === 'string') {
    tags = normalizeTags(rawTags.split(','));
  } else if (Array.isArray(rawTags) && rawTags.every((t) => typeof t === 'string' || typeof t === 'number')) {
    tags = normalizeTags(rawTags.map(String));
  } else {
    err('tags', 'tags must be a list of words, e.g. [storage, sqlite]');
  }

  // topic
  let topic: string | undefined;
  if (raw.topic !== undefined && raw.topic !== null) {
    if (typeof raw.topic === 'string' && raw.topic.trim() !== '') topic = raw.topic;
    else err('topic', 'topic must be a non-empty string such as decision/storage-engine');
  }

  // dates
  const date = (key: 'created' | 'updated'): string => {
    const value = raw[key];
    if (value === undefined || value === null) {
      if (options.fallbackDate) {
        warn(key, `missing "${key}"`, `Add \`${key}: ${options.fallbackDate}\`.`, 'date-missing');
        return options.fallbackDate;
      }
      err(key, `missing "${key}"`, 'Add an ISO-8601 date such as 2026-11-21T10:00:00Z.', 'date-missing');
      return '1970-01-01T00:00:00Z';
    }
    const text = value instanceof Date ? value.toISOString() : String(value);
    if (!DATE_PATTERN.test(text) || Number.isNaN(Date.parse(text))) {
      err(key, `${key} is not an ISO-8601 date: "${excerpt(text, 30)}"`, 'Use a date such as 2026-11-21T10:00:00Z.', 'date-invalid');
      return options.fallbackDate ?? '1970-01-01T00:00:00Z';
    }
    return text;
  };
  const created = date('created');
  const updated = date('updated');

  // source
  const source = parseSource(raw.source, (reason, hint) => err('source', reason, hint));

  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (!(MEMORY_KEY_ORDER as readonly string[]).includes(key)) setOwn(extra, key, raw[key]);
  }

  if (!usable) return { memory: undefined, diagnostics };
  const memory: Memory = {
    id: id as string,
    type: type as Memory['type'],
    summary: (summary as string).trim(),
    scope: scope as Memory['scope'],
    priority: priority as number,
    confidence: confidence as number,
    pinned: pinned as boolean,
    status: status as Memory['status'],
    tags,
    ...(topic === undefined ? {} : { topic }),
    created,
    updated,
    source,
    body: normalizeBody(fm.body),
    extra,
  };
  return { memory, diagnostics };
}

function parseSource(raw: unknown, report: (reason: string, hint?: string) => void): MemorySource {
  if (raw === undefined || raw === null) return { kind: 'manual' };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    report('source must be a mapping, e.g. `source:\\n  kind: manual`');
    return { kind: 'manual' };
  }
  const r = raw as Record<string, unknown>;
  const source: MemorySource = { kind: 'manual' };
  if (r.kind !== undefined) {
    if ((SOURCE_KINDS as readonly unknown[]).includes(r.kind)) source.kind = r.kind as MemorySource['kind'];
    else report(`unknown source.kind "${String(r.kind)}"`, `Use one of: ${SOURCE_KINDS.join(', ')}.`);
  }
  if (r.layer !== undefined && r.layer !== null) {
    if ((SOURCE_LAYERS as readonly unknown[]).includes(r.layer)) source.layer = r.layer as MemorySource['layer'];
    else report(`unknown source.layer "${String(r.layer)}"`, `Use one of: ${SOURCE_LAYERS.join(', ')}.`);
  }
  // YAML reads an all-digit session or commit as a number: they are strings.
  for (const key of SOURCE_ID_KEYS) {
    const value = r[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number') source[key] = String(value);
    else report(`source.${key} must be a string`);
  }
  if (r.files !== undefined && r.files !== null) {
    if (Array.isArray(r.files) && r.files.every((f) => typeof f === 'string')) source.files = [...(r.files as string[])];
    else report('source.files must be a list of paths');
  }
  if (r.from !== undefined && r.from !== null) {
    if (typeof r.from === 'string') source.from = r.from;
    else report('source.from must be a string (where an imported memory came from)');
  }
  // Imported by an earlier release: the source file was kept in `files` (the code
  // anchors) beside `format`. Recognised as provenance, so it never flags the memory as
  // outdated; the next write stores it as `from`.
  const legacyImport = source.kind === 'import' && source.from === undefined && typeof r.format === 'string' && source.files !== undefined && source.files.length > 0;
  if (legacyImport) {
    source.from = `${String(r.format)}:${source.files!.join(', ')}`;
    delete source.files;
  }
  if (r.confirmed !== undefined && r.confirmed !== null) {
    if ((SOURCE_CONFIRMERS as readonly unknown[]).includes(r.confirmed)) source.confirmed = r.confirmed as MemorySource['confirmed'];
    else report(`unknown source.confirmed "${String(r.confirmed)}"`, `Use one of: ${SOURCE_CONFIRMERS.join(', ')} (who accepted it from the review queue).`);
  }
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(r)) {
    if (legacyImport && key === 'format') continue;
    if (!(SOURCE_KEY_ORDER as readonly string[]).includes(key)) setOwn(extra, key, r[key]);
  }
  if (Object.keys(extra).length > 0) source.extra = extra;
  return source;
}

/** Frontmatter object in the canonical key order. */
export function memoryFrontmatter(memory: Memory): Record<string, unknown> {
  const source: Record<string, unknown> = { kind: memory.source.kind };
  for (const key of SOURCE_KEY_ORDER) {
    if (key === 'kind') continue;
    const value = memory.source[key];
    if (value !== undefined) source[key] = Array.isArray(value) ? [...value] : value;
  }
  for (const [key, value] of Object.entries(memory.source.extra ?? {})) {
    if (!Object.hasOwn(source, key)) setOwn(source, key, value);
  }
  const fm: Record<string, unknown> = {
    id: memory.id,
    type: memory.type,
    summary: memory.summary,
    scope: memory.scope,
    priority: memory.priority,
    confidence: memory.confidence,
    pinned: memory.pinned,
    status: memory.status,
    tags: [...memory.tags],
  };
  if (memory.topic !== undefined) fm.topic = memory.topic;
  fm.created = memory.created;
  fm.updated = memory.updated;
  fm.source = source;
  for (const [key, value] of Object.entries(memory.extra)) {
    if (!Object.hasOwn(fm, key)) setOwn(fm, key, value);
  }
  return fm;
}

/**
 * Renders an ordered frontmatter object as YAML, with flat string lists in flow style. The
 * canonical subset is written without loading `yaml` (`renderFastFrontmatter`: the same
 * bytes, property-tested); anything else by `yaml` itself.
 */
export function renderFrontmatterYaml(frontmatter: Record<string, unknown>): string {
  return renderFastFrontmatter(frontmatter) ?? renderYaml(frontmatter);
}

/** `yaml`'s rendering: the reference `renderFastFrontmatter` matches. */
export function renderYaml(frontmatter: Record<string, unknown>): string {
  const { Document, isMap, isScalar, isSeq } = loadYaml();
  const doc = new Document(frontmatter);
  const visit = (node: unknown): void => {
    if (isMap(node)) for (const item of node.items) visit(item.value);
    else if (isSeq(node)) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
      else for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * Renders a memory file. Byte-stable: same memory, same bytes.
 *
 * @example
 * renderMemory(memory).startsWith('---\nid: ') // true
 */
export function renderMemory(memory: Memory): string {
  return renderFrontmatterFile(memoryFrontmatter(memory), memory.body);
}

/**
 * A markdown file with YAML frontmatter, in the one layout Cortex writes (memories, edges):
 * `---`, the frontmatter, `---`, the canonical body and a final newline.
 *
 * @example
 * renderFrontmatterFile({ id: 'a' }, 'Body') // '---\nid: a\n---\nBody\n'
 */
export function renderFrontmatterFile(frontmatter: Record<string, unknown>, body: string): string {
  const text = normalizeBody(body);
  return `---\n${renderFrontmatterYaml(frontmatter)}---\n${text === '' ? '' : `${text}\n`}`;
}
