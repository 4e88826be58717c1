/**
 * Command definitions and argument parsing (node:util parseArgs), plus help text.
 */
import { parseArgs } from 'node:util';
import { closest } from '../core/suggest.js';
import { UsageError } from '../errors.js';
import type { Painter } from './color.js';

export { closest };

export interface OptionDef {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  description: string;
  /** Shown in help for string options, e.g. `<n>`. */
  value?: string;
}

export interface IO {
  /** Results only. */
  out(text: string): void;
  /** Diagnostics, progress, warnings. */
  err(text: string): void;
  /** Reads all of stdin (empty when stdin is a TTY). */
  readStdin(): Promise<string>;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  paint: Painter;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Opts in to graceful interruption: the first Ctrl-C aborts the returned signal instead
   * of ending the process (a second one still ends it, exit 130). For long work that
   * saves its progress, such as `index --embed`. Absent in hosts without signals.
   */
  trapInterrupt?(): AbortSignal;
  /**
   * Asks a question on stderr and reads one line of answer from stdin (the terminal, or
   * the next line of piped input); `undefined` when there is no answer to read. Absent in
   * hosts that cannot ask: callers then take the cautious answer.
   */
  ask?(question: string): Promise<string | undefined>;
}

export interface Invocation {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  json: boolean;
  quiet: boolean;
  /** `--dir`: the project directory (default: cwd). */
  dir: string;
}

export interface CommandDef {
  name: string;
  summary: string;
  /** Usage lines without the leading `cortex `. */
  usage: string[];
  /** Paragraphs of explanation for `--help`. */
  description?: string;
  options: Record<string, OptionDef>;
  examples?: string[];
  /** Exit codes beyond 0/1/2, documented in help. */
  exitCodes?: string[];
  /**
   * Exit 0 even on a usage error or failure (the message still goes to stderr): for
   * `cortex hook`, where Claude Code reads exit 2 as "block the session".
   */
  alwaysExitZero?: boolean;
  /** Return an exit code (default 0). */
  run(inv: Invocation, io: IO): Promise<number | void>;
}

export const GLOBAL_OPTIONS: Record<string, OptionDef> = {
  json: { type: 'boolean', description: 'Print one JSON document (with schemaVersion) on stdout.' },
  dir: { type: 'string', short: 'C', value: '<path>', description: 'Run in this project directory instead of the current one.' },
  quiet: { type: 'boolean', short: 'q', description: 'Print nothing on stderr but errors.' },
  help: { type: 'boolean', short: 'h', description: 'Show this help.' },
};

/**
 * Moves global options written before the command (`cortex -C dir status`, `cortex --json
 * list`: where `git -C` puts them) to just after the command name, where the command's
 * parser reads them. Returns argv unchanged when it starts with the command.
 *
 * @example
 * hoistGlobalOptions(['-C', 'repo', 'recall', 'db']) // ['recall', '-C', 'repo', 'db']
 * hoistGlobalOptions(['--dir=repo', '--json', 'status']) // ['status', '--dir=repo', '--json']
 */
export function hoistGlobalOptions(argv: readonly string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i]!;
    const long = /^--([^=]+)(=.*)?$/.exec(arg);
    const option = long
      ? Object.entries(GLOBAL_OPTIONS).find(([name]) => name === long[1])
      : /^-[^-]/.test(arg)
        ? Object.entries(GLOBAL_OPTIONS).find(([, o]) => o.short === arg[1])
        : undefined;
    if (!option) break;
    const [, def] = option;
    // `--dir x`, `-C x` take the next word; `--dir=x` and `-Cx` carry it.
    const takesNext = def.type === 'string' && (long ? long[2] === undefined : arg.length === 2);
    leading.push(arg);
    if (takesNext && argv[i + 1] !== undefined) leading.push(argv[i + 1]!);
    i += takesNext ? 2 : 1;
  }
  if (leading.length === 0 || i >= argv.length) return [...argv];
  return [argv[i]!, ...leading, ...argv.slice(i + 1)];
}

