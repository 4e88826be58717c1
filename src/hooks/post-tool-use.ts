/**
 * PostToolUse on Read, Edit, Write and MultiEdit: the memories anchored to the file the
 * assistant just opened or changed (`source.files` entries naming it, or a symbol in it),
 * each once per session, within the prompt hook's budget. PostToolUse rather than
 * PreToolUse: its `additionalContext` arrives beside the tool's result, and Claude Code
 * makes the assistant read a file before it edits it, so a memory reaches it before the
 * first edit.
 *
 * It runs on every file the assistant opens, so the common case (no memory anchored to the
 * file) loads node built-ins and a few small modules only: one `stat` per tier and one small
 * JSON file (cache/file-anchors.ts). The map is rebuilt, loading the memory store, only
 * after the memories or the code index changed.
 */
import { realpathSync } from 'node:fs';
import { repoRelative } from '../core/anchor.js';
import { DEFAULT_FILE_RECALL, renderFileMemories, selectFileMemories } from '../core/file-recall.js';
import { fileAnchorsStamp, lookupFileAnchors } from '../cache/file-anchors.js';
import type { HookContext } from './context.js';

/** The tools whose file the hook looks at. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** The file's path relative to the project root, following a symlinked root. */
function projectPath(root: string, file: string): string | undefined {
  const direct = repoRelative(root, file);
  if (direct !== undefined) return direct;
  try {
    return repoRelative(realpathSync(root), file);
  } catch {
    return undefined;
  }
}

export async function postToolUse(h: HookContext): Promise<string> {
  const tool = h.input.toolName;
  const file = h.input.filePath;
  if (tool === undefined || !FILE_TOOLS.has(tool) || file === undefined || file === '') return '';
  const path = projectPath(h.root, file);
  if (path === undefined) return '';
  const now = (h.now?.() ?? new Date()).getTime();
  const stamp = fileAnchorsStamp(h.root, h.cacheDir, now);
  const entries = lookupFileAnchors(h.cacheDir, stamp, path) ?? (await import('../cache/file-anchors-build.js')).buildFileAnchors(h.root, h.cacheDir, stamp).files[path] ?? [];
  if (entries.length === 0) return '';
  // Loaded only when the file has memories: the common case stays as small as it can.
  const [{ readSessionState, writeSessionState }, { contextOutput }] = await Promise.all([import('../cache/session-state.js'), import('./output.js')]);
  const session = h.input.sessionId;
  const state = session !== undefined ? readSessionState(h.cacheDir, session) : undefined;
  const chosen = selectFileMemories(entries, { exclude: state?.injected ?? [], limit: DEFAULT_FILE_RECALL.limit });
  const { text, ids } = renderFileMemories(path, chosen);
  if (state !== undefined && ids.length > 0) {
    const failed = writeSessionState(h.cacheDir, { ...state, injected: [...state.injected, ...ids] });
    if (failed) h.log(`session state not written (a memory may be shown again): ${failed.message}`);
  }
  return contextOutput('PostToolUse', text);
}
