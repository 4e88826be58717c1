/**
 * `surface`: the session briefing (DESIGN §4). Loads the memories of both tiers, the
 * usage signals, centrality and the reality checks, selects and renders through the pure
 * core, stores the result in the surface cache (`src/cache/surface-cache.ts`, what the
 * SessionStart hook serves) and optionally writes it into target files.
 *
 * Speed (DESIGN §10, cold briefing of 10,000 memories ≤ 1.5 s): memory files are read
 * directly — canonical files take the fast frontmatter reader — and neither the keyword
 * index nor a git library is loaded (the branch is read from `.git/HEAD` as text).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { configFingerprint } from '../core/config.js';
import { SCOPES, type Diagnostic, type Memory, type MemoryType, type Scope } from '../core/memory.js';
import type { UsageSignal } from '../core/rank.js';
import { renderSurface, type RenderedSurface } from '../core/surface-render.js';
import { buildSurface, SURFACE_START, type ExplainRow, type SurfaceLimits, type SurfaceResult, type SurfaceStage } from '../core/surface.js';
import { AGENT_RULES_FILES, checkSurfaceTarget, newTargetPreamble, spliceSurface } from '../core/surface-target.js';
import { redactSecrets } from '../core/redact.js';
import type { DecisionTierName } from '../core/lifecycle.js';
import { BUDGET_RANGE } from '../env.js';
import { ParseError, UsageError } from '../errors.js';
import {
  surfaceCacheKey,
  writeSurfaceCache,
  type SurfaceCacheKey,
  type SurfaceVariant,
} from '../cache/surface-cache.js';
import { readHead } from '../git/head.js';
import { writeIfChanged } from '../store/atomic.js';
import { checkWritablePath, readRegularFile } from '../store/safe-read.js';
import { readAllMemories } from '../store/memory-store.js';
import { readTemplate } from '../templates.js';
import { loadConfig, type Context } from '../services/context.js';
import { centralityOf, stalenessOf } from '../services/rank-inputs.js';
import { listReview } from '../cache/review-queue.js';
import { loadSignals } from '../services/signals.js';

export interface SurfaceInput {
  /**
   * Token budget (target and hard maximum), already resolved by the caller from
   * `--budget` or `CORTEX_SURFACE_BUDGET`; the configuration's targets otherwise.
   */
  budget?: number | undefined;
  /** `compact`: the smaller briefing re-injected after a compaction (`surface.compactTokens`). */
  variant?: SurfaceVariant;
  /** Write the briefing into target files: `true` for `surface.targets`, or these paths. */
  write?: boolean | string[];
  /** Store the result in the surface cache (default true). */
  cache?: boolean;
  /**
   * Explain every memory, archived and superseded ones too (default false: `explain`
   * then covers the active memories, the only candidates — and the build is faster).
   */
  explainAll?: boolean;
}

export const DEFAULT_SURFACE_INPUT: Required<Omit<SurfaceInput, 'budget'>> = {
  variant: 'full',
  write: false,
  cache: true,
  explainAll: false,
};

export interface SurfaceItemInfo {
  id: string;
  type: MemoryType;
  scope: Scope;
  section: string;
  stage: SurfaceStage;
  rank: number;
  tier?: DecisionTierName | undefined;
  tokens: number;
  stale: string[];
}

export interface TargetWrite {
  /** Path relative to the repository root. */
  file: string;
  action: 'created' | 'updated' | 'unchanged';
}

export interface SurfaceOutput {
  text: string;
  tokens: number;
  chars: number;
  variant: SurfaceVariant;
  limits: SurfaceLimits;
  /** The clock the briefing was built at (ISO). */
  now: string;
  branch?: string | undefined;
  /** Memories read (all statuses, both tiers). */
  memories: number;
  items: SurfaceItemInfo[];
  /** One row per memory, in rank order: why it is in or out. */
  explain: ExplainRow[];
  written: TargetWrite[];
  /** Whether the surface cache was written. */
  cached: boolean;
  diagnostics: Diagnostic[];
}

export interface LoadedMemories {
  memories: Memory[];
  diagnostics: Diagnostic[];
}

/**
 * Reads every memory of the wanted tiers (project first). A broken file is a diagnostic.
 *
 * @example
 * loadMemories(ctx).memories.length // 42
 */
