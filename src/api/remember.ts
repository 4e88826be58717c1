/**
 * `remember`: store one memory. Redacts secrets, refuses duplicates, and updates the
 * memory with the same `topic` (and scope) instead of adding another.
 */
import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import {
  MEMORY_TYPES,
  SCOPES,
  buildId,
  formatDate,
  isMemoryType,
  normalizeTags,
  type Memory,
  type MemorySource,
  type MemoryType,
  type Scope,
} from '../core/memory.js';
import { normalizeBody, renderMemory } from '../core/memory-format.js';
import { parseAnchor, renderAnchor } from '../core/anchor.js';
import { redactDeep, redactParts, redactSecrets } from '../core/redact.js';
import { redactTags } from '../core/redact-memory.js';
import { rewriteHomePaths, type HomePaths } from '../core/redact-home.js';
import { toRepoPath } from '../core/repo-path.js';
import { contentKeyOf } from '../cache/index/search-index.js';
import { readHead } from '../git/head.js';
import { withLock } from '../store/lock.js';
import { MAX_MEMORY_FILE_BYTES, displayPath, readMemoryById } from '../store/memory-store.js';
import { listEdgeNames } from '../store/edge-store.js';
import { writeMemory } from '../store/memory-write.js';
import { memoryPath } from '../store/memory-path.js';
import type { UndoInfo } from '../services/undo.js';
// Types only: auto-linking loads the similarity, edge and vector modules, which a write
// whose linking is deferred (the Stop hook) does not need.
import type { AutoLinkResult } from '../services/autolink.js';
import { addPendingLinks } from '../cache/pending-links.js';
import { scopePaths, type Context } from '../services/context.js';
import { LINK_EXTRACTOR, openTierIndex, saveQuietly, type TierIndex } from '../services/indexes.js';
import { lockPath } from '../cache/layout.js';
import { createdFiles, startMarking } from '../services/stage.js';

export interface RememberInput {
  /** Free text: the first line (or sentence) becomes the summary, the rest the body. */
  text?: string;
  /** Explicit summary (overrides the one derived from `text`). */
  summary?: string;
  /** Explicit body (overrides the one derived from `text`). */
  body?: string;
  type?: MemoryType;
  priority?: number;
  confidence?: number;
  tags?: string[];
  /** Same topic in the same scope updates that memory instead of adding one. */
  topic?: string;
  pinned?: boolean;
  scope?: Scope;
  /** When the knowledge was first written, for an import (ISO-8601 UTC); default now. */
  created?: string;
  /** When it last changed, for an import; default `created`, else now. */
  updated?: string;
  /** Keep it to yourself: the same as `scope: 'local'` (`.git/cortex/local/`, never committed). */
  private?: boolean;
  /** Provenance; branch and commit default to the repository's HEAD. */
  source?: Partial<MemorySource>;
  /**
   * Link the memory to similar ones after writing (default true). `later` writes the memory
   * only and lists it in the tier's `.memory/pending-links`, for `linkPending` (the
   * session-end worker) to link: a hook that must return fast does not wait for it.
   */
  autoLink?: boolean | 'later';
  /** `archived` writes it out of the briefing and the projections (a finished plan). Default `active`. */
  status?: 'active' | 'archived';
  /**
   * `source.files` outside the repository: `refuse` (default) throws a usage error naming the
   * path, `drop` leaves them out and lists them in the result (automatic capture: never fails).
   */
  outsideFiles?: 'refuse' | 'drop';
  /**
   * A topic update keeps what it replaces for undo (`RememberResult.undo`): git's version
   * when the file is committed, else a copy under `.memory/trash/`. For people (the CLI,
   * MCP); capture rewrites its plan and progress memories every turn and does not ask.
   */
  keepUndo?: boolean;
}

export interface RememberResult {
  /** `duplicate`: identical content already stored; `unchanged`: topic update with nothing new. */
  action: 'created' | 'updated' | 'unchanged' | 'duplicate';
  memory: Memory;
  /** Path of the memory file, relative to the repository root for project memories. */
  file: string;
  /** Kinds of secrets that were redacted before writing. */
  redacted: string[];
  /** Edges written and duplicates queued by auto-linking (created and updated memories). */
  links?: AutoLinkResult;
  /** `source.files` left out because they are outside the repository (`outsideFiles: 'drop'`). */
  droppedFiles?: string[];
  /** How to get back what a topic update replaced (with `keepUndo`). */
  undo?: UndoInfo;
}

