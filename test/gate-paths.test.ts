/**
 * The redaction gate's coverage, enumerated from the code rather than from a hand list of
 * paths: every module of src/ that writes a file or prints an injection, a tool result or
 * an HTTP answer is found by scanning for the write primitives, and each must either run
 * the gate itself (or call a writer that does), or be listed below with what it writes and
 * why that needs no gate. A new write site fails this test until it is one or the other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

const WRITE = /\b(?:writeFileSync|writeFileAtomic|writeIfChanged|appendFileSync|contextOutput|rawContextOutput|textResult|sendJson|writeSync)\(/;
/** The gate's entry points, and writers that run it on everything they write. */
const GATED = /\b(?:redactSecrets|redactDeep|redactParts|redactMemory|redactEdge|redactTags|findSecrets|writeMemory|writeEdge|contextOutput|textResult|errorResult)\b/;

/** Modules that write without the gate, and why: none of them writes text a person or a transcript supplied. */
const UNGATED: Record<string, string> = {
  'src/api/merge-driver.ts': 'git merge driver: writes the merge of two memory files git already holds (both sides passed pre-commit)',
  'src/cache/anticipation-cache.ts': 'index of memory ids and terms for the prompt hook; its injections pass contextOutput',
  'src/cache/code-index.ts': 'code symbols of the repository (its own files)',
  'src/cache/edge-cache.ts': 'parsed edges, from files the store wrote through the gate',
  'src/cache/file-anchors-build.ts': 'file anchors: paths and hashes of the repository',
  'src/cache/graph-cache.ts': 'graph of memory ids',
  'src/cache/index/keyword-index.ts': 'search postings of memory files',
  'src/cache/index/packed-build.ts': 'search postings of memory files',
  'src/cache/projection-cache.ts': 'stamps of the projections',
  'src/cache/reflection.ts': 'session ids and counts for the reflect nudge',
  'src/cache/session-state.ts': 'ids of memories shown in a session',
  'src/cache/signals.ts': 'usage counters by memory id',
  'src/cache/staleness.ts': 'hashes of anchored files',
  'src/cache/surface-cache.ts': 'the briefing, rendered and redacted by api/surface.ts before it is cached',
  'src/cli.ts': 'the V8 code cache of the bundle',
  'src/hooks/session-end.ts': 'a session marker: ids and times',
  'src/setup/claude-setup.ts': "the assistant's settings (hook commands), written on the person's request",
  'src/setup/git-setup.ts': 'git hook shims and .gitattributes',
  'src/setup/init.ts': 'the .cortex/ skeleton and config',
  'src/setup/mcp-setup.ts': "the assistant's MCP server entry",
  'src/setup/step.ts': 'setup steps (files named above)',
  'src/store/atomic.ts': 'the write primitive itself: callers are checked',
  'src/store/local-tier.ts': 'the private tier .gitignore',
  'src/cache/pending-links.ts': 'memory ids waiting to be linked',
  'src/commands/remember.ts': 'the empty memory template for --edit, in a temporary directory (what comes back goes through remember)',
  'src/setup/capture-config.ts': "capture settings the person asked for (config keys and values)",
  'src/store/lock.ts': 'a lock file: pid and time',
  'src/term/fd.ts': 'the stdout/stderr writer: what commands print is built by them (errors pass the gate in main.ts)',
  'src/hooks/log.ts': 'the log: every message is redacted in appendLog',
  'src/hooks/output-raw.ts': 'the injection format; output.ts gates every injection but the cached briefing',
  'src/services/context.ts': "the private tier's one-time move: the person's files moved byte for byte, and a log line of paths and the undo command",
  'src/services/stage.ts': 'a marker that the previous release\'s intent-to-add entries were staged (fixed text)',
  'src/hooks/session-start-cached.ts': 'the cached briefing, rendered and redacted by api/surface.ts before it was cached',
};

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('the redaction gate on every write and inject path', () => {
  const writers = sources(join(REPO_ROOT, 'src'))
    .map((path) => ({ file: relative(REPO_ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
    .filter((f) => WRITE.test(f.text));

  it('finds the write sites by scanning the code', () => {
    expect(writers.length).toBeGreaterThan(30);
  });

  it.each(writers.map((w) => [w.file, w.text] as const))('%s runs the gate, or writes nothing a person supplied', (file, text) => {
    if (GATED.test(text)) return;
    expect(UNGATED[file], `${file} writes without the redaction gate: call it, or say here why it needs none`).toBeDefined();
  });

  it('lists no module that no longer writes, or that now runs the gate', () => {
    const stale = Object.keys(UNGATED).filter((file) => {
      const w = writers.find((x) => x.file === file);
      return w === undefined || (GATED.test(w.text) && file !== 'src/hooks/log.ts');
    });
    expect(stale).toEqual([]);
  });
});
