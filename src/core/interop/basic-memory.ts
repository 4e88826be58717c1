/**
 * basic-memory notes: markdown files with frontmatter `title`, `type` (default `note`),
 * `tags`, `permalink`; observations are list items `- [category] content #tag (context)`,
 * relations list items `- relation_type [[Target Title]] (context)`, anywhere in the note
 * (the `## Observations` and `## Relations` headings are conventional, not required).
 * Source: basicmachines-co/basic-memory NOTE-FORMAT.md; docs.basicmemory.com/concepts/knowledge-format.
 */
import type { Edge } from '../edge.js';
import { isMemoryType, normalizeTags, type Memory, type MemoryType } from '../memory.js';
import { stringify } from 'yaml';
import { splitFrontmatter, tagsOf, toIsoDate } from './text.js';
import { emptySource, type ExportFile, type ParsedSource, type SourceFile } from './types.js';

const RELATION = /^\s*[-*]\s+([A-Za-z][\w-]*)\s+\[\[([^\]]+)\]\](?:\s*\(([^)]*)\))?\s*$/;
const OBSERVATION = /^\s*[-*]\s+\[([^\]]+)\]\s+(.*)$/;
const HASHTAG = /(?:^|\s)#([A-Za-z][\w-]*)/g;

/**
 * The records of a folder of basic-memory notes: one memory per note (its relations
 * become edges to the notes they name).
 *
 * @example
 * parseBasicMemory([{ path: 'search.md', text: '---\ntitle: Search Design\ntype: decision\n---\n- [decision] Use BM25 #search\n- implements [[Indexing]]\n' }]).relations[0].relation // 'implements'
 */
export function parseBasicMemory(files: readonly SourceFile[]): ParsedSource {
  const out = emptySource();
  for (const file of files) {
    if (!file.path.toLowerCase().endsWith('.md')) continue;
    const fm = splitFrontmatter(file.text);
    if (fm.error) {
      out.skipped.push({ file: file.path, line: 1, reason: fm.error });
      continue;
    }
    const stem = (file.path.split('/').pop() ?? file.path).replace(/\.md$/i, '');
    const title = typeof fm.data.title === 'string' && fm.data.title.trim() !== '' ? fm.data.title.trim() : stem;
    const key = typeof fm.data.permalink === 'string' && fm.data.permalink.trim() !== '' ? fm.data.permalink.trim() : stem;
    const kept: string[] = [];
    const tags = [...tagsOf(fm.data.tags)];
    let category: MemoryType | undefined;
    const lines = fm.body.replace(/\r\n?/g, '\n').split('\n');
    lines.forEach((line, i) => {
      const rel = RELATION.exec(line);
      if (rel) {
        out.relations.push({ from: key, to: rel[2]!.trim(), relation: rel[1]!, file: file.path, line: fm.lines + i + 1 });
        return;
      }
      const obs = OBSERVATION.exec(line);
      if (obs) {
        const c = obs[1]!.trim().toLowerCase();
        if (category === undefined && isMemoryType(c)) category = c;
        for (const m of obs[2]!.matchAll(HASHTAG)) tags.push(m[1]!);
      }
      kept.push(line);
    });
    let body = kept.join('\n').trim();
    // The title heading repeats the title; an emptied `## Relations` heading says nothing.
    body = body.replace(new RegExp(`^#\\s+${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(\\n|$)`), '').replace(/\n*## Relations\s*$/, '').trim();
    const ownType = typeof fm.data.type === 'string' ? fm.data.type.trim().toLowerCase() : '';
    const created = toIsoDate(fm.data.created);
    const updated = toIsoDate(fm.data.modified ?? fm.data.updated);
    out.records.push({
      key,
      file: file.path,
      type: isMemoryType(ownType) ? ownType : (category ?? 'context'),
      summary: title,
      body,
      tags: normalizeTags(tags),
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
      ...(fm.data.private === true ? { private: true } : {}),
    });
  }
  return out;
}

/**
 * Memories as basic-memory notes: one file per memory (named by its id, its id the
 * permalink), its outgoing edges as relations.
 *
 * @example
 * exportBasicMemory(memories, edges)[0].path // 'chose-sqlite-k3f9qa.md'
 */
export function exportBasicMemory(memories: readonly Memory[], edges: readonly Edge[]): ExportFile[] {
  const titles = new Map(memories.map((m) => [m.id, m.summary]));
  return memories.map((m) => {
    const rels = edges.filter((e) => e.source === m.id && titles.has(e.target)).map((e) => `- ${e.relation} [[${titles.get(e.target)}]]`);
    const data = { title: m.summary, type: m.type, ...(m.tags.length > 0 ? { tags: m.tags } : {}), permalink: m.id, created: m.created, modified: m.updated };
    const body = m.body.trim();
    return { path: `${m.id}.md`, text: `---\n${stringify(data, { lineWidth: 0 })}---\n\n# ${m.summary}\n${body === '' ? '' : `\n${body}\n`}${rels.length > 0 ? `\n## Relations\n\n${rels.join('\n')}\n` : ''}` };
  });
}
