/**
 * Journey: a second developer. They clone, run `cortex init`, get their teammate's memories
 * with a pull, and both change the same memory on their own branches; the merge keeps both
 * versions (conflict markers, nothing dropped) and, once resolved, the commit has projections
 * regenerated from the merged memories. A teammate without Cortex (no merge driver) merges
 * too, and the next `cortex project` (or `cortex init`) repairs the projections — or, with no
 * command typed, the next Claude session of someone with Cortex who pulls the merge.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { briefing, claudeSession, journeyRepo, ok } from './journey.js';

describe('journey: a second developer', { timeout: 400_000 }, () => {
  it('clone, init, pull; both change the same memory on their branches; the merge loses nothing and the commit is in sync', () => {
    const alice = journeyRepo();
    const remote = join(alice.home, 'origin.git');
    ok(alice.git(['init', '-q', '--bare', remote]));
    ok(alice.git(['remote', 'add', 'origin', remote]));
    ok(alice.cortex(['remember', 'Release plan: step 1 of 3, freeze the schema', '--type', 'plan', '--topic', 'plan/release', '--no-link']));
    ok(alice.git(['commit', '-qam', 'Release plan']));
    ok(alice.git(['push', '-q', '-u', 'origin', 'main']));

    // Bob clones and runs `cortex init`, as the README says every clone must.
    const bobDir = join(alice.home, 'bob');
    ok(alice.git(['clone', '-q', remote, bobDir]));
    const bob = (args: string[]) => alice.cortex(args, { cwd: bobDir });
    const bobGit = (args: string[]) => alice.git(['-C', bobDir, ...args]);
    ok(bob(['init']));
    expect(briefing(alice, 'bob-1', bobDir)).toContain('Release plan: step 1 of 3');

    // Alice moves the plan on her branch and pushes it.
    ok(alice.git(['checkout', '-q', '-b', 'alice']));
    ok(alice.cortex(['remember', 'Release plan: step 2 of 3, migrate the billing tables', '--type', 'plan', '--topic', 'plan/release', '--no-link']));
    ok(alice.git(['commit', '-qam', 'Plan: step 2 (alice)']));
    ok(alice.git(['push', '-q', '-u', 'origin', 'alice']));

    // Bob moves the same plan differently on his.
    ok(bobGit(['checkout', '-q', '-b', 'bob']));
    ok(bob(['remember', 'Release plan: step 2 of 3, write the rollback script', '--type', 'plan', '--topic', 'plan/release', '--no-link']));
    ok(bobGit(['commit', '-qam', 'Plan: step 2 (bob)']));
    ok(bobGit(['fetch', '-q', 'origin']));
    const merge = bobGit(['merge', '--no-edit', 'origin/alice']);
    expect(merge.code).not.toBe(0);
    expect(merge.stdout + merge.stderr).toMatch(/CONFLICT/);
    const conflicted = ok(bobGit(['diff', '--name-only', '--diff-filter=U'])).stdout.trim();
    expect(conflicted).toMatch(/^\.cortex\/memories\/release-plan-step-1-of-3/);
    // Nothing lost: both versions are in the file, between conflict markers.
    const text = readFileSync(join(bobDir, conflicted), 'utf8');
    expect(text).toContain('migrate the billing tables');
    expect(text).toContain('write the rollback script');
    expect(text).toMatch(/^<{7} /m);

    // Bob resolves it (both steps kept) and commits: the pre-commit hook regenerates plan.md
    // from the merged memory.
    writeFileSync(
      join(bobDir, conflicted),
      ok(bobGit(['show', `:3:${conflicted}`])).stdout.replace('step 2 of 3, migrate the billing tables', 'step 2 of 3, migrate the billing tables and write the rollback script'),
    );
    ok(bobGit(['add', conflicted]));
    ok(bobGit(['commit', '-q', '--no-edit']));
    expect(ok(bobGit(['status', '--porcelain'])).stdout).toBe('');
    ok(bob(['project', '--check']));
    expect(ok(bobGit(['show', 'HEAD:.cortex/plan.md'])).stdout).toContain('migrate the billing tables and write the rollback script');
    expect(briefing(alice, 'bob-2', bobDir)).toContain('migrate the billing tables and write the rollback script');
  });

  it('a teammate without Cortex merges two branches that both added decisions; the next cortex project repairs the projections', () => {
    // Carol has no Cortex: no `cortex init`, so no merge driver and no hooks in her clone.
    const { alice, carolDir, carolGit } = twoDecisionsAndACloneWithoutCortex();
    const merge = carolGit(['merge', '--no-edit', 'origin/alice']);
    if (merge.code !== 0) {
      // git's text merge of the projection: she keeps one side to get on with it.
      expect(ok(carolGit(['diff', '--name-only', '--diff-filter=U'])).stdout.trim()).toBe('.cortex/decisions.md');
      ok(carolGit(['checkout', '--ours', '.cortex/decisions.md']));
      ok(carolGit(['add', '.cortex/decisions.md']));
      ok(carolGit(['commit', '-q', '--no-edit']));
    }
    // Both memories arrived (separate files); the projection may lack one.
    expect(ok(carolGit(['ls-files', '.cortex/memories'])).stdout.split('\n').filter((f) => f.endsWith('.md')).length).toBe(2);
    const carol = (args: string[]) => alice.cortex(args, { cwd: carolDir });
    // The next cortex run in that clone repairs what the driver would have done.
    ok(carol(['project']));
    ok(carol(['project', '--check']));
    const decisions = readFileSync(join(carolDir, '.cortex/decisions.md'), 'utf8');
    expect(decisions).toContain('Chose Postgres advisory locks');
    expect(decisions).toContain('Chose UTC timestamps everywhere');
    expect(decisions.match(/Chose Postgres advisory locks/g)).toHaveLength(1);
  });

  it('a teammate without Cortex merges and pushes; the next Claude session of someone with Cortex (its hooks, no cortex command typed) repairs the projections', async () => {
    // Carol has no Cortex: she merges with git alone, keeps her side of the projection, pushes.
    const { alice, carolGit } = twoDecisionsAndACloneWithoutCortex();
    if (carolGit(['merge', '--no-edit', 'origin/alice']).code !== 0) {
      ok(carolGit(['checkout', '--ours', '.cortex/decisions.md']));
      ok(carolGit(['add', '.cortex/decisions.md']));
      ok(carolGit(['commit', '-q', '--no-edit']));
    }
    ok(carolGit(['push', '-q', 'origin', 'main']));
    const pushed = ok(carolGit(['show', 'HEAD:.cortex/decisions.md'])).stdout;
    expect(pushed.includes('Chose Postgres advisory locks') && pushed.includes('Chose UTC timestamps')).toBe(false);

    // Alice pulls it and simply works: her next session's briefing has both decisions, and
    // the session's end regenerates the projection, so her next commit carries it repaired.
    ok(alice.git(['pull', '-q', '--no-rebase', 'origin', 'main']));
    const brief = briefing(alice, 'after-pull');
    expect(brief).toContain('Chose Postgres advisory locks');
    expect(brief).toContain('Chose UTC timestamps everywhere');
    await claudeSession(alice, 'after-pull', [{ type: 'decision', text: 'Job retries back off exponentially, capped at ten minutes.' }]);
    const decisions = readFileSync(join(alice.dir, '.cortex/decisions.md'), 'utf8');
    for (const d of ['Chose Postgres advisory locks', 'Chose UTC timestamps everywhere', 'Job retries back off exponentially']) expect(decisions).toContain(d);
    expect(decisions.match(/Chose Postgres advisory locks/g)).toHaveLength(1);
    ok(alice.cortex(['project', '--check']));
    ok(alice.git(['commit', '-qam', 'after the pull']));
    expect(ok(alice.git(['show', 'HEAD:.cortex/decisions.md'])).stdout).toContain('Chose Postgres advisory locks');
  });

  it('in a git worktree: a session captures there, its .memory/ and session state are its own, and git commit -am takes the memory', async () => {
    const repo = journeyRepo();
    const other = join(repo.home, 'wt-feature');
    ok(repo.git(['worktree', 'add', '-q', '-b', 'feature', other]));
    await claudeSession(repo, 'in-worktree', [{ type: 'decision', text: 'Feature flags live in the config service, not in environment variables.' }], other);
    expect(existsSync(join(other, '.memory/transcripts/in-worktree.json'))).toBe(true);
    expect(existsSync(join(repo.dir, '.memory/transcripts/in-worktree.json'))).toBe(false);
    const wtGit = (args: string[]) => repo.git(['-C', other, ...args]);
    const commit = ok(wtGit(['commit', '-am', 'Flags decision']));
    expect(commit.stderr).toContain('added to this commit from .cortex/');
    expect(ok(wtGit(['status', '--porcelain'])).stdout).toBe('');
    expect(ok(wtGit(['show', 'HEAD:.cortex/decisions.md'])).stdout).toContain('Feature flags live in the config service');
    // The main work tree knows nothing of it until it merges the branch.
    expect(briefing(repo, 'main-1')).not.toContain('Feature flags live in the config service');
    ok(repo.git(['merge', '-q', '--no-edit', 'feature']));
    expect(briefing(repo, 'main-2')).toContain('Feature flags live in the config service');
  });
});

/**
 * Alice publishes a decision on branch `alice` and another on `main` (both pushed to a bare
 * origin); Carol clones it without Cortex (no init, no merge driver, no hooks).
 */
function twoDecisionsAndACloneWithoutCortex() {
  const alice = journeyRepo();
  const remote = join(alice.home, 'origin.git');
  ok(alice.git(['init', '-q', '--bare', remote]));
  ok(alice.git(['remote', 'add', 'origin', remote]));
  ok(alice.git(['push', '-q', '-u', 'origin', 'main']));
  ok(alice.git(['checkout', '-q', '-b', 'alice']));
  ok(alice.cortex(['remember', 'Chose Postgres advisory locks for the job queue', '--type', 'decision', '--no-link']));
  ok(alice.git(['commit', '-qam', 'queue decision']));
  ok(alice.git(['push', '-q', '-u', 'origin', 'alice']));
  ok(alice.git(['checkout', '-q', 'main']));
  ok(alice.cortex(['remember', 'Chose UTC timestamps everywhere in the API', '--type', 'decision', '--no-link']));
  ok(alice.git(['commit', '-qam', 'time decision']));
  ok(alice.git(['push', '-q', 'origin', 'main']));
  const carolDir = join(alice.home, 'carol');
  ok(alice.git(['clone', '-q', remote, carolDir]));
  const carolGit = (args: string[]) => alice.git(['-C', carolDir, ...args]);
  return { alice, carolDir, carolGit };
}
