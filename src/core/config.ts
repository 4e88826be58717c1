/**
 * Configuration: defaults, validation and merging of `.cortex/config.yaml`.
 * Pure: the shell reads the file and the environment and passes plain data in.
 */
import type { Diagnostic, MemoryType } from './memory.js';

/** Half-life in days; `null` means the type never decays. */
export type HalfLife = number | null;

export interface CortexConfig {
  ranking: {
    weights: { confidence: number; priority: number; centrality: number; usage: number };
    branchBoost: number;
  };
  decay: {
    halfLives: Record<MemoryType, HalfLife>;
    /** Half-life doubles when access count exceeds this. */
    accessDoublingThreshold: number;
    /** Half-life doubles again when centrality exceeds this. */
    centralityDoublingThreshold: number;
  };
  lifecycle: {
    archiveBelow: number;
    archiveAfterDays: number;
    pruneAfterDays: number;
    hubCentrality: number;
  };
  surface: {
    targetTokens: number;
    maxTokens: number;
    /** Hard ceiling whatever else is configured: Claude Code's hook injection limit. */
    maxChars: number;
    charsPerToken: number;
    budgets: Record<MemoryType, number>;
    decisions: { fullCap: number; oneLineCap: number; recentDays: number };
    /** Token budget of the compact briefing (SessionStart after a compaction, `--compact`). */
    compactTokens: number;
    /** Decayed confidence below which an item shows its `(~0.6)` marker. */
    lowConfidenceBelow: number;
    /** Longest body excerpt shown for a full-tier decision, in characters. */
    detailChars: number;
    /** Share of the token target the active plan's steps may take. */
    planShare: number;
    /** Files `cortex surface --write` updates, relative to the repository root. */
    targets: string[];
  };
  recall: {
    limit: number;
    /** Results scoring below this share of the best one are not shown (0: off). */
    minScoreShare: number;
    /** Keyword results containing less than this idf-weighted share of the query's words are not shown (0: off). */
    minCoverage: number;
    /** Global memories' scores are multiplied by this: a small preference for the project. */
    globalWeight: number;
    /**
     * Share of a result's score given to the results next to it in its session (±2 places):
     * conversation neighbours (0: off).
     */
    neighbourWeight: number;
  };
  /** The prompt hook (UserPromptSubmit): its own floor, so tuning it moves neither recall nor the benchmarks. */
  anticipate: {
    /** Memories scoring below this share of the best one for a prompt are not injected (0: off). */
    minScoreShare: number;
  };
  extraction: { threshold: number };
  /** The review queue of captured candidates (`cortex review`). */
  review: {
    /** A queued candidate older than this many days is no longer shown or recalled, and leaves the queue at its next write (0: never). */
    expireDays: number;
  };
  /**
   * Opt-in model capture (docs/claude-code.md): `off` (default) sends nothing anywhere;
   * `reflect` asks the running assistant to record what it decided; `claude` runs headless
   * Claude Code in the SessionEnd worker; `endpoint` calls an OpenAI-compatible or
   * Anthropic API.
   */
  capture: {
    mode: string;
    /** `reflect`: at most one request per this many prompts. */
    reflectEveryTurns: number;
    /** Characters of the condensed session sent to a model. */
    maxInputChars: number;
    /** A model call taking longer is abandoned (the rule-based memories are kept). */
    timeoutMs: number;
    /** A longer answer is ignored. */
    maxAnswerBytes: number;
    /** `claude`: the command to run (`claude` on PATH by default). */
    claudeCommand: string;
    /** The model to ask (`claude --model`, the endpoint's model); null: the command's default. */
    model: string | null;
    endpoint: {
      /** Base URL, e.g. http://localhost:11434/v1 (Ollama) or https://api.anthropic.com. */
      url: string | null;
      /** `openai` (chat completions) or `anthropic` (messages). */
      api: string;
      /** Name of the environment variable holding the API key (never the key itself). */
      keyEnv: string | null;
    };
  };
  autolink: {
    relatesMin: number;
    suggestedMin: number;
    consolidateMin: number;
    /** Most `relates_to` edges one write adds (the strongest). */
    maxEdges: number;
    /** A word in more than this share of the memories is common: it never links two memories on its own (nor does a number). */
    commonShare: number;
  };
  embed: {
    enabled: boolean;
    model: string;
    dtype: string;
    /** Local model root; a relative path is resolved against the project root. */
    modelDir: string | null;
    /** Semantic candidates below this cosine similarity are dropped from recall. */
    minSimilarity: number;
  };
}

/** Hook-injection limit of Claude Code: nothing Cortex injects may exceed it. */
export const HARD_MAX_CHARS = 10_000;

