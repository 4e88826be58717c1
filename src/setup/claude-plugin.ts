/**
 * The Claude Code files Cortex ships in two forms: the plugin in `plugin/` (installed with
 * `/plugin install cortex@cortex`) and what `cortex init --claude` writes into a project's
 * `.claude/` for people who do not use plugins. Both come from the same templates, so the
 * skills and the hooks are the same text either way; `npm run plugin` regenerates `plugin/`
 * and a test holds it to this rendering.
 */
import { readFileSync } from 'node:fs';
import { readTemplate } from '../templates.js';
import { CLAUDE_SKILLS, claudeHookBlock, fillClaudeTemplate, skillPath, type ClaudeSkill } from './claude-setup.js';

export { CLAUDE_SKILLS, retireLegacyCommands, skillPath, type ClaudeSkill } from './claude-setup.js';

/**
 * A skill's `SKILL.md`, from `templates/claude/skills/<name>.md`.
 *
 * @example
 * renderSkill('recall').startsWith('---\nname: recall\n') // true
 */
export function renderSkill(name: ClaudeSkill): string {
  return fillClaudeTemplate(readTemplate(`claude/skills/${name}.md`));
}

export interface PluginFile {
  /** Relative to the plugin's root, `/`-separated. */
  path: string;
  text: string;
}

/**
 * What `cortex mcp` is registered as, in the plugin as in `.mcp.json`: with `alwaysLoad`,
 * so Claude Code puts the tools (and when to use them) in the context instead of behind
 * its tool search.
 */
export const PLUGIN_MCP_SERVER = { command: 'cortex', args: ['mcp'], alwaysLoad: true } as const;

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
      'related memories with each prompt, the memories anchored to each file it opens, decisions and gotchas captured from the conversation, the /recall and ' +
      '/remember skills and the memory_* MCP tools. Runs the cortex CLI from PATH (npm install -g cortex-memory).',
    author: { name: 'Cortex contributors' },
    license: 'MIT',
    keywords: ['memory', 'git', 'hooks', 'mcp', 'context'],
    // Everything stays on this machine: the hooks and the server read and write the repository.
    network: { hosts: [] as string[] },
    mcpServers: { cortex: { ...PLUGIN_MCP_SERVER, args: [...PLUGIN_MCP_SERVER.args] } },
  };
  const hooks = {
    description: 'Cortex: the briefing at session start, related memories with each prompt, the memories anchored to each file read or edited, capture at each stop, compaction and session end.',
    hooks: claudeHookBlock(),
  };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return [
    { path: '.claude-plugin/plugin.json', text: json(manifest) },
    { path: 'hooks/hooks.json', text: json(hooks) },
    ...CLAUDE_SKILLS.map((name) => ({ path: skillPath(name), text: renderSkill(name) })),
  ];
}
