/**
 * The Claude Code hook events Cortex handles, and Claude Code's name for each.
 */

/** The events `cortex hook <event>` handles. */
export const HOOK_EVENTS = ['session-start', 'user-prompt-submit', 'post-tool-use', 'stop', 'pre-compact', 'session-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's name of each event (`hookEventName` in hook JSON, keys in settings). */
export const CLAUDE_EVENT_NAMES: Readonly<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'post-tool-use': 'PostToolUse',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'session-end': 'SessionEnd',
};

/**
 * @example
 * isHookEvent('stop') // true
 * isHookEvent('Stop') // false
 */
export function isHookEvent(value: unknown): value is HookEvent {
  return typeof value === 'string' && (HOOK_EVENTS as readonly string[]).includes(value);
}
