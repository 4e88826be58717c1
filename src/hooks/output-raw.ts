/**
 * What a hook prints: Claude Code's JSON with `hookSpecificOutput.additionalContext`,
 * kept under the 10,000-character injection limit (longer text would be replaced by a
 * file preview). Node builtins only: the cached SessionStart (start.bundle) prints its
 * briefing, redacted when it was built, through this; every other injection goes through
 * output.ts, which runs the redaction gate first.
 */

/** Claude Code replaces injected context longer than this with a preview. */
const INJECTION_LIMIT = 10_000;
/** Margin below the limit for the JSON escaping Claude Code may count. */
export const MAX_CONTEXT_CHARS = INJECTION_LIMIT - 1_000;

/**
 * Cuts `text` to at most `max` characters at a line boundary, saying that it did.
 *
 * @example
 * fitContext('a\nb\nc', 3) // 'a\n…'
 */
export function fitContext(text: string, max: number = MAX_CONTEXT_CHARS): string {
  if (text.length <= max) return text;
  const marker = '\n…';
  const cut = text.slice(0, Math.max(0, max - marker.length));
  const newline = cut.lastIndexOf('\n');
  return `${newline > 0 ? cut.slice(0, newline) : cut}${marker}`;
}

/**
 * The stdout of a context-injecting hook, or '' when there is nothing to add.
 *
 * @example
 * rawContextOutput('SessionStart', 'Project memory …') // '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Project memory …"}}\n'
 */
export function rawContextOutput(hookEventName: string, text: string): string {
  const context = fitContext(text.trim());
  if (context === '') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: context } })}\n`;
}
