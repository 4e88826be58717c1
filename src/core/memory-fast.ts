/**
 * A fast reader for memory files in the canonical form `renderMemory` writes.
 *
 * `parseMemory` goes through gray-matter and the `yaml` package: about half a
 * millisecond per file, five seconds for 10,000 memories — too slow for a cold briefing
 * (DESIGN §10: 1.5 s) or a full index rebuild. Nearly every file on disk was written by
 * Cortex, so it is in one narrow shape: one `key: value` per line, flow lists for tags
 * and files, a two-space-indented `source:` block, scalars plain or quoted on one line.
 *
 * `parseMemoryFast` reads exactly that shape and nothing more. It is an optimisation
 * with one rule: when it returns a memory, `parseMemory` would have returned the same
 * memory **and no diagnostics** (a property test checks this against random and mutated
 * files). Anything it is not certain about — comments, block scalars, unknown keys,
 * escapes other than `\\` and `\"`, values YAML would read as numbers or null, a value
 * `parseMemory` would warn about — gives `undefined`, and the caller uses `parseMemory`.
 * Pure: a string in, data out.
 */
import {
  MEMORY_STATUSES,
  MEMORY_TYPES,
  SCOPES,
  SOURCE_KINDS,
  SOURCE_LAYERS,
  checkIdSafety,
  normalizeTags,
  type Memory,
  type MemorySource,
} from './memory.js';

export interface ParseMemoryFastOptions {
  /** The id the file name implies; a different `id` gives `undefined` (the full parser reports it). */
  expectedId?: string | undefined;
}

/** Same as the full parser's date check. */
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Plain scalars the YAML 1.2 core schema reads as something other than a string: null,
 * booleans, integers (decimal, 0o, 0x), floats (with exponent, .inf, .nan). The same
 * patterns as the `yaml` package's core schema, in one expression.
 */
const CORE_NON_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
/** First characters with which a core-schema non-string can start (an empty value aside). */
const NON_STRING_START = /^[~nNtTfF0-9+.-]/;

/** A plain number the way `priority`/`confidence` are written; anything fancier falls back. */
const PLAIN_NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/**
 * Characters that make a plain scalar risky: control characters, Unicode line and
 * paragraph separators, NEL, BOM, tabs. Such values go to the full parser.
 */
