/**
 * Placing the briefing in a target file (`cortex surface --write`): the text between
 * `<!-- CORTEX_MEMORY_START -->` and `<!-- CORTEX_MEMORY_END -->` is replaced and the
 * rest of the file is kept byte for byte, so a briefing can live inside a hand-written
 * `AGENTS.md`. Pure: strings in, a string (or a problem) out.
 */
import { SURFACE_END, SURFACE_START } from './surface.js';

export type SpliceResult = { ok: true; text: string } | { ok: false; reason: string };

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * The new content of a target file.
 * - No file yet: the briefing alone.
 * - A file with one START … END pair: that span replaced, everything around it kept.
 * - A file without markers: the briefing appended after a blank line.
 * - Anything else (one marker without the other, END before START, several pairs) is
 *   refused with a reason: guessing could delete what a person wrote.
 * The briefing's line ends follow the file's (CRLF files stay CRLF).
 *
 * @example
 * spliceSurface('# Agents\n\n<!-- CORTEX_MEMORY_START -->\nold\n<!-- CORTEX_MEMORY_END -->\n\nMore.\n', '<!-- CORTEX_MEMORY_START -->\nnew\n<!-- CORTEX_MEMORY_END -->\n')
 * // { ok: true, text: '# Agents\n\n<!-- CORTEX_MEMORY_START -->\nnew\n<!-- CORTEX_MEMORY_END -->\n\nMore.\n' }
 */
export function spliceSurface(existing: string | undefined, briefing: string): SpliceResult {
  // An empty briefing (nothing fits the budget) still leaves the markers, so the next
  // write finds its place.
  const section = (briefing === '' ? `${SURFACE_START}\n${SURFACE_END}\n` : briefing).replace(/\r\n?/g, '\n');
  if (existing === undefined || existing === '') return { ok: true, text: section };
  const crlf = existing.includes('\r\n');
  const eol = (text: string): string => (crlf ? text.replace(/\n/g, '\r\n') : text);
  const starts = count(existing, SURFACE_START);
  const ends = count(existing, SURFACE_END);
  if (starts === 0 && ends === 0) {
    const sep = existing.endsWith('\n\n') || existing.endsWith('\r\n\r\n') ? '' : existing.endsWith('\n') ? eol('\n') : eol('\n\n');
    return { ok: true, text: `${existing}${sep}${eol(section)}` };
  }
  if (starts !== 1 || ends !== 1) {
    return {
      ok: false,
      reason: `has ${starts} ${SURFACE_START} and ${ends} ${SURFACE_END} markers; exactly one pair is needed`,
    };
  }
  const start = existing.indexOf(SURFACE_START);
  const endMarker = existing.indexOf(SURFACE_END);
  if (endMarker < start) return { ok: false, reason: `has ${SURFACE_END} before ${SURFACE_START}` };
  let end = endMarker + SURFACE_END.length;
  // The briefing ends with a newline; swallow the one after the old END so lines don't double.
  if (existing.startsWith('\r\n', end)) end += 2;
  else if (existing.startsWith('\n', end)) end += 1;
  return { ok: true, text: `${existing.slice(0, start)}${eol(section)}${existing.slice(end)}` };
}

/**
 * What a new target file starts with besides the briefing: Cursor reads `.mdc` rules only
 * with frontmatter, and applies one to every request only with `alwaysApply: true`.
 *
 * @example
 * newTargetPreamble('.cursor/rules/cortex.mdc') // '---\ndescription: …\nalwaysApply: true\n---\n\n'
 * newTargetPreamble('AGENTS.md') // ''
 */
export function newTargetPreamble(file: string): string {
  if (!file.toLowerCase().endsWith('.mdc')) return '';
  return '---\ndescription: Project memory from Cortex (.cortex/): decisions, rejected approaches, gotchas, conventions\nalwaysApply: true\n---\n\n';
}

/**
 * The rules files other assistants read, where `cortex surface --target <file>` can put the
 * briefing: Codex CLI, Cursor, Copilot and others read AGENTS.md; Gemini CLI GEMINI.md;
 * GitHub Copilot in VS Code .github/copilot-instructions.md; Cursor .cursor/rules/*.mdc;
 * Windsurf .windsurf/rules/*.md. The git hooks keep the ones holding a briefing fresh.
 */
export const AGENT_RULES_FILES = ['AGENTS.md', 'GEMINI.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.cursor/rules/cortex.mdc', '.windsurf/rules/cortex.md'] as const;

/** Extensions a surface target may have: the briefing is markdown, and so is its file. */
export const SURFACE_TARGET_EXTENSIONS = ['.md', '.mdc', '.markdown'] as const;

/**
 * Why a surface target (a path relative to the repository root, `/`-separated) must not be
 * written, or `undefined` when it may. Targets are markdown files outside git's own
 * directory and outside `.cortex/`: writing the briefing into `.git/config`, a git hook, a
 * memory file or a projection would break git, silence the secret check or corrupt memory.
 * Pure: the file system checks (no symbolic link on the way, a regular file) are the shell's.
 *
 * @example
 * checkSurfaceTarget('AGENTS.md') // undefined
 * checkSurfaceTarget('.git/hooks/pre-commit') // 'is inside .git/, which belongs to git'
 */
export function checkSurfaceTarget(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return 'is not a plain path inside the repository';
  if (parts.some((p) => p.toLowerCase() === '.git')) return 'is inside .git/, which belongs to git';
  if (parts[0]?.toLowerCase() === '.cortex') return 'is inside .cortex/, which holds the memories and their projections';
  const name = parts[parts.length - 1]!.toLowerCase();
  if (!SURFACE_TARGET_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length)) {
    return `is not a markdown file (${SURFACE_TARGET_EXTENSIONS.join(', ')})`;
  }
  return undefined;
}
