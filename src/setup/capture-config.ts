/**
 * The model-capture mode in `.cortex/config.yaml` (`capture.mode`): set by `cortex init
 * --capture <mode>` (and `init({ capture })`), shown by `cortex doctor`. The file is edited
 * as a YAML document, so its other keys and its comments stay as they are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { UsageError } from '../errors.js';
import { CAPTURE_MODES, isCaptureMode, type CaptureMode } from '../core/model-capture.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { Context } from '../services/context.js';
import type { InitStep } from './step.js';

/**
 * Sets `capture.mode`; a no-op when it already has that value.
 *
 * @example
 * await setCaptureMode(ctx, 'reflect') // { target: '.cortex/config.yaml', action: 'updated', detail: 'capture.mode: reflect' }
 */
export function setCaptureMode(ctx: Context, mode: string): InitStep {
  if (!isCaptureMode(mode)) {
    throw new UsageError(`Unknown capture mode "${mode}".`, { hint: `Use one of: ${CAPTURE_MODES.join(', ')} (docs/claude-code.md, "Model capture").` });
  }
  const file = ctx.paths.configFile;
  const existed = existsSync(file);
  const doc = parseDocument(existed ? readFileSync(file, 'utf8') : '');
  if (doc.errors.length > 0) {
    throw new UsageError(`${file} is not valid YAML: ${doc.errors[0]?.message ?? 'parse error'}`, { hint: 'Fix the file (cortex doctor shows where), then run the command again.' });
  }
  if (doc.getIn(['capture', 'mode']) === mode) return { target: '.cortex/config.yaml', action: 'unchanged', detail: `capture.mode: ${mode}` };
  if (doc.contents === null) doc.contents = doc.createNode({}) as never;
  doc.setIn(['capture', 'mode'], mode);
  writeFileAtomic(file, doc.toString());
  return { target: '.cortex/config.yaml', action: existed ? 'updated' : 'created', detail: `capture.mode: ${mode}${sendsText(mode) ? ' (session text leaves the machine at session end: see docs/claude-code.md)' : ''}` };
}

function sendsText(mode: CaptureMode): boolean {
  return mode === 'claude' || mode === 'endpoint';
}

/**
 * What model capture does in this project, for `cortex doctor`: the mode, and whether what
 * it needs (the command, the endpoint settings) is there.
 */
export function describeCapture(ctx: Context): { severity: 'ok' | 'info' | 'warning'; message: string; fix?: string } {
  const c = ctx.config.capture;
  switch (c.mode) {
    case 'reflect':
      return { severity: 'ok', message: `model capture: reflect (the assistant is asked to record what it decided, at most once per ${c.reflectEveryTurns} prompts; nothing leaves the session)` };
    case 'claude':
      return { severity: 'ok', message: `model capture: claude (\`${c.claudeCommand} -p\`${c.model !== null ? ` --model ${c.model}` : ''} reads up to ${c.maxInputChars} redacted characters of each session at its end)` };
    case 'endpoint': {
      if (c.endpoint.url === null || c.model === null) {
        return { severity: 'warning', message: 'model capture: endpoint, but capture.endpoint.url or capture.model is not set: nothing is sent', fix: 'set capture.endpoint.url and capture.model in .cortex/config.yaml' };
      }
      const key = c.endpoint.keyEnv !== null ? (ctx.env[c.endpoint.keyEnv] ? `key from $${c.endpoint.keyEnv}` : `$${c.endpoint.keyEnv} is not set`) : 'no key';
      return { severity: 'ok', message: `model capture: endpoint (${c.endpoint.api} API at ${c.endpoint.url}, model ${c.model}, ${key}; up to ${c.maxInputChars} redacted characters per session)` };
    }
    default:
      return { severity: 'info', message: 'model capture: off (nothing is sent to any model; `cortex init --claude --capture reflect|claude|endpoint` turns it on)' };
  }
}
