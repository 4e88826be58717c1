/**
 * `cortex surface`: print the session briefing. `--cached` is the path the SessionStart
 * hook takes: this module imports only node built-ins and the fast cache reader at load
 * time; the API (memory store, markdown toolchain) is imported only when the briefing
 * has to be built.
 */
import { UsageError } from '../errors.js';
import { BUDGET_RANGE, ENV, readBudgetEnv, readTargetsEnv } from '../env.js';
import { readCachedSurface, type SurfaceVariant } from '../cache/surface-cache.js';
import { bool, int, list, type CommandDef, type Invocation, type IO } from '../term/args.js';
import type { SurfaceOutput } from '../api/surface.js';

/** `--budget`, else `CORTEX_SURFACE_BUDGET`, else undefined (the configuration decides). */
export function budgetOf(inv: Invocation, io: IO): number | undefined {
  const flag = int(inv, 'budget', [BUDGET_RANGE[0], BUDGET_RANGE[1]]);
  if (flag !== undefined) return flag;
  const env = readBudgetEnv(io.env);
  if (env.error) throw new UsageError(`${env.error}.`, { hint: `Fix or unset ${ENV.surfaceBudget}; --budget overrides it.` });
  return env.budget;
}

/** `--target`, else `CORTEX_SURFACE_TARGETS`, else `true` (the configured `surface.targets`). */
export function targetsOf(inv: Invocation, io: IO): string[] | boolean {
  const flag = list(inv, 'target');
  if (flag && flag.length > 0) return flag;
  if (!bool(inv, 'write')) return false;
  return readTargetsEnv(io.env) ?? true;
}

const fixed = (n: number, digits = 2): string => n.toFixed(digits);

function explainTable(out: SurfaceOutput, io: IO, columns: (rows: string[][]) => string[]): string {
  const p = io.paint;
  const rows = [['#', 'in', 'rank', 'conf', 'prio', 'cent', 'use', 'branch', 'budget', 'tier', 'type', 'id', 'reason']];
  out.explain.forEach((r, i) => {
    rows.push([
      String(i + 1),
      r.included ? p.green('in') : p.dim('out'),
      fixed(r.rank, 3),
      fixed(r.parts.decayed),
      fixed(r.parts.priority),
      fixed(r.parts.centrality),
      fixed(r.parts.usage),
      fixed(r.parts.branchBoost),
      String(r.budget),
      r.tier ?? '',
      r.type,
      r.id,
      r.reason,
    ]);
  });
  const l = out.limits;
  return [
    ...columns(rows),
    '',
    `rank = ${'conf × w.confidence + prio × w.priority + cent × w.centrality + use × w.usage + branch'} (clamped to 0..1);`,
    `conf is the decayed confidence; budget is the line budget of the memory's category.`,
    `Briefing: ~${out.tokens} tokens (target ${l.targetTokens}, hard maximum ${l.maxTokens}), ${out.chars} of at most ${l.maxChars} characters; ${out.items.length} of ${out.memories} memories shown.`,
  ].join('\n');
}

