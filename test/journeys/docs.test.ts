/**
 * Journey: a new user reads README and docs/ in a fresh clone (issue 37). What they say
 * about the Claude Code hooks agrees with the hook table in the code, and every relative
 * link leads to a file the clone has (not a gitignored one, which a clone never has).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_EVENT_NAMES, HOOK_EVENTS } from '../../src/core/hook-events.js';
import { REPO_ROOT } from '../helpers/repo.js';

const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('journey: the docs agree with the tool', () => {
  it('every count of Claude Code hooks in README and docs/ is the number of hook events, and the templates register exactly those events', () => {
    const names = HOOK_EVENTS.map((e) => CLAUDE_EVENT_NAMES[e]);
    for (const file of ['templates/claude/settings.json', 'plugin/hooks/hooks.json']) {
      const hooks = (JSON.parse(read(file)) as { hooks: Record<string, unknown> }).hooks;
      expect(Object.keys(hooks).sort(), file).toEqual([...names].sort());
    }
    const counts: string[] = [];
    for (const file of DOCS) {
      for (const m of read(file).matchAll(/\b(one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:Claude Code\s+)?hooks\b/gi)) {
        const before = read(file).slice(Math.max(0, m.index - 12), m.index);
        if (/git\s*$/i.test(before)) continue;
        counts.push(`${file}: ${m[0]}`);
        expect(NUMBERS.indexOf(m[1]!.toLowerCase()), `${file}: "${m[0]}"`).toBe(HOOK_EVENTS.length);
      }
    }
    expect(counts.length).toBeGreaterThan(0);
    // The README's hook table names every event.
    const readme = read('README.md');
    for (const name of names) expect(readme, name).toMatch(new RegExp(`^\\| [^|]*\\b${name}\\b`, 'm'));
  });

  it('every relative link in README and docs/ resolves to a file a fresh clone has', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      const text = read(file).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const path = resolve(REPO_ROOT, dirname(file), decodeURIComponent(target.split('#')[0]!));
        const rel = relative(REPO_ROOT, path);
        if (!existsSync(path)) broken.push(`${file}: ${target} (missing)`);
        else if (spawnSync('git', ['check-ignore', '-q', rel], { cwd: REPO_ROOT }).status === 0) broken.push(`${file}: ${target} (gitignored: a clone does not have it)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
