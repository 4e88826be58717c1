/**
 * From memory file texts to projections: the one path every caller takes (`cortex project`,
 * the merge driver, the pre-commit check), so they all produce the same bytes.
 *
 * Memories of a type no projection lists are skipped before parsing, by reading the
 * `type:` line of the frontmatter: on 10,000 memories most files are never parsed.
 */
import { MEMORY_TYPES, type Diagnostic, type Memory, type MemoryType } from './memory.js';
import { parseMemory } from './memory-format.js';
import { projectedTypes, type RenderProjectionsOptions } from './projection.js';

export interface MemoryText {
  /** The id the file name gives (`<id>.md` without `.md`). */
  id: string;
  text: string;
  /** Path shown in diagnostics. */
  file?: string;
}

export interface ParseProjectedMemoriesOptions {
  memories: Iterable<MemoryText>;
  /** Header templates: they say which types the projections list. */
  templates?: RenderProjectionsOptions['templates'];
}

export interface ParseProjectedMemoriesResult {
  /** The memories of projected types that parsed. */
  memories: Memory[];
  /** Problems of the files that were parsed. */
  diagnostics: Diagnostic[];
}

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

/**
 * Parses the memories a projection can list, skipping files of other types unparsed.
 * Render them with `renderProjections` or `renderProjection`.
 *
 * @example
 * renderProjections(parseProjectedMemories({ memories: [{ id: 'a-abcdef', text }] }).memories)
 */
export function parseProjectedMemories(options: ParseProjectedMemoriesOptions): ParseProjectedMemoriesResult {
  const wanted = projectedTypes(options);
  const memories: Memory[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const m of options.memories) {
    const quick = quickMemoryType(m.text);
    if (quick !== undefined && !wanted.has(quick)) continue;
    const parsed = parseMemory(m.text, { file: m.file ?? `.cortex/memories/${m.id}.md`, expectedId: m.id });
    diagnostics.push(...parsed.diagnostics);
    if (parsed.memory && wanted.has(parsed.memory.type)) memories.push(parsed.memory);
  }
  return { memories, diagnostics };
}
