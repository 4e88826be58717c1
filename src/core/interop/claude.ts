/**
 * Claude Code's auto memory: `~/.claude/projects/<project>/memory/` holds `MEMORY.md`, an
 * index loaded into every session (its first 200 lines), and topic files, each a markdown
 * file with YAML frontmatter `name`, `description` and `type` (`user`, `feedback`,
 * `project`, `reference`; some versions nest it as `metadata.type`). `<project>` is the
 * git repository root with every character other than a letter or a digit replaced by `-`.
 * Sources: code.claude.com/docs/en/memory; the claude-wrapper crate's memory module
 * (docs.rs/claude-wrapper, "observed against CLI 2.1.219"); the path encoding as fixed
 * in agentclientprotocol/claude-agent-acp#307 and omnara-ai/omnara#143.
 */
import { stringify } from 'yaml';
import { isMemoryType, type Memory, type MemoryType } from '../memory.js';
import { parseSections, sectionKey, spliceBetween, TYPE_HEADINGS } from './sections.js';
import { splitFrontmatter, tagsOf, toIsoDate } from './text.js';
import { emptySource, type ExportFile, type ParsedSource, type SourceFile } from './types.js';

export const CLAUDE_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type ClaudeType = (typeof CLAUDE_TYPES)[number];

/** Claude's memory types → Cortex types (a `user` memory describes the person: private). */
export const FROM_CLAUDE_TYPE: Readonly<Record<ClaudeType, MemoryType>> = { user: 'preference', feedback: 'preference', project: 'context', reference: 'context' };

/** Cortex types → Claude's: how a person wants the work done is feedback; the rest is about the project. */
export function toClaudeType(memory: Pick<Memory, 'type' | 'scope'>): ClaudeType {
  if (memory.type === 'preference') return memory.scope === 'local' ? 'user' : 'feedback';
  if (memory.type === 'code') return 'reference';
  return 'project';
}

/** The markers around the part of `MEMORY.md` an export owns. */
export const CLAUDE_INDEX_MARKERS = { start: '<!-- CORTEX_EXPORT_START -->', end: '<!-- CORTEX_EXPORT_END -->' } as const;
/** Claude Code loads this many lines of `MEMORY.md`; the exported index stays well under it. */
export const CLAUDE_INDEX_MAX_ITEMS = 120;
/** Topic files an export writes start with this, so a later export knows its own. */
export const CLAUDE_EXPORT_PREFIX = 'cortex-';

/**
 * The directory name Claude Code gives a project under `~/.claude/projects/`.
 *
 * @example
 * claudeProjectDirName('/home/me/my_repo') // '-home-me-my-repo'
 */