export const DEFAULT_REMEMBER = { type: 'context' as MemoryType, priority: 5, confidence: 1, scope: 'project' as Scope };

const MAX_SUMMARY = 200;

/**
 * Splits free text into a one-line summary and a body.
 *
 * @example
 * splitText('Use WAL mode\nHooks write concurrently.') // { summary: 'Use WAL mode', body: 'Hooks write concurrently.' }
 */
export function splitText(text: string): { summary: string; body: string } {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  const newline = trimmed.indexOf('\n');
  if (newline !== -1) {
    const first = trimmed.slice(0, newline).replace(/^#+\s*/, '').trim();
    const rest = trimmed.slice(newline + 1);
    if (first.length <= MAX_SUMMARY) return { summary: first, body: normalizeBody(rest) };
  }
  if (trimmed.length <= MAX_SUMMARY && newline === -1) return { summary: trimmed, body: '' };
  // One long paragraph: the first sentence is the summary, the whole text the body.
  const sentence = /^(.{20,}?[.!?])(\s|$)/s.exec(trimmed)?.[1] ?? trimmed;
  return { summary: shorten(sentence.replace(/\s+/g, ' '), MAX_SUMMARY), body: trimmed };
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

function validate(input: RememberInput): void {
  if (input.type !== undefined && !isMemoryType(input.type)) {
    throw new UsageError(`Unknown memory type "${input.type}".`, { hint: `Use one of: ${MEMORY_TYPES.join(', ')}.` });
  }
  if (input.priority !== undefined && (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 10)) {
    throw new UsageError(`Priority must be an integer from 1 to 10, got ${input.priority}.`);
  }
  if (input.confidence !== undefined && !(input.confidence >= 0 && input.confidence <= 1)) {
    throw new UsageError(`Confidence must be a number from 0 to 1, got ${input.confidence}.`);
  }
  if (input.scope !== undefined && !SCOPES.includes(input.scope)) {
    throw new UsageError(`Unknown scope "${input.scope}".`, { hint: `Use one of: ${SCOPES.join(', ')}.` });
  }
  if (input.topic !== undefined && input.topic.trim() === '') throw new UsageError('The topic must not be empty.');
  if (input.private === true && input.scope !== undefined && input.scope !== 'local') {
    throw new UsageError(`A private memory is stored in the local tier, not the ${input.scope} one.`, { hint: 'Drop --scope, or use --scope local.' });
  }
}

/** Room kept for the frontmatter: the body of a memory file may take the rest of its 1 MB. */
const FRONTMATTER_ROOM = 16 * 1024;

/**
 * Refuses a body that would make the memory file larger than a memory file may be (every
 * reader would then skip it): a usage error before anything is written.
 *
 * @example
 * assertBodyFits('short') // ok
 * assertBodyFits('x'.repeat(2_000_000)) // throws UsageError
 */
export function assertBodyFits(body: string): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes <= MAX_MEMORY_FILE_BYTES - FRONTMATTER_ROOM) return;
  throw new UsageError(`The text is ${(bytes / 1024 / 1024).toFixed(1)} MB; a memory file may be at most ${MAX_MEMORY_FILE_BYTES / 1024 / 1024} MB.`, {
    hint: 'Keep the long content in a file of the repository and remember a short note that names it.',
  });
}

/**
 * `source.files` as the repository names them: relative to its root, forward slashes, each
 * once, with its code anchor (`src/db.ts#acquire`, `#L10-L20`) kept. An absolute path inside the repository (Claude Code's tools use them) is made
 * relative; one outside it, or a relative path leaving it (`../x`), is refused with a usage
 * error, or dropped and listed when `outside` is `drop`.
 *
 * @example
 * repoFiles('/repo', ['/repo/src/db.ts', './README.md'], 'refuse') // { files: ['src/db.ts', 'README.md'], dropped: [] }
 * repoFiles('/repo', ['/etc/passwd'], 'refuse') // throws UsageError
 */
