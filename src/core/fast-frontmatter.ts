/**
 * A fast reader for the frontmatter Cortex itself writes: `key: scalar`, flow lists of
 * scalars, and one level of nested mappings (`source:`). Parsing 10,000 files with a full
 * YAML parser dominates an index rebuild; this reader handles the canonical subset in a
 * fraction of the time and returns `undefined` for anything it is not certain about,
 * so the caller falls back to the real parser (gray-matter + yaml). Whenever it returns a
 * value, that value equals what `yaml` would produce (property-tested).
 *
 * And its writer, `renderFastFrontmatter`, for the same subset: a hook that writes one
 * memory need not load `yaml` to do it. Whenever it returns text, the text is what `yaml`
 * writes (property-tested); otherwise the caller uses `yaml`.
 */

import { SOURCE_ID_KEYS } from './memory.js';

export interface FastFrontmatter {
  data: Record<string, unknown>;
  /** Top-level key → 1-based line in the file. */
  lines: Map<string, number>;
  body: string;
}

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const NESTED_KEY = /^ {2}([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
// Plain scalars that YAML 1.2 (core schema) reads as something other than a string, or
// that need care: special floats, hex/octal ints. Seen here → fall back.
const SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F]+|0o[0-7]+)$/;
const NULLS = new Set(['null', 'Null', 'NULL', '~']);
const TRUES = new Set(['true', 'True', 'TRUE']);
const FALSES = new Set(['false', 'False', 'FALSE']);
// A plain scalar may not start with an indicator and may not contain ": " or " #".
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

const FALLBACK = Symbol('fallback');
// `source.session`, `source.branch` and `source.commit` are identifiers: YAML would read a
// plain `0123456` or `1234e56` as a number and lose its text. The full parser keeps their
// source text (memory-format.ts), so a number there steps aside.
const IDENTIFIER_KEYS: ReadonlySet<string> = new Set(SOURCE_ID_KEYS);
// Characters YAML treats differently from JavaScript (control characters, unicode line
// separators, BOM, non-breaking spaces that JS `trim` removes but YAML keeps): fall back.
const UNUSUAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;

// Trimming by character codes, not regular expressions: a rebuild trims every value of every
// frontmatter line, and a `replace` per value was most of the time this reader took.
const isBlank = (code: number) => code === 32 || code === 9;

/** Where `s` starts after its leading spaces and tabs. */
function blankEnd(s: string): number {
  let i = 0;
  while (i < s.length && isBlank(s.charCodeAt(i))) i++;
  return i;
}

