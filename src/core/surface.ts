/**
 * The briefing selection (DESIGN §4): which memories the session-start briefing shows,
 * and why each other memory is left out. Rendering is in `surface-render.ts`.
 *
 * Selection, in order:
 * 0. Pinned active memories come first, whatever their rank, tier or category budget: they
 *    are always shown (only a type with no section in the template, or the hard limits the
 *    renderer enforces, can keep one out), and their lines and tokens count against the
 *    budgets before anything else. A pinned plan is the plan shown.
 * 1. Candidates are active memories whose type has a section in the template and a
 *    line budget above 0; decisions in the archive-only tier are left out, and of the
 *    plans only the active one (the highest-ranked) is shown, first, with its steps.
 * 2. Per category (memory type), memories are taken in rank order while they fit that
 *    type's line budget (`surface.budgets`).
 * 3. Lines left unused by all categories are pooled and given to the overflow: the
 *    ranked leftovers of any category, best first.
 * 4. Everything selected so far is then filled, in that priority order, into the token
 *    target (and `surface.maxChars`); an item that does not fit is skipped and smaller
 *    later ones are still tried. The renderer enforces the hard maximum exactly.
 *
 * Every memory gets an explain row saying why it is in or out.
 */
import { DEFAULT_CONFIG, HARD_MAX_CHARS, type CortexConfig } from './config.js';
import { DEFAULT_TIER_DECISIONS, tierRankedDecisions, type DecisionTierName } from './lifecycle.js';
import {
  MAX_SUMMARY_LENGTH,
  isMemoryType,
  type Diagnostic,
  type Memory,
  type MemoryStatus,
  type MemoryType,
} from './memory.js';
import { DEFAULT_RANK, rankMemories, type RankContext, type RankedMemory, type ScoreParts } from './rank.js';
import { sanitizeCharsPerToken, type Tokenizer } from './tokens.js';

/** Markers around the briefing, so a target file's section can be found and replaced. */
export const SURFACE_START = '<!-- CORTEX_MEMORY_START -->';
export const SURFACE_END = '<!-- CORTEX_MEMORY_END -->';

// ---------------------------------------------------------------------------------------
// Template

export interface SurfaceSection {
  title: string;
  /** Heading depth, 1..6. */
  depth: number;
  types: MemoryType[];
}

export interface SurfaceTemplate {
  /** Title line; empty when the template has none. */
  title: string;
  titleDepth: number;
  /** Introduction paragraphs, each one line of plain text (`[label]`s are kept as written). */
  intro: string[];
  sections: SurfaceSection[];
}

export interface ParseSurfaceTemplateOptions {
  /** Path shown in diagnostics. */
  file?: string;
}

export const DEFAULT_PARSE_SURFACE_TEMPLATE: Required<ParseSurfaceTemplateOptions> = { file: 'templates/surface.md' };

export interface ParseSurfaceTemplateResult {
  template: SurfaceTemplate;
  diagnostics: Diagnostic[];
}

const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const TYPES_COMMENT = /^\s*types\s*:([\s\S]*)$/;

/**
 * Parses the briefing skeleton (format: see the comment at the top of
 * `templates/surface.md`). Never throws; a template without any usable section is an
 * error diagnostic.
 *
 * @example
 * parseSurfaceTemplate('# Memory\n\nFacts.\n\n## Gotchas\n<!-- types: gotcha -->\n').template
 * // { title: 'Memory', titleDepth: 1, intro: ['Facts.'], sections: [{ title: 'Gotchas', depth: 2, types: ['gotcha'] }] }
 */