export const DEFAULT_CONFIG: CortexConfig = {
  ranking: {
    weights: { confidence: 0.5, priority: 0.2, centrality: 0.15, usage: 0.15 },
    branchBoost: 0.1,
  },
  decay: {
    halfLives: {
      architecture: null,
      decision: null,
      rejected: null,
      code_description: null,
      code: null,
      preference: 90,
      pattern: 60,
      gotcha: 45,
      context: 30,
      plan: 14,
      progress: 7,
    },
    accessDoublingThreshold: 10,
    centralityDoublingThreshold: 0.5,
  },
  lifecycle: { archiveBelow: 0.3, archiveAfterDays: 14, pruneAfterDays: 30, hubCentrality: 0.5 },
  surface: {
    targetTokens: 400,
    maxTokens: 550,
    maxChars: HARD_MAX_CHARS,
    charsPerToken: 4,
    budgets: {
      architecture: 25,
      decision: 25,
      rejected: 25,
      pattern: 25,
      gotcha: 20,
      progress: 30,
      plan: 30,
      context: 15,
      preference: 15,
      code_description: 10,
      code: 0,
    },
    decisions: { fullCap: 50, oneLineCap: 30, recentDays: 30 },
    compactTokens: 200,
    lowConfidenceBelow: 0.7,
    detailChars: 160,
    planShare: 0.5,
    targets: ['.claude/cortex-memory.local.md'],
  },
  recall: { limit: 10, minScoreShare: 0.2, minCoverage: 0.2, globalWeight: 0.9, neighbourWeight: 0.1 },
  anticipate: { minScoreShare: 0.2 },
  extraction: { threshold: 0.7 },
  review: { expireDays: 30 },
  capture: {
    mode: 'off',
    reflectEveryTurns: 5,
    maxInputChars: 60_000,
    timeoutMs: 120_000,
    maxAnswerBytes: 200_000,
    claudeCommand: 'claude',
    model: null,
    endpoint: { url: null, api: 'openai', keyEnv: null },
  },
  autolink: { relatesMin: 0.1, suggestedMin: 0.4, consolidateMin: 0.5, maxEdges: 3, commonShare: 0.05 },
  embed: { enabled: true, model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8', modelDir: null, minSimilarity: 0.2 },
};

type Range = readonly [min: number, max: number, integer?: 'int'];

/** Allowed numeric ranges by dotted key; `*` matches any memory type. */
const RANGES: Record<string, Range> = {
  'ranking.weights.confidence': [0, 1],
  'ranking.weights.priority': [0, 1],
  'ranking.weights.centrality': [0, 1],
  'ranking.weights.usage': [0, 1],
  'ranking.branchBoost': [0, 1],
  'decay.halfLives.*': [0.01, 100_000],
  'decay.accessDoublingThreshold': [0, 1_000_000, 'int'],
  'decay.centralityDoublingThreshold': [0, 1],
  'lifecycle.archiveBelow': [0, 1],
  'lifecycle.archiveAfterDays': [0, 36_500],
  'lifecycle.pruneAfterDays': [0, 36_500],
  'lifecycle.hubCentrality': [0, 1],
  'surface.targetTokens': [10, 2_500, 'int'],
  'surface.maxTokens': [10, 2_500, 'int'],
  'surface.maxChars': [100, HARD_MAX_CHARS, 'int'],
  'surface.charsPerToken': [1, 10],
  'surface.budgets.*': [0, 500, 'int'],
  'surface.decisions.fullCap': [0, 10_000, 'int'],
  'surface.decisions.oneLineCap': [0, 10_000, 'int'],
  'surface.decisions.recentDays': [0, 36_500],
  'surface.compactTokens': [10, 2_500, 'int'],
  'surface.lowConfidenceBelow': [0, 1],
  'surface.detailChars': [0, 2_000, 'int'],
  'surface.planShare': [0, 1],
  'recall.limit': [1, 1_000, 'int'],
  'recall.minScoreShare': [0, 1],
  'recall.minCoverage': [0, 1],
  'recall.globalWeight': [0, 1],
  'recall.neighbourWeight': [0, 1],
  'anticipate.minScoreShare': [0, 1],
  'extraction.threshold': [0, 1],
  'review.expireDays': [0, 36_500],
  'capture.reflectEveryTurns': [1, 1_000, 'int'],
  'capture.maxInputChars': [1_000, 2_000_000, 'int'],
  'capture.timeoutMs': [1_000, 3_600_000, 'int'],
  'capture.maxAnswerBytes': [1_000, 10_000_000, 'int'],
  'autolink.relatesMin': [0, 1],
  'autolink.suggestedMin': [0, 1],
  'autolink.consolidateMin': [0, 1],
  'autolink.maxEdges': [0, 100, 'int'],
  'autolink.commonShare': [0, 1],
  'embed.minSimilarity': [-1, 1],
};

export interface ConfigResult {
  config: CortexConfig;
  diagnostics: Diagnostic[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rangeFor(path: string): Range | undefined {
  const direct = RANGES[path];
  if (direct) return direct;
  const wildcard = path.replace(/\.[^.]+$/, '.*');
  return RANGES[wildcard];
}

/**
 * Validates a parsed config object against the defaults and merges it over them.
 * Unknown keys are warnings; wrong types and out-of-range values are errors naming
 * the key and the allowed range, and fall back to the default.
 *
 * @example
 * resolveConfig({ surface: { targetTokens: 300 } }, 'config.yaml').config.surface.targetTokens // 300
 */
export function resolveConfig(raw: unknown, file = '.cortex/config.yaml'): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  if (raw === undefined || raw === null) return { config: structuredClone(DEFAULT_CONFIG), diagnostics };
  if (!isPlainObject(raw)) {
    diagnostics.push({
      file,
      reason: 'the config file must be a YAML mapping of keys to values',
      ruleId: 'config-shape',
      severity: 'error',
      hint: 'Example: `surface:\\n  targetTokens: 400`',
    });
    return { config: structuredClone(DEFAULT_CONFIG), diagnostics };
  }
  const config = mergeNode(DEFAULT_CONFIG, raw, '', file, diagnostics) as CortexConfig;
  if (config.surface.maxTokens < config.surface.targetTokens) {
    diagnostics.push({
      file,
      reason: `surface.maxTokens (${config.surface.maxTokens}) is below surface.targetTokens (${config.surface.targetTokens})`,
      ruleId: 'config-range',
      severity: 'error',
      hint: 'Set surface.maxTokens to at least surface.targetTokens.',
    });
    config.surface.maxTokens = config.surface.targetTokens;
  }
  const oneOf = (path: string, value: string, allowed: readonly string[], fallback: string): string => {
    if (allowed.includes(value)) return value;
    diagnostics.push({
      file,
      reason: `${path} is ${JSON.stringify(value)}; allowed: ${allowed.join(', ')}`,
      ruleId: 'config-range',
      severity: 'error',
      hint: `Set ${path} to one of ${allowed.join(', ')}, or remove it to use the default (${fallback}).`,
    });
    return fallback;
  };
  config.capture.mode = oneOf('capture.mode', config.capture.mode, ['off', 'reflect', 'claude', 'endpoint'], 'off');
  config.capture.endpoint.api = oneOf('capture.endpoint.api', config.capture.endpoint.api, ['openai', 'anthropic'], 'openai');
  return { config, diagnostics };
}

function mergeNode(def: unknown, raw: unknown, path: string, file: string, out: Diagnostic[]): unknown {
  if (isPlainObject(def)) {
    if (!isPlainObject(raw)) {
      out.push(typeError(path, 'a mapping', raw, file));
      return structuredClone(def);
    }
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(def)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      result[key] = key in raw ? mergeNode(def[key], raw[key], childPath, file, out) : structuredClone(def[key]);
    }
    for (const key of Object.keys(raw)) {
      if (!(key in def)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        out.push({
          file,
          reason: `unknown key "${childPath}"`,
          ruleId: 'config-unknown-key',
          severity: 'warning',
          hint: `Known keys here: ${Object.keys(def).join(', ')}.`,
        });
      }
    }
    return result;
  }
  if (Array.isArray(def)) {
    if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'string')) {
      out.push(typeError(path, 'a list of strings', raw, file));
      return structuredClone(def);
    }
    return [...raw];
  }
  if (typeof def === 'number' || (def === null && path.startsWith('decay.halfLives.'))) {
    if (raw === null && path.startsWith('decay.halfLives.')) return null;
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      out.push(typeError(path, 'a number', raw, file));
      return def;
    }
    const range = rangeFor(path);
    if (range) {
      const [min, max, int] = range;
      if (raw < min || raw > max || (int === 'int' && !Number.isInteger(raw))) {
        out.push({
          file,
          reason: `${path} is ${raw}; allowed: ${int === 'int' ? 'an integer ' : ''}from ${min} to ${max}`,
          ruleId: 'config-range',
          severity: 'error',
          hint: `Set ${path} to a value from ${min} to ${max}, or remove it to use the default (${String(def)}).`,
        });
        return def;
      }
    }
    return raw;
  }
  if (typeof def === 'boolean') {
    if (typeof raw !== 'boolean') {
      out.push(typeError(path, 'true or false', raw, file));
      return def;
    }
    return raw;
  }
  if (typeof def === 'string' || def === null) {
    if (raw === null && def === null) return null;
    if (typeof raw !== 'string') {
      out.push(typeError(path, 'a string', raw, file));
      return def;
    }
    return raw;
  }
  return def;
}

function typeError(path: string, expected: string, raw: unknown, file: string): Diagnostic {
  const found = JSON.stringify(raw) ?? String(raw);
  return {
    file,
    reason: `${path} must be ${expected}, found ${found.length > 40 ? `${found.slice(0, 40)}…` : found}`,
    ruleId: 'config-type',
    severity: 'error',
    hint: `Fix ${path} in the config file, or remove it to use the default.`,
  };
}

/** Stable hash input of a config: used in cache keys. */
export function configFingerprint(config: CortexConfig): string {
  return JSON.stringify(config);
}
