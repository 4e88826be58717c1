/**
 * The `cortex` command: a dispatch table of lazily imported commands, and the only
 * place that turns errors into messages and exit codes. `cli.ts` (the executable) runs it
 * from a bundle of this module and everything it imports (see scripts/bundle.mjs).
 */
import { readFileSync, realpathSync } from 'node:fs';
import nodeModule from 'node:module';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isDebug } from './env.js';
import { CortexError, ISSUES_URL, InternalError, UsageError } from './errors.js';
import { closest, commandHelp, hoistGlobalOptions, parseInvocation, type CommandDef, type IO } from './term/args.js';
import { painter, shouldColor } from './term/color.js';
import { descriptorWriter, isTerminal, wroteThroughStreams } from './term/fd.js';
import { readAllStdin } from './term/stdin.js';
import type { HookContext } from './hooks/context.js';

// Node ≥ 22.1 keeps compiled code of the modules a command loads on disk (os.tmpdir()), so
// that the next run skips compiling them; a no-op on Node 20, and never an error (a cache
// that cannot be written is simply not used; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

interface Entry {
  summary: string;
  load: () => Promise<{ default: CommandDef }>;
}

/**
 * Commands, in the order `cortex --help` lists them. Each module is imported only when run, so
 * `--help` repeats each command's `summary` here; `test/command-summaries.test.ts` keeps the two equal.
 */
export const COMMANDS: Record<string, Entry> = {
  init: { summary: 'Set up .cortex/ in this repository (safe to re-run)', load: () => import('./commands/init.js') },
  remember: { summary: 'Store a memory (text, stdin or $EDITOR)', load: () => import('./commands/remember.js') },
  recall: { summary: 'Find the memories relevant to a query', load: () => import('./commands/recall.js') },
  show: { summary: 'Print one memory in full', load: () => import('./commands/show.js') },
  list: { summary: 'List memories, with filters', load: () => import('./commands/list.js') },
  edit: { summary: 'Edit a memory in $EDITOR or with flags', load: () => import('./commands/edit.js') },
  forget: { summary: 'Archive (or delete) memories by id, or by whole words with --query', load: () => import('./commands/forget.js') },
  link: { summary: 'Link two memories with a relation (an edge file)', load: () => import('./commands/link.js') },
  unlink: { summary: 'Remove the edge files between two memories', load: () => import('./commands/unlink.js') },
  traverse: { summary: 'Walk the graph from a memory, level by level', load: () => import('./commands/traverse.js') },
  consolidate: { summary: 'Review likely duplicates and suggested links; merge two memories', load: () => import('./commands/consolidate.js') },
  lint: { summary: 'Check every file in .cortex/ and explain each problem', load: () => import('./commands/lint.js') },
  status: { summary: 'Counts by type and status, and index health', load: () => import('./commands/status.js') },
  index: { summary: 'Rebuild or refresh the local search index', load: () => import('./commands/index.js') },
  'index-code': { summary: 'Parse the source into a symbol table and resolve the memories\' code anchors', load: () => import('./commands/index-code.js') },
  surface: { summary: 'Print the session briefing (what the SessionStart hook injects)', load: () => import('./commands/surface.js') },
  lifecycle: { summary: 'Archive decayed memories, reactivate accessed ones, prune old archives', load: () => import('./commands/lifecycle.js') },
  project: { summary: 'Regenerate .cortex/decisions.md, plan.md and decisions-archive.md (--check for CI)', load: () => import('./commands/project.js') },
  import: { summary: 'Import memories from Claude Code, CLAUDE.md/AGENTS.md, a memory bank, MCP memory, basic-memory or JSONL', load: () => import('./commands/import.js') },
  export: { summary: 'Export memories as JSONL, Claude Code auto memory, a memory bank, AGENTS.md or MCP memory', load: () => import('./commands/export.js') },
  diff: { summary: 'What a revision range changes in memory (for pull requests)', load: () => import('./commands/diff.js') },
  doctor: { summary: 'Check the git integration, projections and index, with fixes', load: () => import('./commands/doctor.js') },
  'merge-driver': { summary: 'Git merge driver for .cortex/ files (configured by cortex init)', load: () => import('./commands/merge-driver.js') },
  'git-hook': { summary: 'Run a git hook event (installed by cortex init)', load: () => import('./commands/git-hook.js') },
  review: { summary: 'Accept or reject the low-confidence memories extraction queued', load: () => import('./commands/review.js') },
  hook: { summary: 'Run a Claude Code hook (reads the hook JSON on stdin)', load: () => import('./commands/hook.js') },
  mcp: { summary: 'Serve the memory tools to an assistant over MCP (stdio)', load: () => import('./commands/mcp.js') },
  serve: { summary: 'Browse and edit memories in a local web viewer (and a JSON API)', load: () => import('./commands/serve.js') },
};


