/**
 * Journey: a memory anchored to a symbol (`--files src/pool.ts#Pool.acquire`), code that
 * changes on a branch, and a person switching branches without running `cortex index-code`
 * in between. The briefing Claude receives marks the memory `[POSSIBLY OUTDATED]` exactly on
 * the branch where the anchored code changed, whichever branch the code index was last built
 * on; and the cached briefing follows the commit, not only the branch name.
 */
import { describe, expect, it } from 'vitest';
import { briefing, journeyRepo, ok } from './journey.js';

const POOL = `export class Pool {
  private free: number[] = [];

  acquire(): number {
    const n = this.free.pop();
    return n === undefined ? -1 : n;
  }

  release(n: number): void {
    this.free.push(n);
  }
}
`;
const CHANGED = POOL.replace('return n === undefined ? -1 : n;', 'if (n === undefined) throw new Error("pool exhausted");\n    return n;');
const NOTE = 'Pool.acquire never throws: callers check for -1';

/** The briefing's line for the memory. */
function line(text: string): string {
  return text.split('\n').find((l) => l.includes(NOTE)) ?? expect.fail(`the briefing has no line for the memory:\n${text}`);
}

describe('journey: branch switch and anchor staleness', { timeout: 300_000 }, () => {
  it('marks the anchored memory outdated on the branch that changed the symbol only, with no index-code run in between', () => {
    const repo = journeyRepo({ 'src/pool.ts': POOL });
    ok(repo.cortex(['remember', NOTE, '--type', 'gotcha', '--files', 'src/pool.ts#Pool.acquire', '--no-link']));
    ok(repo.git(['add', '.cortex']));
    ok(repo.git(['commit', '-qm', 'Pool gotcha']));
    ok(repo.cortex(['index-code']));
    expect(line(briefing(repo, 's1'))).not.toContain('POSSIBLY OUTDATED');

    ok(repo.git(['checkout', '-q', '-b', 'strict-pool']));
    repo.write('src/pool.ts', CHANGED);
    ok(repo.git(['commit', '-qam', 'acquire throws when the pool is exhausted']));
    // No index-code since the change: the code checked out decides.
    expect(line(briefing(repo, 's2'))).toContain('POSSIBLY OUTDATED');

    // The code index is built here, on the branch where acquire changed …
    ok(repo.cortex(['index-code']));
    expect(line(briefing(repo, 's3'))).toMatch(/POSSIBLY OUTDATED.*Pool\.acquire/);
    // … and answers nothing for main, where acquire is as the memory knew it.
    ok(repo.git(['checkout', '-q', 'main']));
    expect(line(briefing(repo, 's4'))).not.toContain('POSSIBLY OUTDATED');
    ok(repo.git(['checkout', '-q', 'strict-pool']));
    expect(line(briefing(repo, 's5'))).toContain('POSSIBLY OUTDATED');
  });

  it('a new commit on the same branch is a new briefing: reverting the change clears the mark', () => {
    const repo = journeyRepo({ 'src/pool.ts': POOL });
    ok(repo.cortex(['remember', NOTE, '--type', 'gotcha', '--files', 'src/pool.ts#Pool.acquire', '--no-link']));
    ok(repo.git(['add', '.cortex']));
    ok(repo.git(['commit', '-qm', 'Pool gotcha']));
    repo.write('src/pool.ts', CHANGED);
    ok(repo.git(['commit', '-qam', 'acquire throws']));
    expect(line(briefing(repo, 'a'))).toContain('POSSIBLY OUTDATED');
    expect(line(briefing(repo, 'b'))).toContain('POSSIBLY OUTDATED');
    repo.write('src/pool.ts', POOL);
    ok(repo.git(['commit', '-qam', 'Revert: acquire returns -1 again']));
    expect(line(briefing(repo, 'c'))).not.toContain('POSSIBLY OUTDATED');
  });
});
