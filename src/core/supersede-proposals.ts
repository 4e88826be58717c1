/**
 * Which decisions look replaced by a later one, for `cortex consolidate` to propose as
 * `supersedes` edges that a person confirms (automatic processes never write `supersedes`).
 *
 * Two active decisions of the same scope belong to one line of decisions when they have:
 * - the same `topic`, or
 * - the same numbered subject: the summary's words up to its first number, with at least two
 *   words before it, the number within the first six words ("Index format 8: …", "Index
 *   format 12 reads …" → `index format #`); the numbers must differ.
 * Within a line, ordered by `created` (then `updated`, then id), each decision is proposed to
 * supersede the one before it — consecutive pairs only, so 8 → 9 → 11 gives 9 ⊃ 8 and 11 ⊃ 9.
 * A pair already linked by `contradicts`, or by `supersedes` the other way round, or
 * rejected before, is not proposed. Pure.
 */
import type { Memory } from './memory.js';

export type SupersedeCandidate = Pick<Memory, 'id' | 'type' | 'summary' | 'topic' | 'scope' | 'status' | 'created' | 'updated'>;

export interface SupersedeProposal {
  /** The later decision: the edge's source. */
  newer: string;
  /** The decision it replaces: the edge's target, marked `superseded` when confirmed. */
  older: string;
  /** Why they are one line of decisions: `same topic "…"` or `same subject "…"`. */
  reason: string;
}

export interface ProposeSupersedesOptions {
  /** Existing edges between memories (any status): a `contradicts` either way or a reversed `supersedes` blocks a pair. */
  edges?: ReadonlyArray<{ source: string; target: string; relation: string }>;
  /** Pairs a person rejected (`consolidate --reject`), either order. */
  rejected?: ReadonlyArray<readonly [string, string]>;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’._-]*/gu;
const NUMBER = /^v?\d+(?:\.\d+)*$/i;

/**
 * The numbered subject of a summary, or undefined: its words up to the first number (the
 * number written `#`), lower-cased, when at least two words come before the number and the
 * number is among the first six words.
 *
 * @example
 * numberedSubject('Index format 8: the keyword index loads in proportion') // { subject: 'index format #', number: '8' }
 * numberedSubject('Phase 2: ship it') // undefined (one word before the number)
 */
export function numberedSubject(summary: string): { subject: string; number: string } | undefined {
  const words = (summary.match(WORD) ?? []).slice(0, 6).map((w) => w.replace(/[.:,;]+$/, ''));
  const at = words.findIndex((w) => NUMBER.test(w));
  if (at < 2) return undefined;
  return { subject: [...words.slice(0, at).map((w) => w.toLowerCase()), '#'].join(' '), number: words[at]!.replace(/^v/i, '') };
}

function later(a: SupersedeCandidate, b: SupersedeCandidate): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  if (a.updated !== b.updated) return a.updated < b.updated ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/**
 * Supersede proposals among active decisions (see the module comment), oldest line first.
 *
 * @example
 * proposeSupersedes([
 *   { id: 'f8', type: 'decision', summary: 'Index format 8: columns', scope: 'project', status: 'active', created: '2026-11-01T00:00:00Z', updated: '2026-11-01T00:00:00Z' },
 *   { id: 'f9', type: 'decision', summary: 'Index format 9: typed arrays', scope: 'project', status: 'active', created: '2026-11-02T00:00:00Z', updated: '2026-11-02T00:00:00Z' },
 * ]) // [{ newer: 'f9', older: 'f8', reason: 'same subject "index format #"' }]
 */
export function proposeSupersedes(memories: readonly SupersedeCandidate[], options: ProposeSupersedesOptions = {}): SupersedeProposal[] {
  const blocked = new Set<string>();
  const forward = new Set<string>();
  for (const e of options.edges ?? []) {
    if (e.relation === 'contradicts') blocked.add(pairKey(e.source, e.target));
    if (e.relation === 'supersedes') forward.add(`${e.source}\u0000${e.target}`);
  }
  for (const [a, b] of options.rejected ?? []) blocked.add(pairKey(a, b));
  const decisions = memories.filter((m) => m.type === 'decision' && m.status === 'active');
  const lines = new Map<string, { reason: string; members: SupersedeCandidate[] }>();
  const add = (key: string, reason: string, m: SupersedeCandidate): void => {
    const line = lines.get(key) ?? { reason, members: [] };
    line.members.push(m);
    lines.set(key, line);
  };
  for (const m of decisions) {
    const topic = m.topic?.trim();
    if (topic) add(`${m.scope}\u0000t\u0000${topic}`, `same topic "${topic}"`, m);
    const subject = numberedSubject(m.summary);
    if (subject) add(`${m.scope}\u0000s\u0000${subject.subject}`, `same subject "${subject.subject}"`, m);
  }
  const out: SupersedeProposal[] = [];
  const seen = new Set<string>();
  const ordered = [...lines.values()].map((l) => ({ ...l, members: [...l.members].sort(later) })).sort((x, y) => later(x.members[0]!, y.members[0]!) || (x.reason < y.reason ? -1 : 1));
  for (const line of ordered) {
    for (let i = 1; i < line.members.length; i++) {
      const older = line.members[i - 1]!;
      const newer = line.members[i]!;
      if (line.reason.startsWith('same subject') && numberedSubject(older.summary)?.number === numberedSubject(newer.summary)?.number) continue;
      const key = pairKey(newer.id, older.id);
      if (seen.has(key) || blocked.has(key) || forward.has(`${older.id}\u0000${newer.id}`)) continue;
      seen.add(key);
      out.push({ newer: newer.id, older: older.id, reason: line.reason });
    }
  }
  return out;
}
