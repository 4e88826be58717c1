/**
 * What a hook prints (see output-raw.ts), through the redaction gate: every injection is
 * redacted whole before it is cut to the limit — a memory typed or pasted by hand was never
 * gated on its way in.
 */
import { redactSecrets } from '../core/redact.js';
import { rawContextOutput } from './output-raw.js';

export { fitContext, MAX_CONTEXT_CHARS } from './output-raw.js';

/**
 * The stdout of a context-injecting hook, or '' when there is nothing to add. Cortex's own
 * rules run, not secretlint's preset (a second opinion whose module load the per-prompt
 * hooks cannot afford; the rules cover its families).
 *
 * @example
 * contextOutput('UserPromptSubmit', 'token ' + githubToken) // '{"hookSpecificOutput":{…"additionalContext":"token [REDACTED:github-token]"}}\n'
 */
export function contextOutput(hookEventName: string, text: string): string {
  return rawContextOutput(hookEventName, redactSecrets(text, { preset: false }).text);
}