// eslint-disable-next-line no-control-regex
const RISKY_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
/** First characters that are YAML indicators (or a space): never read as plain here. */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`\s~]/;

const LEADING_BLANK_LINES = /^(?:[ \t]*\n)+/;
/** One bit per key, to refuse duplicates (YAML `uniqueKeys`) without a Set per file. */
const KEY_BITS = new Map(['id', 'type', 'summary', 'scope', 'priority', 'confidence', 'pinned', 'status', 'tags', 'topic', 'created', 'updated', 'source'].map((k, i) => [k, 1 << i]));
const SOURCE_BITS = new Map(['kind', 'layer', 'session', 'branch', 'commit', 'files'].map((k, i) => [k, 1 << (16 + i)]));

/** Reads a plain scalar (block context, or flow context inside `[…]`); `undefined` when unsure. */
function plainString(raw: string, flow: boolean): string | undefined {
  if (raw === '' || INDICATOR_START.test(raw) || RISKY_CHARS.test(raw)) return undefined;
  if (raw.endsWith(' ') || raw.endsWith(':') || raw.includes(': ') || raw.includes(' #')) return undefined;
  if (flow && /[,[\]{}]/.test(raw)) return undefined;
  if (NON_STRING_START.test(raw) && CORE_NON_STRING.test(raw)) return undefined;
  return raw;
}

/** Reads a quoted scalar that starts at `start`; returns the value and the index after it. */
function quoted(line: string, start: number): { value: string; end: number } | undefined {
  const quote = line[start];
  let value = '';
  let i = start + 1;
  if (quote === '"') {
    for (; i < line.length; i++) {
      const c = line[i] as string;
      if (c === '"') return { value, end: i + 1 };
      if (c === '\\') {
        const next = line[i + 1];
        if (next !== '\\' && next !== '"') return undefined;
        value += next;
        i++;
      } else {
        if (RISKY_CHARS.test(c)) return undefined;
        value += c;
      }
    }
    return undefined;
  }
  if (quote === "'") {
    for (; i < line.length; i++) {
      const c = line[i] as string;
      if (c === "'") {
        if (line[i + 1] === "'") {
          value += "'";
          i++;
          continue;
        }
        return { value, end: i + 1 };
      }
      if (RISKY_CHARS.test(c)) return undefined;
      value += c;
    }
  }
  return undefined;
}

/** A whole-line string value: quoted, or plain. */
function stringValue(raw: string): string | undefined {
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const q = quoted(raw, 0);
    return q && q.end === raw.length ? q.value : undefined;
  }
  return plainString(raw, false);
}

/** `[a, "b c", d]` or `[]`: strings only, in the canonical `, ` separated form. */
function flowList(raw: string): string[] | undefined {
  if (raw === '[]') return [];
  if (!raw.startsWith('[') || !raw.endsWith(']')) return undefined;
  const items: string[] = [];
  let i = 1;
  for (;;) {
    let value: string | undefined;
    if (raw[i] === '"' || raw[i] === "'") {
      const q = quoted(raw, i);
      if (!q) return undefined;
      value = q.value;
      i = q.end;
    } else {
      let end = i;
      while (end < raw.length && raw[end] !== ',' && raw[end] !== ']') end++;
      value = plainString(raw.slice(i, end), true);
      i = end;
    }
    if (value === undefined) return undefined;
    items.push(value);
    if (raw[i] === ']') return i === raw.length - 1 ? items : undefined;
    if (raw[i] !== ',' || raw[i + 1] !== ' ') return undefined;
    i += 2;
  }
}

/** An enum value, written plain (every allowed value is a plain-safe word); quoted ones fall back. */
function oneOf<T extends string>(values: readonly T[], raw: string): T | undefined {
  return (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

function dateValue(raw: string): string | undefined {
  const v = stringValue(raw);
  return v !== undefined && DATE_PATTERN.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined;
}

/**
 * Parses a memory file in canonical form, or returns `undefined` when the file needs
 * the full parser (see the module comment). Never throws.
 *
 * @example
 * parseMemoryFast(renderMemory(memory)) // equal to memory
 * parseMemoryFast('---\nid: a-abcdef\n# a comment\n---\n') // undefined
 */
export function parseMemoryFast(text: string, options: ParseMemoryFastOptions = {}): Memory | undefined {
  const normalized = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const doc = normalized.charCodeAt(0) === 0xfeff ? normalized.slice(1) : normalized;
  if (!doc.startsWith('---\n')) return undefined;
  // gray-matter closes the frontmatter at the first "\n---", whatever follows it.
  const close = doc.indexOf('\n---', 3);
  if (close === -1) return undefined;
  const after = close + 4;
  if (after < doc.length && doc[after] !== '\n') return undefined;

  let seen = 0;
  let id: string | undefined;
  let type: Memory['type'] | undefined;
  let summary: string | undefined;
  let scope: Memory['scope'] = 'project';
  let priority = 5;
  let confidence = 1;
  let pinned = false;
  let status: Memory['status'] = 'active';
  let tags: string[] = [];
  let topic: string | undefined;
  let created: string | undefined;
  let updated: string | undefined;
  const source: MemorySource = { kind: 'manual' };
  const sourceFields: Partial<Record<'layer' | 'session' | 'branch' | 'commit' | 'files', string | string[]>> = {};
  let inSource = false;

  // Line by line without splitting: doc[close] is the "\n" before the closing "---".
  for (let pos = 4; pos <= close; ) {
    const nl = doc.indexOf('\n', pos);
    const line = doc.slice(pos, nl);
    pos = nl + 1;
    if (inSource && line.charCodeAt(0) === 32) {
      if (line.charCodeAt(1) !== 32) return undefined;
      const colon = line.indexOf(': ', 2);
      if (colon === -1) return undefined;
      const key = line.slice(2, colon);
      const bit = SOURCE_BITS.get(key);
      if (bit === undefined || seen & bit) return undefined;
      seen |= bit;
      const raw = line.slice(colon + 2);
      if (key === 'kind') {
        const kind = oneOf(SOURCE_KINDS, raw);
        if (!kind) return undefined;
        source.kind = kind;
      } else if (key === 'layer') {
        const layer = oneOf(SOURCE_LAYERS, raw);
        if (!layer) return undefined;
        sourceFields.layer = layer;
      } else if (key === 'files') {
        const files = flowList(raw);
        if (!files) return undefined;
        sourceFields.files = files;
      } else {
        const v = stringValue(raw);
        if (v === undefined) return undefined;
        sourceFields[key as 'session' | 'branch' | 'commit'] = v;
      }
      continue;
    }
    inSource = false;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const key = line.slice(0, colon);
    const bit = KEY_BITS.get(key);
    // Unknown keys are kept in `extra` with YAML semantics: the full parser's job.
    if (bit === undefined || seen & bit) return undefined;
    seen |= bit;
    let raw: string | undefined;
    if (colon + 1 < line.length) {
      if (line.charCodeAt(colon + 1) !== 32) return undefined;
      raw = line.slice(colon + 2);
    }
    if (key === 'source') {
      if (raw !== undefined) return undefined;
      inSource = true;
      continue;
    }
    if (raw === undefined) return undefined;
    switch (key) {
      case 'id':
        id = stringValue(raw);
        if (id === undefined) return undefined;
        break;
      case 'type':
        type = oneOf(MEMORY_TYPES, raw);
        if (!type) return undefined;
        break;
      case 'summary':
        summary = stringValue(raw);
        if (summary === undefined) return undefined;
        break;
      case 'scope': {
        const v = oneOf(SCOPES, raw);
        if (!v) return undefined;
        scope = v;
        break;
      }
      case 'priority':
        if (!PLAIN_NUMBER.test(raw)) return undefined;
        priority = Number(raw);
        if (!Number.isInteger(priority) || priority < 1 || priority > 10) return undefined;
        break;
      case 'confidence':
        if (!PLAIN_NUMBER.test(raw)) return undefined;
        confidence = Number(raw);
        if (!Number.isFinite(confidence) || confidence < 0 || confidence > 1) return undefined;
        break;
      case 'pinned':
        if (/^(?:[Tt]rue|TRUE)$/.test(raw)) pinned = true;
        else if (/^(?:[Ff]alse|FALSE)$/.test(raw)) pinned = false;
        else return undefined;
        break;
      case 'status': {
        const v = oneOf(MEMORY_STATUSES, raw);
        if (!v) return undefined;
        status = v;
        break;
      }
      case 'tags': {
        const list = flowList(raw);
        if (!list) return undefined;
        tags = normalizeTags(list);
        break;
      }
      case 'topic':
        topic = stringValue(raw);
        if (topic === undefined || topic.trim() === '') return undefined;
        break;
      case 'created':
        created = dateValue(raw);
        if (created === undefined) return undefined;
        break;
      case 'updated':
        updated = dateValue(raw);
        if (updated === undefined) return undefined;
        break;
      default:
        // Unknown keys are kept in `extra` with YAML semantics: the full parser's job.
        return undefined;
    }
  }

  if (id === undefined || type === undefined || summary === undefined || created === undefined || updated === undefined) return undefined;
  if (checkIdSafety(id) !== undefined) return undefined;
  if (options.expectedId !== undefined && options.expectedId !== id) return undefined;
  const trimmedSummary = summary.trim();
  if (trimmedSummary === '') return undefined;

  // Same key order as the full parser builds.
  if (sourceFields.layer !== undefined) source.layer = sourceFields.layer as MemorySource['layer'];
  if (sourceFields.session !== undefined) source.session = sourceFields.session as string;
  if (sourceFields.branch !== undefined) source.branch = sourceFields.branch as string;
  if (sourceFields.commit !== undefined) source.commit = sourceFields.commit as string;
  if (sourceFields.files !== undefined) source.files = [...(sourceFields.files as string[])];

  // normalizeBody, with trimEnd() for `/\s+$/` (the same character set, without the
  // regex's retry at every blank of a long body).
  const body = (after >= doc.length ? '' : doc.slice(after + 1)).replace(LEADING_BLANK_LINES, '').trimEnd();
  return {
    id,
    type,
    summary: trimmedSummary,
    scope,
    priority,
    confidence,
    pinned,
    status,
    tags,
    ...(topic === undefined ? {} : { topic }),
    created,
    updated,
    source,
    body,
    extra: {},
  };
}