export function loadMemories(ctx: Context, scopes: readonly Scope[] = SCOPES): LoadedMemories {
  const memories: Memory[] = [];
  const diagnostics: Diagnostic[] = [];
  const tiers: { paths: typeof ctx.global; base: string }[] = [];
  if (scopes.includes('project')) tiers.push({ paths: ctx.paths, base: ctx.root });
  if (scopes.includes('local') && existsSync(ctx.local.memoriesDir)) tiers.push({ paths: ctx.local, base: ctx.root });
  if (scopes.includes('global') && ctx.includeGlobal && existsSync(ctx.global.memoriesDir)) {
    tiers.push({ paths: ctx.global, base: ctx.global.cortexDir });
  }
  for (const tier of tiers) {
    const read = readAllMemories(tier.paths, tier.base);
    for (const m of read.memories) memories.push(m);
    diagnostics.push(...read.diagnostics);
  }
  return { memories, diagnostics };
}

function checkBudget(budget: number | undefined): void {
  if (budget === undefined) return;
  if (!Number.isInteger(budget) || budget < BUDGET_RANGE[0] || budget > BUDGET_RANGE[1]) {
    throw new UsageError(`The surface budget must be an integer from ${BUDGET_RANGE[0]} to ${BUDGET_RANGE[1]} tokens, got ${budget}.`);
  }
}

/**
 * The token budget a variant is built to: compact is capped by `surface.compactTokens`.
 *
 * @example
 * budgetFor(ctx, 'compact', 300) // 200 with the default surface.compactTokens
 */
export function budgetFor(ctx: Context, variant: SurfaceVariant, budget: number | undefined): number | undefined {
  if (variant === 'full') return budget;
  return Math.min(budget ?? Number.POSITIVE_INFINITY, ctx.config.surface.compactTokens);
}

interface Inputs {
  now: Date;
  branch: string | undefined;
  loaded: LoadedMemories;
  /** What the selection sees: only active memories can be selected, the rest only explained. */
  candidates: Memory[];
  signals: Record<string, UsageSignal>;
  centrality: Record<string, number>;
  staleness: Record<string, string[]>;
  template: string;
  /** Lines of fact after the sections: the review queue. */
  notes: string[];
}

function gather(ctx: Context, explainAll: boolean): Inputs {
  const now = ctx.now();
  const loaded = loadMemories(ctx);
  return {
    now,
    branch: readHead(ctx.root, { resolve: false }).branch,
    loaded,
    candidates: explainAll ? loaded.memories : loaded.memories.filter((m) => m.status === 'active'),
    signals: loadSignals(ctx),
    centrality: centralityOf(ctx, loaded.memories),
    staleness: stalenessOf(ctx, loaded.memories),
    template: readTemplate('surface.md'),
    notes: reviewNote(ctx),
  };
}

/**
 * The briefing's line about the review queue: how many captured candidates wait and the
 * command that lists them (none when the queue is empty or unreadable).
 *
 * @example
 * reviewNote(ctx) // ['2 captured memory candidates wait for review: `cortex review` lists them.']
 */
export function reviewNote(ctx: Context): string[] {
  let n = 0;
  try {
    // 'candidate' is capture's MEMORY_CANDIDATE_KIND (not imported: capture.ts loads the extractor).
    n = listReview(ctx.paths, { kind: 'candidate' }).length;
  } catch {
    return [];
  }
  if (n === 0) return [];
  return [`${n} captured memory ${n === 1 ? 'candidate waits' : 'candidates wait'} for review: \`cortex review\` lists them.`];
}

/**
 * Reality checks from git (DESIGN §4, §5): a referenced file changed since the commit the
 * memory was recorded at, or the memory's branch is gone. Loaded only here, so the cached
 * briefing never pays for isomorphic-git; a broken repository never fails the briefing.
 */
async function addGitStaleness(ctx: Context, inputs: Inputs, ids: ReadonlySet<string>): Promise<boolean> {
  const checked = inputs.candidates.filter((m) => ids.has(m.id) && m.scope === 'project' && m.source.commit !== undefined);
  if (checked.length === 0) return false;
  let found: Record<string, string[]>;
  try {
    found = await (await import('../cache/staleness.js')).computeStaleness(ctx, checked);
  } catch {
    return false;
  }
  let changed = false;
  for (const [id, reasons] of Object.entries(found)) {
    const known = inputs.staleness[id] ?? [];
    const added = reasons.filter((r) => !known.includes(r));
    if (added.length === 0) continue;
    inputs.staleness[id] = [...known, ...added];
    changed = true;
  }
  return changed;
}

interface Built {
  rendered: RenderedSurface;
  selection: SurfaceResult;
}

