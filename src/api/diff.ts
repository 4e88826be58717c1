/**
 * `diff`: what a revision range changes in memory, read straight from the commits with
 * isomorphic-git (no checkout). `a..b` and `a...b` both mean "what b adds since it left a"
 * (from their merge base, like a pull request); a single revision means that revision's
 * changes up to HEAD. Each side takes git's revision syntax (`HEAD~1`, `main^`, `@{u}`),
 * resolved by `git rev-parse` when git is installed (see `resolveCommit`).
 */
import { parseAnchor } from '../core/anchor.js';
import { parseEdge } from '../core/edge-format.js';
import { parseEdgeFileName, type Edge } from '../core/edge.js';
import type { Memory } from '../core/memory.js';
import { parseMemory } from '../core/memory-format.js';
import { diffEdge, diffMemory, sortChanges, type CodeTouch, type DiffFlag, type EdgeChange, type MemoryChange, type MemoryDiff } from '../core/memory-diff.js';
import { shorten, type ChangeProvenance, type FieldEdit, type ReviewMemoryChange } from '../core/pr-comment.js';
import { findSecrets, redactSecrets } from '../core/redact.js';
import { splitRevisionRange } from '../core/revision.js';
import { extractWikilinks } from '../core/wikilinks.js';
import { GitError, MissingDependencyError, UsageError } from '../errors.js';
import { blobAt, gitReader, mergeBases, readBlobText, readCortexTree, resolveCommit, type CortexTree, type GitReader } from '../git/repo.js';
import { findGitRoot } from '../store/paths.js';
import type { Context } from '../services/context.js';

export interface DiffInput {
  /** `main..feature`, `main...feature`, or one revision (compared with HEAD). */
  range: string;
  /** List the memories anchored to code the range changes (default true). */
  code?: boolean;
}

export interface DiffOutput extends MemoryDiff {
  /** Each memory change also says who captured it and, for edits, a short before → after. */
  memories: ReviewMemoryChange[];
  range: string;
  /** Commit the changes are measured from (the merge base). */
  base: string;
  /** Commit the changes lead to. */
  head: string;
}

async function readSide<T>(
  r: GitReader,
  oid: string | undefined,
  parse: (text: string) => { value: T | undefined; text: string },
): Promise<{ value: T | undefined; text: string | undefined }> {
  if (oid === undefined) return { value: undefined, text: undefined };
  const text = await readBlobText(r, oid);
  return { ...parse(text), text };
}

/**
 * Lists the memory and edge changes of a range, with flags: secrets in added or edited
 * files, `contradicts` edges added or touching a changed memory, references to files,
 * memories or edge endpoints that do not exist at the range's end.
 *
 * @example
 * const d = await diffRange(ctx, { range: 'main..feature' });
 * d.memories.filter((m) => m.change === 'added').map((m) => m.id)
 */
