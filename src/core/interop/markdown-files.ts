/**
 * Instruction files and Cline's memory bank: `CLAUDE.md`, `AGENTS.md` and the
 * `memory-bank/` folder are markdown organised by headings (see sections.ts).
 * Sources: code.claude.com/docs/en/memory (CLAUDE.md); agents.md (AGENTS.md, "just
 * standard Markdown"); docs.cline.bot/features/memory-bank (the six core files, what each
 * holds, and that other files may be added).
 */
import type { Memory, MemoryType } from '../memory.js';
import { parseSections, renderSections, sectionKey, spliceBetween } from './sections.js';
import { splitFrontmatter, tagsOf } from './text.js';
import { emptySource, type ExportFile, type ParsedSource, type SourceFile } from './types.js';

/** Cline's core memory-bank files and the type their records take when no heading says otherwise. */
export const MEMORY_BANK_FILES: ReadonlyArray<readonly [string, MemoryType, string]> = [
  ['projectbrief.md', 'context', 'Project Brief'],
  ['productContext.md', 'context', 'Product Context'],
  ['activeContext.md', 'plan', 'Active Context'],
  ['systemPatterns.md', 'architecture', 'System Patterns'],
  ['techContext.md', 'context', 'Tech Context'],
  ['progress.md', 'progress', 'Progress'],
];

/** Which memory-bank file an exported memory goes to. */
export function memoryBankFileOf(memory: Pick<Memory, 'type' | 'tags'>): string {
  if (memory.tags.includes('projectbrief')) return 'projectbrief.md';
  if (memory.tags.includes('techcontext')) return 'techContext.md';
  switch (memory.type) {
    case 'architecture':
    case 'pattern':
    case 'code_description':
    case 'code':
      return 'systemPatterns.md';
    case 'decision':
    case 'rejected':
    case 'plan':
    case 'preference':
      return 'activeContext.md';
    case 'progress':
    case 'gotcha':
      return 'progress.md';
    default:
      return 'productContext.md';
  }
}

/**
 * The records of one markdown file organised by headings. A record's type is the one an
 * export's hidden comment names, else its nearest typed heading, else `defaultType`.
 *
 * @example
 * parseMarkdownFile({ path: 'CLAUDE.md', text: '## Gotchas\n- CI has no GPU\n' }, 'context').records[0].type // 'gotcha'
 */
export function parseMarkdownFile(file: SourceFile, defaultType: MemoryType): ParsedSource {
  const out = emptySource();
  const fm = splitFrontmatter(file.text);
  const fileTags = tagsOf(fm.data.tags);
  for (const rec of parseSections(fm.body, { defaultType, firstLine: fm.lines + 1 })) {
    if (rec.summary.trim() === '') continue;
    // A file's title (`# Project Brief`) is not knowledge; the lines under it are.
    out.records.push({
      key: sectionKey(file.path, rec),
      file: file.path,
      line: rec.line,
      type: rec.hidden?.type ?? rec.type,
      summary: rec.summary,
      body: rec.body,
      tags: rec.hidden?.tags ?? fileTags,
    });
  }
  return out;
}

/**
 * The records of a memory-bank folder: the core files typed as Cline describes them,
 * any other markdown file as context.
 *
 * @example
 * parseMemoryBank([{ path: 'progress.md', text: '## Known Issues\n- Sync drops the last row\n' }]).records[0].type // 'gotcha'
 */
export function parseMemoryBank(files: readonly SourceFile[]): ParsedSource {
  const out = emptySource();
  for (const file of files) {
    if (!file.path.toLowerCase().endsWith('.md')) continue;
    const name = file.path.split('/').pop() ?? file.path;
    const core = MEMORY_BANK_FILES.find(([n]) => n.toLowerCase() === name.toLowerCase());
    const parsed = parseMarkdownFile(file, core?.[1] ?? 'context');
    out.records.push(...parsed.records);
    out.skipped.push(...parsed.skipped);
  }
  return out;
}

/** The markers around the part of `AGENTS.md` / `CLAUDE.md` an export owns. */
export const INSTRUCTIONS_MARKERS = { start: '<!-- CORTEX_EXPORT_START -->', end: '<!-- CORTEX_EXPORT_END -->' } as const;

/** Export order: what an agent most needs to know first. */
export const EXPORT_TYPE_ORDER: readonly MemoryType[] = ['architecture', 'decision', 'rejected', 'pattern', 'gotcha', 'preference', 'plan', 'progress', 'context', 'code_description', 'code'];

/**
 * The new text of an instruction file (`AGENTS.md`, `CLAUDE.md`) with the memories in its
 * export section, the rest of the file kept byte for byte.
 *
 * @example
 * exportInstructions(memories, '# Agents\n').ok // true
 */
export function exportInstructions(memories: readonly Memory[], existing: string | undefined): { ok: true; text: string } | { ok: false; reason: string } {
  const body = `## Project memory (Cortex)\n\n<!-- Exported by cortex export: regenerate it rather than editing between these markers. -->\n\n${renderSections(memories, { level: 3, order: EXPORT_TYPE_ORDER })}`;
  return spliceBetween(existing, body, INSTRUCTIONS_MARKERS);
}

/**
 * The six core files of a memory bank (and only those), each with its memories grouped by type.
 *
 * @example
 * exportMemoryBank(memories).map((f) => f.path) // ['projectbrief.md', 'productContext.md', …]
 */
export function exportMemoryBank(memories: readonly Memory[]): ExportFile[] {
  return MEMORY_BANK_FILES.map(([name, , title]) => {
    const mine = memories.filter((m) => memoryBankFileOf(m) === name);
    const sections = renderSections(mine, { order: EXPORT_TYPE_ORDER });
    return { path: name, text: `# ${title}\n\n<!-- Exported by cortex export --format memory-bank. -->\n${sections === '' ? '' : `\n${sections}`}` };
  });
}
