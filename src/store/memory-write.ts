/**
 * Writing memory files: the redaction gate's place in the store. Apart from the reading
 * side (memory-store.ts) so that commands that only read — recall, list, show, the hooks'
 * briefing — never load the rule sets.
 */
import { homedir } from 'node:os';
import type { Memory } from '../core/memory.js';
import { renderMemory } from '../core/memory-format.js';
import { redactMemory } from '../core/redact-memory.js';
import { findSecrets } from '../core/redact.js';
import { writeIfChanged } from './atomic.js';
import { readMemoryText } from './memory-store.js';
import { type TierPaths } from './paths.js';
import { memoryPath } from './memory-path.js';
import { assertTierWritable, ensureLocalIgnored } from './local-tier.js';

/**
 * Writes a memory file atomically; a no-op when the rendered bytes are unchanged. Every
 * field passes the redaction gate first, whoever the caller: `memory` in the result is what
 * was written.
 */
export function writeMemory(paths: TierPaths, memory: Memory): { path: string; result: 'created' | 'updated' | 'unchanged'; memory: Memory } {
  const path = memoryPath(paths, memory.id);
  // The project's memories are written inside the repository, whatever links a checkout holds.
  assertTierWritable(paths, paths.memoriesDir);
  ensureLocalIgnored(paths);
  // A secret typed into the file by hand, in a tag, was lower-cased when the file was
  // parsed: what the rules find in the file as written is replaced in every form.
  const before = readMemoryText(path);
  const known = before === undefined ? [] : findSecrets(before).map((f) => ({ value: before.slice(f.start, f.end), kind: f.kind }));
  // Home paths are rewritten first: relative to the repository, or from `~`.
  const root = (paths as TierPaths & { root?: string }).root;
  const written = redactMemory(memory, { known, home: { root, home: process.env.HOME ?? homedir() } }).value;
  return { path, result: writeIfChanged(path, renderMemory(written)), memory: written };
}