export function parseSurfaceTemplate(text: string, options: ParseSurfaceTemplateOptions = {}): ParseSurfaceTemplateResult {
  const { file } = { ...DEFAULT_PARSE_SURFACE_TEMPLATE, ...options };
  const diagnostics: Diagnostic[] = [];
  const warn = (line: number, reason: string, ruleId: string): void => {
    diagnostics.push({ file, line, reason, ruleId, severity: 'warning' });
  };
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  // Comments become a marker line (types) or blank lines, keeping line numbers right.
  const lines = normalized
    .replace(/<!--([\s\S]*?)-->/g, (_all, inner: string) => {
      const blank = '\n'.repeat((inner.match(/\n/g) ?? []).length);
      const types = TYPES_COMMENT.exec(inner);
      return types ? `\u0000${(types[1] ?? '').replace(/\s+/g, ' ')}${blank}` : blank;
    })
    .split('\n');

  const template: SurfaceTemplate = { title: '', titleDepth: 1, intro: [], sections: [] };
  let sawTitle = false;
  let paragraph: string[] = [];
  let current: SurfaceSection | undefined;
  let currentLine = 0;
  const claimed = new Set<MemoryType>();
  const closeSection = (): void => {
    if (!current) return;
    if (current.types.length === 0) warn(currentLine, `section "${current.title}" lists no memory types and is left out`, 'template-section-empty');
    else template.sections.push(current);
    current = undefined;
  };
  const flushParagraph = (): void => {
    if (paragraph.length > 0) template.intro.push(paragraph.join(' '));
    paragraph = [];
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line.startsWith('\u0000')) {
      if (!current) {
        warn(lineNo, 'a "types:" comment outside a section is ignored', 'template-types-outside');
        return;
      }
      for (const name of line.slice(1).split(/[\s,]+/).filter(Boolean)) {
        if (!isMemoryType(name)) warn(lineNo, `unknown memory type "${name}" in section "${current.title}"`, 'template-unknown-type');
        else if (claimed.has(name)) warn(lineNo, `type "${name}" is already in an earlier section`, 'template-duplicate-type');
        else {
          claimed.add(name);
          current.types.push(name);
        }
      }
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      const depth = (heading[1] ?? '#').length;
      const title = heading[2] ?? '';
      if (!sawTitle && template.sections.length === 0 && !current) {
        sawTitle = true;
        template.title = title;
        template.titleDepth = depth;
      } else {
        closeSection();
        current = { title, depth, types: [] };
        currentLine = lineNo;
      }
      return;
    }
    if (line === '') {
      flushParagraph();
      return;
    }
    if (current) warn(lineNo, `text inside section "${current.title}" is ignored`, 'template-section-text');
    else paragraph.push(line);
  });
  flushParagraph();
  closeSection();

  if (template.sections.length === 0) {
    diagnostics.push({
      file,
      reason: 'the surface template has no section with a "types:" comment: the briefing lists no memories',
      ruleId: 'template-no-sections',
      severity: 'error',
      hint: 'Example: "## Gotchas" followed by "<!-- types: gotcha -->".',
    });
  }
  return { template, diagnostics };
}

// ---------------------------------------------------------------------------------------
// Selection

export type SurfaceStage = 'pinned' | 'plan' | 'budget' | 'overflow';

export interface PlanStep {
  text: string;
  done: boolean;
}

export interface SurfaceItem {
  id: string;
  type: MemoryType;
  /** Index into `template.sections`. */
  section: number;
  rank: number;
  parts: ScoreParts;
  stage: SurfaceStage;
  /** Position in the selection priority (0 = kept longest when the renderer must drop items). */
  order: number;
  /** Position in the full ranking, best first: the render order inside a section. */
  rankIndex: number;
  /** One line, cleaned and truncated. */
  summary: string;
  /** An excerpt of the body (full-tier decisions only). */
  detail?: string | undefined;
  /** Steps of the active plan that are shown. */
  steps?: PlanStep[] | undefined;
  /** Steps of the active plan left out for the budget. */
  stepsOmitted: number;
  tier?: DecisionTierName | undefined;
  /** Short session id, `s` + 4 characters. */
  session?: string | undefined;
  /** Source branch, when it is not the current branch. */
  branch?: string | undefined;
  /** Decayed confidence. */
  confidence: number;
  /** Whether the renderer shows the confidence marker. */
  lowConfidence: boolean;
  /** Reasons the memory may be outdated, from the shell's reality checks. */
  stale: string[];
  lines: number;
  /** Estimated cost in tokens and characters, including any section heading it opened. */
  tokens: number;
  chars: number;
}

