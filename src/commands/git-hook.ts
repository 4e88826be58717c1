import { openContext } from '../services/context.js';
import { preCommit, refreshAfterGit } from '../api/git-hook.js';
import { GIT_HOOK_EVENTS, type GitHookEvent } from '../setup/git-setup.js';
import { NotInitializedError, UsageError } from '../errors.js';
import type { CommandDef } from '../term/args.js';
import { printJson } from './shared.js';

/** The pre-commit refusal: distinct from 1, so a cortex that cannot start never blocks a commit. */
export const REFUSED = 3;

const command: CommandDef = {
  name: 'git-hook',
  summary: 'Run a git hook event (installed by cortex init)',
  usage: ['git-hook <pre-commit|post-merge|post-checkout|post-rewrite> [git hook arguments]'],
  description:
    'Called by the hook scripts `cortex init` installs (hooks/git/ in the package).\n' +
    'pre-commit, in a commit of the whole tree (git commit -a, a plain git commit, --amend), first\n' +
    'adds the memory and edge files under .cortex/memories/ and .cortex/edges/ that are new, changed\n' +
    'or deleted in the work tree and not staged yet (what a Claude session captured, what `cortex\n' +
    'remember` wrote), and says which; a commit limited to paths (git commit <paths>, --only) takes\n' +
    'only what was named. It then refuses a commit whose staged .cortex/ files hold a secret, conflict markers or a\n' +
    'memory file that does not parse, and prints the command that fixes it. Projections that do not\n' +
    'match the staged memories are regenerated from them and staged with the commit (so\n' +
    '`cortex remember … && git commit -am …` just works); it refuses only when a projection has\n' +
    'edits that are not staged, which regenerating would overwrite.\n' +
    'post-merge and post-rewrite regenerate the projections and refresh the search index;\n' +
    'post-checkout refreshes the index after a branch switch. All three also rewrite the briefing in\n' +
    'the rules files that hold one (AGENTS.md, GEMINI.md, CLAUDE.md, .github/copilot-instructions.md,\n' +
    '.cursor/rules/cortex.mdc, .windsurf/rules/cortex.md and surface.targets; put it there once with\n' +
    '`cortex surface --target AGENTS.md`). Failures print one line on stderr\n' +
    'and never fail the git operation; only a pre-commit refusal does.',
  options: {},
  exitCodes: [`${REFUSED} pre-commit refused the commit (the hook script turns this into a refusal; other failures let the commit through)`],
  examples: ['cortex git-hook pre-commit'],
  async run(inv, io) {
    const [event, ...args] = inv.positionals;
    if (!event || !(GIT_HOOK_EVENTS as readonly string[]).includes(event)) {
      throw new UsageError(`Unknown git hook event "${event ?? ''}".`, { hint: `Use one of: ${GIT_HOOK_EVENTS.join(', ')}.` });
    }
    let ctx;
    try {
      ctx = openContext({ dir: inv.dir, env: io.env });
    } catch (err) {
      // A branch or repository without .cortex/: nothing to do.
      if (err instanceof NotInitializedError) return 0;
      throw err;
    }
    try {
      return await runEvent(event as GitHookEvent, args, ctx, inv.json, io);
    } catch (err) {
      io.err(`cortex: ${event} hook skipped: ${(err as Error).message}\n`);
      return 0;
    }
  },
};

async function runEvent(event: GitHookEvent, args: string[], ctx: ReturnType<typeof openContext>, json: boolean, io: Parameters<CommandDef['run']>[1]): Promise<number> {
  if (event === 'pre-commit') {
    const out = preCommit(ctx);
    if (json) printJson(io, { event, ok: out.refusals.length === 0, ...out });
    if (out.taken.length > 0) io.err(`cortex: added to this commit from .cortex/ (memories and edges not staged yet): ${listed(out.taken)}\n`);
    if (out.onlyTaken) {
      io.err('cortex: nothing else is staged, and git decides whether there is anything to commit before its hooks run: if it says\n');
      io.err('        "nothing to commit", commit the memories alone with: git add .cortex/memories .cortex/edges && git commit\n');
    }
    if (out.staged.length > 0) io.err(`cortex: regenerated ${out.staged.join(', ')} from the staged memories; staged with this commit.\n`);
    for (const f of out.kept) io.err(`cortex: kept your edits to ${f} in the work tree (the commit has the regenerated file); projections are generated, so move them into a memory.\n`);
    if (out.refusals.length === 0) return 0;
    io.err('cortex: commit refused:\n');
    for (const r of out.refusals) io.err(`  ${r.file}${r.line ? `:${r.line}` : ''}: ${r.reason}\n`);
    for (const f of out.fixes) io.err(`fix: ${f}\n`);
    io.err('(to commit anyway: git commit --no-verify)\n');
    return REFUSED;
  }
  // post-checkout: <previous HEAD> <new HEAD> <1 for a branch checkout, 0 for files>.
  if (event === 'post-checkout' && (args[2] !== '1' || args[0] === args[1])) return 0;
  const out = await refreshAfterGit(ctx, { projections: event !== 'post-checkout' });
  if (json) printJson(io, { event, ...out });
  if (out.regenerated.length > 0) io.err(`cortex: regenerated ${out.regenerated.join(', ')} from the merged memories; commit them.\n`);
  if (out.targets.length > 0) io.err(`cortex: refreshed the memory briefing in ${out.targets.join(', ')}.\n`);
  if (out.targetsProblem !== undefined) io.err(`cortex: the briefing in the rules files was not refreshed: ${out.targetsProblem}\n`);
  return 0;
}
/** Up to five paths, then how many more. */
function listed(paths: readonly string[]): string {
  return paths.length <= 5 ? paths.join(', ') : `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`;
}
export default command;