export function repoFiles(root: string, files: readonly string[], outside: 'refuse' | 'drop'): { files: string[]; dropped: string[] } {
  const roots = [root];
  try {
    const real = realpathSync(root);
    if (real !== root) roots.push(real);
  } catch {
    // The root as given.
  }
  const out = new Set<string>();
  const dropped: string[] = [];
  for (const file of files) {
    // A code anchor (`#symbol`, `#L10-L20`) rides along with its path.
    const anchor = parseAnchor(file);
    const r = toRepoPath(anchor.path, roots);
    if (r.ok) {
      out.add(renderAnchor({ ...anchor, path: r.path }));
      continue;
    }
    if (outside === 'drop') {
      dropped.push(file);
      continue;
    }
    throw new UsageError(
      r.reason === 'empty' ? 'A file path is empty.' : `The file "${file.length > 200 ? `${file.slice(0, 200)}…` : file}" is outside the repository ${root}.`,
      { hint: 'Name files inside the repository: relative to its root (src/db.ts) or absolute under it.' },
    );
  }
  return { files: [...out], dropped };
}

/**
 * Resolves summary and body from the input, redacted: free text as a whole before it is
 * split (a key block must not be cut into a summary and a body that no rule recognises),
 * summary and body together before the summary is shortened.
 */
function contentOf(input: RememberInput, home: HomePaths): { summary: string; body: string; redacted: string[] } {
  const kinds = new Set<string>();
  let fromText = { summary: '', body: '' };
  if (input.text !== undefined) {
    // Home paths first (they would reach the id and the file name), then the secrets.
    const whole = redactSecrets(rewriteHomePaths(input.text, home));
    whole.findings.forEach((f) => kinds.add(f.kind));
    fromText = splitText(whole.text);
  }
  const rawSummary = rewriteHomePaths(input.summary ?? fromText.summary, home).replace(/\s+/g, ' ').trim();
  const rawBody = normalizeBody(rewriteHomePaths(input.body ?? fromText.body, home));
  if (rawSummary === '') {
    throw new UsageError('Nothing to remember: the text is empty.', {
      hint: 'Pass the text as an argument, on stdin, or use --edit.',
    });
  }
  const { parts, findings } = redactParts([rawSummary, rawBody]);
  findings.forEach((f) => kinds.add(f.kind));
  assertBodyFits(parts[1] ?? '');
  return { summary: shorten((parts[0] ?? '').replace(/\s+/g, ' ').trim(), 300), body: normalizeBody(parts[1] ?? ''), redacted: [...kinds] };
}

/**
 * The input's other free-text fields through the gate: tags, topic, provenance. A topic
 * or a tag is a key (same topic = update): redacting it keeps two memories that named
 * different secrets apart no more than their text does, which is the point.
 */
function gateFields(input: RememberInput): { input: RememberInput; kinds: string[] } {
  const kinds = new Set<string>();
  const out: RememberInput = { ...input };
  if (input.tags !== undefined) {
    const r = redactTags(input.tags);
    r.kinds.forEach((k) => kinds.add(k));
    out.tags = r.value;
  }
  if (input.topic !== undefined) {
    const r = redactSecrets(input.topic);
    r.findings.forEach((f) => kinds.add(f.kind));
    out.topic = r.text;
  }
  if (input.source !== undefined) {
    const r = redactDeep(input.source);
    r.kinds.forEach((k) => kinds.add(k));
    out.source = r.value;
  }
  return { input: out, kinds: [...kinds] };
}

/**
 * {@link remember}, with the files it writes staged for the next commit (`git add`, see
 * services/stage.ts): the new memory while it is linked, its new edges after; with
 * `ctx.staging` (the MCP server), handed to that queue instead. What
 * `openCortex().remember` and `cortex remember` run.
 *
 * @example
 * await rememberAndMark(ctx, { text: 'Use WAL mode', type: 'decision' });
 */
export async function rememberAndMark(ctx: Context, input: RememberInput): Promise<RememberResult> {
  if (ctx.staging) {
    // A long-lived process gathers what its writes create and stages it in bursts.
    const result = await remember(ctx, input);
    ctx.staging.add(ctx, createdFiles([result]));
    return result;
  }
  const marking = startMarking(ctx);
  try {
    const result = await remember(ctx, input, {
      onCreated: ({ file, memory }) => {
        if (memory.scope === 'project') marking.add([file]);
      },
    });
    marking.add(createdFiles([result]));
    return result;
  } finally {
    await marking.done();
  }
}

/**
 * Stores a memory in the project (or global) tier.
 *
 * @example
 * await remember(ctx, { text: 'Chose SQLite over Postgres because zero-config matters', type: 'decision', tags: ['storage'] });
 */
export async function remember(ctx: Context, input: RememberInput, options: RememberOptions = {}): Promise<RememberResult> {
  return (await rememberMany(ctx, [input], options))[0] as RememberResult;
}