function build(ctx: Context, inputs: Inputs, variant: SurfaceVariant, budget: number | undefined): Built {
  const s = ctx.config.surface;
  const selection = buildSurface(inputs.candidates, {
    now: inputs.now,
    config: ctx.config,
    signals: inputs.signals,
    centrality: inputs.centrality,
    currentBranch: inputs.branch,
    staleness: inputs.staleness,
    budget: budgetFor(ctx, variant, budget),
    template: inputs.template,
    lowConfidenceBelow: s.lowConfidenceBelow,
    detailChars: s.detailChars,
    planShare: s.planShare,
    notes: inputs.notes,
  });
  const rendered = renderSurface(selection);
  // The briefing is cached in .memory/, written to target files and injected: it passes
  // the redaction gate (a hand-written memory may hold what pre-commit would have caught).
  const text = redactSecrets(rendered.text).text;
  return { rendered: text === rendered.text ? rendered : { ...rendered, text, chars: text.length }, selection };
}

/**
 * The cache must only hold what the fast path would compute the key for: a context
 * whose configuration was overridden in code (library option) is not cached.
 */
function cacheable(ctx: Context): boolean {
  try {
    return configFingerprint(loadConfig(ctx.paths).config) === configFingerprint(ctx.config);
  } catch {
    return false;
  }
}

function cacheKeyFor(ctx: Context, variant: SurfaceVariant, budget: number | undefined, now: Date): SurfaceCacheKey | undefined {
  return surfaceCacheKey({ root: ctx.root, budget, variant, env: ctx.env, now, includeGlobal: ctx.includeGlobal });
}

/**
 * Builds the briefing; stores it in the surface cache (with the other variant, when no
 * explicit budget was asked for, so the hook finds both); writes the target files when asked.
 *
 * @example
 * const { text, tokens } = await surface(ctx, {});
 * text.startsWith('<!-- CORTEX_MEMORY_START -->') // true
 * await surface(ctx, { write: ['AGENTS.md'] }); // replaces only AGENTS.md's marked section
 */
export async function surface(ctx: Context, input: SurfaceInput = {}): Promise<SurfaceOutput> {
  const { variant, write, cache, explainAll } = { ...DEFAULT_SURFACE_INPUT, ...input };
  if (variant !== 'full' && variant !== 'compact') throw new UsageError(`Unknown surface variant "${String(variant)}".`, { hint: 'Use full or compact.' });
  checkBudget(input.budget);
  const targets = write === true ? ctx.config.surface.targets : write === false ? [] : write;
  const planned = planTargets(ctx, targets);

  const now = ctx.now();
  const useCache = cache && cacheable(ctx);
  // Keys are taken before anything is read: a change made meanwhile makes them stale, never wrong.
  const variants: SurfaceVariant[] = input.budget === undefined ? [variant, variant === 'full' ? 'compact' : 'full'] : [variant];
  const keys = useCache ? variants.map((v) => cacheKeyFor(ctx, v, input.budget, now)) : [];

  const inputs = gather({ ...ctx, now: () => now }, explainAll);
  // The other variant is built only to be cached, so the hook finds both.
  const built = variants.slice(0, useCache && keys[1] ? 2 : 1).map((v) => build(ctx, inputs, v, input.budget));
  // Staleness only annotates (it never changes a rank; a longer line may change what fits),
  // so git is asked about the memories the briefings show, not about all of them; then both
  // are built again with it, so the cached one carries the same markers.
  const shown = new Set(built.flatMap((b) => b.selection.items.map((i) => i.id)));
  if (await addGitStaleness(ctx, inputs, shown)) {
    for (let i = 0; i < built.length; i++) built[i] = build(ctx, inputs, variants[i] as SurfaceVariant, input.budget);
  }
  const { rendered, selection } = built[0] as Built;
  let cached = false;
  if (useCache) {
    cached = keys[0] ? writeSurfaceCache(keys[0], rendered) : false;
    if (keys[1] && built[1]) writeSurfaceCache(keys[1], built[1].rendered);
  }

  const written = writeTargets(planned, rendered.text);
  const scopeOf = new Map<string, Scope>();
  for (const m of inputs.loaded.memories) if (!scopeOf.has(m.id)) scopeOf.set(m.id, m.scope);
  return {
    text: rendered.text,
    tokens: rendered.tokens,
    chars: rendered.chars,
    variant,
    limits: selection.limits,
    now: now.toISOString(),
    branch: inputs.branch,
    memories: inputs.loaded.memories.length,
    items: rendered.items.map((i) => ({
      id: i.id,
      type: i.type,
      scope: scopeOf.get(i.id) ?? 'project',
      section: selection.template.sections[i.section]?.title ?? '',
      stage: i.stage,
      rank: i.rank,
      tier: i.tier,
      tokens: Math.ceil(i.tokens),
      stale: i.stale,
    })),
    explain: rendered.explain,
    written,
    cached,
    diagnostics: [...ctx.configDiagnostics, ...inputs.loaded.diagnostics, ...selection.diagnostics],
  };
}

