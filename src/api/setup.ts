/**
 * The init steps contributed by optional parts (git integration, Claude Code settings),
 * registered in one place so `cortex init` and the library agree.
 */
export function registerDefaultSteps(): void {
  // Filled in as parts land: git attributes and hooks, Claude Code settings.
}