export interface ExplainRow {
  id: string;
  type: MemoryType;
  status: MemoryStatus;
  /** Title of the template section, when the type has one. */
  section?: string | undefined;
  rank: number;
  parts: ScoreParts;
  tier?: DecisionTierName | undefined;
  /** Line budget of the memory's category. */
  budget: number;
  /** Lines the item needs (0 when it never got that far). */
  lines: number;
  /** Estimated tokens the item needs (0 when it never got that far). */
  tokens: number;
  stage?: SurfaceStage | undefined;
  included: boolean;
  reason: string;
}

export interface SurfaceLimits {
  /** Selection aims at this many tokens. */
  targetTokens: number;
  /** The rendered briefing never exceeds this many tokens. */
  maxTokens: number;
  /** The rendered briefing never exceeds this many characters (at most 10,000). */
  maxChars: number;
  charsPerToken: number;
}

export interface SurfaceResult {
  /** Selected items in priority order. */
  items: SurfaceItem[];
  excluded: { id: string; reason: string }[];
  /** One row per memory, in rank order. */
  explain: ExplainRow[];
  /** Estimated size of the rendered briefing. */
  tokens: number;
  chars: number;
  limits: SurfaceLimits;
  template: SurfaceTemplate;
  /** Lines of fact shown after the sections (see `SurfaceContext.notes`). */
  notes: string[];
  diagnostics: Diagnostic[];
}

export interface SurfaceContext extends RankContext {
  /**
   * Lines of fact about the memory itself, shown after the sections when there is room
   * (e.g. how many captured candidates wait for review). Plain text; statements, not requests.
   */
  notes?: readonly string[];
  /** Reasons by memory id why a memory may be outdated (computed by the shell). */
  staleness?: Record<string, string[]>;
  /** Token budget override: both target and hard maximum (e.g. `cortex surface --budget`). */
  budget?: number | undefined;
  /** Template text: the shell reads `templates/surface.md` (the core has no copy of it). */
  template: string;
  /** Real tokenizer; the chars-per-token estimate otherwise. */
  tokenizer?: Tokenizer | undefined;
  /** Decayed confidence below which the `(~0.6)` marker is shown. */
  lowConfidenceBelow?: number;
  /** Longest body excerpt shown for a full-tier decision, in characters. */
  detailChars?: number;
  /** Share of the token target the active plan's steps may take. */
  planShare?: number;
}

export const DEFAULT_SURFACE: Omit<Required<SurfaceContext>, 'now' | 'currentBranch' | 'maxAccess' | 'budget' | 'tokenizer' | 'template'> & {
  currentBranch: string | undefined;
  maxAccess: number | undefined;
  budget: number | undefined;
  tokenizer: Tokenizer | undefined;
} = {
  ...DEFAULT_RANK,
  notes: [],
  staleness: {},
  budget: undefined,
  tokenizer: undefined,
  lowConfidenceBelow: 0.7,
  detailChars: 160,
  planShare: 0.5,
};

/**
 * The limits a briefing is built to: a `budget` override sets both the target and the
 * hard maximum; the character ceiling is `surface.maxChars`, never above 10,000.
 *
 * @example
 * surfaceLimits({ config: DEFAULT_CONFIG }) // { targetTokens: 400, maxTokens: 550, maxChars: 10000, charsPerToken: 4 }
 * surfaceLimits({ config: DEFAULT_CONFIG, budget: 200 }).maxTokens // 200
 */
export function surfaceLimits(options: { config?: CortexConfig; budget?: number | undefined }): SurfaceLimits {
  const config = options.config ?? DEFAULT_CONFIG;
  const s = config.surface;
  const nonNegative = (n: number, fallback: number): number => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : fallback);
  const maxChars = Math.min(HARD_MAX_CHARS, nonNegative(s.maxChars, HARD_MAX_CHARS));
  const charsPerToken = sanitizeCharsPerToken(s.charsPerToken);
  const budget = options.budget;
  if (typeof budget === 'number' && !Number.isNaN(budget)) {
    const b = budget === Infinity ? Number.MAX_SAFE_INTEGER : nonNegative(budget, 0);
    return { targetTokens: b, maxTokens: b, maxChars, charsPerToken };
  }
  const maxTokens = nonNegative(s.maxTokens, DEFAULT_CONFIG.surface.maxTokens);
  const targetTokens = Math.min(maxTokens, nonNegative(s.targetTokens, DEFAULT_CONFIG.surface.targetTokens));
  return { targetTokens, maxTokens, maxChars, charsPerToken };
}

