/**
 * Git's revision syntax wherever cortex takes a revision (`diff`, `recall --branch`):
 * resolved by `git rev-parse` when git is installed, by the in-process parser otherwise.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { diffRange } from '../src/api/diff.js';
import { remember } from '../src/api/remember.js';
import { project } from '../src/api/project.js';
import { json, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

function ok(r: RunResult, what = 'command'): RunResult {
  expect(r.code, `${what} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

async function commitMemory(repo: TempRepo, summary: string): Promise<string> {
  const ctx = openContext({ dir: repo.dir, env: repo.env });
  const { memory } = await remember(ctx, { summary, type: 'decision', autoLink: false });
  await project(ctx);
  ok(repo.git(['add', '-A']));
  ok(repo.git(['commit', '-q', '-m', summary]));
  return memory.id;
}

/** A PATH holding node but not git: the in-process resolver. */
function noGitPath(repo: TempRepo): string {
  const bin = join(repo.home, 'bin-without-git');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

/** Runs `fn` with git off PATH for this process (spawned git fails with ENOENT). */
async function withoutGit<T>(bin: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = bin;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

describe('revision syntax', () => {
  it('diff understands HEAD~1, main^, main~2, @{u} and A...B, with or without the git command', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    ok(repo.cortex(['init']));
    ok(repo.git(['add', '-A']));
    ok(repo.git(['commit', '-q', '-m', 'init']));
    const first = await commitMemory(repo, 'Chose SQLite over Postgres');
    const second = await commitMemory(repo, 'Use pnpm workspaces');
    const third = await commitMemory(repo, 'Ship the CLI before the MCP server');
    ok(repo.git(['tag', 'v1', 'HEAD~1']));
    const bin = noGitPath(repo);
    const ctx = openContext({ dir: repo.dir, env: repo.env });
    const added = async (range: string) => (await diffRange(ctx, { range })).memories.map((m) => m.id).sort();
    const short = repo.git(['rev-parse', '--short', 'HEAD~2']).stdout.trim();
    const cases = async () => {
      expect(await added('HEAD~1..HEAD')).toEqual([third]);
      expect(await added('main^..main')).toEqual([third]);
      expect(await added('main~2..main')).toEqual([second, third].sort());
      expect(await added('main~3...main')).toEqual([first, second, third].sort());
      expect(await added('v1^..v1')).toEqual([second]);
      expect(await added('v1^{commit}~1^0..@')).toEqual([second, third].sort());
      expect(await added(short)).toEqual([second, third].sort());
    };
    await cases();
    await withoutGit(bin, cases);
    // The built CLI, as people type it.
    const cli = json<{ memories: { id: string }[] }>(ok(repo.cortex(['diff', 'HEAD~1..HEAD', '--json'])));
    expect(cli.memories.map((m) => m.id)).toEqual([third]);

    ok(repo.git(['checkout', '-q', '-b', 'feature', 'HEAD~2']));
    ok(repo.git(['config', 'branch.feature.remote', '.']));
    ok(repo.git(['config', 'branch.feature.merge', 'refs/heads/main']));
    const upstream = async () => {
      // What main (the upstream) adds since feature left it.
      expect(await added('HEAD...@{u}')).toEqual([second, third].sort());
      expect(await added('@{upstream}~1..@{u}')).toEqual([third]);
    };
    await upstream();
    await withoutGit(bin, upstream);
    const recalled = json<{ results: { id: string }[] }>(ok(repo.cortex(['recall', 'pnpm workspaces', '--branch', 'main~1', '--json'])));
    expect(recalled.results.map((r) => r.id)).toContain(second);

    const bad = repo.cortex(['diff', 'main~9..main']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown revision "main~9"');
    await withoutGit(bin, async () => {
      await expect(added('main~9..main')).rejects.toThrow('Unknown revision "main~9": the history ends 3 commits back');
      await expect(added('main@{yesterday}..main')).rejects.toThrow('needs the git command');
      await expect(added('nope..main')).rejects.toThrow('Unknown revision "nope"');
    });
  });
});
