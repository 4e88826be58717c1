/**
 * The Claude Code files Cortex ships in two forms: the plugin in `plugin/` (installed with
 * `/plugin install cortex@cortex`) and what `cortex init --claude` writes into a project's
 * `.claude/` for people who do not use plugins. Both come from the same templates, so the
 * skills and the hooks are the same text either way; `npm run plugin` regenerates `plugin/`
 * and a test holds it to this rendering.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readTemplate } from '../templates.js';
import { claudeHookBlock, fillClaudeTemplate } from './claude-setup.js';
import type { InitStep } from './init.js';

/** The skills, by name: `/recall` and `/remember` in a project, `/cortex:recall` … from the plugin. */
export const CLAUDE_SKILLS = ['recall', 'remember'] as const;
export type ClaudeSkill = (typeof CLAUDE_SKILLS)[number];

/**
 * A skill's `SKILL.md`, from `templates/claude/skills/<name>.md`.
 *
 * @example
 * renderSkill('recall').startsWith('---\nname: recall\n') // true
 */
export function renderSkill(name: ClaudeSkill): string {
  return fillClaudeTemplate(readTemplate(`claude/skills/${name}.md`));
}

/** Where a skill lives, relative to a `.claude/` directory or the plugin's root. */
export function skillPath(name: ClaudeSkill): string {
  return `skills/${name}/SKILL.md`;
}

export interface PluginFile {
  /** Relative to the plugin's root, `/`-separated. */
  path: string;
  text: string;
}

/** What `cortex mcp` is registered as, in the plugin as in `.mcp.json`. */
export const PLUGIN_MCP_SERVER = { command: 'cortex', args: ['mcp'] } as const;

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * Every generated file of the Claude Code plugin (`plugin/` in the repository), in a stable
 * order: the manifest (with the MCP server), the hooks (the same commands as
 * `templates/claude/settings.json`) and the skills. `plugin/README.md` is written by hand.
 *
 * @example
 * renderClaudePlugin().map((f) => f.path)
 * // ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'skills/recall/SKILL.md', 'skills/remember/SKILL.md']
 */
export function renderClaudePlugin(options: { version?: string } = {}): PluginFile[] {
  const manifest = {
    name: 'cortex',
    version: options.version ?? packageVersion(),
    description:
      'Persistent, git-native project memory: a briefing of what the repository remembers at session start, ' +
      'related memories with each prompt, decisions and gotchas captured from the conversation, the /recall and ' +
      '/remember skills and the memory_* MCP tools. Runs the cortex CLI from PATH (npm install -g cortex-memory).',
    author: { name: 'Cortex contributors' },
    license: 'MIT',
    keywords: ['memory', 'git', 'hooks', 'mcp', 'context'],
    // Everything stays on this machine: the hooks and the server read and write the repository.
    network: { hosts: [] as string[] },
    mcpServers: { cortex: { ...PLUGIN_MCP_SERVER, args: [...PLUGIN_MCP_SERVER.args] } },
  };
  const hooks = {
    description: 'Cortex: the briefing at session start, related memories with each prompt, capture at each stop, compaction and session end.',
    hooks: claudeHookBlock(),
  };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return [
    { path: '.claude-plugin/plugin.json', text: json(manifest) },
    { path: 'hooks/hooks.json', text: json(hooks) },
    ...CLAUDE_SKILLS.map((name) => ({ path: skillPath(name), text: renderSkill(name) })),
  ];
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
