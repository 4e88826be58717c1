#!/usr/bin/env node
/**
 * A stand-in for `claude -p` that replays recorded model answers, so `bench:capture --replay`
 * measures how the model layer merges with the rules without calling a model. Cortex runs it
 * as `capture.claudeCommand` (via CORTEX_CAPTURE_COMMAND) with the prompt on stdin and the
 * session id in CORTEX_SESSION_ID.
 *
 * - CORTEX_RECORD_PROMPTS=<dir>: write the prompt it got to <dir>/<session>.prompt.md (to have
 *   the answers recorded), then answer nothing (exit 1).
 * - CORTEX_REPLAY_DIR=<dir>: answer with <dir>/<session>.json, `{"model": "...", "answer": {...}}`,
 *   in the JSON envelope `claude -p --output-format json` prints.
 *
 * Recorded answers quote the sessions they were made from: keep them outside the repository,
 * beside the transcripts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let prompt = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (prompt += d));
process.stdin.on('end', () => {
  const session = (process.env.CORTEX_SESSION_ID ?? 'unknown').replace(/[^\w.-]/g, '_');
  const record = process.env.CORTEX_RECORD_PROMPTS;
  if (record) {
    mkdirSync(record, { recursive: true });
    writeFileSync(join(record, `${session}.prompt.md`), prompt);
    process.stderr.write(`prompt recorded to ${join(record, `${session}.prompt.md`)}\n`);
    process.exit(1);
  }
  const dir = process.env.CORTEX_REPLAY_DIR;
  const file = dir ? join(dir, `${session}.json`) : undefined;
  if (file === undefined || !existsSync(file)) {
    process.stderr.write(`no recorded answer for session ${session}${dir ? ` in ${dir}` : ' (CORTEX_REPLAY_DIR is not set)'}\n`);
    process.exit(1);
  }
  const recorded = JSON.parse(readFileSync(file, 'utf8'));
  process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, model: recorded.model ?? 'recorded', result: JSON.stringify(recorded.answer) }));
});
