/**
 * The init steps contributed by optional parts (git integration, Claude Code settings),
 * registered in one place so `cortex init` and the library agree.
 */
import { registerInitStep } from './init.js';
import { setUpGit } from './git-setup.js';

export function registerDefaultSteps(): void {
  registerInitStep((ctx, options) => setUpGit(ctx, typeof options.cortexCommand === 'string' ? { cortexCommand: options.cortexCommand } : {}));
}