export async function diffRange(ctx: Context, input: DiffInput): Promise<DiffOutput> {
  const root = findGitRoot(ctx.root);
  if (!root) throw new GitError('cortex diff needs a git repository.', { hint: 'Run it inside the repository whose memory changes you want to see.' });
  if (input.range.trim() === '') throw new UsageError('Say which revisions to compare.', { hint: 'Example: cortex diff main..feature' });
  const r = gitReader(root);
  const { from, to } = splitRevisionRange(input.range);
  const fromOid = await resolveCommit(r, from);
  const head = await resolveCommit(r, to);
  const bases = await mergeBases(r, fromOid, head);
  const base = bases[0] ?? fromOid;
  const [before, after] = await Promise.all([readCortexTree(r, base), readCortexTree(r, head)]);

  const memories: ReviewMemoryChange[] = [];
  const edges: EdgeChange[] = [];
  const flags: DiffFlag[] = [];
  const changedMemories = new Set<string>();
  const secretCheck = (file: string, text: string | undefined) => {
    if (text === undefined) return;
    for (const f of findSecrets(text)) flags.push({ kind: 'secret', file, line: f.line, message: `looks like a secret (${f.kind})` });
  };

  for (const id of new Set([...before.memories.keys(), ...after.memories.keys()])) {
    const [ob, oa] = [before.memories.get(id), after.memories.get(id)];
    if (ob === oa) continue;
    const file = `.cortex/memories/${id}.md`;
    const parse = (text: string) => ({ value: parseMemory(text, { file, expectedId: id }).memory, text });
    const [b, a] = await Promise.all([readSide<Memory>(r, ob, parse), readSide<Memory>(r, oa, parse)]);
    if ((oa !== undefined && a.value === undefined) || (ob !== undefined && b.value === undefined && oa === undefined)) {
      flags.push({ kind: 'unreadable', file, message: 'cannot be parsed; run `cortex lint` on that revision' });
      if (oa !== undefined && a.value === undefined) {
        secretCheck(file, a.text);
        continue;
      }
    }
    const change = diffMemory(b.value, a.value);
    if (!change) continue;
    const shown = (a.value ?? b.value)!;
    memories.push({ id, type: shown.type, summary: shown.summary, change: change.change, fields: change.fields, file, provenance: provenanceOf(shown), ...(b.value && a.value && change.fields.length > 0 ? { edits: fieldEdits(b.value, a.value, change.fields) } : {}) });
    changedMemories.add(id);
    if (a.value) {
      secretCheck(file, a.text);
      await staleReferences(r, head, after, a.value, file, flags);
    }
  }

  for (const name of new Set([...before.edges.keys(), ...after.edges.keys()])) {
    const [ob, oa] = [before.edges.get(name), after.edges.get(name)];
    if (ob === oa) continue;
    const file = `.cortex/edges/${name}`;
    const parse = (text: string) => ({ value: parseEdge(text, { file }).edge, text });
    const [b, a] = await Promise.all([readSide<Edge>(r, ob, parse), readSide<Edge>(r, oa, parse)]);
    const key = parseEdgeFileName(name);
    if (!key) {
      flags.push({ kind: 'unreadable', file, message: 'is not named <source>--<relation>--<target>.md' });
      continue;
    }
    if (oa !== undefined && a.value === undefined) flags.push({ kind: 'unreadable', file, message: 'cannot be parsed; run `cortex lint` on that revision' });
    const change = diffEdge(b.value, a.value);
    if (!change && !(oa !== undefined && a.value === undefined)) continue;
    edges.push({ id: name.slice(0, -3), ...key, change: change?.change ?? 'edited', fields: change?.fields ?? [], file });
    if (oa === undefined) continue;
    secretCheck(file, a.text);
    if (key.relation === 'contradicts' && (a.value?.status ?? 'active') === 'active') {
      flags.push({ kind: 'contradiction', file, message: `${key.source} contradicts ${key.target}: decide which holds, then supersede or archive the other` });
    }
    for (const end of [key.source, key.target]) {
      if (!after.memories.has(end)) flags.push({ kind: 'stale-reference', file, message: `points to ${end}, which does not exist in ${to}` });
    }
  }

  // Changed memories that an existing (unchanged) `contradicts` edge involves.
  for (const name of after.edges.keys()) {
    const key = parseEdgeFileName(name);
    if (!key || key.relation !== 'contradicts' || before.edges.get(name) !== after.edges.get(name)) continue;
    const touched = [key.source, key.target].filter((id) => changedMemories.has(id));
    if (touched.length === 0) continue;
    flags.push({ kind: 'contradiction', file: `.cortex/edges/${name}`, message: `${touched.join(' and ')} changed, and ${key.source} contradicts ${key.target}` });
  }

  const code = input.code === false ? [] : await anchoredCode({ root: ctx.root, gitRoot: root, base, head, memoryBlobs: after.memories });
  return { range: input.range, base, head, ...sortChanges({ memories, edges, flags }), code };
}

function provenanceOf(m: Memory): ChangeProvenance {
  const s = m.source;
  return { kind: s.kind, ...(s.session ? { session: s.session } : {}), ...(s.branch ? { branch: s.branch } : {}), confidence: m.confidence, ...(s.confirmed ? { confirmed: s.confirmed } : {}) };
}

function fieldValue(m: Memory, field: string): unknown {
  let v: unknown = m;
  for (const part of field.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function valueText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(String).join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A short before → after of each changed field, redacted (the text goes into a public comment). */
function fieldEdits(before: Memory, after: Memory, fields: string[]): FieldEdit[] {
  return fields.map((field) => {
    let [b, a] = [redactSecrets(valueText(fieldValue(before, field))).text.replace(/\s+/g, ' '), redactSecrets(valueText(fieldValue(after, field))).text.replace(/\s+/g, ' ')];
    // Long text: start a little before the first difference, so the short form shows it.
    let p = 0;
    while (p < b.length && p < a.length && b[p] === a[p]) p++;
    if (p > 30) [b, a] = [`…${b.slice(p - 20)}`, `…${a.slice(p - 20)}`];
    return { field, before: shorten(b, 60), after: shorten(a, 60) };
  });
}

async function staleReferences(r: GitReader, head: string, after: CortexTree, memory: Memory, file: string, flags: DiffFlag[]): Promise<void> {
  for (const entry of memory.source.files ?? []) {
    const path = parseAnchor(entry).path;
    if ((await blobAt(r, head, path)) === null) flags.push({ kind: 'stale-reference', file, message: `refers to ${path}, which does not exist at the end of the range` });
  }
  for (const id of extractWikilinks(memory.body)) {
    if (!after.memories.has(id)) flags.push({ kind: 'stale-reference', file, message: `links to [[${id}]], which does not exist at the end of the range` });
  }
}

/**
 * The anchored code the range changes (diff-code.ts), which reads the commits with the git
 * command and parses them with tree-sitter: without either installed, the memory changes
 * are still listed and this is empty.
 */
async function anchoredCode(options: Parameters<typeof import('./diff-code.js').codeTouched>[0]): Promise<CodeTouch[]> {
  try {
    return await (await import('./diff-code.js')).codeTouched(options);
  } catch (err) {
    if (err instanceof GitError && (err.cause as { code?: unknown } | undefined)?.code === 'ENOENT') return [];
    // A keyword-only install has no tree-sitter: the memory changes are listed all the same.
    if (err instanceof MissingDependencyError) return [];
    throw err;
  }
}
