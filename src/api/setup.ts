/**
 * The init steps contributed by optional parts (git integration, Claude Code settings),
 * registered in one place so `cortex init` and the library agree.
 */
import { claudeInitStep } from './claude-setup.js';
import { registerInitStep } from './init.js';

export function registerDefaultSteps(): void {
  // `cortex init --claude`: hooks, rules and slash commands for Claude Code.
  registerInitStep(claudeInitStep);
}