/** YAML trims only spaces and tabs. */
function ytrim(s: string): string {
  const start = blankEnd(s);
  let end = s.length;
  while (end > start && isBlank(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** `s` without its leading spaces and tabs. */
function trimLeft(s: string): string {
  const start = blankEnd(s);
  return start === 0 ? s : s.slice(start);
}

/** True when `s` is only spaces and tabs (or empty). */
function isBlankText(s: string): boolean {
  return blankEnd(s) === s.length;
}
type Scalar = string | number | boolean | null | typeof FALLBACK;

function plainScalar(raw: string): Scalar {
  const text = ytrim(raw);
  if (text !== trimLeft(raw) || text === '') return text === '' ? null : FALLBACK;
  if (NULLS.has(text)) return null;
  if (TRUES.has(text)) return true;
  if (FALSES.has(text)) return false;
  if (SPECIAL.test(text)) return FALLBACK;
  if (INT.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : FALLBACK;
  }
  if (FLOAT.test(text)) return Number(text);
  if (INDICATOR_START.test(text) && !/^[-?:][^\s]/.test(text)) return FALLBACK;
  if (/^[-?:]\s/.test(text) || text === '-' || text === '?' || text === ':') return FALLBACK;
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':') || text.includes('\t')) return FALLBACK;
  return text;
}

function quotedScalar(raw: string): Scalar {
  const text = raw.replace(/[ \t]+$/, '');
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    const inner = text.slice(1, -1);
    // An unescaped single quote inside means the scalar ended earlier: not canonical.
    if (/(^|[^'])'(?!')/.test(inner.replace(/''/g, ''))) return FALLBACK;
    return inner.replace(/''/g, "'");
  }
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const inner = text.slice(1, -1);
    if (inner.includes('\\') || inner.includes('"')) return FALLBACK;
    return inner;
  }
  return FALLBACK;
}

function scalar(raw: string): Scalar {
  const t = trimLeft(raw);
  if (t.startsWith("'") || t.startsWith('"')) return quotedScalar(t);
  return plainScalar(raw);
}

function flowSeq(raw: string): unknown[] | typeof FALLBACK {
  const text = ytrim(raw);
  if (!text.startsWith('[') || !text.endsWith(']')) return FALLBACK;
  const inner = ytrim(text.slice(1, -1));
  if (inner === '') return [];
  if (/[[\]{}"']/.test(inner)) return FALLBACK;
  const items: unknown[] = [];
  for (const part of inner.split(',')) {
    const item = ytrim(part);
    if (item === '') return FALLBACK;
    const value = plainScalar(item);
    if (value === FALLBACK || value === null) return FALLBACK;
    items.push(value);
  }
  return items;
}

function value(raw: string): unknown {
  const t = trimLeft(raw);
  if (t.startsWith('[')) return flowSeq(t);
  if (t.startsWith('{') || t.startsWith('|') || t.startsWith('>') || t.startsWith('&') || t.startsWith('*') || t.startsWith('!')) return FALLBACK;
  return scalar(raw);
}

function define(target: Record<string, unknown>, key: string, v: unknown): boolean {
  if (Object.hasOwn(target, key) || key === '__proto__') return false;
  target[key] = v;
  return true;
}

/**
 * Parses canonical frontmatter, or returns `undefined` when the text needs the full parser.
 *
 * @example
 * fastFrontmatter('---\nid: a-abcdef\ntags: [x, y]\n---\nBody\n')?.data // { id: 'a-abcdef', tags: ['x', 'y'] }
 */
export function fastFrontmatter(text: string): FastFrontmatter | undefined {
  if (!text.startsWith('---\n')) return undefined;
  const close = text.indexOf('\n---', 3);
  if (close === -1) return undefined;
  const after = close + 4;
  if (after < text.length && text[after] !== '\n') return undefined;
  const block = text.slice(4, close);
  if (UNUSUAL.test(block)) return undefined;
  const body = after >= text.length ? '' : text.slice(after + 1);
  const data: Record<string, unknown> = {};
  const lines = new Map<string, number>();
  const rows = block.split('\n');
  let nested: Record<string, unknown> | undefined;
  let nestedKey = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (isBlankText(row) || row.includes('\r')) return undefined;
    if (row.startsWith(' ')) {
      const m = NESTED_KEY.exec(row);
      if (!m || !nested || m[2] === undefined || isBlankText(m[2])) return undefined;
      const v = value(m[2]);
      if (v === FALLBACK || !define(nested, m[1]!, v)) return undefined;
      if (typeof v === 'number' && nestedKey === 'source' && IDENTIFIER_KEYS.has(m[1]!)) return undefined;
      continue;
    }
    const m = KEY.exec(row);
    if (!m) return undefined;
    const key = m[1]!;
    if (m[2] === undefined || isBlankText(m[2])) {
      // A mapping follows (one level), or the value is null when nothing is indented below.
      const next = rows[i + 1];
      if (next !== undefined && next.startsWith('  ')) {
        nested = {};
        nestedKey = key;
        if (!define(data, key, nested)) return undefined;
      } else {
        nested = undefined;
        if (m[2] !== undefined && m[2] !== '') return undefined;
        if (!define(data, key, null)) return undefined;
      }
    } else {
      nested = undefined;
      const v = value(m[2]);
      if (v === FALLBACK || !define(data, key, v)) return undefined;
    }
    lines.set(key, i + 2);
  }
  return { data, lines, body };
}

// ---------------------------------------------------------------------------
// Writing: the same subset, byte for byte as `yaml` writes it.

// What `yaml` (2.x, core schema, `lineWidth: 0`) would read as something other than a
// string, so it quotes the string: its null, bool, int and float tests.
const NOT_A_STRING = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
// Where a plain scalar cannot be written plain (yaml's stringifyString, for a value).
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
// Control characters (tab and newline too: yaml escapes them, or writes a block scalar) and a
// leading document marker (yaml indents it): the fast writer leaves all of that to yaml.
const NEEDS_YAML = /[\u0000-\u001f\u007f-\u009f]|^(?:%|---|\.\.\.)/;
// yaml double-quotes a string with a lone surrogate (a pair is a character like any other).
const LONE_SURROGATE = /[\u{d800}-\u{dfff}]/u;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

type Rendered = string | typeof FALLBACK;

function renderString(value: string, inFlow: boolean): Rendered {
  if (NEEDS_YAML.test(value) || LONE_SURROGATE.test(value)) return FALLBACK;
  const plain = !(inFlow && /[[\]{},]/.test(value)) && !NOT_PLAIN.test(value) && !NOT_A_STRING.some((re) => re.test(value));
  if (plain) return value;
  // Quoted: single quotes for a string with double quotes and no single ones, else double
  // quotes, which (no control characters, no newline) are JSON's.
  if (value.includes('"') && !value.includes("'")) return `'${value}'`;
  return JSON.stringify(value);
}

function renderScalar(value: unknown, inFlow: boolean): Rendered {
  if (typeof value === 'string') return renderString(value, inFlow);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value < 0 ? '-.inf' : '.inf';
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return FALLBACK;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * What follows `key:` in a block mapping: ` scalar`, ` [flow, list]` of scalars, or (at
 * `depth` 0) a mapping one level down on the next lines.
 */
function renderValue(value: unknown, depth: number, seen: Set<object>): Rendered {
  if (typeof value !== 'object' || value === null) {
    const text = renderScalar(value, false);
    return text === FALLBACK ? FALLBACK : ` ${text}`;
  }
  // yaml writes an object met twice as an anchor and an alias.
  if (seen.has(value)) return FALLBACK;
  seen.add(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return FALLBACK;
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === undefined || (typeof item === 'object' && item !== null)) return FALLBACK;
      const text = renderScalar(item, true);
      if (text === FALLBACK) return FALLBACK;
      items.push(text);
    }
    return ` [${items.join(', ')}]`;
  }
  if (depth > 0 || !isPlainObject(value)) return FALLBACK;
  const lines = renderMap(value, '  ', depth + 1, seen);
  if (lines === FALLBACK) return FALLBACK;
  return lines === '' ? ' {}' : `\n${lines}`;
}

function renderMap(map: Record<string, unknown>, indent: string, depth: number, seen: Set<object>): Rendered {
  let out = '';
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined) continue;
    // yaml quotes a key it would read as null or a boolean, and makes a long one explicit (`? key`).
    if (!PLAIN_KEY.test(key) || key.length > 1024 || NOT_A_STRING.some((re) => re.test(key))) return FALLBACK;
    const text = renderValue(value, depth, seen);
    if (text === FALLBACK) return FALLBACK;
    out += `${out === '' ? '' : '\n'}${indent}${key}:${text}`;
  }
  return out;
}

/**
 * Renders frontmatter as `yaml` does in `renderFrontmatterYaml` (`lineWidth: 0`, flat lists
 * in flow style), for the subset Cortex writes: keys that are plain names, and values that
 * are strings on one line, numbers, booleans, null, flat lists of those, and one level of
 * mappings of those. Returns `undefined` for anything else, so the caller uses `yaml`;
 * whenever it returns text, the text is `yaml`'s, byte for byte (property-tested). Loading
 * `yaml` costs a hook a tenth of its time budget.
 *
 * @example
 * renderFastFrontmatter({ id: 'a-abcdef', tags: ['x', 'y'], source: { kind: 'manual' } }) // 'id: a-abcdef\ntags: [x, y]\nsource:\n  kind: manual\n'
 */
export function renderFastFrontmatter(frontmatter: Record<string, unknown>): string | undefined {
  if (!isPlainObject(frontmatter)) return undefined;
  const out = renderMap(frontmatter, '', 0, new Set([frontmatter]));
  return out === FALLBACK || out === '' ? undefined : `${out}\n`;
}
