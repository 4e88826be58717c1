/**
 * The JSON Claude Code writes on a hook's stdin, read defensively: any field may be
 * missing or of the wrong type, and garbage gives an empty input, never an exception.
 * Node builtins only: this runs on the session-start fast path.
 */

/** What Cortex uses of the hook input (Claude Code's snake_case fields, camelCased). */
export interface HookInput {
  sessionId?: string | undefined;
  transcriptPath?: string | undefined;
  cwd?: string | undefined;
  hookEventName?: string | undefined;
  /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
  source?: string | undefined;
  /** UserPromptSubmit. */
  prompt?: string | undefined;
  /** Stop (and SubagentStop): the final text of the turn. */
  lastAssistantMessage?: string | undefined;
  /** Stop: true when a Stop hook already made Claude continue. */
  stopHookActive?: boolean | undefined;
  /** PreCompact: `manual` or `auto`. */
  trigger?: string | undefined;
  /** SessionEnd: `clear`, `logout`, `prompt_input_exit`, `other` … */
  reason?: string | undefined;
  /** PreToolUse / PostToolUse: `Read`, `Edit`, `Write`, `MultiEdit` … */
  toolName?: string | undefined;
  /** PreToolUse / PostToolUse: the file the tool reads or writes (`tool_input.file_path`, or `notebook_path`). */
  filePath?: string | undefined;
}

/** Longest string field accepted; anything longer is not something Claude Code sent. */
const MAX_FIELD = 1_000_000;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_FIELD ? value : undefined;
}

/**
 * Parses hook stdin. Never throws: empty, non-JSON or non-object input gives `{}` plus
 * the reason, so the caller can log it.
 *
 * @example
 * parseHookInput('{"session_id":"abc","source":"compact"}').input // { sessionId: 'abc', source: 'compact' }
 * parseHookInput('not json').problem // 'stdin is not JSON: …'
 */
export function parseHookInput(text: string): { input: HookInput; problem?: string } {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return { input: {}, problem: 'stdin is empty' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return { input: {}, problem: `stdin is not JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { input: {}, problem: 'stdin is not a JSON object' };
  }
  const o = value as Record<string, unknown>;
  const input: HookInput = {};
  const set = <K extends keyof HookInput>(key: K, v: HookInput[K]): void => {
    if (v !== undefined) input[key] = v;
  };
  set('sessionId', str(o.session_id));
  set('transcriptPath', str(o.transcript_path));
  set('cwd', str(o.cwd));
  set('hookEventName', str(o.hook_event_name));
  set('source', str(o.source));
  set('prompt', str(o.prompt));
  set('lastAssistantMessage', str(o.last_assistant_message));
  set('stopHookActive', typeof o.stop_hook_active === 'boolean' ? o.stop_hook_active : undefined);
  set('trigger', str(o.trigger));
  set('reason', str(o.reason));
  set('toolName', str(o.tool_name));
  const tool = o.tool_input;
  if (tool !== null && typeof tool === 'object' && !Array.isArray(tool)) {
    const t = tool as Record<string, unknown>;
    set('filePath', str(t.file_path) ?? str(t.notebook_path));
  }
  return { input };
}
