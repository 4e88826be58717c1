import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempRepo } from '../../test/helpers/repo.js';
import { readHead } from './head.js';
import { readHeadFile } from './head-file.js';

describe('readHeadFile', () => {
  it('agrees with git on a branch, after pack-refs, detached, unborn, in a linked worktree, and outside a repository', async () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    expect(readHeadFile(repo.dir)).toEqual({ branch: 'main', commit: undefined });
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'one']);
    const sha = () => repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(readHeadFile(repo.dir)).toEqual({ branch: 'main', commit: sha() });
    expect(readHeadFile(join(repo.dir, '.git', '..'))).toEqual({ branch: 'main', commit: sha() });

    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.git(['pack-refs', '--all']);
    expect(readHeadFile(repo.dir)).toEqual({ branch: 'feat/x', commit: sha() });
    const head = await readHead(repo.dir);
    expect(readHeadFile(repo.dir)).toEqual({ branch: head.branch, commit: head.commit });

    repo.git(['checkout', '-q', '--detach']);
    expect(readHeadFile(repo.dir)).toEqual({ commit: sha() });

    const wt = join(repo.home, 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    repo.git(['-C', wt, 'add', '.']);
    repo.git(['-C', wt, 'commit', '-q', '-m', 'two']);
    expect(readHeadFile(wt)).toEqual({ branch: 'side', commit: repo.git(['-C', wt, 'rev-parse', 'HEAD']).stdout.trim() });

    expect(readHeadFile(repo.home)).toEqual({});
  });
});
