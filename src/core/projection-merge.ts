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
import type { Conflict, MergeLabels, MergeResult } from './merge.js';
import { projectionSkeleton, type ProjectionFile, type RenderProjectionsOptions } from './projection.js';

export interface MergeProjectionTextOptions {
  /** Null when the file is new on both sides. */
  base: string | null;
  ours: string;
  theirs: string;
  /** Which projection the texts are: it picks the skeleton (title, sections, empty texts). */
  file: ProjectionFile;
  /** Header templates, as for `renderProjections`. */
  templates: RenderProjectionsOptions['templates'];
  /** Path shown in conflicts. */
  path?: string;
  labels?: MergeLabels;
  markerSize?: number;
}

export const DEFAULT_MERGE_PROJECTION_TEXT = {
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

const ID_COMMENT = /^<!-- memory: (\S+) -->$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits a projection into its entries (a `###` heading followed by the id comment),
 * with the section each is in. Text that is not an entry is left out: it comes from the
 * template. Duplicated ids (left by a text merge) keep their first entry. A line scan
 * that skips fenced code: entry bodies have their headings moved below `###`, so outside
 * code a `##` or `###` line can only be the projection's own.
 *
 * @example
 * parseProjection(renderProjections([memory], { templates })['decisions.md']).entries[0].id // memory.id
 */
export function parseProjection(text: string): ParsedProjection {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const sections: string[] = [];
  const entries: ProjectionEntry[] = [];
  const seen = new Set<string>();
  let open: { id: string; day: string; start: number; section: number } | undefined;
  const close = (end: number) => {
    if (open && !seen.has(open.id)) {
      seen.add(open.id);
      entries.push({
        id: open.id,
        day: open.day,
        section: open.section,
        sectionHeading: sections[open.section] ?? '',
        text: lines.slice(open.start, end).join('\n').replace(/\s+$/, ''),
      });
    }
    open = undefined;
  };
  const nextNonBlank = (from: number) => {
    let i = from;
    while (i < lines.length && lines[i]!.trim() === '') i++;
    return i;
  };
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (f && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) fence = undefined;
      continue;
    }
    if (f) {
      fence = f;
      continue;
    }
    if (/^#{1,2} /.test(line)) {
      close(i);
      if (line.startsWith('## ')) sections.push(line.trim());
      continue;
    }
    if (!line.startsWith('### ')) continue;
    const at = nextNonBlank(i + 1);
    const id = ID_COMMENT.exec((lines[at] ?? '').trim())?.[1];
    if (!id) continue;
    close(i);
    const meta = lines[nextNonBlank(at + 1)] ?? '';
    const day = /^\*([^*]*?)(?: · |\*$)/.exec(meta)?.[1] ?? '';
    open = { id, day, start: i, section: sections.length - 1 };
  }
  close(lines.length);
  return { sections, entries };
}

function sameEntry(a: ProjectionEntry | undefined, b: ProjectionEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.text === b.text && a.sectionHeading === b.sectionHeading;
}

interface Placed {
  id: string;
  day: string;
  /** Index in the skeleton's sections (-1: after all of them, for a template without typed sections). */
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
  const skeleton = projectionSkeleton(o.file, { templates: o.templates });
  const byId = (text: string | null) => new Map((text === null ? [] : parseProjection(text).entries).map((e) => [e.id, e]));
  const base = byId(o.base);
  const ours = byId(o.ours);
  const theirs = byId(o.theirs);
  const sectionOf = (e: ProjectionEntry) => {
    if (!skeleton.typed) return -1;
    const byHeading = skeleton.sections.findIndex((s) => s.heading === e.sectionHeading);
    if (byHeading >= 0) return byHeading;
    // A template that renamed a section: keep the entry in the section at the same place.
    return Math.max(0, Math.min(e.section, skeleton.sections.length - 1));
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
  if (!skeleton.typed) {
    blocks.push(...skeleton.sections.map((s) => ({ text: s.head })), ...entryBlocks(placed));
  } else {
    skeleton.sections.forEach((s, i) => {
      const mine = placed.filter((p) => p.section === i);
      blocks.push({ text: s.head });
      if (s.types.length > 0 && mine.length === 0) blocks.push({ text: s.empty });
      blocks.push(...entryBlocks(mine));
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
