/**
 * From a memory file's text to its projection entry: the one path every caller takes
 * (`cortex project`, the merge driver, the pre-commit check), so all produce the same bytes.
 *
 * Memories of a type no projection lists are recognised before parsing, from the `type:`
 * line of the frontmatter: on 10,000 memories most files are never parsed.
 */
import { MEMORY_TYPES, type Diagnostic, type MemoryType } from './memory.js';
import { parseMemory } from './memory-format.js';
import { renderEntry, type RenderedEntry } from './projection.js';

const TOP_LEVEL_TYPE = /^type:[ \t]*(['"]?)([a-z_]+)\1[ \t]*(?:#.*)?$/m;

/**
 * The `type` a memory file declares, read without a YAML parser; undefined when it is not
 * plainly written (then the caller parses the file to be sure).
 *
 * @example
 * quickMemoryType('---\nid: a-abcdef\ntype: gotcha\n---\n') // 'gotcha'
 */
export function quickMemoryType(text: string): MemoryType | undefined {
  if (!text.startsWith('---')) return undefined;
  const end = text.indexOf('\n---', 3);
  const frontmatter = end < 0 ? text : text.slice(0, end);
  const type = TOP_LEVEL_TYPE.exec(frontmatter)?.[2];
  return (MEMORY_TYPES as readonly string[]).includes(type ?? '') ? (type as MemoryType) : undefined;
}

export interface ProjectMemoryTextOptions {
  /** The id the file name gives (`<id>.md`). */
  id: string;
  text: string;
  /** Types the projections list (`projectedTypes`). */
  types: ReadonlySet<MemoryType>;
  /** Path shown in diagnostics. */
  file?: string;
}

/**
 * The projection entry of one memory file: an entry, `null` when no projection lists its
 * type, `undefined` when the file cannot be used (see `diagnostics`).
 *
 * @example
 * projectMemoryText({ id: 'a-abcdef', text, types: projectedTypes() }).entry?.text
 */
export function projectMemoryText(options: ProjectMemoryTextOptions): { entry: RenderedEntry | null | undefined; diagnostics: Diagnostic[] } {
  const quick = quickMemoryType(options.text);
  if (quick !== undefined && !options.types.has(quick)) return { entry: null, diagnostics: [] };
  const { memory, diagnostics } = parseMemory(options.text, { file: options.file ?? `.cortex/memories/${options.id}.md`, expectedId: options.id });
  if (!memory) return { entry: undefined, diagnostics };
  return { entry: options.types.has(memory.type) ? renderEntry(memory) : null, diagnostics };
}