function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function mainHelp(io: IO): string {
  const p = io.paint;
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length)) + 2;
  const lines = [
    `${p.bold('cortex')} — persistent, git-native memory for AI coding assistants`,
    '',
    p.bold('Usage:'),
    '  cortex <command> [options]',
    '  cortex <command> --help',
    '',
    p.bold('Commands:'),
    ...Object.entries(COMMANDS).map(([name, e]) => `  ${name.padEnd(width)}${e.summary}`),
    '',
    'Every command accepts --json (one JSON document on stdout), --dir <path> (-C), --quiet and --help,',
    'before or after the command name (cortex -C ../repo status).',
    'Exit codes: 0 success, 1 failure, 2 usage error, 70 internal error (a bug), 130 interrupted.',
    '',
    'Memories are markdown files in .cortex/memories/; the search index lives in .memory/ (gitignored).',
    'Compiled code is cached in ~/.cache/cortex/code for a faster start (CORTEX_CODE_CACHE=<dir> or off; README, "Start-up").',
  ];
  return `${lines.join('\n')}\n`;
}

/** Set when a command trapped Ctrl-C (see `IO.trapInterrupt`). */
let interrupt: AbortController | undefined;

function onSigint(): void {
  if (interrupt && !interrupt.signal.aborted) {
    interrupt.abort();
    return;
  }
  // git (2.42+) takes a merge driver exit above 128 for a crash and aborts the whole merge;
  // an interrupted driver reports a conflict instead (%A still holds our side).
  process.exit(process.argv[2] === 'merge-driver' ? 1 : 130);
}

/** `cortex list | head` closes the pipe early: that is the reader's choice, not an error. */
function exitQuietly(): void {
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
}

/** Piped stdin, read line by line for `IO.ask` and kept open across questions (closed by `run`). */
let piped: { rl: Interface; lines: AsyncIterator<string> } | undefined;

async function ask(question: string): Promise<string | undefined> {
  process.stderr.write(question);
  if (!process.stdin.isTTY) {
    piped ??= (() => {
      const rl = createInterface({ input: process.stdin, terminal: false });
      return { rl, lines: rl[Symbol.asyncIterator]() };
    })();
    const next = await piped.lines.next();
    return next.done ? undefined : next.value;
  }
  // A terminal: one reader per question, closed before anything else (an editor) uses it.
  const rl = createInterface({ input: process.stdin, terminal: false });
  try {
    return await new Promise<string | undefined>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(undefined));
    });
  } finally {
    rl.close();
    process.stdin.pause();
  }
}

export function processIO(): IO {
  const env = process.env;
  // Written to the descriptors: `process.stdout` would load Node's stream modules (see term/fd.ts).
  const stdoutIsTTY = isTerminal(1);
  return {
    out: descriptorWriter(1, () => process.stdout, exitQuietly),
    err: descriptorWriter(2, () => process.stderr, exitQuietly),
    readStdin: readAllStdin,
    stdinIsTTY: isTerminal(0),
    stdoutIsTTY,
    stderrIsTTY: isTerminal(2),
    paint: painter(shouldColor({ isTTY: stdoutIsTTY }, env)),
    env,
    cwd: process.cwd(),
    trapInterrupt: () => (interrupt ??= new AbortController()).signal,
    ask,
  };
}

/**
 * Runs one command line and returns the exit code. Never throws.
 */