/** Parses argv for a command; unknown flags are usage errors naming the command. */
export function parseInvocation(def: CommandDef, argv: string[], cwd: string): Invocation & { help: boolean } {
  const options = { ...GLOBAL_OPTIONS, ...def.options };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [
          name,
          { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unknown option/, 'unknown option');
    const unknown = /^unknown option '--([^'=]+)/.exec(message)?.[1];
    const guess = unknown === undefined ? undefined : closest(unknown, Object.keys(options));
    throw new UsageError(`cortex ${def.name}: ${message}.`, {
      hint: guess ? `Did you mean --${guess}? Run \`cortex ${def.name} --help\` for the options.` : `Run \`cortex ${def.name} --help\` for the options.`,
    });
  }
  const values = parsed.values as Invocation['values'];
  return {
    values,
    positionals: parsed.positionals,
    json: values.json === true,
    quiet: values.quiet === true,
    dir: typeof values.dir === 'string' ? values.dir : cwd,
    help: values.help === true,
  };
}

/** The `--help` text of a command. */
export function commandHelp(def: CommandDef, paint: Painter): string {
  const lines: string[] = [];
  lines.push(`${paint.bold(`cortex ${def.name}`)} — ${def.summary}`, '');
  lines.push(paint.bold('Usage:'));
  for (const u of def.usage) lines.push(`  cortex ${u}`);
  if (def.description) lines.push('', ...def.description.split('\n').map((l) => (l === '' ? '' : `  ${l}`)));
  const opt = (name: string, o: OptionDef) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.value ?? '<value>'}` : ''}`;
    return [flag, `${o.description}${o.multiple ? ' (repeatable)' : ''}`];
  };
  const own = Object.entries(def.options).map(([n, o]) => opt(n, o));
  const global = Object.entries(GLOBAL_OPTIONS).map(([n, o]) => opt(n, o));
  const width = Math.max(...[...own, ...global].map(([f]) => f!.length)) + 2;
  if (own.length > 0) {
    lines.push('', paint.bold('Options:'));
    for (const [f, d] of own) lines.push(`  ${f!.padEnd(width)}${d}`);
  }
  lines.push('', paint.bold('Global options:'));
  for (const [f, d] of global) lines.push(`  ${f!.padEnd(width)}${d}`);
  if (def.examples && def.examples.length > 0) {
    lines.push('', paint.bold('Examples:'));
    for (const e of def.examples) lines.push(`  ${e}`);
  }
  lines.push('', paint.bold('Exit codes:'), '  0 success, 1 failure, 2 usage error');
  for (const e of def.exitCodes ?? []) lines.push(`  ${e}`);
  return `${lines.join('\n')}\n`;
}

/** Reads a string flag. */
export function str(inv: Invocation, name: string): string | undefined {
  const v = inv.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** Reads a repeatable string flag; each value may also be comma-separated. */
export function list(inv: Invocation, name: string): string[] | undefined {
  const v = inv.values[name];
  if (v === undefined) return undefined;
  const arr = Array.isArray(v) ? v : [String(v)];
  return arr.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}

export function bool(inv: Invocation, name: string): boolean {
  return inv.values[name] === true;
}

/** Reads an integer flag, with a usage error naming the flag. */
export function int(inv: Invocation, name: string, range?: [number, number]): number | undefined {
  const v = str(inv, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || (range && (n < range[0] || n > range[1]))) {
    throw new UsageError(`--${name} must be an integer${range ? ` from ${range[0]} to ${range[1]}` : ''}, got "${v}".`);
  }
  return n;
}

/** Reads a number flag, with a usage error naming the flag. */
export function num(inv: Invocation, name: string, range?: [number, number]): number | undefined {
  const v = str(inv, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || (range && (n < range[0] || n > range[1]))) {
    throw new UsageError(`--${name} must be a number${range ? ` from ${range[0]} to ${range[1]}` : ''}, got "${v}".`);
  }
  return n;
}
