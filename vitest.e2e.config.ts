import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: the packed tarball installed with npm, and Cortex inside the real Claude
// Code (test/e2e/). Apart from `npm test` because it installs packages from the npm registry.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One file at a time: npm installs beside three Claude Code sessions overload a 2-core
    // runner (hooks then hit their timeouts). Each file runs its own work concurrently.
    fileParallelism: false,
  },
});