export async function run(argv: string[], io: IO): Promise<number> {
  const wantsJson = argv.includes('--json');
  let def: CommandDef | undefined;
  try {
    const hoisted = hoistGlobalOptions(argv);
    // Only global options and no command (`cortex -C repo`): the same as no command at all.
    const onlyGlobals = hoisted.length > 0 && hoisted[0]!.startsWith('-') && hoistGlobalOptions([...hoisted, 'x'])[0] === 'x';
    const [name, ...rest] = onlyGlobals && !hoisted.some((a) => a === '--help' || a === '-h') ? [] : hoisted;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      if (name === 'help' && rest[0] && COMMANDS[rest[0]]) {
        const def = (await COMMANDS[rest[0]]!.load()).default;
        io.out(commandHelp(def, io.paint));
        return 0;
      }
      io.out(mainHelp(io));
      return name === undefined ? 2 : 0;
    }
    if (name === '--version' || name === '-v' || name === 'version') {
      io.out(`${version()}\n`);
      return 0;
    }
    const entry = COMMANDS[name];
    if (!entry && name.startsWith('-') && hoistGlobalOptions([name, 'x', 'y'])[0] !== name) {
      throw new UsageError(`${name} needs its value and then a command.`, { hint: 'Example: cortex -C ../repo status' });
    }
    if (!entry && name.startsWith('-')) {
      throw new UsageError(`Unknown option "${name}" before the command.`, {
        hint: 'Before the command only --dir (-C), --json, --quiet (-q) and --help are understood; put the others after it.',
      });
    }
    if (!entry) {
      const guess = closest(name, Object.keys(COMMANDS));
      throw new UsageError(`Unknown command "${name}".`, {
        hint: guess ? `Did you mean \`cortex ${guess}\`? Run \`cortex --help\` for the list.` : 'Run `cortex --help` for the list of commands.',
      });
    }
    def = (await entry.load()).default;
    const inv = parseInvocation(def, rest, io.cwd);
    if (inv.help) {
      io.out(commandHelp(def, io.paint));
      return 0;
    }
    const quietIO: IO = inv.quiet ? { ...io, err: () => {} } : io;
    // Without require(esm) (Node < 20.19) the secret rules cannot load on first use: load
    // them before any command can write (see core/secretlint-scan.ts).
    if ((process.features as { require_module?: boolean }).require_module !== true) {
      await (await import('./core/secretlint-scan.js')).loadSecretlintRules();
    }
    return (await def.run(inv, quietIO)) ?? 0;
  } catch (err) {
    const code = await report(err, io, wantsJson);
    return def?.alwaysExitZero ? 0 : code;
  } finally {
    piped?.rl.close();
    piped = undefined;
  }
}

async function report(err: unknown, io: IO, json: boolean): Promise<number> {
  const error =
    err instanceof CortexError
      ? err
      : new InternalError(`Unexpected error: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  const code = error instanceof UsageError ? 2 : error instanceof InternalError ? 70 : 1;
  // An error may echo its input (`cortex remember "$(cat key.pem)"` is an unknown option):
  // what it prints passes the redaction gate, loaded only on this path.
  const { redactSecrets } = await import('./core/redact.js');
  const gate = (text: string): string => redactSecrets(text).text;
  const message = gate(error.message);
  const hint = error.hint === undefined ? undefined : gate(error.hint);
  if (json) {
    io.out(`${JSON.stringify({ schemaVersion: 1, error: { code: error.code, message, hint } }, null, 2)}\n`);
  }
  io.err(`${io.paint.red('error')}: ${message}\n`);
  if (hint) io.err(`hint: ${hint}\n`);
  if (code === 70) {
    io.err(`This is a bug in cortex. Please report it at ${ISSUES_URL} with the command you ran.\n`);
    const stack = (error.cause as Error | undefined)?.stack ?? error.stack;
    if (stack && isDebug(io.env)) io.err(`${gate(stack)}\n`);
  }
  return code;
}

/**
 * Runs the command line `argv` as the process's own: Ctrl-C, a closed stdout pipe and the
 * exit code are handled here (the executable, `cli.ts`, calls this).
 */
export function start(argv: string[]): void {
  process.on('SIGINT', onSigint);
  run(argv, processIO()).then(
    (code) => {
      process.exitCode = code;
      exitWhenWritten();
    },
    () => {
      process.exitCode = 70;
      exitWhenWritten();
    },
  );
}

/**
 * Ends the process now that its command is done (`run` awaits everything a command does,
 * the MCP server and the viewer until they close): a process left to end by itself first
 * frees its heap and kernel memories page by page, 10–15 ms at 100,000 memories. Not when
 * some output went through a stream, which may still be writing it.
 */
function exitWhenWritten(): void {
  if (!wroteThroughStreams()) process.exit();
}

/**
 * The SessionStart hook's handler, for the cached SessionStart's own bundle (src/start.ts),
 * which serves a cached briefing without this CLI and asks it to build one on a miss.
 */
export async function sessionStartHook(h: HookContext): Promise<string> {
  return (await import('./hooks/session-start.js')).sessionStart(h);
}

// `node dist/main.js …` runs the CLI without the bundle (not when imported by tests).
const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) start(process.argv.slice(2));
