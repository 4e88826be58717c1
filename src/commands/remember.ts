import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMatter, loadYaml } from '../core/lazy.js';
import { UsageError } from '../errors.js';
import { MEMORY_TYPES, type MemoryType, type Scope } from '../core/memory.js';
import type { RememberInput } from '../api/remember.js';
import { bool, int, list, num, str, type CommandDef, type IO } from '../term/args.js';
import { readTemplate } from '../templates.js';
import { openEditor } from './editor.js';
import { undoLines } from '../services/undo.js';
import { fileArgument, openContextOf, printJson } from './shared.js';

/** Reads the `--edit` template back: frontmatter fields and the body without HTML comments. */
export function parseTemplate(text: string, file: string): RememberInput | undefined {
  let parsed: { data: Record<string, unknown>; content: string };
  try {
    parsed = loadMatter()(text, { engines: { yaml: (s: string) => (loadYaml().parse(s) ?? {}) as object } } as never) as never;
  } catch (err) {
    throw new UsageError(`Cannot read the memory you wrote: invalid YAML (${(err as Error).message.split('\n')[0]}).`, {
      hint: `Your text is kept in ${file}; fix it and run \`cortex remember --file ${file}\`.`,
    });
  }
  const d = parsed.data;
  const body = parsed.content.replace(/<!--[\s\S]*?-->/g, '').trim();
  const summary = typeof d.summary === 'string' ? d.summary.trim() : d.summary == null ? '' : String(d.summary);
  if (summary === '' && body === '') return undefined;
  return {
    ...(summary !== '' ? { summary } : {}),
    ...(summary !== '' ? { body } : { text: body }),
    ...(typeof d.type === 'string' ? { type: d.type as MemoryType } : {}),
    ...(Array.isArray(d.tags) ? { tags: d.tags.map(String) } : typeof d.tags === 'string' ? { tags: d.tags.split(',') } : {}),
    ...(typeof d.priority === 'number' ? { priority: d.priority } : {}),
    ...(typeof d.topic === 'string' && d.topic.trim() !== '' ? { topic: d.topic } : {}),
    ...(typeof d.pinned === 'boolean' ? { pinned: d.pinned } : {}),
    ...(Array.isArray(d.files) && d.files.length > 0 ? { source: { files: d.files.map(String) } } : {}),
  };
}

async function fromEditor(io: IO): Promise<{ input: RememberInput | undefined; file: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-remember-'));
  const file = join(dir, 'memory.md');
  writeFileSync(file, readTemplate('memory.md'));
  openEditor(file, io);
  return { input: parseTemplate(readFileSync(file, 'utf8'), file), file, dir };
}

