/**
 * The environment variables Cortex reads: each name, what it accepts and where it sits in
 * the precedence, in one place. Everything that reads `process.env` (or the `env` a caller
 * passes instead) goes through here.
 *
 * Precedence, wherever a setting has several sources: a command-line flag > the variable >
 * `.cortex/config.yaml` > the default. An empty value counts as unset.
 *
 * | variable | accepts | used for |
 * |---|---|---|
 * | `CORTEX_HOME` | a directory | the global tier (default `~/.cortex`) |
 * | `CORTEX_NOW` | an ISO-8601 date | the clock (reproducible runs and tests) |
 * | `CORTEX_SURFACE_BUDGET` | an integer in `BUDGET_RANGE` | the briefing's token budget (`--budget`) |
 * | `CORTEX_SURFACE_TARGETS` | comma-separated paths | `cortex surface --write` targets (`surface.targets`) |
 * | `CORTEX_EMBED` | `0/false/off/no`, `1/true/on/yes` | embeddings off or on (`embed.enabled`) |
 * | `CORTEX_EMBED_MODEL` | a model id or path | `embed.model` |
 * | `CORTEX_EMBED_DTYPE` | `q8`, `fp32`, `fp16` … | `embed.dtype` |
 * | `CORTEX_MODEL_DIR` | a directory | `embed.modelDir`: local models, offline |
 * | `CORTEX_DEBUG` | anything non-empty | stack traces and hook logs on stderr |
 * | `CORTEX_HOOKS` | `off` | every `cortex hook` exits at once (set for the model processes capture starts) |
 * | `CORTEX_CAPTURE_MODE` | a capture mode (`off`, `reflect`, `claude`, `endpoint`) | `capture.mode` for one run |
 * | `CORTEX_CAPTURE_COMMAND` | a command | `capture.claudeCommand` for one run (a replayed answer) |
 * | `CORTEX_SESSION_ID` | a session id | set, not read: the session a capture model process works on |
 * | `CLAUDE_CONFIG_DIR` | a directory | Claude Code's user settings (default `~/.claude`) |
 * | `CLAUDE_PROJECT_DIR` | a directory | the project of a hook whose input names no `cwd` |
 *
 * Node built-ins only: the cached SessionStart path reads `CORTEX_HOME`, `CORTEX_NOW` and
 * `CORTEX_SURFACE_BUDGET` through this module.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = NodeJS.ProcessEnv;

/** The names, for messages and help texts. */
export const ENV = {
  home: 'CORTEX_HOME',
  now: 'CORTEX_NOW',
  surfaceBudget: 'CORTEX_SURFACE_BUDGET',
  surfaceTargets: 'CORTEX_SURFACE_TARGETS',
  embed: 'CORTEX_EMBED',
  embedModel: 'CORTEX_EMBED_MODEL',
  embedDtype: 'CORTEX_EMBED_DTYPE',
  modelDir: 'CORTEX_MODEL_DIR',
  debug: 'CORTEX_DEBUG',
  hooks: 'CORTEX_HOOKS',
  captureMode: 'CORTEX_CAPTURE_MODE',
  captureCommand: 'CORTEX_CAPTURE_COMMAND',
  sessionId: 'CORTEX_SESSION_ID',
  claudeConfigDir: 'CLAUDE_CONFIG_DIR',
  claudeProjectDir: 'CLAUDE_PROJECT_DIR',
} as const;

/** Allowed token budgets for `--budget` and `CORTEX_SURFACE_BUDGET`. */
export const BUDGET_RANGE = [10, 2_500] as const;

/** The value, trimmed; `undefined` when unset or empty. */
function valueOf(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * `$CORTEX_HOME`, default `~/.cortex`: the global tier.
 *
 * @example
 * cortexHome({ CORTEX_HOME: '/tmp/h' }) // '/tmp/h'
 */
export function cortexHome(env: Env): string {
  return resolve(env[ENV.home] || join(homedir(), '.cortex'));
}

/**
 * Reads `CORTEX_SURFACE_BUDGET`: an integer within `BUDGET_RANGE`, or an error message
 * naming the variable and the range.
 *
 * @example
 * readBudgetEnv({ CORTEX_SURFACE_BUDGET: '300' }) // { budget: 300 }
 * readBudgetEnv({ CORTEX_SURFACE_BUDGET: 'lots' }).error // 'CORTEX_SURFACE_BUDGET is "lots"; allowed: an integer from 10 to 2500'
 */
export function readBudgetEnv(env: Env): { budget?: number; error?: string } {
  const raw = env[ENV.surfaceBudget];
  if (raw === undefined || raw.trim() === '') return {};
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < BUDGET_RANGE[0] || n > BUDGET_RANGE[1]) {
    return { error: `${ENV.surfaceBudget} is "${raw}"; allowed: an integer from ${BUDGET_RANGE[0]} to ${BUDGET_RANGE[1]}` };
  }
  return { budget: n };
}

