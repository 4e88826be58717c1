/**
 * The init steps contributed by optional parts (git integration, Claude Code settings),
 * registered in one place so `cortex init` and the library agree.
 */
import { claudeInitStep } from './claude-setup.js';
import { registerInitStep, type InitStepFn } from './init.js';
import { setUpGit } from './git-setup.js';
import { mcpInitStep } from './mcp-setup.js';
import { project } from '../api/project.js';

const gitStep: InitStepFn = (ctx, options) => setUpGit(ctx, typeof options.cortexCommand === 'string' ? { cortexCommand: options.cortexCommand } : {});

/** The projections exist from the start, so the first commit of a memory can include them. */
const projectionStep: InitStepFn = async (ctx) =>
  (await project(ctx)).files.map((f) => ({
    target: f.file,
    action: f.state === 'created' || f.state === 'updated' ? f.state : 'unchanged',
    detail: f.state === 'unchanged' ? 'projection up to date' : 'generated projection (commit it with .cortex/)',
  }));

export function registerDefaultSteps(): void {
  registerInitStep(gitStep);
  registerInitStep(projectionStep);
  // `cortex init --claude`: hooks, rules and slash commands for Claude Code.
  registerInitStep(claudeInitStep);
  // …and the MCP server in .mcp.json (or the `claude mcp add` line when cortex is not on PATH).
  registerInitStep(mcpInitStep);
}
