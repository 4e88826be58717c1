/**
 * Marking new files for commit (`git add -N`): in the background while a `remember` links
 * the new memory (services/stage.ts), against real temporary repositories and real git.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { openContext } from '../src/services/context.js';
import { startMarking } from '../src/services/stage.js';
import { tempRepo, type TempRepo } from './helpers/repo.js';

/** `git status --porcelain` lines of the repository, sorted. */
function status(repo: TempRepo): string[] {
  return repo.git(['status', '--porcelain', '--untracked-files=all']).stdout.split('\n').filter(Boolean).sort();
}

describe('startMarking', () => {
  it('marks each batch intent-to-add, the later after the earlier, and says so once git is done', async () => {
    const repo = tempRepo({ '.cortex/memories/a.md': 'a\n', '.cortex/memories/b.md': 'b\n', '.cortex/edges/a--relates_to--b.md': 'e\n', 'other.md': 'o\n' });
    const marking = startMarking(openContext({ dir: repo.dir, env: repo.env }));
    marking.add(['.cortex/memories/a.md']);
    marking.add([join(repo.dir, '.cortex/memories/b.md'), '.cortex/memories/a.md']);
    marking.add(['.cortex/edges/a--relates_to--b.md']);
    expect(await marking.done()).toBe(true);
    expect(status(repo)).toEqual([' A .cortex/edges/a--relates_to--b.md', ' A .cortex/memories/a.md', ' A .cortex/memories/b.md', '?? other.md']);
  });

  it('is done at once with nothing to mark', async () => {
    const repo = tempRepo({ '.cortex/memories/.keep': '', 'x.md': 'x\n' });
    expect(await startMarking(openContext({ dir: repo.dir, env: repo.env })).done()).toBe(true);
    expect(status(repo)).toEqual(['?? .cortex/memories/.keep', '?? x.md']);
  });

  it('answers false for a file outside the repository, and still marks the others', async () => {
    const repo = tempRepo({ '.cortex/memories/.keep': '', 'in.md': 'i\n' });
    const outside = join(repo.home, 'outside.md');
    writeFileSync(outside, 'o\n');
    const marking = startMarking(openContext({ dir: repo.dir, env: repo.env }));
    marking.add(['in.md']);
    marking.add([outside]);
    expect(await marking.done()).toBe(false);
    expect(status(repo)).toEqual([' A in.md', '?? .cortex/memories/.keep']);
  });

  it('answers false outside a git repository, and when git refuses (an ignored file)', async () => {
    const plain = tempRepo({ '.cortex/memories/.keep': '', 'x.md': 'x\n' }, { git: false });
    const none = startMarking(openContext({ dir: plain.dir, env: plain.env }));
    none.add(['x.md']);
    expect(await none.done()).toBe(false);

    const repo = tempRepo({ '.cortex/memories/.keep': '', '.gitignore': 'ignored.md\n', 'ignored.md': 'i\n' });
    const refused = startMarking(openContext({ dir: repo.dir, env: repo.env }));
    refused.add(['ignored.md']);
    expect(await refused.done()).toBe(false);
    expect(status(repo)).toEqual(['?? .cortex/memories/.keep', '?? .gitignore']);
  });
});

// Made-up words (no stop words, no shared stems): the new memory shares a few with each.
const W = ['zephyr', 'quokka', 'lumen', 'vortex', 'nimbus', 'cobalt', 'tundra', 'saffron', 'ember', 'glyph'];

describe('Cortex.remember marks what it created', () => {
  it('the new memory and its auto-link edges are intent-to-add when it returns; a topic update adds nothing', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    repo.cortex(['init']);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    const near = await cortex.remember({ summary: `${W[1]} ${W[8]} caword cbword`, body: `${W[9]} daword dbword dcword`, type: 'context', autoLink: false });
    for (let i = 0; i < 12; i++) await cortex.remember({ summary: `${W[i % 4]} filler note ${i}`, body: `padding text number ${i}`, autoLink: false });
    const before = status(repo);
    expect(before).toContain(` A ${near.file}`);
    const made = await cortex.remember({ summary: W.slice(0, 4).join(' '), body: W.slice(4).join(' '), type: 'context' });
    const edges = made.links?.edges.map((e) => e.file) ?? [];
    expect(edges.length).toBeGreaterThan(0);
    expect(status(repo).filter((l) => !before.includes(l))).toEqual([made.file, ...edges].map((f) => ` A ${f}`).sort());

    const plan = await cortex.remember({ summary: 'Plan: step 1 of 3', type: 'plan', topic: 'plan/main', autoLink: false });
    const after = status(repo);
    expect(after).toContain(` A ${plan.file}`);
    const updated = await cortex.remember({ summary: 'Plan: step 2 of 3', type: 'plan', topic: 'plan/main', autoLink: false });
    expect(updated.action).toBe('updated');
    expect(status(repo)).toEqual(after);
  });
});
