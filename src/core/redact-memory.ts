/**
 * The redaction gate applied to whole records: every string field of a memory or an
 * edge, so that no field is forgotten by a caller (tags, topic, `source.files`, unknown
 * keys …). The file store calls these on every write; the use cases call them earlier
 * too, where a field's value decides something (an id is derived from the summary, a
 * duplicate is found by content).
 */
import type { Edge } from './edge.js';
import { normalizeTag, type Memory, type MemorySource } from './memory.js';
import { redactDeep, redactParts, redactSecrets, type SecretKind } from './redact.js';
import { rewriteHomePaths, type HomePaths } from './redact-home.js';

/**
 * A record with its secrets redacted, and the kinds that were.
 *
 * @example
 * const { value, kinds }: Redacted<Memory> = redactMemory(memory);
 */
export interface Redacted<T> {
  value: T;
  kinds: SecretKind[];
}

function redactString(value: string, kinds: Set<SecretKind>): string {
  const r = redactSecrets(value);
  for (const f of r.findings) kinds.add(f.kind);
  return r.text;
}

function redactOptional(value: string | undefined, kinds: Set<SecretKind>): string | undefined {
  return value === undefined ? undefined : redactString(value, kinds);
}

/**
 * Tags are redacted as given, then normalised (so the marker is lower-case, as a tag
 * always is): a token lower-cased first could slip past rules that need its case.
 *
 * @example
 * redactTags(['deploy', 'ghp_' + token]).value // ['deploy', '[redacted:github-token]']
 */
export function redactTags(tags: readonly string[]): Redacted<string[]> {
  const kinds = new Set<SecretKind>();
  const value = tags.map((t) => {
    const r = redactString(t, kinds);
    return r === t ? t : normalizeTag(r);
  });
  return { value, kinds: [...kinds] };
}

function redactSource(source: MemorySource, kinds: Set<SecretKind>): MemorySource {
  const out: MemorySource = { ...source };
  for (const key of ['session', 'branch', 'commit'] as const) {
    if (source[key] !== undefined) out[key] = redactOptional(source[key], kinds);
  }
  if (source.files !== undefined) out.files = source.files.map((f) => redactString(f, kinds));
  if (source.from !== undefined) out.from = redactString(source.from, kinds);
  if (source.extra !== undefined) {
    const r = redactDeep(source.extra);
    r.kinds.forEach((k) => kinds.add(k));
    out.extra = r.value;
  }
  return out;
}

/**
 * Options of `redactMemory`.
 *
 * @example
 * redactMemory(memory, { known: findSecrets(rawFileText).map((f) => ({ value: rawFileText.slice(f.start, f.end), kind: f.kind })) });
 */
export interface RedactMemoryOptions {
  /**
   * Secrets already found in the text the memory was parsed from. Parsing lower-cases
   * tags, and a lower-cased token may no longer match its rule: these are replaced
   * wherever they appear, as written or lower-cased.
   */
  known?: ReadonlyArray<{ value: string; kind: SecretKind }>;
  /**
   * Where this machine's paths are: absolute home paths in the memory are rewritten first
   * (relative to `root`, or from `~`). Without it, only the generic forms (`/Users/<name>`,
   * `/home/<name>`, `C:\Users\<name>`) are.
   */
  home?: HomePaths;
}

/** A memory with every absolute home path rewritten (the gate's first step). */
function rewriteMemoryHomes(memory: Memory, paths: HomePaths): Memory {
  const rw = (text: string): string => rewriteHomePaths(text, paths);
  const out: Memory = { ...memory, summary: rw(memory.summary), body: rw(memory.body), tags: memory.tags.map(rw) };
  if (memory.topic !== undefined) out.topic = rw(memory.topic);
  if (memory.source.files !== undefined) out.source = { ...memory.source, files: memory.source.files.map(rw) };
  return out;
}

function replaceKnown(memory: Memory, known: NonNullable<RedactMemoryOptions['known']>): Memory {
  const forms = known.flatMap(({ value, kind }) => [...new Set([value, value.toLowerCase(), normalizeTag(value)])].filter((v) => v.length >= 4).map((v) => ({ v, kind })));
  const replace = (text: string, marker: (kind: SecretKind) => string): string => {
    let out = text;
    for (const { v, kind } of forms) if (out.includes(v)) out = out.split(v).join(marker(kind));
    return out;
  };
  const upper = (kind: SecretKind): string => `[REDACTED:${kind}]`;
  return {
    ...memory,
    summary: replace(memory.summary, upper),
    body: replace(memory.body, upper),
    tags: memory.tags.map((t) => replace(t, (kind) => `[redacted:${kind}]`)),
    ...(memory.topic !== undefined ? { topic: replace(memory.topic, upper) } : {}),
    source: { ...memory.source, ...(memory.source.files ? { files: memory.source.files.map((f) => replace(f, upper)) } : {}) },
  };
}

/**
 * Redacts every string a memory file would hold: summary and body as one text (a secret
 * split between them is found whole), tags, topic, provenance, unknown keys. The id is
 * left alone: it is derived from the summary once, after that was redacted.
 *
 * @example
 * redactMemory({ ...memory, topic: 'deploy ' + awsKey }).value.topic // 'deploy [REDACTED:aws-access-key]'
 */
export function redactMemory(memory: Memory, options: RedactMemoryOptions = {}): Redacted<Memory> {
  memory = rewriteMemoryHomes(memory, options.home ?? {});
  if (options.known !== undefined && options.known.length > 0) memory = replaceKnown(memory, options.known);
  const kinds = new Set<SecretKind>();
  const content = redactParts([memory.summary, memory.body]);
  content.findings.forEach((f) => kinds.add(f.kind));
  const tags = redactTags(memory.tags);
  tags.kinds.forEach((k) => kinds.add(k));
  const extra = redactDeep(memory.extra);
  extra.kinds.forEach((k) => kinds.add(k));
  const value: Memory = {
    ...memory,
    summary: content.parts[0] ?? memory.summary,
    body: content.parts[1] ?? memory.body,
    tags: tags.value,
    source: redactSource(memory.source, kinds),
    extra: extra.value,
  };
  if (memory.topic !== undefined) value.topic = redactString(memory.topic, kinds);
  return { value, kinds: [...kinds] };
}

/**
 * Redacts an edge's rationale (the `--note` of a link) and its unknown keys.
 *
 * @example
 * redactEdge({ ...edge, body: 'rotated ' + githubToken }).value.body // 'rotated [REDACTED:github-token]'
 */
export function redactEdge(edge: Edge, home: HomePaths = {}): Redacted<Edge> {
  const kinds = new Set<SecretKind>();
  const body = redactString(rewriteHomePaths(edge.body, home), kinds);
  const extra = redactDeep(edge.extra);
  extra.kinds.forEach((k) => kinds.add(k));
  return { value: { ...edge, body, extra: extra.value }, kinds: [...kinds] };
}