const MARKER_WORDS = /CORTEX_MEMORY_(START|END)/g;

/**
 * One line of plain text: whitespace collapsed, the briefing markers defused (a memory
 * quoting them must not be able to end the briefing early), cut at a word boundary.
 *
 * @example
 * cleanInline('  two\n lines  ', 80) // 'two lines'
 * cleanInline('a b c d e f', 7) // 'a b c…'
 */
export function cleanInline(text: string, max: number): string {
  const oneLine = text.replace(MARKER_WORDS, 'CORTEX MEMORY $1').replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return oneLine;
  const cut = oneLine.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const STEP_LINE = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX])\]\s+)?(.*\S)\s*$/;

/**
 * The steps of a plan body: its list items, with `[x]` marking done ones.
 *
 * @example
 * planSteps('Goal.\n\n- [x] parse\n- [ ] render\n') // [{ text: 'parse', done: true }, { text: 'render', done: false }]
 */
export function planSteps(body: string): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const line of body.split('\n')) {
    const m = STEP_LINE.exec(line);
    if (m) steps.push({ text: m[2] ?? '', done: m[1] === 'x' || m[1] === 'X' });
  }
  return steps;
}

/** A body paragraph as one line of plain text: block markers, emphasis, code ticks and `[[wikilink]]` brackets gone. */
function plainParagraph(paragraph: string): string {
  return paragraph
    .split('\n')
    .map((l) => l.replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/, ''))
    .join(' ')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The excerpt a full-tier decision shows after its summary: the first body paragraph that
 * says something the summary does not — with the summary's own sentence cut out of it when
 * it quotes it, and skipped when at least half its words are the summary's (a captured
 * body often opens with the sentence its summary was made from).
 *
 * @example
 * bodyExcerpt('**404 on refresh** → needs a _redirects file\n\nNetlify serves index.html only at /.', '404 on refresh → needs a _redirects file', 160)
 * // 'Netlify serves index.html only at /.'
 */
export function bodyExcerpt(body: string, summary: string, max: number): string | undefined {
  if (max <= 0) return undefined;
  const plainSummary = plainParagraph(summary.replace(/…$/, ''));
  const summaryWords = new Set(wordsOf(plainSummary));
  for (const paragraph of body.replace(/^\s+/, '').split(/\n[ \t]*\n/)) {
    let text = plainParagraph(paragraph);
    if (plainSummary !== '') {
      const at = text.toLowerCase().indexOf(plainSummary.toLowerCase());
      if (at >= 0) text = `${text.slice(0, at)} ${text.slice(at + plainSummary.length).replace(/^[\s.:;,—-]+/, '')}`.replace(/^[\s.:;,—-]+/, '').replace(/\s+/g, ' ').trim();
    }
    const words = wordsOf(text);
    if (words.length === 0) continue;
    const novel = words.filter((w) => !summaryWords.has(w)).length;
    if (novel / words.length < 0.5) continue;
    const out = cleanInline(text, max);
    return out === '' ? undefined : out;
  }
  return undefined;
}

