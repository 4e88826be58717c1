/**
 * `cortex init --claude`: wires Cortex into Claude Code. Merges the hooks into
 * `.claude/settings.json` (or the user's settings with `global`), and writes the rules
 * file that teaches `[MEMORY: type]` tags and the /recall and /remember skills (the same
 * files the plugin in `plugin/` ships: see claude-plugin.ts).
 * Safe to re-run: existing settings and hooks are kept, existing files are not touched.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { detectIndent, mergeHookSettings, type ClaudeHookBlock } from '../core/claude-settings.js';
import { CLAUDE_EVENT_NAMES, HOOK_EVENTS } from '../core/hook-events.js';
import { SELF_REPORT_ALIASES } from '../core/extract.js';
import { MEMORY_TYPES } from '../core/memory.js';
import { userClaudeDir } from '../env.js';
import { ParseError } from '../errors.js';
import { writeFileAtomic, writeIfChanged } from '../store/atomic.js';
import { readTemplate } from '../templates.js';
import type { InitStep } from './step.js';

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
 * The hook block from `templates/claude/settings.json`.
 *
 * @example
 * Object.keys(claudeHookBlock()) // ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'PreCompact', 'SessionEnd']
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
  steps.push(...retireLegacyCommands(dir, shown));
  return steps;
}

/** The skills, by name: `/recall` and `/remember` in a project, `/cortex:recall` … from the plugin. */
export const CLAUDE_SKILLS = ['recall', 'remember'] as const;
export type ClaudeSkill = (typeof CLAUDE_SKILLS)[number];

/** Where a skill lives, relative to a `.claude/` directory or the plugin's root. */
export function skillPath(name: ClaudeSkill): string {
  return `skills/${name}/SKILL.md`;
}

/**
 * The slash commands older Cortex versions wrote into `.claude/commands/` (a directory Claude
 * Code has deprecated for skills), byte for byte, so an unedited one can be replaced by its
 * skill while one a person edited is kept.
 */
const LEGACY_COMMANDS: Record<ClaudeSkill, string> = {
  recall:
    '---\ndescription: Search this project\'s Cortex memory\nargument-hint: <what to look for>\nallowed-tools: Bash(cortex recall:*), Bash(cortex show:*)\n---\n' +
    'Look up what this project\'s Cortex memory holds about: $ARGUMENTS\n\n' +
    'Run `cortex recall "<query>" --limit 8` with the Bash tool (the query in double quotes), and\n' +
    '`cortex show <id>` for any result whose summary is not enough. Then summarise what the stored\n' +
    'memories say about the request, citing their ids. If nothing relevant is stored, say so.\n',
  remember:
    '---\ndescription: Store a memory in this project\'s Cortex memory\nargument-hint: [type] <what to remember>\nallowed-tools: Bash(cortex remember:*)\n---\n' +
    'Store this in the project\'s Cortex memory: $ARGUMENTS\n\n' +
    'Choose the type that fits — {{types}} — using the first word of the request\n' +
    'if it names one, else `context`. Write a self-contained one-line summary, and pass any detail\n' +
    'as further lines. Run it with the Bash tool:\n\n' +
    '    cortex remember "<summary>" --type <type> [--tags a,b]\n\n' +
    '(for a multi-line memory, pipe the text in: the first line is the summary). Report the id it prints.\n',
};

/**
 * Removes `commands/recall.md` and `commands/remember.md` from a `.claude` directory when they
 * are exactly what an older `cortex init --claude` wrote (the skills replace them; a command
 * and a skill of the same name would both be offered). An edited one is kept and reported.
 *
 * @example
 * retireLegacyCommands('/repo/.claude', (p) => p) // [{ target: 'commands/recall.md', action: 'removed', … }]
 */
export function retireLegacyCommands(claudeDir: string, shown: (path: string) => string): InitStep[] {
  const steps: InitStep[] = [];
  for (const name of CLAUDE_SKILLS) {
    const path = join(claudeDir, 'commands', `${name}.md`);
    if (!existsSync(path)) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8').replace(/\r\n/g, '\n');
    } catch {
      continue;
    }
    if (text === fillClaudeTemplate(LEGACY_COMMANDS[name])) {
      rmSync(path, { force: true });
      steps.push({ target: shown(path), action: 'removed', detail: `replaced by the /${name} skill (.claude/commands/ is deprecated)` });
    } else {
      steps.push({
        target: shown(path),
        action: 'unchanged',
        detail: `kept (edited by hand); it shadows the /${name} skill: move what you changed into ${skillPath(name)} and delete it`,
      });
    }
  }
  // The directory this emptied goes too (a person's other commands keep it).
  const commands = join(claudeDir, 'commands');
  try {
    if (steps.some((s) => s.action === 'removed') && readdirSync(commands).length === 0) rmdirSync(commands);
  } catch {
    // Gone already, or not ours to remove.
  }
  return steps;
}