export function claudeProjectDirName(root: string): string {
  return root.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The records of an auto-memory directory: each topic file is one memory; lines of
 * `MEMORY.md` that are not links to topic files are memories too (typed by their heading).
 *
 * @example
 * parseClaudeMemory([{ path: 'feedback_testing.md', text: '---\nname: testing\ndescription: Use real databases in tests\ntype: feedback\n---\nMocks hid a migration bug.\n' }]).records[0].type // 'preference'
 */
export function parseClaudeMemory(files: readonly SourceFile[]): ParsedSource {
  const out = emptySource();
  for (const file of files) {
    const name = file.path.split('/').pop() ?? file.path;
    if (!name.toLowerCase().endsWith('.md')) continue;
    if (name === 'MEMORY.md') {
      for (const rec of parseSections(file.text, { defaultType: 'context' })) {
        if (rec.link) continue;
        out.records.push({ key: sectionKey(file.path, rec), file: file.path, line: rec.line, type: rec.hidden?.type ?? rec.type, summary: rec.summary, body: rec.body, tags: rec.hidden?.tags ?? [] });
      }
      continue;
    }
    const fm = splitFrontmatter(file.text);
    if (fm.error) {
      out.skipped.push({ file: file.path, line: 1, reason: fm.error });
      continue;
    }
    const d = fm.data;
    const metadata = d.metadata !== null && typeof d.metadata === 'object' ? (d.metadata as Record<string, unknown>) : {};
    const claudeType = (typeof d.type === 'string' ? d.type : typeof metadata.type === 'string' ? metadata.type : '').toLowerCase();
    const own = typeof d.cortex_type === 'string' && isMemoryType(d.cortex_type) ? d.cortex_type : undefined;
    const type = own ?? FROM_CLAUDE_TYPE[claudeType as ClaudeType] ?? 'context';
    const description = typeof d.description === 'string' ? d.description.trim() : '';
    const title = typeof d.name === 'string' ? d.name.trim() : name.slice(0, -3);
    const body = fm.body.replace(/^\n+|\s+$/g, '');
    const summary = description !== '' ? description : title;
    if (summary === '' && body === '') {
      out.skipped.push({ file: file.path, reason: 'is empty' });
      continue;
    }
    const created = toIsoDate(d.created);
    const updated = toIsoDate(d.modified ?? d.updated);
    out.records.push({
      key: name.slice(0, -3),
      file: file.path,
      type,
      summary: summary !== '' ? summary : (body.split('\n')[0] ?? ''),
      body,
      tags: tagsOf(d.tags),
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
      ...(d.private === true || (claudeType === 'user' && d.private !== false) ? { private: true } : {}),
    });
  }
  return out;
}

/** A memory as a Claude Code topic file. */
export function renderClaudeTopic(memory: Memory): string {
  const data: Record<string, unknown> = {
    name: memory.id,
    description: memory.summary,
    type: toClaudeType(memory),
    cortex_id: memory.id,
    cortex_type: memory.type,
    ...(memory.tags.length > 0 ? { tags: memory.tags } : {}),
    modified: memory.updated,
  };
  return `---\n${stringify(data, { lineWidth: 0 })}---\n${memory.body.trim() === '' ? '' : `${memory.body.trim()}\n`}`;
}

export interface ClaudeExport {
  files: ExportFile[];
  /** The new `MEMORY.md` (the export's part replaced, the rest as it was), or a reason it cannot be written. */
  index: { ok: true; text: string } | { ok: false; reason: string };
  /** Topic files an earlier export wrote for memories no longer exported. */
  stale: string[];
}

/**
 * The files of an export to Claude Code's auto memory: one topic file per memory (named
 * `cortex-<id>.md`), and the export's index section in `MEMORY.md` (most important first,
 * capped so the file stays within the lines Claude Code loads).
 *
 * @example
 * exportClaudeMemory(memories, { existingIndex: undefined, existingFiles: [] }).files.length // memories.length
 */
export function exportClaudeMemory(memories: readonly Memory[], options: { existingIndex: string | undefined; existingFiles: readonly string[] }): ClaudeExport {
  const files = memories.map((m) => ({ path: `${CLAUDE_EXPORT_PREFIX}${m.id}.md`, text: renderClaudeTopic(m) }));
  const wanted = new Set(files.map((f) => f.path));
  const ranked = [...memories].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.priority - a.priority || (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id < b.id ? -1 : 1));
  const shown = ranked.slice(0, CLAUDE_INDEX_MAX_ITEMS);
  const lines = [
    '## Cortex memories',
    '',
    '<!-- Exported by cortex export --format claude: the topic files hold each memory in full. -->',
    '',
    ...shown.map((m) => `- [${m.summary.replace(/[[\]]/g, '').replace(/\s+/g, ' ')}](${CLAUDE_EXPORT_PREFIX}${m.id}.md) — ${TYPE_HEADINGS[m.type].toLowerCase()}`),
    ...(ranked.length > shown.length ? ['', `<!-- ${ranked.length - shown.length} more in the ${CLAUDE_EXPORT_PREFIX}*.md files of this directory. -->`] : []),
  ];
  return {
    files,
    index: spliceBetween(options.existingIndex, `${lines.join('\n')}\n`, CLAUDE_INDEX_MARKERS),
    stale: options.existingFiles.filter((f) => f.startsWith(CLAUDE_EXPORT_PREFIX) && f.endsWith('.md') && !wanted.has(f)).sort(),
  };
}
