/**
 * A committed repository with Cortex initialised in-process (kept apart from repo.ts so the
 * many tests that only need git do not load the set-up code).
 */
import { init } from '../../src/setup/init.js';
import { tempRepo, type TempRepo } from './repo.js';

/** A committed repository with `cortex init` run in-process and committed too. */
export async function cortexRepo(): Promise<TempRepo> {
  const repo = tempRepo({ 'README.md': '# test\n' });
  repo.git(['add', '.']);
  repo.git(['commit', '-q', '-m', 'init']);
  await init({ dir: repo.dir, env: repo.env });
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'cortex init']);
  return repo;
}
