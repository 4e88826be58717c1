/**
 * Assistants without Cortex hooks (Codex CLI, Cursor, Gemini CLI, Copilot) read the briefing
 * from their rules files: `cortex surface --target` puts it there once, and the git hooks keep
 * it current as branches switch and merge.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, tempRepo } from './helpers/repo.js';

const START = '<!-- CORTEX_MEMORY_START -->';

describe('rules files of other assistants', () => {
  it('surface --target writes AGENTS.md (keeping what a person wrote) and a Cursor rule with its frontmatter; post-merge and post-checkout keep them current', () => {
    const repo = tempRepo({ 'AGENTS.md': '# Agents\n\nRun `npm test` before committing.\n', 'GEMINI.md': '# Gemini\n\nNo briefing here.\n' });
    expect(repo.cortex(['init']).code).toBe(0);
    expect(repo.cortex(['remember', 'Chose SQLite over PostgreSQL because zero-config matters most', '--type', 'decision']).code).toBe(0);
    const wrote = json<{ written: { file: string; action: string }[] }>(repo.cortex(['surface', '--target', 'AGENTS.md', '--target', '.cursor/rules/cortex.mdc', '--json']));
    expect(wrote.written).toEqual([
      { file: 'AGENTS.md', action: 'updated' },
      { file: '.cursor/rules/cortex.mdc', action: 'created' },
    ]);
    expect(repo.read('AGENTS.md')).toMatch(/^# Agents\n\nRun `npm test` before committing.\n\n<!-- CORTEX_MEMORY_START -->[\s\S]*Chose SQLite over PostgreSQL/);
    expect(repo.read('.cursor/rules/cortex.mdc')).toMatch(/^---\ndescription: .+\nalwaysApply: true\n---\n\n<!-- CORTEX_MEMORY_START -->/);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-q', '-m', 'memory and rules files']).code).toBe(0);

    // Another branch learns something; its commit leaves the rules files as they were.
    repo.git(['checkout', '-q', '-b', 'feat']);
    expect(repo.cortex(['remember', 'The fixture clock runs in UTC, never local time', '--type', 'gotcha']).code).toBe(0);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-q', '-m', 'a gotcha']).code).toBe(0);
    expect(repo.read('AGENTS.md')).not.toContain('fixture clock');

    // Switching branches: post-checkout writes the briefing of the branch checked out.
    const toFeat = repo.git(['checkout', '-q', 'main']);
    expect(toFeat.code).toBe(0);
    expect(repo.read('AGENTS.md')).not.toContain('fixture clock');
    const back = repo.git(['checkout', '-q', 'feat']);
    expect(back.stderr).toMatch(/refreshed the memory briefing in AGENTS\.md, \.cursor\/rules\/cortex\.mdc/);
    expect(repo.read('AGENTS.md')).toContain('The fixture clock runs in UTC');
    expect(repo.read('.cursor/rules/cortex.mdc')).toContain('The fixture clock runs in UTC');
    repo.git(['checkout', '-q', '--', 'AGENTS.md', '.cursor/rules/cortex.mdc']);

    // Merging: post-merge brings main's rules files up to the merged memories.
    expect(repo.git(['checkout', '-q', 'main']).code).toBe(0);
    const merge = repo.git(['merge', '-q', '--no-ff', '-m', 'merge feat', 'feat']);
    expect(merge.code, merge.stderr).toBe(0);
    const agents = repo.read('AGENTS.md');
    expect(agents.startsWith('# Agents\n\nRun `npm test` before committing.\n\n')).toBe(true);
    expect(agents).toContain('Chose SQLite over PostgreSQL');
    expect(agents).toContain('The fixture clock runs in UTC');
    expect(agents.split(START).length - 1).toBe(1);
    // Files without a briefing are not touched, and none is created.
    expect(repo.read('GEMINI.md')).toBe('# Gemini\n\nNo briefing here.\n');
    expect(existsSync(join(repo.dir, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(join(repo.dir, '.github'))).toBe(false);
  });

  it('a rules file whose markers are broken is left alone and the git operation goes on', () => {
    const repo = tempRepo();
    expect(repo.cortex(['init']).code).toBe(0);
    expect(repo.cortex(['remember', 'Chose SQLite over PostgreSQL because zero-config matters most', '--type', 'decision']).code).toBe(0);
    repo.write('AGENTS.md', `# Agents\n\n${START}\nhalf a briefing, no end marker\n`);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-q', '-m', 'x']).code).toBe(0);
    repo.git(['checkout', '-q', '-b', 'other']);
    expect(repo.cortex(['remember', 'Another decision about the queue', '--type', 'decision']).code).toBe(0);
    repo.git(['add', '-A']);
    expect(repo.git(['commit', '-q', '-m', 'y']).code).toBe(0);
    const r = repo.git(['checkout', '-q', 'main']);
    expect(r.code).toBe(0);
    expect(repo.read('AGENTS.md')).toBe(`# Agents\n\n${START}\nhalf a briefing, no end marker\n`);
  });
});
