/**
 * `cortex init --claude`: wires Cortex into Claude Code. Merges the hooks into
 * `.claude/settings.json` (or the user's settings with `global`), and writes the rules
 * file that teaches `[MEMORY: type]` tags and the /recall and /remember skills (the same
 * files the plugin in `plugin/` ships: see claude-plugin.ts).
 * Safe to re-run: existing settings and hooks are kept, existing files are not touched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { detectIndent, mergeHookSettings, type ClaudeHookBlock } from '../core/claude-settings.js';
import { CLAUDE_EVENT_NAMES, HOOK_EVENTS } from '../core/hook-events.js';
import { SELF_REPORT_ALIASES } from '../core/extract.js';
import { MEMORY_TYPES } from '../core/memory.js';
import { ParseError } from '../errors.js';
import { writeFileAtomic, writeIfChanged } from '../store/atomic.js';
import { readTemplate } from '../templates.js';
import type { Context } from './context.js';
import type { InitStep } from './init.js';

export interface ClaudeSetupOptions {
  /** Set up the user's Claude Code settings (`$CLAUDE_CONFIG_DIR` or `~/.claude`) instead of the project's. */
  global?: boolean;
  /** The project root (required unless `global`). */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

/** The files written besides the settings, relative to the `.claude` directory. */
export const CLAUDE_FILES: readonly { template: string; target: string }[] = [
  { template: 'claude/cortex-memory.md', target: 'rules/cortex-memory.md' },
  { template: 'claude/skills/recall.md', target: 'skills/recall/SKILL.md' },
  { template: 'claude/skills/remember.md', target: 'skills/remember/SKILL.md' },
];

/**
 * The user's Claude Code directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @example
 * userClaudeDir({ HOME: '/home/me' }) // '/home/me/.claude'
 */
export function userClaudeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CLAUDE_CONFIG_DIR) return resolve(env.CLAUDE_CONFIG_DIR);
  return join(env.HOME || env.USERPROFILE || homedir(), '.claude');
}

/**
 * The hook block from `templates/claude/settings.json`.
 *
 * @example
 * Object.keys(claudeHookBlock()) // ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd']
 */
export function claudeHookBlock(): ClaudeHookBlock {
  return (JSON.parse(readTemplate('claude/settings.json')) as { hooks: ClaudeHookBlock }).hooks;
}

const SUBCOMMAND_OF: Record<string, string> = Object.fromEntries(HOOK_EVENTS.map((e) => [CLAUDE_EVENT_NAMES[e], e]));

/**
 * Fills `{{types}}` and `{{aliases}}` in a template from the extraction module, so the docs never drift.
 *
 * @example
 * fillClaudeTemplate('Aliases: {{aliases}}.') // 'Aliases: `learned` → gotcha, `learning` → gotcha, …'
 */
export function fillClaudeTemplate(text: string): string {
  const types = MEMORY_TYPES.filter((t) => t !== 'code' && t !== 'code_description')
    .map((t) => `\`${t}\``)
    .join(', ');
  const aliases = Object.entries(SELF_REPORT_ALIASES)
    .map(([alias, type]) => `\`${alias}\` → ${type}`)
    .join(', ');
  return text.replaceAll('{{types}}', types).replaceAll('{{aliases}}', aliases);
}

/**
 * Sets up Claude Code for Cortex and reports each file as an init step.
 * Throws `ParseError` when an existing settings file is not a JSON object (it is never overwritten).
 *
 * @example
 * await setupClaude({ root: '/path/to/repo' });
 * // [{ target: '.claude/settings.json', action: 'updated', detail: 'hooks added: SessionStart, …' }, …]
 */
export async function setupClaude(options: ClaudeSetupOptions): Promise<InitStep[]> {
  const env = options.env ?? process.env;
  const dir = options.global ? userClaudeDir(env) : join(resolve(options.root ?? process.cwd()), '.claude');
  const shown = (path: string): string => (options.global ? path : relative(resolve(options.root ?? process.cwd()), path).replaceAll('\\', '/'));
  const steps: InitStep[] = [];

  const settingsPath = join(dir, 'settings.json');
  const before = existsSync(settingsPath) ? readFileSync(settingsPath, 'utf8') : undefined;
  let parsed: unknown;
  if (before !== undefined && before.trim() !== '') {
    try {
      parsed = JSON.parse(before);
    } catch (err) {
      throw new ParseError(`${settingsPath} is not valid JSON (${(err as Error).message}); it was left untouched.`, {
        hint: 'Fix the file (Claude Code reads it as strict JSON) and run `cortex init --claude` again.',
      });
    }
  }
  const merged = mergeHookSettings(parsed, claudeHookBlock(), { subcommandOf: (event) => SUBCOMMAND_OF[event] ?? event });
  if (merged.problem !== undefined) {
    throw new ParseError(`Cannot add hooks to ${settingsPath}: ${merged.problem}.`, {
      hint: 'Fix the file by hand and run `cortex init --claude` again; nothing was changed.',
    });
  }
  const text = `${JSON.stringify(merged.settings, null, before ? detectIndent(before) : 2)}\n`;
  const added = merged.changes.filter((c) => c.action === 'added').map((c) => c.event);
  const updated = merged.changes.filter((c) => c.action === 'updated').map((c) => c.event);
  if (added.length === 0 && updated.length === 0) {
    steps.push({ target: shown(settingsPath), action: 'unchanged', detail: 'Cortex hooks present' });
  } else {
    writeFileAtomic(settingsPath, text);
    const detail = [added.length > 0 ? `hooks added: ${added.join(', ')}` : '', updated.length > 0 ? `hooks updated: ${updated.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    steps.push({ target: shown(settingsPath), action: before === undefined ? 'created' : 'updated', detail });
  }

  // The hooks run `cortex` from PATH (the settings file is shared): say so when it is not there.
  const { onPath } = await import('./mcp-setup.js');
  if (onPath(env).length === 0) {
    steps.push({
      target: 'PATH',
      action: 'skipped',
      detail: 'no `cortex` on PATH: the hooks above run `cortex hook …` and do nothing until it is (`npm link` in the cortex clone)',
    });
  }

  for (const file of CLAUDE_FILES) {
    const path = join(dir, file.target);
    if (existsSync(path)) {
      steps.push({ target: shown(path), action: 'unchanged', detail: 'exists (kept as it is)' });
      continue;
    }
    writeIfChanged(path, fillClaudeTemplate(readTemplate(file.template)));
    steps.push({ target: shown(path), action: 'created', detail: file.target.startsWith('rules/') ? 'teaches [MEMORY: type] tags' : `skill /${file.target.split('/')[1]}` });
  }
  // Older versions wrote slash commands into the deprecated .claude/commands/.
  const { retireLegacyCommands } = await import('./claude-plugin.js');
  steps.push(...retireLegacyCommands(dir, shown));
  return steps;
}

/**
 * The init step: runs when `cortex init` is given `--claude` (project settings).
 *
 * @example
 * registerInitStep(claudeInitStep); // then init({ dir, claude: true })
 */
export async function claudeInitStep(ctx: Context, options: Record<string, unknown>): Promise<InitStep[]> {
  if (options.claude !== true) return [];
  return setupClaude({ root: ctx.root, env: ctx.env });
}
