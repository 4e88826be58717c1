/**
 * Entry-by-entry 3-way merge of a generated projection (`.cortex/decisions.md` …) from
 * its three versions alone, for when the memories of the three commits are out of reach
 * (`git cherry-pick`, `git am`, `git stash pop`, criss-cross merges). When they are in
 * reach the merge driver regenerates the projection instead (api/merge-driver.ts).
 *
 * Every entry carries its memory id (`<!-- memory: <id> -->`) and shows its sort key (the
 * day it was created, then the id), so the entries merge as records matched by id, like
 * memory files: a side that changed an entry wins over a side that did not, an entry
 * added on one side is added, one removed on one side (and unchanged on the other) is
 * removed. The merged entries are laid out in the current template's skeleton and sorted
 * as `renderProjections` sorts them, so when no memory changed on both sides the result
 * is byte-for-byte the projection of the merged memories.
 *
 * An entry changed differently on both sides means the memory itself changed on both
 * sides; its merged form depends on the merged memory, which this function cannot see.
 * Both versions are kept between standard conflict markers and the merge is not clean:
 * running `cortex project` on the merged memories resolves it.
 */
import type { Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { MEMORY_TYPES, type Memory } from './memory.js';
import type { Conflict, MergeLabels, MergeResult } from './merge.js';
import { DEFAULT_RENDER_PROJECTIONS, renderProjections, type ProjectionFile, type RenderProjectionsOptions } from './projection.js';

export interface MergeProjectionTextOptions {
  /** Null when the file is new on both sides. */
  base: string | null;
  ours: string;
  theirs: string;
  /** Which projection the texts are: it picks the skeleton (title, sections, empty texts). */
  file: ProjectionFile;
  /** Header templates, as for `renderProjections`. */
  templates?: RenderProjectionsOptions['templates'];
  /** Path shown in conflicts. */
  path?: string;
  labels?: MergeLabels;
  markerSize?: number;
}

export const DEFAULT_MERGE_PROJECTION_TEXT = {
  templates: DEFAULT_RENDER_PROJECTIONS.templates,
  labels: { ours: 'ours', theirs: 'theirs' } as MergeLabels,
  markerSize: 7,
};

/** One entry of a projection: its id, sort key, section and exact text. */
export interface ProjectionEntry {
  id: string;
  /** The day shown in the entry's first line (`2026-11-21`). */
  day: string;
  /** Index of the `##` section it is in, or -1 before any section. */
  section: number;
  /** The heading text of that section (`## Decisions`), '' when none. */
  sectionHeading: string;
  /** From the `###` heading to the last line of the entry, without trailing blank lines. */
  text: string;
}

export interface ParsedProjection {
  /** `##` headings in order. */
  sections: string[];
  entries: ProjectionEntry[];
}

const parser = unified().use(remarkParse);
const ID_COMMENT = /^<!-- memory: (\S+) -->$/;

function offsets(node: RootContent): [number, number] {
  return [node.position?.start.offset ?? 0, node.position?.end.offset ?? 0];
}

/**
 * Splits a projection into its entries (matched by the id comment after a `###` heading),
 * with the section each is in. Text that is not an entry is left out: it comes from the
 * template. Duplicated ids (left by a text merge) keep their first entry.
 *
 * @example
 * parseProjection(renderProjections([memory])['decisions.md']).entries[0].id // memory.id
 */
export function parseProjection(text: string): ParsedProjection {
  const normalized = text.replace(/\r\n?/g, '\n');
  const tree = parser.parse(normalized) as Root;
  const nodes = tree.children;
  const sections: string[] = [];
  const entries: ProjectionEntry[] = [];
  const seen = new Set<string>();
  let open: { id: string; day: string; start: number; section: number } | undefined;
  const close = (end: number) => {
    if (!open) return;
    if (!seen.has(open.id)) {
      seen.add(open.id);
      entries.push({
        id: open.id,
        day: open.day,
        section: open.section,
        sectionHeading: sections[open.section] ?? '',
        text: normalized.slice(open.start, end).replace(/\s+$/, ''),
      });
    }
    open = undefined;
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const [start] = offsets(node);
    if (node.type === 'heading' && node.depth <= 2) {
      close(start);
      if (node.depth === 2) sections.push(normalized.slice(...offsets(node)).trim());
      continue;
    }
    const next = nodes[i + 1];
    const match = node.type === 'heading' && node.depth === 3 && next?.type === 'html' ? ID_COMMENT.exec(next.value.trim()) : null;
    if (match) {
      close(start);
      const meta = nodes[i + 2];
      const metaText = meta?.type === 'paragraph' ? normalized.slice(...offsets(meta)) : '';
      const day = /^\*([^*]*?)(?: · |\*$)/.exec(metaText)?.[1] ?? '';
      open = { id: match[1] ?? '', day, start, section: sections.length - 1 };
    }
  }
  close(normalized.length);
  return { sections, entries };
}

interface Skeleton {
  /** Text before the first section (title, intro), without trailing blank lines. */
  prefix: string;
  sections: { heading: string; head: string; empty: string }[];
}

function dummy(type: Memory['type'], status: Memory['status']): Memory {
  return {
    id: `${type.replace(/_/g, '-')}-${status}-aaaaaa`,
    type,
    summary: 'x',
    scope: 'project',
    priority: 5,
    confidence: 1,
    pinned: false,
    status,
    tags: [],
    created: '2000-01-01T00:00:00Z',
    updated: '2000-01-01T00:00:00Z',
    source: { kind: 'manual' },
    body: '',
    extra: {},
  };
}

/**
 * The layout the template gives a projection: rendered once with no memories (each
 * section shows its empty text) and once with one memory of every type and status (each
 * section shows only its heading and intro), then cut at the section headings.
 */
function skeletonOf(file: ProjectionFile, templates: RenderProjectionsOptions['templates']): Skeleton {
  const empty = renderProjections([], { templates })[file].replace(/\r\n?/g, '\n');
  const full = renderProjections(
    MEMORY_TYPES.flatMap((t) => [dummy(t, 'active'), dummy(t, 'archived')]),
    { templates },
  )[file].replace(/\r\n?/g, '\n');
  const cut = (text: string) => {
    const nodes = (parser.parse(text) as Root).children;
    const headings = nodes.filter((n) => n.type === 'heading' && n.depth === 2).map((n) => offsets(n));
    const entries = entryStarts(nodes);
    const prefixEnd = Math.min(headings[0]?.[0] ?? text.length, entries[0] ?? text.length);
    const parts = headings.map(([start, headingEnd], i) => {
      const end = headings[i + 1]?.[0] ?? text.length;
      const firstEntry = entries.find((e) => e > start && e < end);
      return { heading: text.slice(start, headingEnd).trim(), head: text.slice(start, firstEntry ?? end).replace(/\s+$/, '') };
    });
    return { prefix: text.slice(0, prefixEnd).replace(/\s+$/, ''), parts };
  };
  const e = cut(empty);
  const f = cut(full);
  return {
    prefix: f.prefix,
    sections: f.parts.map((p, i) => ({ heading: p.heading, head: p.head, empty: e.parts[i]?.head ?? p.head })),
  };
}

/** Offsets of the `###` headings that open entries. */
function entryStarts(nodes: RootContent[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const next = nodes[i + 1];
    if (node.type === 'heading' && node.depth === 3 && next?.type === 'html' && ID_COMMENT.test(next.value.trim())) out.push(offsets(node)[0]);
  }
  return out;
}

const skeletons = new Map<string, Skeleton>();

function cachedSkeleton(file: ProjectionFile, templates: RenderProjectionsOptions['templates']): Skeleton {
  const key = `${file}\0${JSON.stringify(templates ?? {})}`;
  let s = skeletons.get(key);
  if (!s) {
    s = skeletonOf(file, templates);
    skeletons.set(key, s);
  }
  return s;
}

function sameEntry(a: ProjectionEntry | undefined, b: ProjectionEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.text === b.text && a.sectionHeading === b.sectionHeading;
}

interface Placed {
  id: string;
  day: string;
  section: number;
  text: string;
}

/**
 * Merges the three versions of one projection entry by entry (see the module comment).
 * `clean` is false when an entry changed differently on both sides; both versions are
 * then kept between conflict markers.
 *
 * @example
 * mergeProjectionText({ base, ours, theirs, file: 'decisions.md' }).text // both sides' new decisions, in order
 */
export function mergeProjectionText(options: MergeProjectionTextOptions): MergeResult {
  const o = { ...DEFAULT_MERGE_PROJECTION_TEXT, ...options };
  const path = o.path ?? `.cortex/${o.file}`;
  const skeleton = cachedSkeleton(o.file, o.templates);
  const byId = (text: string | null) => new Map((text === null ? [] : parseProjection(text).entries).map((e) => [e.id, e]));
  const base = byId(o.base);
  const ours = byId(o.ours);
  const theirs = byId(o.theirs);
  const sectionOf = (e: ProjectionEntry) => {
    const byHeading = skeleton.sections.findIndex((s) => s.heading === e.sectionHeading);
    if (byHeading >= 0) return byHeading;
    // A template that renamed a section: keep the entry in the section at the same place.
    return Math.min(e.section, skeleton.sections.length - 1);
  };

  const placed: Placed[] = [];
  const conflicts: (Conflict & { id?: string })[] = [];
  const marker = (c: string) => c.repeat(o.markerSize);
  for (const id of new Set([...ours.keys(), ...theirs.keys(), ...base.keys()])) {
    const b = base.get(id);
    const a = ours.get(id);
    const t = theirs.get(id);
    let chosen: ProjectionEntry | undefined;
    if (sameEntry(a, t)) chosen = a;
    else if (sameEntry(b, a)) chosen = t;
    else if (sameEntry(b, t)) chosen = a;
    else {
      const anchor = (a ?? t)!;
      const text = [`${marker('<')} ${o.labels.ours}`, ...(a ? [a.text] : []), marker('='), ...(t ? [t.text] : []), `${marker('>')} ${o.labels.theirs}`].join('\n');
      placed.push({ id, day: anchor.day, section: sectionOf(anchor), text });
      conflicts.push({
        id,
        kind: 'text',
        file: path,
        ours: a?.text,
        theirs: t?.text,
        reason: `both sides changed the entry of memory ${id}; run \`cortex project\` once the memory itself is merged`,
      });
      continue;
    }
    if (chosen) placed.push({ id, day: chosen.day, section: sectionOf(chosen), text: chosen.text });
  }
  placed.sort((x, y) => (x.day !== y.day ? (x.day < y.day ? -1 : 1) : x.id < y.id ? -1 : x.id > y.id ? 1 : 0));

  const blocks: { text: string; id?: string }[] = [{ text: skeleton.prefix }];
  const entryBlocks = (ps: Placed[]) => ps.map((p) => ({ text: p.text, id: p.id }));
  if (skeleton.sections.length === 0) blocks.push(...entryBlocks(placed));
  else {
    // Entries found before any section (a sectionless side) go to the first section.
    skeleton.sections.forEach((s, i) => {
      const mine = placed.filter((p) => Math.max(0, p.section) === i);
      blocks.push({ text: mine.length === 0 ? s.empty : s.head }, ...entryBlocks(mine));
    });
  }
  let line = 1;
  const parts: string[] = [];
  for (const b of blocks.filter((x) => x.text !== '')) {
    const c = b.id === undefined ? undefined : conflicts.find((x) => x.id === b.id);
    if (c) c.line = line;
    parts.push(b.text);
    line += b.text.split('\n').length + 1;
  }
  const text = `${parts.join('\n\n')}\n`;
  return { clean: conflicts.length === 0, text, conflicts: conflicts.map(({ id: _id, ...c }) => c) };
}
