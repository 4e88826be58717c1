/**
 * The Claude Code plugin in plugin/ and the marketplace in .claude-plugin/: generated from
 * the same templates as `cortex init --claude`, and in step with them. (The real Claude Code
 * validates and loads them in test/e2e/claude-code.e2e.test.ts.)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { claudeHookBlock } from '../src/setup/claude-setup.js';
import { CLAUDE_SKILLS, renderClaudePlugin } from '../src/setup/claude-plugin.js';
import { REPO_ROOT } from './helpers/repo.js';

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('plugin/', () => {
  it('holds exactly what the templates render (run `npm run plugin` after editing templates/claude/)', () => {
    for (const file of renderClaudePlugin()) expect(read(`plugin/${file.path}`), file.path).toBe(file.text);
    expect(readdirSync(join(REPO_ROOT, 'plugin/skills')).sort()).toEqual([...CLAUDE_SKILLS].sort());
  });

  it('carries the package version, the hooks of templates/claude/settings.json and the MCP server', () => {
    const pkg = JSON.parse(read('package.json')) as { version: string; files: string[] };
    const manifest = JSON.parse(read('plugin/.claude-plugin/plugin.json')) as { name: string; version: string; mcpServers: Record<string, unknown> };
    expect(manifest).toMatchObject({ name: 'cortex', version: pkg.version, mcpServers: { cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: true } } });
    expect((JSON.parse(read('plugin/hooks/hooks.json')) as { hooks: unknown }).hooks).toEqual(claudeHookBlock());
    // The npm package ships the plugin, so `claude --plugin-dir $(npm root -g)/cortex-memory/plugin` works.
    expect(pkg.files).toContain('plugin');
  });

  it('skills have frontmatter that strict YAML parsers read (name, description, quoted values)', () => {
    for (const name of CLAUDE_SKILLS) {
      const text = read(`plugin/skills/${name}/SKILL.md`);
      const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1];
      expect(front, name).toBeDefined();
      const data = parseYaml(front!, { strict: true }) as Record<string, unknown>;
      expect(data).toMatchObject({ name, description: expect.any(String), 'argument-hint': expect.any(String) });
      expect(matter(text).data).toEqual(data);
      expect(text).not.toContain('{{');
    }
  });

  it('is listed by the marketplace at the repository root', () => {
    const market = JSON.parse(read('.claude-plugin/marketplace.json')) as { name: string; plugins: { name: string; source: string }[] };
    expect(market.plugins).toEqual([expect.objectContaining({ name: 'cortex', source: './plugin' })]);
    expect(existsSync(join(REPO_ROOT, market.plugins[0]!.source, '.claude-plugin/plugin.json'))).toBe(true);
  });
});