/** What a caller learns while `remember` works (the Cortex facade marks files for commit). */
export interface RememberOptions {
  /**
   * Called when a new memory's file is written, before it is linked, with the `file` and
   * `memory` its result will hold: `git add -N` then runs while the memory is linked.
   */
  onCreated?: (created: { file: string; memory: Memory }) => void;
}

interface Prepared {
  input: RememberInput;
  /** Files left out: outside the repository. */
  dropped: string[];
  summary: string;
  body: string;
  redacted: string[];
  type: MemoryType;
  scope: Scope;
  tags: string[];
}

/**
 * Stores several memories with one lock, one index load and one index save per tier
 * (what extraction needs: a dozen candidates per turn must not reload a 10k-memory index
 * a dozen times). Each input behaves exactly as in `remember`, in order: a later input
 * with the topic of an earlier one updates it. Every input is validated before anything
 * is written.
 *
 * @example
 * const [a, b] = await rememberMany(ctx, [{ text: 'Use WAL mode', type: 'decision' }, { text: 'Plan: 1/3 done', type: 'plan', topic: 'plan/main' }]);
 */
export async function rememberMany(ctx: Context, inputs: readonly RememberInput[], options: RememberOptions = {}): Promise<RememberResult[]> {
  const prepared: Prepared[] = inputs.map((given) => {
    validate(given);
    const content = contentOf(given, { root: ctx.root, home: ctx.env.HOME });
    const { input, kinds } = gateFields(given);
    let dropped: string[] = [];
    if (input.source?.files !== undefined) {
      const r = repoFiles(ctx.root, input.source.files, input.outsideFiles ?? 'refuse');
      input.source = { ...input.source, files: r.files };
      dropped = r.dropped;
    }
    return {
      dropped,
      input,
      ...content,
      redacted: [...new Set([...content.redacted, ...kinds])],
      type: input.type ?? DEFAULT_REMEMBER.type,
      scope: input.private === true ? 'local' : (input.scope ?? DEFAULT_REMEMBER.scope),
      tags: normalizeTags(input.tags ?? []),
    };
  });
  // HEAD is read only when a caller did not say which branch and commit.
  const needsHead = prepared.some((p) => p.input.source?.branch === undefined && p.scope !== 'global');
  const head = needsHead ? readHead(ctx.root) : undefined;
  const results: RememberResult[] = new Array(prepared.length);
  for (const scope of SCOPES) {
    const mine = prepared.map((p, i) => [p, i] as const).filter(([p]) => p.scope === scope);
    if (mine.length === 0) continue;
    const paths = scopePaths(ctx, scope);
    await withLock(lockPath(paths.cacheDir, 'write'), async () => {
      const tier = openTierIndex(ctx, scope, { save: false });
      const now = formatDate(ctx.now());
      try {
        for (const [p, i] of mine) {
          const result = await rememberInTier(ctx, tier, p, scope === 'global' ? undefined : head, now, options);
          results[i] = p.dropped.length > 0 ? { ...result, droppedFiles: p.dropped } : result;
        }
      } finally {
        saveQuietly(tier.index, paths);
      }
    });
  }
  return results;
}

