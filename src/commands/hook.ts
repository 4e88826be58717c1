/**
 * `cortex hook <event>`: what Claude Code runs. Statically this imports types only; the
 * hook entry point and each event's handler load on demand, so a cached session-start
 * stays close to bare node start-up.
 */
import { HOOK_EVENTS, isHookEvent } from '../core/hook-events.js';
import { isDebug } from '../env.js';
import { UsageError } from '../errors.js';
import { bool, str, type CommandDef, type IO } from '../term/args.js';
import { HOOK_STDIN_TIMEOUT_MS, readWithin } from '../term/stdin.js';

/** The hook input: '' from a terminal, or after a while from a caller that never closes stdin. */
function readStdin(io: IO): Promise<string> {
  if (io.stdinIsTTY) return Promise.resolve('');
  return readWithin(io.readStdin, HOOK_STDIN_TIMEOUT_MS);
}

/**
 * V8 compiles a regular expression to bytecode on its first run, and again to machine code
 * on its second. Extraction runs some thirty long case-insensitive patterns a few times each
 * in a process that lives a fraction of a second: compiling them to machine code at once
 * takes about a tenth off a Stop hook's CPU time (bench/README.md, hooks). A V8 flag holds
 * for the whole process, so it is set here, in the hook's own process, and never by
 * `runHook` in a library user's. What a pattern matches is the same either way; if the flag
 * cannot be set, the default tiering stays.
 */
async function compileRegExpsEagerly(): Promise<void> {
  try {
    (await import('node:v8')).setFlagsFromString('--no-regexp-tier-up');
  } catch {
    // The default tiering: slower, not wrong.
  }
}

/** The events whose process extracts from a transcript (session-end: its detached worker). */
const EXTRACTING: ReadonlySet<string> = new Set(['stop', 'pre-compact']);

const command: CommandDef = {
  name: 'hook',
  summary: 'Run a Claude Code hook (reads the hook JSON on stdin)',
  usage: [`hook <event>   (event: ${HOOK_EVENTS.join(', ')})`],
  description:
    'Installed by `cortex init --claude`; Claude Code runs it with the hook input as JSON on stdin.\n' +
    '  session-start       prints the briefing as context (a shorter one after compaction)\n' +
    '  user-prompt-submit  prints the few memories relevant to the prompt, or nothing\n' +
    '  post-tool-use       on Read/Edit/Write/MultiEdit: the memories anchored to that file or a\n' +
    '                      symbol in it (src/db.ts#acquire), each once per session, or nothing\n' +
    '  stop, pre-compact   extract memories from the transcript since the last checkpoint\n' +
    '  session-end         the same, then lifecycle and projections, in a detached process\n' +
    '\n' +
    'A hook never blocks the session: on any problem it prints nothing, exits 0 and writes the\n' +
    'reason to .memory/cortex.log. Set CORTEX_DEBUG=1 to see it on stderr as well. An unknown\n' +
    'event or option (settings written by another version, say) is reported on stderr and in\n' +
    'the log, and exits 0 too: Claude Code reads exit 2 as "block".\n' +
    '\n' +
    'When the same hook is registered twice (the Cortex plugin and a project\'s .claude/settings.json,\n' +
    'or user and project settings), Claude Code runs both with the same input: the first to start\n' +
    'does the work, the other exits at once (claims under .memory/deliveries/).\n' +
    '\n' +
    'user-prompt-submit --explain reads the same input (or just the prompt as plain text) and says\n' +
    'why each memory the search found was or was not injected, writing nothing (no session state).',
  options: {
    explain: { type: 'boolean', description: 'user-prompt-submit only: say why each memory was or was not injected, and inject nothing.' },
    worker: { type: 'string', value: '<file>', description: 'Internal: run the detached session-end work described in <file>.' },
  },
  examples: [
    `echo '{"session_id":"s1","source":"startup","cwd":"'$PWD'"}' | cortex hook session-start`,
    `echo '{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":"'$PWD'/src/db.ts"},"cwd":"'$PWD'"}' | cortex hook post-tool-use`,
    `echo 'which test runner did we settle on?' | cortex hook user-prompt-submit --explain`,
    'tail .memory/cortex.log',
  ],
  exitCodes: ['Always 0, whatever happens, even on a usage error (a hook must not break the session).'],
  alwaysExitZero: true,
  async run(inv, io) {
    const event = inv.positionals[0];
    if (event === undefined) throw new UsageError('Missing the hook event.', { hint: `Use one of: ${HOOK_EVENTS.join(', ')}.` });
    // An unknown event still goes to runHook, which records it in .memory/cortex.log.
    if (!isHookEvent(event)) io.err(`cortex hook: unknown hook event "${event}" (nothing done); use one of: ${HOOK_EVENTS.join(', ')}.\n`);
    if (inv.positionals.length > 1) io.err(`cortex hook: ignored extra arguments: ${inv.positionals.slice(1).join(' ')}\n`);
    if (bool(inv, 'explain')) {
      if (event !== 'user-prompt-submit') throw new UsageError('--explain works with user-prompt-submit only.', { hint: "echo 'a prompt' | cortex hook user-prompt-submit --explain" });
      const { explainUserPrompt } = await import('../hooks/user-prompt-submit.js');
      const out = await explainUserPrompt(await readStdin(io), { env: io.env, cwd: inv.dir ?? process.cwd() });
      if (inv.json) {
        const { printJson } = await import('./shared.js');
        printJson(io, { ...out });
        return 0;
      }
      io.out(`Prompt: ${out.prompt === '' ? '(empty: nothing is searched)' : out.prompt}\n`);
      if (out.rows.length === 0) io.out('No memory or review candidate shares a word with it.\n');
      for (const r of out.rows) {
        const what = `${r.unconfirmed ? 'unconfirmed ' : ''}${r.type}`;
        io.out(`${r.injected ? 'INJECT' : 'skip  '}  ${r.id}  (${what}, score ${r.score.toFixed(2)}, ${Math.round(r.share * 100)}% of the best)\n        ${r.reason}\n`);
      }
      io.out(out.text === '' ? '\nNothing would be injected.\n' : `\nWould inject (${out.text.length} characters):\n${out.text}\n`);
      return 0;
    }
    const worker = str(inv, 'worker');
    if (EXTRACTING.has(event) || (worker !== undefined && event === 'session-end')) await compileRegExpsEagerly();
    const { runHook, runSessionEndWorker } = await import('../hooks/run.js');
    const result =
      worker !== undefined && event === 'session-end'
        ? await runSessionEndWorker(worker, { env: io.env })
        : await runHook(event, await readStdin(io), { env: io.env, cwd: inv.dir, dedupe: true });
    if (result.stdout !== '') io.out(result.stdout);
    if (isDebug(io.env)) for (const line of result.log) io.err(`cortex hook ${event}: ${line}\n`);
    return 0;
  },
};
export default command;