interface PlannedTarget {
  file: string;
  path: string;
  existing: string | undefined;
}

/**
 * Validates target paths and reads them, before anything is written. A target resolves
 * inside the repository, outside `.git/` and `.cortex/`, through no symbolic link, and is
 * a markdown file that exists as a regular file or does not exist yet.
 */
function planTargets(ctx: Context, targets: readonly string[]): PlannedTarget[] {
  const planned: PlannedTarget[] = [];
  const hint = 'Targets are markdown files relative to the repository root, e.g. AGENTS.md or .claude/cortex-memory.local.md.';
  for (const target of targets) {
    const path = resolve(ctx.root, target);
    const rel = relative(ctx.root, path);
    if (target.trim() === '' || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new UsageError(`The surface target "${target}" is outside the repository.`, { hint });
    }
    if (planned.some((p) => p.path === path)) continue;
    const file = rel.split('\\').join('/');
    const why = checkSurfaceTarget(file) ?? checkWritablePath(ctx.root, rel);
    if (why !== undefined) throw new UsageError(`Cannot use ${file} as a surface target: ${why}.`, { hint });
    let existing: string | undefined;
    if (existsSync(path)) {
      const read = readRegularFile(path, { boundary: ctx.root, maxBytes: MAX_TARGET_BYTES });
      if ('problem' in read) throw new UsageError(`Cannot use ${file} as a surface target: it ${read.problem.reason}.`, { hint });
      existing = read.buffer.toString('utf8');
    }
    planned.push({ file, path, existing });
  }
  return planned;
}

/** A target larger than this is not a briefing's home; it is refused rather than rewritten. */
const MAX_TARGET_BYTES = 4 * 1024 * 1024;

/** Splices the briefing into every target first; writes only when all of them can take it. */
function writeTargets(planned: readonly PlannedTarget[], text: string): TargetWrite[] {
  const next = planned.map((t) => {
    const result = spliceSurface(t.existing, text);
    return { target: t, result: result.ok && t.existing === undefined ? { ok: true as const, text: newTargetPreamble(t.file) + result.text } : result };
  });
  const bad = next.find((n) => !n.result.ok);
  if (bad && !bad.result.ok) {
    throw new ParseError(`${bad.target.file} ${bad.result.reason}; no target was written.`, {
      hint: `Leave exactly one <!-- CORTEX_MEMORY_START --> … <!-- CORTEX_MEMORY_END --> pair in ${bad.target.file} (or none, to append the briefing).`,
    });
  }
  return next.map(({ target, result }) => ({
    file: target.file,
    action: writeIfChanged(target.path, (result as { text: string }).text),
  }));
}

/**
 * Rewrites the briefing in the target files that already hold one: the configured
 * `surface.targets` and the other assistants' rules files (AGENTS.md, GEMINI.md, …; see
 * AGENT_RULES_FILES) that contain the START marker, so a file someone once ran
 * `cortex surface --target` on stays current. Creates nothing; a file that cannot take the
 * briefing (a broken marker pair, a link, not a regular file) is left alone. For the git
 * hooks that run after the memories changed (post-merge, post-checkout, post-rewrite).
 *
 * @example
 * await refreshSurfaceTargets(ctx) // [{ file: 'AGENTS.md', action: 'updated' }]
 */
export async function refreshSurfaceTargets(ctx: Context): Promise<TargetWrite[]> {
  const holding: string[] = [];
  for (const target of new Set([...ctx.config.surface.targets, ...AGENT_RULES_FILES])) {
    try {
      const [planned] = planTargets(ctx, [target]);
      if (planned?.existing !== undefined && planned.existing.includes(SURFACE_START) && spliceSurface(planned.existing, '').ok) holding.push(target);
    } catch {
      // Not a usable target (outside the repository, a link, too big): not ours to touch.
    }
  }
  if (holding.length === 0) return [];
  return (await surface(ctx, { write: holding })).written;
}

/**
 * Rebuilds the cached briefings (both variants, configured budget) without printing or
 * writing targets: for hooks that run after memory changed (SessionEnd, post-merge).
 *
 * @example
 * await refreshSurfaceCache(ctx); // true when the cache was written
 */
export async function refreshSurfaceCache(ctx: Context): Promise<boolean> {
  return (await surface(ctx, { cache: true })).cached;
}