async function rememberInTier(
  ctx: Context,
  tier: TierIndex,
  p: Prepared,
  head: { branch?: string | undefined; commit?: string | undefined } | undefined,
  now: string,
  options: RememberOptions,
): Promise<RememberResult> {
  const { input, summary, body, redacted, type, scope, tags } = p;
  const paths = tier.paths;
  const source: MemorySource = {
    kind: input.source?.kind ?? 'manual',
    layer: input.source?.layer ?? 'manual',
    ...(input.source?.session !== undefined ? { session: input.source.session } : {}),
    ...((input.source?.branch ?? head?.branch) !== undefined ? { branch: input.source?.branch ?? head?.branch } : {}),
    ...((input.source?.commit ?? head?.commit) !== undefined ? { commit: (input.source?.commit ?? head?.commit)?.slice(0, 12) } : {}),
    ...(input.source?.files && input.source.files.length > 0 ? { files: [...input.source.files] } : {}),
    ...(input.source?.from !== undefined ? { from: input.source.from } : {}),
    ...(input.source?.confirmed !== undefined ? { confirmed: input.source.confirmed } : {}),
    ...(input.source?.extra !== undefined && Object.keys(input.source.extra).length > 0 ? { extra: { ...input.source.extra } } : {}),
  };

  if (input.topic !== undefined) {
    const existing = tier.index.findByTopic(input.topic, scope)[0];
    if (existing) {
      const current = readMemoryById(paths, existing.id, tier.base).memory;
      if (current) {
        const next: Memory = {
          ...current,
          type,
          summary,
          body,
          tags: input.tags !== undefined ? tags : current.tags,
          priority: input.priority ?? current.priority,
          confidence: input.confidence ?? current.confidence,
          pinned: input.pinned ?? current.pinned,
          status: input.status ?? 'active',
          source: { ...current.source, ...source, kind: current.source.kind, extra: current.source.extra },
        };
        if (renderMemory({ ...next, updated: current.updated }) === renderMemory(current)) {
          return { action: 'unchanged', memory: current, file: existing.file, redacted };
        }
        next.updated = input.updated ?? now;
        const undo =
          input.keepUndo === true ? await (await import('../services/undo.js')).keepForUndo(ctx, [{ path: memoryPath(paths, current.id), scope }], 'remember') : undefined;
        const edgesBefore = undo !== undefined ? new Set(listEdgeNames(paths)) : undefined;
        const result = await commit(ctx, tier, next, 'updated', redacted, input.autoLink, options);
        if (undo === undefined) return result;
        // The update's auto-links are new edge files: undoing the update removes them too.
        const newEdges = listEdgeNames(paths).filter((n) => !edgesBefore!.has(n)).map((n) => displayPath(join(paths.edgesDir, n), tier.base));
        return { ...result, undo: newEdges.length > 0 ? { ...undo, created: [...(undo.created ?? []), ...newEdges] } : undo };
      }
    }
  }

  const key = contentKeyOf({ type, summary, body });
  const duplicate = tier.index.findByContentKey(key);
  if (duplicate && duplicate.status !== 'superseded') {
    const current = readMemoryById(paths, duplicate.id, tier.base).memory;
    if (current) return { action: 'duplicate', memory: current, file: duplicate.file, redacted };
  }

  let id = buildId(summary, ctx.randomBytes);
  while (tier.index.docs.has(id)) id = buildId(summary, ctx.randomBytes);
  const memory: Memory = {
    id,
    type,
    summary,
    scope,
    priority: input.priority ?? DEFAULT_REMEMBER.priority,
    confidence: input.confidence ?? DEFAULT_REMEMBER.confidence,
    pinned: input.pinned ?? false,
    status: input.status ?? 'active',
    tags,
    ...(input.topic !== undefined ? { topic: input.topic.trim() } : {}),
    created: input.created ?? now,
    updated: input.updated ?? input.created ?? now,
    source,
    body,
    extra: {},
  };
  return commit(ctx, tier, memory, 'created', redacted, input.autoLink, options);
}

/** Writes the file and updates the in-memory index; the caller saves the index once. */
async function commit(
  ctx: Context,
  tier: TierIndex,
  memory: Memory,
  action: 'created' | 'updated',
  redacted: string[],
  autoLink: boolean | 'later' | undefined,
  options: RememberOptions,
): Promise<RememberResult> {
  // The store's gate has nothing left to do here (every field was redacted above), but
  // what is indexed is what it wrote.
  const { path, memory: written } = writeMemory(tier.paths, memory);
  memory = written;
  const st = statSync(path);
  tier.index.upsert(memory, { path, id: memory.id, size: st.size, mtimeMs: st.mtimeMs }, renderMemory(memory), {
    base: tier.base,
    links: LINK_EXTRACTOR,
  });
  const file = tier.index.docs.get(memory.id)?.file ?? path;
  if (action === 'created') options.onCreated?.({ file, memory });
  if (autoLink === false) return { action, memory, file, redacted };
  if (autoLink === 'later') {
    // Under the tier's write lock, like the memory file: `linkPending` takes the same lock.
    // A list that cannot be written (a directory in its place, a full disk): linked now.
    try {
      addPendingLinks(tier.paths.cacheDir, [memory.id]);
      return { action, memory, file, redacted };
    } catch {
      // Linked below.
    }
  }
  let links: AutoLinkResult;
  try {
    const { autoLinkMemory } = await import('../services/autolink.js');
    links = await autoLinkMemory(ctx, { tier, memory });
  } catch (err) {
    // The memory is written; a failed link must not turn that into a failure.
    links = { edges: [], consolidate: [], compared: 0, error: (err as Error)?.message ?? String(err) };
  }
  return { action, memory, file, redacted, links };
}
