import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { gitCommonDir, localTierDir } from './paths.js';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();
}

describe('gitCommonDir and localTierDir', () => {
  it('agree with `git rev-parse --git-common-dir` in a clone and a linked work tree, and place a sub-project apart', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'cortex-paths-')));
    onTestFinished(() => rmSync(base, { recursive: true, force: true }));
    const repo = join(base, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q', '-b', 'main']);
    git(repo, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'x']);
    const wt = join(base, 'wt');
    git(repo, ['worktree', 'add', '-q', '-b', 'feature', wt]);
    const common = git(repo, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
    expect(gitCommonDir(repo)).toBe(common);
    expect(gitCommonDir(wt)).toBe(git(wt, ['rev-parse', '--path-format=absolute', '--git-common-dir']));
    expect(gitCommonDir(wt)).toBe(common);
    expect(localTierDir(repo)).toEqual({ dir: join(common, 'cortex', 'local'), legacy: join(repo, '.cortex', 'local'), inGitDir: true });
    expect(localTierDir(wt).dir).toBe(join(common, 'cortex', 'local'));
    mkdirSync(join(repo, 'packages', 'app'), { recursive: true });
    expect(localTierDir(join(repo, 'packages', 'app')).dir).toBe(join(common, 'cortex', 'sub', 'packages', 'app', 'local'));
    const plain = join(base, 'plain');
    mkdirSync(plain);
    expect(gitCommonDir(plain)).toBeUndefined();
    expect(localTierDir(plain)).toEqual({ dir: join(plain, '.cortex', 'local'), legacy: join(plain, '.cortex', 'local'), inGitDir: false });
  });
});
