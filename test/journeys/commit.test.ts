/**
 * Journey: a Claude session captures memories, then the person commits with git as usual.
 * The commit takes the memories and the regenerated projections; `git commit <path>`,
 * `--only` and `--amend` do what git users expect; `git stash` and `rebase --autostash`
 * work with captured and remembered memories in the work tree (docs/git.md, "Committing
 * memories").
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSession, committed, journeyRepo, ok, status } from './journey.js';

const DECISION = { type: 'decision', text: 'Workers use the Postgres job table, not Redis, so deploys need no extra daemon.' };
const GOTCHA = { type: 'gotcha', text: 'The billing export runs in UTC, never in the server local time zone.' };

/** Memory and edge files the work tree has that git does not track. */
function untrackedCortex(lines: string[]): string[] {
  return lines.filter((l) => l.startsWith('?? .cortex/')).map((l) => l.slice(3));
}

describe('journey: session → git commit', { timeout: 240_000 }, () => {
  it('git commit -am takes the captured memory and the regenerated decisions.md in one commit, and leaves nothing behind', async () => {
    const repo = journeyRepo();
    await claudeSession(repo, 'feature-work', [DECISION]);
    repo.write('src/app.ts', 'export const app = 2;\n');
    const memories = untrackedCortex(status(repo)).filter((f) => f.startsWith('.cortex/memories/'));
    expect(memories).toHaveLength(1);

    const commit = ok(repo.git(['commit', '-am', 'Move the workers to the job table']));
    expect(commit.stderr).toContain(memories[0]);
    expect(committed(repo)).toEqual(expect.arrayContaining(['.cortex/decisions.md', memories[0]!, 'src/app.ts']));
    expect(ok(repo.git(['show', 'HEAD:.cortex/decisions.md'])).stdout).toContain('Workers use the Postgres job table');
    expect(status(repo)).toEqual([]);
    ok(repo.cortex(['project', '--check']));
  });

  it('a commit of nothing but a session takes its memories; it is never an empty commit', async () => {
    const repo = journeyRepo();
    await claudeSession(repo, 'only-memory', [DECISION]);
    ok(repo.git(['commit', '-am', 'What the session settled']));
    const files = committed(repo);
    expect(files.some((f) => f.startsWith('.cortex/memories/'))).toBe(true);
    expect(files).toContain('.cortex/decisions.md');
    expect(status(repo)).toEqual([]);
    // Nothing left to take: git says so, as it always does.
    const again = repo.git(['commit', '-am', 'again']);
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toMatch(/nothing to commit/);
  });

  it('cortex remember && git commit -am commits a memory even when nothing else changed', () => {
    const repo = journeyRepo();
    const made = JSON.parse(ok(repo.cortex(['remember', GOTCHA.text, '--type', 'gotcha', '--no-link', '--json'])).stdout) as { file: string };
    ok(repo.git(['commit', '-am', 'Notes']));
    expect(committed(repo)).toEqual([made.file]);
    expect(status(repo)).toEqual([]);
  });

  it('captured memories alone, nothing git tracks changed: git stops before its hooks can add them, and cortex says how to commit them', async () => {
    const repo = journeyRepo();
    await claudeSession(repo, 'talk-only', [GOTCHA]);
    const memories = untrackedCortex(status(repo));
    expect(memories.length).toBeGreaterThan(0);
    expect(status(repo).filter((l) => !l.startsWith('??'))).toEqual([]);
    const refused = repo.git(['commit', '-am', 'Notes']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toMatch(/nothing added to commit/);
    expect(refused.stderr).toContain('git add .cortex/memories .cortex/edges && git commit');
    ok(repo.git(['add', '.cortex/memories', '.cortex/edges']));
    ok(repo.git(['commit', '-m', 'Notes']));
    expect(committed(repo)).toEqual(memories);
    expect(status(repo)).toEqual([]);
  });

  it('a plain git commit takes the memories with what was staged', async () => {
    const repo = journeyRepo();
    await claudeSession(repo, 'plain', [DECISION]);
    repo.write('src/app.ts', 'export const app = 3;\n');
    ok(repo.git(['add', 'src/app.ts']));
    ok(repo.git(['commit', '-m', 'Staged code']));
    expect(committed(repo)).toEqual(expect.arrayContaining(['.cortex/decisions.md', 'src/app.ts']));
    expect(committed(repo).some((f) => f.startsWith('.cortex/memories/'))).toBe(true);
    expect(status(repo)).toEqual([]);
  });

  it('git commit <path> and --only commit only the paths named; the memories wait for the next whole commit', async () => {
    const repo = journeyRepo({ 'src/other.ts': 'export const other = 1;\n' });
    await claudeSession(repo, 'partial', [DECISION]);
    repo.write('src/app.ts', 'export const app = 4;\n');
    repo.write('src/other.ts', 'export const other = 2;\n');
    const memories = untrackedCortex(status(repo));

    ok(repo.git(['commit', '-m', 'Only app', 'src/app.ts']));
    expect(committed(repo)).toEqual(['src/app.ts']);
    ok(repo.git(['commit', '--only', '-m', 'Only other', 'src/other.ts']));
    expect(committed(repo)).toEqual(['src/other.ts']);
    expect(untrackedCortex(status(repo))).toEqual(memories);
    ok(repo.cortex(['project', '--check']));
    expect(status(repo).filter((l) => !l.startsWith('??'))).toEqual([' M .cortex/decisions.md']);

    ok(repo.git(['commit', '-am', 'The session']));
    expect(committed(repo)).toEqual(expect.arrayContaining(['.cortex/decisions.md', ...memories]));
    expect(status(repo)).toEqual([]);
  });

  it('git commit --amend takes the memories captured since into the amended commit', async () => {
    const repo = journeyRepo();
    repo.write('src/app.ts', 'export const app = 5;\n');
    ok(repo.git(['commit', '-qam', 'Code first']));
    await claudeSession(repo, 'amend', [DECISION]);
    ok(repo.git(['commit', '--amend', '--no-edit']));
    expect(committed(repo)).toEqual(expect.arrayContaining(['.cortex/decisions.md', 'src/app.ts']));
    expect(committed(repo).some((f) => f.startsWith('.cortex/memories/'))).toBe(true);
    expect(ok(repo.git(['rev-list', '--count', 'HEAD'])).stdout.trim()).toBe('3');
    expect(status(repo)).toEqual([]);
  });

  it('git stash, stash pop and rebase --autostash work with captured and remembered memories present', async () => {
    const repo = journeyRepo();
    ok(repo.git(['checkout', '-q', '-b', 'topic']));
    await claudeSession(repo, 'stash', [DECISION]);
    ok(repo.cortex(['remember', GOTCHA.text, '--type', 'gotcha']));
    repo.write('src/app.ts', 'export const app = 6;\n');
    const before = status(repo);
    expect(before.filter((l) => l.includes(' .cortex/memories/')).length).toBe(2);

    ok(repo.git(['stash']));
    expect(status(repo).filter((l) => !l.startsWith('??'))).toEqual([]);
    ok(repo.git(['stash', 'pop']));
    expect(status(repo)).toEqual(before);

    // main moves on; the topic branch rebases onto it with the work tree stashed and back.
    ok(repo.git(['checkout', '-q', 'main']));
    repo.write('README.md', '# demo\n\nmore\n');
    ok(repo.git(['commit', '-qm', 'readme', 'README.md']));
    ok(repo.git(['checkout', '-q', 'topic']));
    ok(repo.git(['rebase', '--autostash', 'main']));
    expect(status(repo)).toEqual(before);
    ok(repo.git(['commit', '-am', 'Topic work']));
    expect(status(repo)).toEqual([]);
    expect(ok(repo.git(['show', 'HEAD:.cortex/decisions.md'])).stdout).toContain('Workers use the Postgres job table');
  });

  it('a repository from the previous release upgrades: its intent-to-add entries become staged entries (said once), and git stash works again', async () => {
    const repo = journeyRepo();
    const made = JSON.parse(ok(repo.cortex(['remember', GOTCHA.text, '--type', 'gotcha', '--no-link', '--json'])).stdout) as { file: string };
    // What the previous release's `remember` left in the index.
    ok(repo.git(['rm', '-q', '--cached', made.file]));
    ok(repo.git(['add', '--intent-to-add', made.file]));
    repo.write('src/app.ts', 'export const app = 7;\n');
    expect(repo.git(['stash']).stderr).toContain('Cannot save the current worktree state');

    const init = ok(repo.cortex(['init']));
    expect(init.stdout + init.stderr).toContain('staged the 1 .cortex/ file(s) an earlier Cortex had marked intent-to-add');
    expect(status(repo)).toContain(`A  ${made.file}`);
    const again = ok(repo.cortex(['init']));
    expect(again.stdout + again.stderr).not.toContain('intent-to-add');
    ok(repo.git(['stash']));
    ok(repo.git(['stash', 'pop']));
    ok(repo.git(['commit', '-am', 'After the upgrade']));
    expect(committed(repo)).toEqual(expect.arrayContaining([made.file, 'src/app.ts']));
    expect(status(repo)).toEqual([]);
  });

  it('after the upgrade the first remember stages the intent-to-add entries too, without cortex init', async () => {
    const repo = journeyRepo();
    const old = JSON.parse(ok(repo.cortex(['remember', GOTCHA.text, '--type', 'gotcha', '--no-link', '--json'])).stdout) as { file: string };
    ok(repo.git(['rm', '-q', '--cached', old.file]));
    ok(repo.git(['add', '--intent-to-add', old.file]));
    // The clone's mark that it was upgraded, as if this were the previous release's `.memory/`.
    rmSync(join(repo.dir, '.memory/intent-to-add-dropped'), { force: true });
    ok(repo.cortex(['remember', DECISION.text, '--type', 'decision', '--no-link']));
    expect(status(repo).filter((l) => l.includes('.cortex/memories/'))).toEqual(expect.arrayContaining([`A  ${old.file}`]));
    expect(status(repo).every((l) => !l.startsWith(' A'))).toBe(true);
    repo.write('src/app.ts', 'export const app = 8;\n');
    ok(repo.git(['stash']));
    ok(repo.git(['stash', 'pop']));
  });
});