/**
 * Reads `CORTEX_NOW`: an ISO-8601 date, or an error message naming the variable.
 *
 * @example
 * readNowEnv({ CORTEX_NOW: '2026-12-01T09:00:00Z' }).now?.toISOString() // '2026-12-01T09:00:00.000Z'
 */
export function readNowEnv(env: Env): { now?: Date; error?: string } {
  const raw = env[ENV.now];
  if (raw === undefined || raw.trim() === '') return {};
  const ms = Date.parse(raw.trim());
  if (Number.isNaN(ms)) return { error: `${ENV.now} is "${raw}"; allowed: an ISO-8601 date such as 2026-12-01T09:00:00Z` };
  return { now: new Date(ms) };
}

/**
 * Reads `CORTEX_SURFACE_TARGETS`: the target files, or `undefined` when unset.
 *
 * @example
 * readTargetsEnv({ CORTEX_SURFACE_TARGETS: 'AGENTS.md, .claude/x.md' }) // ['AGENTS.md', '.claude/x.md']
 */
export function readTargetsEnv(env: Env): string[] | undefined {
  const raw = env[ENV.surfaceTargets];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

const FALSY = new Set(['0', 'false', 'off', 'no']);
const TRUTHY = new Set(['1', 'true', 'on', 'yes']);

/** The embedding settings the environment overrides; absent keys are not set there. */
export interface EmbedEnv {
  enabled?: boolean;
  model?: string;
  dtype?: string;
  modelDir?: string;
}

/**
 * Reads `CORTEX_EMBED` (`0`/`false`/`off`/`no` disables, `1`/`true`/`on`/`yes` enables,
 * anything else is ignored), `CORTEX_EMBED_MODEL`, `CORTEX_EMBED_DTYPE` and `CORTEX_MODEL_DIR`.
 *
 * @example
 * readEmbedEnv({ CORTEX_EMBED: 'off', CORTEX_MODEL_DIR: '/models' }) // { enabled: false, modelDir: '/models' }
 */
export function readEmbedEnv(env: Env): EmbedEnv {
  const out: EmbedEnv = {};
  const toggle = valueOf(env, ENV.embed)?.toLowerCase();
  if (toggle !== undefined && FALSY.has(toggle)) out.enabled = false;
  else if (toggle !== undefined && TRUTHY.has(toggle)) out.enabled = true;
  const model = valueOf(env, ENV.embedModel);
  if (model !== undefined) out.model = model;
  const dtype = valueOf(env, ENV.embedDtype);
  if (dtype !== undefined) out.dtype = dtype;
  const modelDir = valueOf(env, ENV.modelDir);
  if (modelDir !== undefined) out.modelDir = modelDir;
  return out;
}

/**
 * Whether `CORTEX_DEBUG` asks for stack traces and hook logs on stderr.
 *
 * @example
 * isDebug({ CORTEX_DEBUG: '1' }) // true
 */
export function isDebug(env: Env): boolean {
  return Boolean(env[ENV.debug]);
}

/**
 * Whether `CORTEX_HOOKS=off` turns every Claude Code hook off (the model processes that
 * capture starts run with it, so Cortex never captures its own capture).
 *
 * @example
 * areHooksOff({ CORTEX_HOOKS: 'off' }) // true
 */
export function areHooksOff(env: Env): boolean {
  return env[ENV.hooks] === 'off';
}

/** The environment of a process Cortex starts whose own Cortex hooks must stay quiet. */
export const HOOKS_OFF_ENV = { [ENV.hooks]: 'off' } as const;

/**
 * Reads `CORTEX_CAPTURE_MODE` and `CORTEX_CAPTURE_COMMAND`, which override `capture.mode`
 * and `capture.claudeCommand` for one run. The mode is returned as written: the config
 * checks it against the modes it knows.
 *
 * @example
 * readCaptureEnv({ CORTEX_CAPTURE_MODE: 'claude' }) // { mode: 'claude' }
 */
export function readCaptureEnv(env: Env): { mode?: string; command?: string } {
  const out: { mode?: string; command?: string } = {};
  const mode = env[ENV.captureMode];
  if (mode !== undefined && mode !== '') out.mode = mode;
  const command = env[ENV.captureCommand];
  if (command !== undefined && command !== '') out.command = command;
  return out;
}

/**
 * The user's Claude Code directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @example
 * userClaudeDir({ HOME: '/home/me' }) // '/home/me/.claude'
 */
export function userClaudeDir(env: Env = process.env): string {
  if (env[ENV.claudeConfigDir]) return resolve(env[ENV.claudeConfigDir]!);
  return join(env.HOME || env.USERPROFILE || homedir(), '.claude');
}

/** `$CLAUDE_PROJECT_DIR`, which Claude Code sets for hooks. */
export function claudeProjectDir(env: Env): string | undefined {
  return env[ENV.claudeProjectDir];
}