/** Characters the markdown serializer may add as backslash escapes: counted so estimates stay upper bounds. */
const ESCAPABLE = /[\\`*_[<&]/g;

function estimateChars(text: string): number {
  return text.length + (text.match(ESCAPABLE)?.length ?? 0);
}

/**
 * Label text reduced to characters that markdown serialization leaves unescaped, so a
 * `[label]` renders exactly as written.
 *
 * @example
 * sanitizeLabel('feat/x_y*[z]') // 'feat/x-y-z'
 */
export function sanitizeLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9./@:+-]+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * Provenance label text (`s4b2c, feat/x`), or '' when there is nothing to show.
 *
 * @example
 * provenanceLabel({ session: 's4b2c', branch: undefined }) // 's4b2c'
 */
export function provenanceLabel(item: Pick<SurfaceItem, 'session' | 'branch'>): string {
  return [item.session, item.branch].filter((x): x is string => Boolean(x)).join(', ');
}

/**
 * The confidence marker: one decimal, rounded down so it never overstates.
 *
 * @example
 * confidenceMarker(0.69) // '(~0.6)'
 */
export function confidenceMarker(confidence: number): string {
  return `(~${(Math.floor(confidence * 10) / 10).toFixed(1)})`;
}

/**
 * The text after `[POSSIBLY OUTDATED]`: the first reason and how many more there are.
 *
 * @example
 * staleNote(['src/db.ts no longer exists', 'branch feat/x is gone']) // 'src/db.ts no longer exists; +1 more'
 */
export function staleNote(reasons: readonly string[]): string {
  const first = cleanInline(reasons[0] ?? '', 80);
  return reasons.length > 1 ? `${first}; +${reasons.length - 1} more` : first;
}

/**
 * Suffix of the plan line when steps were left out for the budget.
 *
 * @example
 * omittedStepsNote(3) // '(+3 more steps)'
 */
export function omittedStepsNote(omitted: number): string {
  return `(+${omitted} more ${omitted === 1 ? 'step' : 'steps'})`;
}

/** Approximate markdown of one item, as the renderer writes it (escapes aside). */
function approxItemText(item: SurfaceItem): string {
  let line = `- ${item.summary}`;
  if (item.detail) line += ` — ${item.detail}`;
  if (item.stepsOmitted > 0) line += ` ${omittedStepsNote(item.stepsOmitted)}`;
  const label = provenanceLabel(item);
  if (label) line += ` [${label}]`;
  if (item.lowConfidence) line += ` ${confidenceMarker(item.confidence)}`;
  if (item.stale.length > 0) line += ` [POSSIBLY OUTDATED] (${staleNote(item.stale)})`;
  for (const step of item.steps ?? []) line += `\n  - [${step.done ? 'x' : ' '}] ${step.text}`;
  return `${line}\n`;
}

/** Approximate markdown of the skeleton without any section: markers, title, intro. */
function approxSkeletonText(template: SurfaceTemplate, notes: readonly string[]): string {
  const blocks = [SURFACE_START];
  if (template.title) blocks.push(`${'#'.repeat(template.titleDepth)} ${template.title}`);
  blocks.push(...template.intro, ...notes, SURFACE_END);
  return `${blocks.join('\n\n')}\n`;
}

function approxSectionText(section: SurfaceSection): string {
  return `${'#'.repeat(section.depth)} ${section.title}\n\n\n`;
}

interface Cost {
  tokens: number;
  chars: number;
}

function nLines(n: number): string {
  return `${n} ${n === 1 ? 'line' : 'lines'}`;
}

function listIds(ids: readonly string[]): string {
  if (ids.length === 0) return 'nothing';
  const shown = ids.slice(0, 3).join(', ');
  return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
}

/**
 * Decisions replaced by a later active decision on the same `topic` in the same scope: id →
 * the id of the latest one. "Later" is the newer `created`, then `updated`, then the larger
 * id (so the answer does not depend on input order). Only the briefing leaves them out, at
 * render time: no file is rewritten, and recall still finds them. Pure.
 *
 * @example
 * replacedDecisions([{ id: 'a', type: 'decision', topic: 'db', scope: 'project', status: 'active', created: '2026-01-01T00:00:00Z', … },
 *                    { id: 'b', type: 'decision', topic: 'db', scope: 'project', status: 'active', created: '2026-02-01T00:00:00Z', … }])
 * // Map { 'a' => 'b' }
 */
export function replacedDecisions(
  memories: readonly Pick<Memory, 'id' | 'type' | 'topic' | 'scope' | 'status' | 'created' | 'updated'>[],
): Map<string, string> {
  const latest = new Map<string, Pick<Memory, 'id' | 'created' | 'updated'>>();
  const later = (a: Pick<Memory, 'id' | 'created' | 'updated'>, b: Pick<Memory, 'id' | 'created' | 'updated'>): boolean =>
    a.created !== b.created ? a.created > b.created : a.updated !== b.updated ? a.updated > b.updated : a.id > b.id;
  const keyOf = (m: Pick<Memory, 'type' | 'topic' | 'scope' | 'status'>): string | undefined =>
    m.type === 'decision' && m.status === 'active' && m.topic !== undefined && m.topic.trim() !== '' ? `${m.scope}\u0000${m.topic.trim()}` : undefined;
  for (const m of memories) {
    const key = keyOf(m);
    if (key === undefined) continue;
    const best = latest.get(key);
    if (best === undefined || later(m, best)) latest.set(key, m);
  }
  const replaced = new Map<string, string>();
  for (const m of memories) {
    const key = keyOf(m);
    const best = key === undefined ? undefined : latest.get(key);
    if (best !== undefined && best.id !== m.id) replaced.set(m.id, best.id);
  }
  return replaced;
}

/**
 * Selects the briefing's items (see the module comment for the algorithm). O(n log n)
 * in the number of memories; only selected items get their text prepared.
 *
 * @example
 * const surface = buildSurface(memories, { now: new Date('2026-12-01T00:00:00Z'), currentBranch: 'main', template });
 * surface.items.map((i) => i.id) // ['ship-surface-abcdef', 'chose-sqlite-k3f9qa', …]
 * surface.explain.find((r) => !r.included)?.reason // 'token budget reached: needs ~31 tokens, 12 of 400 left after higher-priority items'
 */
export function buildSurface(memories: readonly Memory[], ctx: SurfaceContext): SurfaceResult {
  const opts = { ...DEFAULT_SURFACE, ...ctx };
  const config = opts.config;
  const { template, diagnostics } = parseSurfaceTemplate(opts.template);
  const limits = surfaceLimits({ config, budget: opts.budget });
  const measure = (text: string): Cost => {
    const chars = estimateChars(text);
    const counted = opts.tokenizer ? opts.tokenizer(text) : Number.NaN;
    return { chars, tokens: Number.isFinite(counted) && counted >= 0 ? counted : chars / limits.charsPerToken };
  };

  const ranked = rankMemories(memories, opts);
  const replaced = replacedDecisions(memories);
  const tiers = new Map(
    tierRankedDecisions(ranked, { ...DEFAULT_TIER_DECISIONS, now: opts.now, config, signals: opts.signals }).map((t) => [t.id, t]),
  );
  const sectionOf = new Map<MemoryType, number>();
  template.sections.forEach((s, i) => {
    for (const t of s.types) if (!sectionOf.has(t)) sectionOf.set(t, i);
  });
  const budgetOf = (type: MemoryType): number => {
    const b = config.surface.budgets[type];
    return typeof b === 'number' && b > 0 ? Math.floor(b) : 0;
  };

  // Pass 1: statuses, template, tiers, the active plan and the per-category line budgets.
  const explain: ExplainRow[] = [];
  const used = new Map<MemoryType, number>();
  const inBudgetIds = new Map<MemoryType, string[]>();
  const inBudget: number[] = [];
  const overflow: number[] = [];
  let plan: number | undefined;
  let planId = '';
  const pinned: number[] = [];
  // A pinned plan is the plan shown, whatever its rank.
  const pinnedPlan = ranked.findIndex((r) => r.memory.pinned && r.memory.status === 'active' && r.memory.type === 'plan' && sectionOf.has('plan'));
  // Pinned memories take their lines first, so the rest are counted after them.
  for (const r of ranked) {
    const m = r.memory;
    if (m.pinned && m.status === 'active' && m.type !== 'plan' && sectionOf.has(m.type)) used.set(m.type, (used.get(m.type) ?? 0) + 1);
  }
  ranked.forEach((r, index) => {
    const m = r.memory;
    const sectionIndex = sectionOf.get(m.type);
    const budget = budgetOf(m.type);
    const tier = tiers.get(m.id);
    const row: ExplainRow = {
      id: m.id,
      type: m.type,
      status: m.status,
      section: sectionIndex === undefined ? undefined : template.sections[sectionIndex]?.title,
      rank: r.rank,
      parts: r.parts,
      tier: tier?.tier,
      budget,
      lines: 0,
      tokens: 0,
      included: false,
      reason: '',
    };
    explain.push(row);
    if (m.status !== 'active') row.reason = m.status;
    else if (sectionIndex === undefined) row.reason = `no section for type "${m.type}" in the template${m.pinned ? ' (pinned, but a briefing can only show types it has a section for)' : ''}`;
    else if (m.pinned && index !== pinnedPlan) {
      row.lines = 1;
      row.stage = 'pinned';
      row.reason = 'pinned: always shown, counted against the budgets first';
      pinned.push(index);
    } else if (m.type === 'plan' && index === pinnedPlan) {
      plan = index;
      planId = m.id;
    } else if (replaced.has(m.id)) row.reason = `replaced by ${replaced.get(m.id)}, a later decision on topic "${m.topic}"`;
    else if (budget === 0) row.reason = `the ${m.type} budget is ${nLines(0)}`;
    else if (tier?.tier === 'archive-only') row.reason = `archive-only decision tier (${tier.reason})`;
    else if (m.type === 'plan') {
      if (plan === undefined && pinnedPlan < 0) {
        plan = index;
        planId = m.id;
      } else row.reason = `only the active plan is shown: ${planId || ranked[pinnedPlan]?.memory.id} ${pinnedPlan >= 0 ? 'is pinned' : 'ranks higher'}`;
    } else {
      row.lines = 1;
      const u = used.get(m.type) ?? 0;
      if (u + 1 <= budget) {
        used.set(m.type, u + 1);
        inBudget.push(index);
        const ids = inBudgetIds.get(m.type) ?? [];
        ids.push(m.id);
        inBudgetIds.set(m.type, ids);
        row.stage = 'budget';
        row.reason = `within the ${m.type} budget: line ${u + 1} of ${budget}`;
      } else overflow.push(index);
    }
  });

  const rowAt = (index: number): ExplainRow => explain[index] as ExplainRow;
  const rankedAt = (index: number): RankedMemory => ranked[index] as RankedMemory;

  const makeItem = (index: number, stage: SurfaceStage): SurfaceItem => {
    const { memory: m, rank, parts } = rankedAt(index);
    const tier = tiers.get(m.id)?.tier;
    const summary = cleanInline(m.summary, MAX_SUMMARY_LENGTH) || '(no summary)';
    const session = (m.source.session ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 4).toLowerCase();
    const branch = m.source.branch && m.source.branch !== opts.currentBranch ? sanitizeLabel(m.source.branch) : '';
    const reasons = opts.staleness[m.id];
    const stale = Array.isArray(reasons) ? reasons.filter((s) => typeof s === 'string' && s.trim() !== '') : [];
    return {
      id: m.id,
      type: m.type,
      section: sectionOf.get(m.type) ?? 0,
      rank,
      parts,
      stage,
      order: -1,
      rankIndex: index,
      summary,
      detail: tier === 'full' ? bodyExcerpt(m.body, summary, opts.detailChars) : undefined,
      steps: undefined,
      stepsOmitted: 0,
      tier,
      session: session ? `s${session}` : undefined,
      branch: branch || undefined,
      confidence: parts.decayed,
      lowConfidence: parts.decayed < opts.lowConfidenceBelow,
      stale,
      lines: 1,
      tokens: 0,
      chars: 0,
    };
  };

  const priority: SurfaceItem[] = pinned.map((index) => makeItem(index, 'pinned'));
  // The active plan: its steps are trimmed to the plan's line budget and token share.
  if (plan !== undefined) {
    const item = makeItem(plan, 'plan');
    const all = planSteps(rankedAt(plan).memory.body).map((s) => ({ ...s, text: cleanInline(s.text, 160) }));
    const maxLines = budgetOf('plan') - 1;
    const tokenShare = Math.max(0, opts.planShare) * limits.targetTokens;
    const chosen = new Set<number>();
    let spent = 0;
    // Open steps first, in order; then the most recently finished ones, for context.
    const order = [
      ...all.flatMap((s, i) => (s.done ? [] : [i])),
      ...all.flatMap((s, i) => (s.done ? [i] : [])).reverse(),
    ];
    for (const i of order) {
      if (chosen.size >= maxLines) break;
      const step = all[i] as PlanStep;
      const cost = measure(`  - [${step.done ? 'x' : ' '}] ${step.text}\n`).tokens;
      if (spent + cost > tokenShare) continue;
      chosen.add(i);
      spent += cost;
    }
    item.steps = all.filter((_s, i) => chosen.has(i));
    item.stepsOmitted = all.length - chosen.size;
    item.lines = 1 + chosen.size;
    used.set('plan', item.lines);
    const row = rowAt(plan);
    row.lines = item.lines;
    row.stage = 'plan';
    row.reason = plan === pinnedPlan ? 'the active plan (pinned), shown first' : 'the active plan (highest-ranked plan), shown first';
    // A pinned plan is kept before every other item; an unpinned one right after the pinned ones.
    if (plan === pinnedPlan) priority.unshift(item);
    else priority.push(item);
  }
  for (const index of inBudget) priority.push(makeItem(index, 'budget'));

  // Pass 2: lines the categories left unused go to the best leftovers of any category.
  let pool = 0;
  for (const [type] of sectionOf) pool += Math.max(0, budgetOf(type) - (used.get(type) ?? 0));
  const poolTotal = pool;
  // One reason string per type, shared by its rows: with 10,000 memories most rows end
  // here, and a string per row would be megabytes for the garbage collector to copy.
  const usedByOf = new Map<MemoryType, string>();
  const lostOf = new Map<MemoryType, string>();
  for (const index of overflow) {
    const row = rowAt(index);
    const { type } = rankedAt(index).memory;
    let usedBy = usedByOf.get(type);
    if (usedBy === undefined) {
      usedBy = `the ${type} budget of ${nLines(row.budget)} is used by higher-ranked ${listIds(inBudgetIds.get(type) ?? [])}`;
      usedByOf.set(type, usedBy);
    }
    if (pool >= 1) {
      pool -= 1;
      row.stage = 'overflow';
      row.reason = `overflow: ${usedBy}; took 1 of the ${nLines(poolTotal)} other categories left unused`;
      priority.push(makeItem(index, 'overflow'));
    } else {
      let lost = lostOf.get(type);
      if (lost === undefined) {
        lost = `${usedBy}; no unused lines left in other categories (${nLines(poolTotal)} went to higher-ranked overflow)`;
        lostOf.set(type, lost);
      }
      row.reason = lost;
    }
  }

  // Pass 3: fill the token target (and the character ceiling) in priority order.
  const notes = opts.notes.map((n) => cleanInline(n, MAX_SUMMARY_LENGTH)).filter((n) => n !== '');
  const skeleton = measure(approxSkeletonText(template, notes));
  let tokens = skeleton.tokens;
  let chars = skeleton.chars;
  const opened = new Set<number>();
  const items: SurfaceItem[] = [];
  for (const item of priority) {
    const row = rowAt(item.rankIndex);
    const own = measure(approxItemText(item));
    const section = template.sections[item.section];
    const heading = opened.has(item.section) || !section ? { tokens: 0, chars: 0 } : measure(approxSectionText(section));
    const cost = { tokens: own.tokens + heading.tokens, chars: own.chars + heading.chars };
    row.tokens = Math.ceil(cost.tokens);
    // The row keeps the stage it reached, so an explanation can tell a line-budget loss
    // from a token-budget loss. Pinned items (and a pinned plan) go in over the target;
    // only the character ceiling and the renderer's hard limits can keep them out.
    const isPinned = item.stage === 'pinned' || (item.stage === 'plan' && item.rankIndex === pinnedPlan);
    if (!isPinned && tokens + cost.tokens > limits.targetTokens) {
      row.reason = `token budget reached: needs ~${Math.ceil(cost.tokens)} tokens, ${Math.max(0, Math.floor(limits.targetTokens - tokens))} of ${limits.targetTokens} left after higher-priority items`;
      continue;
    }
    if (chars + cost.chars > limits.maxChars) {
      row.reason = `${isPinned ? 'pinned, but the ' : ''}character limit reached: needs ~${cost.chars} characters, ${Math.max(0, limits.maxChars - chars)} of ${limits.maxChars} left after higher-priority items`;
      continue;
    }
    if (isPinned && tokens + cost.tokens > limits.targetTokens) row.reason += `; over the ${limits.targetTokens}-token target, which pinned memories may exceed`;
    tokens += cost.tokens;
    chars += cost.chars;
    opened.add(item.section);
    item.tokens = cost.tokens;
    item.chars = cost.chars;
    item.order = items.length;
    row.included = true;
    items.push(item);
  }

  const excluded = explain.filter((r) => !r.included).map((r) => ({ id: r.id, reason: r.reason }));
  return { items, excluded, explain, tokens: Math.ceil(tokens), chars, limits, template, notes, diagnostics };
}
