import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The end-to-end tests install packages: `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test files spend their time waiting on child processes (the built CLI, git, a
    // browser), not on a core: vitest's default of one worker per core less one leaves a
    // 2-core machine running them one at a time.
    maxWorkers: Math.max(2, availableParallelism() + 1),
  },
});
