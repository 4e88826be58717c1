import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempRepo } from '../../test/helpers/repo.js';
import { readHead } from './head.js';

describe('readHead', () => {
  it('agrees with git on a branch, after pack-refs, detached, unborn, in a linked worktree, and outside a repository', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    const at = (dir: string) => ({ isRepo: true, gitRoot: dir, detached: false, unborn: false });
    expect(readHead(repo.dir)).toEqual({ ...at(repo.dir), branch: 'main', commit: undefined, unborn: true });
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'one']);
    const sha = () => repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(readHead(repo.dir)).toEqual({ ...at(repo.dir), branch: 'main', commit: sha() });
    expect(readHead(join(repo.dir, 'sub-does-not-matter'))).toEqual({ ...at(repo.dir), branch: 'main', commit: sha() });

    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.git(['pack-refs', '--all']);
    expect(readHead(repo.dir)).toEqual({ ...at(repo.dir), branch: 'feat/x', commit: sha() });
    expect(repo.git(['symbolic-ref', '--short', 'HEAD']).stdout.trim()).toBe('feat/x');
    // HEAD alone: the branch, without reading the refs.
    expect(readHead(repo.dir, { resolve: false })).toEqual({ ...at(repo.dir), branch: 'feat/x' });

    repo.git(['checkout', '-q', '--detach']);
    expect(readHead(repo.dir)).toEqual({ ...at(repo.dir), commit: sha(), detached: true });
    expect(readHead(repo.dir, { resolve: false })).toEqual({ ...at(repo.dir), commit: sha(), detached: true });
    repo.git(['checkout', '-q', 'feat/x']);

    const wt = join(repo.home, 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    repo.git(['-C', wt, 'add', '.']);
    repo.git(['-C', wt, 'commit', '-q', '-m', 'two']);
    expect(readHead(wt)).toEqual({ ...at(wt), branch: 'side', commit: repo.git(['-C', wt, 'rev-parse', 'HEAD']).stdout.trim() });

    expect(readHead(repo.home)).toEqual({ isRepo: false, detached: false, unborn: false });
  });

  it('gives neither branch nor commit for a HEAD it cannot read', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(repo.dir, '.git', 'HEAD'), 'garbage\n');
    expect(readHead(repo.dir)).toEqual({ isRepo: true, gitRoot: repo.dir, detached: false, unborn: true });
  });
});
