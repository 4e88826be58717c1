import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The end-to-end tests install packages: `npm run test:e2e` (vitest.e2e.config.ts).
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