const command: CommandDef = {
  name: 'surface',
  summary: 'Print the session briefing (what the SessionStart hook injects)',
  usage: ['surface [--budget <tokens>] [--compact] [--write | --target <file>]', 'surface --explain [--json]', 'surface --cached'],
  description:
    'Selects memories by rank under per-category line budgets and a token budget (default target 400,\n' +
    'hard maximum 550, never more than 10,000 characters) and prints them as markdown between\n' +
    '<!-- CORTEX_MEMORY_START --> and <!-- CORTEX_MEMORY_END -->, the active plan first.\n' +
    'Pinned memories are always shown: they count against the budgets first (--explain says so).\n' +
    'The last line says how many captured candidates wait in `cortex review`, when any do.\n' +
    'The result is also stored in the surface cache (.memory/surface-cache/), which the SessionStart\n' +
    'hook serves without loading the index or the markdown toolchain; --cached takes that path.\n' +
    '\n' +
    '--write updates the configured targets (surface.targets, default .claude/cortex-memory.local.md);\n' +
    'a file that already has the markers (e.g. AGENTS.md) gets only that section replaced, a file\n' +
    'without them gets the section appended, and a missing file is created. A target must be a\n' +
    'markdown file (.md, .mdc, .markdown) inside the repository, outside .git/ and .cortex/, reached\n' +
    'through no symbolic link (exit 2 otherwise, nothing written). Secrets are redacted from the briefing.\n' +
    'A new .mdc file (Cursor) starts with the frontmatter that makes it an always-applied rule.\n' +
    '\n' +
    'Other assistants read the briefing from their rules files: AGENTS.md (Codex CLI, Cursor, Copilot\n' +
    'and others), GEMINI.md (Gemini CLI), .github/copilot-instructions.md (VS Code), .cursor/rules/\n' +
    'cortex.mdc, .windsurf/rules/cortex.md. Once one holds a briefing, the git hooks (post-merge,\n' +
    'post-checkout, post-rewrite) keep it current. See docs/install.md.\n' +
    '\n' +
    `Precedence: flag > environment (${ENV.surfaceBudget}, ${ENV.surfaceTargets}) > .cortex/config.yaml > default.\n` +
    `${ENV.now} (an ISO date) fixes the clock for reproducible briefings.`,
  options: {
    budget: { type: 'string', short: 'b', value: '<tokens>', description: `Token budget: target and hard maximum (${BUDGET_RANGE[0]}..${BUDGET_RANGE[1]}).` },
    compact: { type: 'boolean', description: 'The compact briefing (surface.compactTokens), as re-injected after a compaction.' },
    write: { type: 'boolean', short: 'w', description: 'Also write the briefing to the target files.' },
    target: { type: 'string', value: '<file>', multiple: true, description: 'Write to this file instead of the configured targets (implies --write).' },
    explain: { type: 'boolean', description: 'List every memory with its score parts, category budget and why it is in or out.' },
    cached: { type: 'boolean', description: 'Serve the cached briefing when it is fresh (the SessionStart path); build it otherwise.' },
  },
  examples: [
    'cortex surface',
    'cortex surface --budget 300 --explain',
    'cortex surface --write --target AGENTS.md',
    'cortex surface --target .cursor/rules/cortex.mdc --target GEMINI.md',
    'CORTEX_NOW=2026-12-01T09:00:00Z cortex surface --json',
  ],
  async run(inv, io) {
    const budget = budgetOf(inv, io);
    const variant: SurfaceVariant = bool(inv, 'compact') ? 'compact' : 'full';
    const write = targetsOf(inv, io);
    const explain = bool(inv, 'explain');
    if (bool(inv, 'cached') && !explain && !inv.json && write === false) {
      const text = readCachedSurface({ root: inv.dir, budget, variant, env: io.env });
      if (text !== undefined) {
        io.out(text);
        return 0;
      }
    }

    // Loaded only now: the cached path above must stay as small as possible. The surface
    // use case alone, not openCortex: the briefing needs no search index.
    const [{ openContext }, { surface }, { columns, formatDiagnostic, formatSkipWarning, jsonDocument }] = await Promise.all([
      import('../services/context.js'),
      import('../api/surface.js'),
      import('../term/output.js'),
    ]);
    const out = await surface(openContext({ dir: inv.dir, env: io.env }), { ...(budget !== undefined ? { budget } : {}), variant, write, explainAll: explain });
    const seen = new Set<string>();
    for (const d of out.diagnostics) {
      // Config and template problems are shown as they are (they fall back to defaults);
      // broken memory files were skipped.
      const general = d.ruleId.startsWith('config-') || d.ruleId.startsWith('template-');
      if ((!general && d.severity !== 'error') || seen.has(`${d.file}:${d.reason}`)) continue;
      seen.add(`${d.file}:${d.reason}`);
      io.err(`${general ? formatDiagnostic(d, io.paint) : formatSkipWarning(d)}\n`);
    }
    if (inv.json) {
      const { explain: rows, ...rest } = out;
      io.out(jsonDocument({ ...rest, ...(explain ? { explain: rows } : {}) }));
      return 0;
    }
    if (explain) io.out(`${explainTable(out, io, columns)}\n`);
    else io.out(out.text);
    for (const w of out.written) io.err(`${w.action === 'unchanged' ? 'unchanged' : w.action}: ${w.file}\n`);
    if (!explain) io.err(io.paint.dim(`~${out.tokens} tokens, ${out.chars} characters, ${out.items.length} of ${out.memories} memories\n`));
    return 0;
  },
};
export default command;
