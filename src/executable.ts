/**
 * This package's `cortex` executable, by absolute path: `dist/cli.cjs` (package.json's `bin`),
 * or `dist/cli.js` where the build has no CommonJS executable (a build by `tsc` alone). Git's
 * merge driver and hooks, the MCP registration and the session-end worker run it by path.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The path of the executable, whether or not it exists (from source, neither does).
 *
 * @example
 * executablePath() // '/usr/lib/node_modules/cortex-memory/dist/cli.cjs'
 */
export function executablePath(): string {
  const cjs = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  return existsSync(cjs) ? cjs : fileURLToPath(new URL('./cli.js', import.meta.url));
}