const command: CommandDef = {
  name: 'remember',
  summary: 'Store a memory (text, stdin or $EDITOR)',
  usage: ['remember <text> [--type <type>] [--tags a,b] [--priority 1-10] [--topic <topic>] [--files path[#symbol],…]', 'remember --edit', 'remember [options] < file   (or: echo "text" | cortex remember [options])'],
  description:
    'The first line of the text is the summary (what the briefing shows); further lines are the body.\n' +
    'Secrets (API keys, tokens, private keys, passwords in URLs) are redacted before anything is written.\n' +
    'The same --topic in the same scope updates that memory instead of adding another (and prints how\n' +
    'to get the replaced version back: `git restore` when it was committed, else a copy kept under\n' +
    '.memory/trash/), and identical content is never stored twice. New memories record the current git branch and commit.\n' +
    'In a git repository the new file is staged (git add), so `git commit -a` commits it, and the\n' +
    'pre-commit hook adds the regenerated projections to the same commit. A text too large for a\n' +
    'memory file (1 MB) is refused before anything is written.',
  options: {
    type: { type: 'string', short: 't', value: '<type>', description: `Memory type: ${MEMORY_TYPES.join(', ')} (default context).` },
    tags: { type: 'string', value: '<a,b>', multiple: true, description: 'Tags, comma-separated.' },
    priority: { type: 'string', short: 'p', value: '<1-10>', description: 'Priority from 1 to 10 (default 5).' },
    confidence: { type: 'string', value: '<0-1>', description: 'Confidence from 0 to 1 (default 1).' },
    topic: { type: 'string', value: '<topic>', description: 'Topic key, e.g. decision/storage-engine: same topic updates instead of duplicating.' },
    pin: { type: 'boolean', description: 'Pin the memory: it never decays and is always in the briefing.' },
    scope: { type: 'string', value: '<scope>', description: 'project (default), local (private: kept in .git/cortex/local/, never committed or exported) or global ($CORTEX_HOME, shared by all projects).' },
    private: { type: 'boolean', description: 'Keep it to yourself: the same as --scope local.' },
    summary: { type: 'string', value: '<text>', description: 'Summary line, when the text argument is the body.' },
    edit: { type: 'boolean', short: 'e', description: 'Write the memory in $EDITOR from a template.' },
    file: { type: 'string', value: '<path>', description: 'Read the memory from a file written from the --edit template.' },
    files: {
      type: 'string',
      value: '<a,b>',
      multiple: true,
      description:
        'Files (or code) the memory is about, comma-separated: path, path#symbol (Pool.acquire) or path#L10-L20, relative to the current directory or absolute inside the repository (stored relative to its root). It is shown when the assistant opens them and flagged when they change. Paths outside the repository are refused.',
    },
    'no-link': { type: 'boolean', description: 'Do not link the memory to similar ones, by rarity-weighted word overlap (at most autolink.maxEdges edges).' },
  },
  examples: [
    'cortex remember "Chose SQLite over Postgres because zero-config matters" --type decision --tags storage',
    'cortex remember --type gotcha "CI runners have no GPU: skip the CUDA tests there"',
    'git log -1 --format=%B | cortex remember --type context',
    'cortex remember --type gotcha "acquire must stay allocation-free: it runs per query" --files src/db/pool.ts#Pool.acquire',
  ],
  async run(inv, io) {
    // Only the use case it runs (the whole API's modules took 8-15 ms to load).
    const ctx = openContextOf(inv, io);
    let input: RememberInput;
    let cleanup: (() => void) | undefined;
    if (bool(inv, 'edit') || str(inv, 'file')) {
      let got: RememberInput | undefined;
      const file = str(inv, 'file');
      if (file) got = parseTemplate(readFileSync(file, 'utf8'), file);
      else {
        const e = await fromEditor(io);
        got = e.input;
        cleanup = () => rmSync(e.dir, { recursive: true, force: true });
      }
      if (!got) {
        cleanup?.();
        io.err('Nothing written: the summary and the text were empty.\n');
        return 1;
      }
      input = got;
    } else {
      let text = inv.positionals.join(' ');
      if (text.trim() === '' && !io.stdinIsTTY) text = await io.readStdin();
      if (text.trim() === '' && str(inv, 'summary') === undefined) {
        throw new UsageError('Nothing to remember.', { hint: 'Pass the text as an argument, pipe it on stdin, or use --edit.' });
      }
      input = str(inv, 'summary') !== undefined ? { summary: str(inv, 'summary')!, body: text } : { text };
    }
    const type = str(inv, 'type');
    const opts: RememberInput = {
      ...input,
      ...(type !== undefined ? { type: type as MemoryType } : {}),
      ...(list(inv, 'tags') ? { tags: [...(input.tags ?? []), ...list(inv, 'tags')!] } : {}),
      ...(int(inv, 'priority', [1, 10]) !== undefined ? { priority: int(inv, 'priority', [1, 10])! } : {}),
      ...(num(inv, 'confidence', [0, 1]) !== undefined ? { confidence: num(inv, 'confidence', [0, 1])! } : {}),
      ...(str(inv, 'topic') !== undefined ? { topic: str(inv, 'topic')! } : {}),
      ...(bool(inv, 'pin') ? { pinned: true } : {}),
      ...(str(inv, 'scope') !== undefined ? { scope: str(inv, 'scope') as Scope } : {}),
      ...(bool(inv, 'no-link') ? { autoLink: false } : {}),
      ...(list(inv, 'files') ? { source: { ...input.source, files: list(inv, 'files')!.map((f) => fileArgument(inv, io, ctx.root, f)) } } : {}),
      ...(bool(inv, 'private') ? { private: true } : {}),
      keepUndo: true,
    };
    const { rememberAndMark } = await import('../api/remember.js');
    const result = await rememberAndMark(ctx, opts);
    cleanup?.();
    if (inv.json) {
      printJson(io, { action: result.action, id: result.memory.id, file: result.file, redacted: result.redacted, links: result.links ?? null, memory: result.memory, undo: result.undo ?? null });
      return 0;
    }
    const p = io.paint;
    const verb = { created: 'Remembered', updated: 'Updated', unchanged: 'Unchanged', duplicate: 'Already remembered' }[result.action];
    io.out(`${verb}: ${p.cyan(result.memory.id)}  ${p.dim(`[${result.memory.type}]`)}  ${result.memory.summary}\n`);
    io.err(`${p.dim(result.file)}\n`);
    if (result.redacted.length > 0) io.err(`${p.yellow('note')}: redacted ${result.redacted.join(', ')} before writing\n`);
    for (const l of undoLines(result.undo)) io.err(`${p.dim(l)}\n`);
    const links = result.links;
    if (links?.error) io.err(`${p.yellow('warning')}: auto-linking failed: ${links.error}\n`);
    if (links && (links.edges.length > 0 || links.consolidate.length > 0)) {
      const active = links.edges.filter((e) => e.status === 'active').length;
      const parts = [
        active > 0 ? `linked to ${active}` : '',
        links.edges.length > active ? `${links.edges.length - active} suggested` : '',
        links.consolidate.length > 0 ? `${links.consolidate.length} possible duplicate(s): see \`cortex consolidate\`` : '',
      ].filter(Boolean);
      io.err(`${p.dim(parts.join('; '))}\n`);
    }
    return 0;
  },
};
export default command;
