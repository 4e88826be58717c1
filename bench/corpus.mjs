#!/usr/bin/env node
/**
 * Deterministic synthetic corpora for the benchmarks: memories that look like what a
 * coding assistant captures over ~18 months of work on one project (type mix, sizes,
 * tags, topics, file references, sessions and branches), and edges between them.
 *
 * The prose is built from a coding-domain vocabulary with a Zipf-like skew, so a keyword
 * query hits a realistic number of documents: common words ("cache", "test") hit many,
 * specific ones ("PKCE", "proration") hit a few.
 *
 * Library:  generateCorpus({ n, seed }) · writeCorpus(dir, memories) · generateEdges({ memories, n, seed })
 * CLI:      node bench/corpus.mjs --n 10000 --out /tmp/corpus-10k [--seed 1] [--edges 30000]
 *
 * Runs against the BUILT product (`npm run build`): ids and files go through the real
 * `buildId` and `renderMemory` from dist/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { buildId, formatDate, normalizeTags } from '../dist/core/memory.js';
import { renderMemory } from '../dist/core/memory-format.js';
import { createRandom, hashSeed } from './lib/random.mjs';

/** Bump when the generator's output changes, so cached corpora are regenerated. */
export const CORPUS_VERSION = 1;

/** A fixed "now": the corpus is the same whatever day it is generated. */
export const DEFAULT_CORPUS = { n: 1000, seed: 1, now: '2026-11-20T12:00:00Z', spanDays: 548 };
export const DEFAULT_EDGES = { n: 30000, seed: 1 };

// ---------------------------------------------------------------------------------------
// Vocabulary. Domains are listed roughly by how often real projects talk about them; the
// generator picks them with a Zipf skew, so the first ones dominate.

const DOMAINS = [
  {
    key: 'storage', dir: 'db',
    techs: ['SQLite', 'PostgreSQL', 'MySQL', 'Redis', 'DynamoDB', 'LevelDB', 'Prisma', 'Knex'],
    comps: ['connection pool', 'migration runner', 'schema', 'query builder', 'repository layer', 'write-ahead log'],
    terms: ['transaction', 'index', 'migration', 'vacuum', 'WAL mode', 'isolation level', 'foreign key', 'read replica', 'busy timeout', 'schema version'],
    tags: ['storage', 'database', 'sqlite', 'postgres', 'migrations'],
  },
  {
    key: 'testing', dir: 'test',
    techs: ['Vitest', 'Jest', 'Playwright', 'fast-check', 'Testcontainers', 'msw', 'Cypress'],
    comps: ['test harness', 'fixture loader', 'snapshot serializer', 'e2e suite', 'integration tests', 'test database'],
    terms: ['flaky test', 'fixture', 'snapshot', 'mock', 'coverage', 'property test', 'timeout', 'temp directory', 'golden file'],
    tags: ['testing', 'ci', 'flaky', 'fixtures', 'e2e'],
  },
  {
    key: 'api', dir: 'api',
    techs: ['Express', 'Fastify', 'GraphQL', 'tRPC', 'OpenAPI', 'gRPC', 'Hono'],
    comps: ['router', 'request validator', 'rate limiter', 'error middleware', 'pagination helper', 'API gateway'],
    terms: ['endpoint', 'status code', 'payload', 'cursor', 'idempotency key', 'versioning', 'CORS', 'content type', 'request id'],
    tags: ['api', 'http', 'rest', 'graphql', 'validation'],
  },
  {
    key: 'build', dir: 'build',
    techs: ['tsc', 'esbuild', 'Vite', 'Rollup', 'webpack', 'SWC', 'tsup'],
    comps: ['build script', 'bundle config', 'type checker', 'source maps', 'monorepo workspace'],
    terms: ['ESM', 'CommonJS', 'tree shaking', 'declaration files', 'path alias', 'target', 'strict mode', 'incremental build'],
    tags: ['build', 'typescript', 'esm', 'bundling', 'tooling'],
  },
  {
    key: 'auth', dir: 'auth',
    techs: ['JWT', 'OAuth2', 'session cookies', 'Passport', 'Auth0', 'Keycloak', 'WebAuthn'],
    comps: ['login flow', 'token refresh', 'session store', 'permission checker', 'SSO bridge', 'API key service'],
    terms: ['refresh token', 'expiry', 'scope', 'CSRF', 'PKCE', 'role', 'claim', 'password hash', 'clock skew'],
    tags: ['auth', 'security', 'oauth', 'jwt', 'sessions'],
  },
  {
    key: 'deploy', dir: 'infra',
    techs: ['Docker', 'Kubernetes', 'Fly.io', 'Terraform', 'GitHub Actions', 'Helm', 'systemd'],
    comps: ['deploy pipeline', 'container image', 'health check', 'rollout script', 'staging environment'],
    terms: ['rollback', 'canary', 'readiness probe', 'secret', 'environment variable', 'release tag', 'base image', 'cold start'],
    tags: ['deploy', 'ci', 'docker', 'infra', 'kubernetes'],
  },
  {
    key: 'caching', dir: 'cache',
    techs: ['Redis', 'LRU cache', 'CDN', 'memcached', 'HTTP cache headers', 'ETags'],
    comps: ['cache layer', 'invalidation hook', 'memoizer', 'edge cache'],
    terms: ['TTL', 'eviction', 'stale-while-revalidate', 'cache key', 'hit rate', 'cache stampede', 'warm-up'],
    tags: ['caching', 'performance', 'redis'],
  },
  {
    key: 'frontend', dir: 'ui',
    techs: ['React', 'Svelte', 'Tailwind', 'Zustand', 'React Query', 'Storybook', 'Radix'],
    comps: ['form component', 'data table', 'client router', 'design tokens', 'modal dialog', 'settings page'],
    terms: ['hydration', 're-render', 'state', 'accessibility', 'suspense', 'props', 'focus trap', 'dark mode'],
    tags: ['frontend', 'ui', 'react', 'accessibility', 'css'],
  },
  {
    key: 'queue', dir: 'jobs',
    techs: ['BullMQ', 'RabbitMQ', 'SQS', 'Kafka', 'pg-boss', 'cron'],
    comps: ['job worker', 'retry policy', 'dead-letter queue', 'scheduler', 'outbox table'],
    terms: ['backoff', 'at-least-once delivery', 'idempotent handler', 'visibility timeout', 'poison message', 'concurrency limit'],
    tags: ['queue', 'jobs', 'workers', 'retries'],
  },
  {
    key: 'logging', dir: 'obs',
    techs: ['pino', 'OpenTelemetry', 'Sentry', 'Grafana', 'Prometheus', 'Loki'],
    comps: ['logger', 'tracing middleware', 'metrics exporter', 'alert rule', 'error reporter'],
    terms: ['log level', 'span', 'correlation id', 'structured log', 'dashboard', 'alert', 'sampling rate', 'PII'],
    tags: ['logging', 'observability', 'monitoring'],
  },
  {
    key: 'search', dir: 'search',
    techs: ['MiniSearch', 'Elasticsearch', 'Meilisearch', 'pgvector', 'BM25', 'Typesense'],
    comps: ['search index', 'tokenizer', 'ranking function', 'query parser', 'embedding pipeline'],
    terms: ['stemming', 'fuzzy match', 'relevance', 'embedding', 'inverted index', 'stop words', 'field boost'],
    tags: ['search', 'ranking', 'embeddings'],
  },
  {
    key: 'git', dir: 'scripts',
    techs: ['isomorphic-git', 'git hooks', 'merge driver', 'Husky', 'changesets', 'semantic-release'],
    comps: ['pre-commit hook', 'merge driver', 'release script', 'changelog', 'branch protection'],
    terms: ['rebase', 'merge conflict', 'branch', 'commit message', 'tag', 'submodule', 'line endings'],
    tags: ['git', 'release', 'hooks', 'merge'],
  },
  {
    key: 'payments', dir: 'billing',
    techs: ['Stripe', 'Stripe webhooks', 'PayPal', 'Paddle'],
    comps: ['webhook handler', 'billing service', 'checkout flow', 'invoice generator', 'subscription sync'],
    terms: ['idempotency key', 'webhook signature', 'refund', 'currency', 'proration', 'trial period', 'tax rate'],
    tags: ['payments', 'billing', 'webhooks', 'stripe'],
  },
  {
    key: 'config', dir: 'config',
    techs: ['dotenv', 'zod', 'YAML', 'feature flags', 'LaunchDarkly', 'convict'],
    comps: ['config loader', 'env schema', 'flag service', 'settings resolver'],
    terms: ['default value', 'override', 'precedence', 'secret', 'validation', 'config file', 'env var'],
    tags: ['config', 'env', 'feature-flags'],
  },
  {
    key: 'perf', dir: 'perf',
    techs: ['clinic.js', 'worker threads', 'Node streams', 'the V8 profiler', 'autocannon'],
    comps: ['hot path', 'batch loader', 'streaming parser', 'startup sequence'],
    terms: ['latency', 'throughput', 'p95', 'memory leak', 'allocation', 'event loop lag', 'startup time', 'GC pause'],
    tags: ['performance', 'profiling', 'memory'],
  },
  {
    key: 'i18n', dir: 'i18n',
    techs: ['ICU MessageFormat', 'i18next', 'the Intl API', 'date-fns'],
    comps: ['translation loader', 'date formatter', 'locale switcher'],
    terms: ['locale', 'plural rules', 'timezone', 'UTC', 'fallback language', 'right-to-left layout', 'DST'],
    tags: ['i18n', 'dates', 'timezone'],
  },
];

const GENERIC_TAGS = ['refactor', 'tech-debt', 'security', 'performance', 'dx', 'breaking-change', 'docs', 'bug', 'cleanup', 'onboarding'];

const VERBS = ['load', 'parse', 'build', 'resolve', 'create', 'fetch', 'sync', 'flush', 'validate', 'normalize', 'render', 'retry', 'open', 'close', 'read', 'write', 'merge', 'compute', 'apply', 'schedule'];
const NOUNS = ['Config', 'Session', 'Index', 'Token', 'Cache', 'Job', 'Request', 'Schema', 'Batch', 'Snapshot', 'Payload', 'Route', 'Event', 'Record', 'Invoice', 'Locale', 'Span', 'Branch', 'Manifest', 'Query'];
const SCRIPTS = ['build', 'test', 'lint', 'typecheck', 'db:migrate', 'e2e', 'bench', 'release'];

const REASONS = [
  'it needs a running daemon on every laptop',
  'the {term} semantics differ between environments',
  'it doubled the startup time',
  'it does not support {term}',
  'the licence is incompatible with ours',
  'nobody on the team wants to maintain it',
  'it adds {n} MB to the install size',
  'it leaks memory under sustained load',
  'it was too slow once {term} grew past {n}k rows',
  'its {term} handling is undocumented',
  'upgrading it broke the {comp} twice',
  'the hosted plan costs too much for a side project',
];
const CONDITIONS = [
  'is empty', 'expires during a request', 'contains non-ASCII characters', 'exceeds {n} KB', 'is shared across workers',
  'arrives out of order', 'is retried after a timeout', 'is null instead of missing', 'changes while the process runs',
  'is read before the migration finishes', 'uses a different timezone', 'is set in both the file and the environment',
];
const FAILURES = [
  'throws a timeout', 'returns stale data', 'drops the last {term}', 'deadlocks', 'double-counts every {term}',
  'loses the {term}', 'crashes with an unhelpful stack trace', 'logs the {term} in plain text', 'hangs on shutdown',
  'silently falls back to the default', 'corrupts the {term}', 'fails only on CI',
];
const EFFECTS = [
  'opens a second connection', 'registers the listener twice', 'is a no-op', 'resets the {term}', 'bypasses the {comp}',
  'returns the cached {term}', 'throws on the second call',
];
const METRICS = ['p95 latency', 'startup time', 'build time', 'memory use', 'test time', 'cold start', 'query time'];
const STYLES = [
  ['named exports', 'TypeScript'], ['small pure functions', 'the core'], ['early returns', 'handlers'], ['explicit return types', 'public APIs'],
  ['async/await over callbacks', 'Node code'], ['one options object', 'public functions'], ['plain objects over classes', 'domain code'],
  ['kebab-case file names', 'the repo'], ['table-driven tests', 'unit tests'], ['structured errors with codes', 'the CLI'],
];

// Sentence templates: {tech} {tech2} {comp} {comp2} {term} {term2} {file} {fn} {n} {reason} {cond} {fail} {effect} {metric} {script}
const SUMMARY_TEMPLATES = {
  decision: [
    'Chose {tech} over {tech2} for the {comp}',
    'Use {tech} for {term} in the {comp}',
    'Decided to keep {term} inside the {comp} instead of adding {tech2}',
    'Store {term} with {tech} because {reason}',
    'Standardised on {tech} for every {comp}',
  ],
  rejected: [
    'Rejected {tech2} for the {comp}: {reason}',
    'Tried {tech2} for {term}; dropped it because {reason}',
    'Do not move the {comp} to {tech2}',
  ],
  gotcha: [
    '{tech} {fail} when the {term} {cond}',
    'The {comp} breaks if the {term} {cond}',
    '{fn}() {fail} when the {term} {cond}',
    'Calling {fn}() twice {effect}',
  ],
  pattern: [
    'Wrap every {term} in {fn}() before it reaches the {comp}',
    'Every {comp} module exports a {fn} factory',
    'Use {term} with {tech} for each {comp} change',
    'Validate the {term} at the edge, never inside the {comp}',
  ],
  architecture: [
    'The {comp} talks to the {comp2} through {tech}',
    'The {comp} owns the {term}; the {comp2} only reads it',
    '{file} is the only place that touches {tech}',
    'The {comp} is split into a pure core and a thin {tech} adapter',
  ],
  progress: [
    'Finished moving the {comp} to {tech}',
    'Moved {term} handling into {file}',
    '{comp}: {n} of {m} tasks done, {term} still open',
    'Fixed the {term} bug in the {comp}',
  ],
  plan: [
    'Next: replace {tech2} with {tech} in the {comp}',
    'Plan to split the {comp} into {n} modules',
    'Before release: add {term} checks to the {comp}',
  ],
  context: [
    'The {comp} runs on {tech} in production',
    'Staging uses {tech2} while production uses {tech}',
    'Customers hit the {comp} about {n} times per minute',
    'The {term} limit comes from the {tech} plan we pay for',
  ],
  preference: ['Prefer {style} in {where}', 'Keep {comp} code free of {tech2} specifics'],
  code_description: ['{file} implements the {comp} ({term} and {term2})', '{fn}() in {file} computes the {term} for the {comp}'],
  code: ['{fn}() in {file}', 'Signature of {fn}() in {file}'],
};

/** Optional tails that make some summaries long (up to the 160-character cut). */
const SUMMARY_TAILS = [
  ', because {reason}', ' (see `{file}`)', '; the {comp2} depends on it', ' until the {term} {cond}', ', otherwise the {comp2} {fail}',
];

const BODY_TEMPLATES = [
  'The {comp} uses {tech} to handle {term}.',
  '{tech2} was considered, but {reason}.',
  'When the {term} {cond}, the {comp} {fail}.',
  'See `{file}` for the details.',
  'Calling `{fn}()` twice {effect}, so guard it with a flag.',
  'This cut {metric} from {n} ms to {m} ms.',
  'We measured {metric} at {n} ms under load.',
  'Run `npm run {script}` after changing the {term}.',
  'The {comp2} depends on this, so change both together.',
  'Keep the {term} out of the {comp}; it belongs in the {comp2}.',
  'The {term} and the {term2} must stay in sync.',
  'A regression here shows up first as a flaky test in the {comp}.',
  '{tech} handles the {term} well, but the {term2} needs a workaround.',
  'If in doubt, read `{file}` before touching the {comp}.',
  'The fix was to {verb} the {term} before calling `{fn}()`.',
  'Nobody remembered why the {term} was configured this way, which is why this note exists.',
  'Do not {verb} the {term} from the {comp2}; it races with the {comp}.',
];

const OPENERS = {
  decision: ['We need the {comp} to work with no extra setup on every developer machine.', 'The {comp} needed a clear owner for the {term}.'],
  rejected: ['{tech2} looked attractive for the {term}.', 'We spent a day evaluating {tech2}.'],
  gotcha: ['This cost an afternoon to track down.', 'Symptom: the {comp} {fail}.'],
  pattern: ['This keeps the {comp} consistent.', 'Follow this in new code; old code is migrated as it is touched.'],
  architecture: ['Layout of the {comp}:', 'Data flows from the {comp} to the {comp2}.'],
  progress: ['Status at the end of the session:', 'Done in this session:'],
  plan: ['Steps:', 'Order matters here:'],
  context: ['Background for anyone new to the {comp}.', 'Facts that are not obvious from the code:'],
  preference: ['The maintainers asked for this in review.', 'Applies to new code.'],
  code_description: ['Entry point of the {comp}.', 'Called by the {comp2}.'],
  code: ['```ts'],
};

// ---------------------------------------------------------------------------------------

function kebab(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function camel(verb, noun) {
  return `${verb}${noun}`;
}

function domainFiles(domain) {
  const files = domain.comps.map((c) => `src/${domain.dir}/${kebab(c)}.ts`);
  files.push(`src/${domain.dir}/index.ts`, `test/${domain.dir}/${kebab(domain.comps[0])}.test.ts`);
  return files;
}

const FILES = new Map(DOMAINS.map((d) => [d.key, domainFiles(d)]));

/**
 * Fills `{slot}` placeholders; repeated slots get the same value within one sentence.
 * Slots in `chosen` are reused (and new ones recorded there), which keeps a body talking
 * about the same technology and component as its summary.
 */
function fill(template, rng, domain, chosen = {}) {
  const files = FILES.get(domain.key);
  const other = (list, not) => {
    if (list.length < 2) return list[0];
    for (;;) {
      const v = rng.pickZipf(list, 0.8);
      if (v !== not) return v;
    }
  };
  const slot = (name) => {
    if (name in chosen) return chosen[name];
    let v;
    switch (name) {
      case 'tech': v = rng.pickZipf(domain.techs, 0.8); break;
      case 'tech2': v = other(domain.techs, slot('tech')); break;
      case 'comp': v = rng.pickZipf(domain.comps, 0.8); break;
      case 'comp2': v = other(domain.comps, slot('comp')); break;
      case 'term': v = rng.pickZipf(domain.terms, 0.9); break;
      case 'term2': v = other(domain.terms, slot('term')); break;
      case 'file': v = rng.pickZipf(files, 0.7); break;
      case 'fn': v = camel(rng.pick(VERBS), rng.pickZipf(NOUNS)); break;
      case 'verb': v = rng.pick(VERBS); break;
      case 'n': v = String(rng.pick([2, 3, 4, 5, 8, 12, 20, 40, 64, 120, 250, 500])); break;
      case 'm': v = String(rng.pick([1, 2, 3, 6, 9, 15, 30, 80])); break;
      case 'reason': v = fill(rng.pick(REASONS), rng, domain); break;
      case 'cond': v = fill(rng.pick(CONDITIONS), rng, domain); break;
      case 'fail': v = fill(rng.pick(FAILURES), rng, domain); break;
      case 'effect': v = fill(rng.pick(EFFECTS), rng, domain); break;
      case 'metric': v = rng.pick(METRICS); break;
      case 'script': v = rng.pick(SCRIPTS); break;
      case 'style': case 'where': {
        const [style, where] = rng.pick(STYLES);
        chosen.style = style;
        chosen.where = where;
        return chosen[name];
      }
      default: v = name;
    }
    chosen[name] = v;
    return v;
  };
  return template.replace(/\{(\w+)\}/g, (_, name) => slot(name));
}

function capitalize(s) {
  // `fooBar()` stays as written: it is an identifier, not a word.
  return /^\w+\(\)/.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1);
}

function clampSummary(text, rng, domain) {
  let s = capitalize(text.replace(/\s+/g, ' ').trim());
  while (s.length < 40) s = `${s} in ${fill('the {comp}', rng, domain)}`;
  if (s.length > 160) {
    const cut = s.slice(0, 160);
    s = cut.slice(0, cut.lastIndexOf(' ')).replace(/[,:;]$/, '');
  }
  return s;
}

/** Body length targets in characters: mostly 200–600, some empty, a long tail to 1,500. */
function bodyTarget(rng, type) {
  const emptyShare = type === 'progress' || type === 'context' ? 0.12 : 0.04;
  if (rng.chance(emptyShare)) return 0;
  return rng.weighted([
    [rng.int(40, 200), 8],
    [rng.int(200, 600), 68],
    [rng.int(600, 1000), 16],
    [rng.int(1000, 1500), 8],
  ]);
}

function codeBody(rng, domain, target) {
  const fn = camel(rng.pick(VERBS), rng.pickZipf(NOUNS));
  const lines = ['```ts', `export async function ${fn}(options: ${rng.pickZipf(NOUNS)}Options): Promise<void> {`];
  while (lines.join('\n').length < target - 10) {
    lines.push(`  const ${rng.pick(VERBS)}${rng.pick(NOUNS)} = await ${camel(rng.pick(VERBS), rng.pickZipf(NOUNS))}(options.${kebab(rng.pick(domain.terms)).replace(/-(\w)/g, (_, c) => c.toUpperCase())});`);
  }
  lines.push('}', '```');
  return lines.join('\n');
}

/** `earlier`: memories written before this one; a few bodies link to a recent one. */
function buildBody(rng, type, domain, target, earlier, anchor) {
  if (target === 0) return '';
  if (type === 'code') return codeBody(rng, domain, target);
  const shared = () => (rng.chance(0.6) ? { ...anchor } : {});
  const parts = [fill(rng.pick(OPENERS[type]), rng, domain, shared())];
  let length = parts[0].length;
  const listy = type === 'plan' || type === 'progress' || type === 'architecture';
  // Stop before overshooting a long target by more than a sentence.
  while (length < target && length < 1400) {
    let piece;
    if (listy && rng.chance(0.5)) {
      const marker = type === 'progress' ? rng.pick(['- [x] ', '- [ ] ']) : '- ';
      piece = `${marker}${capitalize(fill(rng.pick(['{verb} the {term} in `{file}`', 'move the {term} into the {comp2}', '{verb} `{fn}()`', 'check the {term} against {tech}']), rng, domain))}`;
    } else if (rng.chance(0.03)) {
      piece = `\`\`\`ts\nconst ${rng.pick(VERBS)}${rng.pick(NOUNS)} = await ${camel(rng.pick(VERBS), rng.pickZipf(NOUNS))}();\n\`\`\``;
    } else {
      piece = fill(rng.pick(BODY_TEMPLATES), rng, domain, shared());
    }
    parts.push(piece);
    length += piece.length + 1;
  }
  if (earlier.length > 0 && rng.chance(0.06)) {
    parts.push(`See [[${earlier[earlier.length - 1 - rng.int(0, Math.min(400, earlier.length) - 1)].id}]].`);
  }
  // Paragraphs of 2–4 sentences; list items stay on their own lines.
  let out = '';
  let inParagraph = 0;
  for (const part of parts) {
    const isBlock = part.startsWith('- ') || part.startsWith('```');
    if (isBlock) {
      out += `${out === '' ? '' : inParagraph > 0 ? '\n\n' : '\n'}${part}`;
      inParagraph = 0;
      continue;
    }
    if (inParagraph === 0) out += out === '' ? part : `\n\n${part}`;
    else out += ` ${part}`;
    inParagraph = inParagraph >= rng.int(2, 4) ? 0 : inParagraph + 1;
  }
  return out;
}

const TYPE_MIX = [
  ['decision', 17], ['gotcha', 14], ['progress', 14], ['pattern', 12], ['context', 11], ['architecture', 8],
  ['plan', 6], ['rejected', 5], ['code_description', 5], ['preference', 4], ['code', 1],
];
const PRIORITIES = [[1, 1], [2, 2], [3, 4], [4, 6], [5, 9], [6, 8], [7, 7], [8, 5], [9, 3], [10, 1]];

function sourceOf(rng, type) {
  if (type === 'code' || type === 'code_description') return { kind: 'code_index', layer: 'structural', confidence: 1 };
  const kind = rng.weighted([['extraction', 62], ['manual', 24], ['import', 9], ['consolidation', 5]]);
  if (kind === 'manual') return { kind, layer: 'manual', confidence: rng.pick([1, 1, 0.9]) };
  if (kind === 'import') return { kind, layer: undefined, confidence: 0.8 };
  if (kind === 'consolidation') return { kind, layer: 'llm', confidence: Math.round(rng.float(0.7, 0.95) * 100) / 100 };
  const layer = rng.weighted([['self-report', 40], ['keyword', 35], ['structural', 15], ['llm', 10]]);
  const confidence = layer === 'self-report' ? 1 : Math.round(rng.float(0.55, 0.95) * 100) / 100;
  return { kind, layer, confidence };
}

/**
 * Generates `n` memories, oldest first, deterministic for a given seed.
 *
 * @example
 * const memories = generateCorpus({ n: 1000, seed: 1 });
 * memories[0].id // e.g. 'chose-sqlite-over-postgresql-for-the-connection-pool-k3f9qa'
 */
export function generateCorpus(options = {}) {
  const { n, seed, now, spanDays } = { ...DEFAULT_CORPUS, ...options };
  const rng = createRandom(hashSeed(seed, 'memories'));
  const end = Date.parse(now);
  const start = end - spanDays * 86_400_000;

  // Sessions in time order; each yields a burst of memories on one branch.
  const sessionCount = Math.max(1, Math.round(n / 6));
  const sessionTimes = Array.from({ length: sessionCount }, () => start + rng.next() * (end - start)).sort((a, b) => a - b);
  const branches = ['main'];
  const memories = [];
  const ids = new Set();
  const topics = new Set();
  let s = 0;
  while (memories.length < n) {
    const t0 = sessionTimes[Math.min(s, sessionCount - 1)] + (s >= sessionCount ? (s - sessionCount + 1) * 60_000 : 0);
    s++;
    const session = rng.hex(8);
    const mainDomain = DOMAINS[rng.zipf(DOMAINS.length, 0.9)];
    let branch = 'main';
    if (rng.chance(0.55)) {
      if (branches.length > 1 && rng.chance(0.6)) branch = branches[branches.length - 1 - rng.int(0, Math.min(5, branches.length - 2))];
      else {
        branch = `${rng.weighted([['feat', 6], ['fix', 3], ['chore', 1]])}/${mainDomain.key}-${kebab(rng.pick(mainDomain.terms))}`;
        branches.push(branch);
      }
    }
    let commit = rng.hex(7);
    const count = Math.min(n - memories.length, rng.weighted([[1, 3], [2, 4], [3, 4], [4, 3], [5, 3], [6, 2], [8, 2], [10, 1], [14, 1]]));
    for (let k = 0; k < count; k++) {
      const domain = rng.chance(0.7) ? mainDomain : DOMAINS[rng.zipf(DOMAINS.length, 0.9)];
      const type = rng.weighted(TYPE_MIX);
      const anchor = {};
      let rawSummary = fill(rng.pick(SUMMARY_TEMPLATES[type]), rng, domain, anchor);
      if (rng.chance(0.25)) rawSummary += fill(rng.pick(SUMMARY_TAILS), rng, domain, anchor);
      const summary = clampSummary(rawSummary, rng, domain);
      let id = buildId(summary, rng.bytes);
      while (ids.has(id)) id = buildId(summary, rng.bytes);
      ids.add(id);
      const body = buildBody(rng, type, domain, bodyTarget(rng, type), memories, anchor);

      const created = Math.min(end, t0 + k * rng.int(1, 12) * 60_000);
      const updated = rng.chance(0.2) ? Math.min(end, created + rng.int(1, 120) * 86_400_000 * rng.next()) : created;
      if (rng.chance(0.3)) commit = rng.hex(7);

      const tagCount = rng.weighted([[0, 10], [1, 25], [2, 35], [3, 20], [4, 10]]);
      const tags = normalizeTags([
        ...rng.sampleZipf(domain.tags, tagCount, 0.8),
        ...(tagCount > 0 && rng.chance(0.15) ? [rng.pick(GENERIC_TAGS)] : []),
      ]);

      let topic;
      if (rng.chance(0.3) && type !== 'code') {
        const candidate = `${type}/${kebab(anchor.comp ?? rng.pick(domain.comps))}-${kebab(rng.pick(domain.terms))}`;
        if (!topics.has(candidate)) {
          topics.add(candidate);
          topic = candidate;
        }
      }

      const src = sourceOf(rng, type);
      const files = type === 'code' || type === 'code_description' || rng.chance(0.35)
        ? [...new Set(Array.from({ length: rng.weighted([[1, 6], [2, 3], [3, 1]]) }, () => rng.pickZipf(FILES.get(domain.key), 0.7)))]
        : undefined;
      const age = (end - created) / 86_400_000;
      const status = age > 30 && rng.chance(0.07) ? 'archived' : age > 30 && rng.chance(0.04) ? 'superseded' : 'active';
      const priorityBump = type === 'decision' || type === 'architecture' ? 1 : 0;

      memories.push({
        id,
        type,
        summary,
        scope: 'project',
        priority: Math.min(10, rng.weighted(PRIORITIES) + priorityBump),
        confidence: src.confidence,
        pinned: (type === 'architecture' || type === 'preference') && rng.chance(0.08),
        status,
        tags,
        topic,
        created: formatDate(new Date(created)),
        updated: formatDate(new Date(updated)),
        source: {
          kind: src.kind,
          layer: src.layer,
          session: src.kind === 'extraction' || src.kind === 'manual' ? session : undefined,
          branch,
          commit,
          files,
        },
        body,
        extra: {},
      });
    }
  }
  return memories;
}

/**
 * Writes a git-free project: `.cortex/memories/<id>.md` (through the real `renderMemory`)
 * and a `.gitignore` for `.memory/`. Clears any earlier `.cortex/` and `.memory/` in `dir`.
 *
 * @example
 * writeCorpus('/tmp/corpus-1k', generateCorpus({ n: 1000 })) // { files: 1000, bytes: … }
 */
export function writeCorpus(dir, memories) {
  const root = resolve(dir);
  rmSync(join(root, '.cortex'), { recursive: true, force: true });
  rmSync(join(root, '.memory'), { recursive: true, force: true });
  const memoriesDir = join(root, '.cortex', 'memories');
  mkdirSync(memoriesDir, { recursive: true });
  writeFileSync(join(root, '.gitignore'), '.memory/\n');
  let bytes = 0;
  for (const memory of memories) {
    const text = renderMemory(memory);
    bytes += Buffer.byteLength(text);
    writeFileSync(join(memoriesDir, `${memory.id}.md`), text);
  }
  return { dir: root, files: memories.length, bytes };
}

const RELATION_BY_TYPE = {
  pattern: [['exemplifies', 3], ['relates_to', 5], ['refines', 2]],
  progress: [['derived_from', 4], ['relates_to', 4], ['refines', 2]],
  plan: [['derived_from', 3], ['relates_to', 4], ['refines', 3]],
  decision: [['relates_to', 5], ['contradicts', 1], ['refines', 2], ['derived_from', 2]],
  rejected: [['contradicts', 3], ['relates_to', 5]],
  gotcha: [['relates_to', 6], ['exemplifies', 2], ['derived_from', 2]],
  code: [['source_of', 1]],
};
const DEFAULT_RELATIONS = [['relates_to', 6], ['derived_from', 2], ['refines', 2]];
const RATIONALES = [
  'Both describe the same component.', 'The later note narrows the earlier one.', 'Found during review.',
  'These two disagree; one of them should be archived.', 'Same root cause.', 'The plan was written after this decision.',
];

/**
 * Generates `n` edges over `memories` (Edge objects as in src/core/edge.ts), deterministic
 * for a given seed. Targets favour memories that share a tag or file (locality) and memories
 * that already have links (preferential attachment), which gives the hubs real graphs have.
 * Never a self-loop or a duplicate `<source>--<relation>--<target>`; `supersedes` only from
 * `manual` or `consolidation` origins, newer to older; `wikilink` edges are left to bodies.
 *
 * @example
 * const edges = generateEdges({ memories, n: 30000, seed: 1 }); // for 10,000 memories
 */
export function generateEdges(options) {
  const { memories, n, seed } = { ...DEFAULT_EDGES, ...options };
  if (!memories || memories.length < 2) return [];
  const rng = createRandom(hashSeed(seed, 'edges'));
  const byKey = new Map();
  for (const m of memories) {
    for (const key of [...m.tags.map((t) => `t:${t}`), ...(m.source.files ?? []).map((f) => `f:${f}`)]) {
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push(m);
    }
  }
  const endpoints = [];
  const keys = new Set();
  const edges = [];
  const maxTries = n * 20;
  for (let tries = 0; edges.length < n && tries < maxTries; tries++) {
    const source = memories[rng.int(0, memories.length - 1)];
    let target;
    const mode = rng.next();
    const sourceKeys = [...source.tags.map((t) => `t:${t}`), ...(source.source.files ?? []).map((f) => `f:${f}`)];
    if (mode < 0.55 && sourceKeys.length > 0) target = rng.pick(byKey.get(rng.pick(sourceKeys)));
    else if (mode < 0.85 && endpoints.length > 0) target = rng.pick(endpoints);
    else target = memories[rng.int(0, memories.length - 1)];
    if (target === source) continue;

    let relation;
    let origin;
    if (rng.chance(0.03) && source.type === target.type && source.created > target.created) {
      relation = 'supersedes';
      origin = rng.chance(0.7) ? 'manual' : 'consolidation';
    } else {
      relation = rng.weighted(RELATION_BY_TYPE[source.type] ?? DEFAULT_RELATIONS);
      origin = relation === 'source_of'
        ? 'code_index'
        : rng.weighted([['jaccard', 40], ['embedding', 25], ['manual', 25], ['consolidation', 10]]);
    }
    const key = `${source.id}--${relation}--${target.id}`;
    if (keys.has(key)) continue;
    keys.add(key);
    endpoints.push(source, target);

    const strength = origin === 'jaccard' ? rng.float(0.2, 0.7)
      : origin === 'embedding' ? rng.float(0.6, 0.95)
        : origin === 'manual' ? rng.pick([1, 1, 0.8])
          : rng.float(0.7, 0.9);
    const later = source.created > target.created ? source.created : target.created;
    const created = formatDate(new Date(Math.min(Date.parse(DEFAULT_CORPUS.now), Date.parse(later) + rng.int(0, 30) * 86_400_000)));
    edges.push({
      source: source.id,
      target: target.id,
      relation,
      strength: Math.round(strength * 100) / 100,
      status: (origin === 'jaccard' || origin === 'embedding') && rng.chance(0.3) ? 'suggested' : 'active',
      bidirectional: relation === 'contradicts' || (relation === 'relates_to' && rng.chance(0.8)),
      origin,
      created,
      body: origin === 'manual' && rng.chance(0.4) ? rng.pick(RATIONALES) : '',
      extra: {},
    });
  }
  return edges;
}

/** Counts for a quick look at a corpus (printed by the CLI). */
export function describeCorpus(memories) {
  const types = {};
  const bodyBuckets = { empty: 0, '1-199': 0, '200-600': 0, '601-1000': 0, '1001+': 0 };
  let summaryMin = Infinity;
  let summaryMax = 0;
  let bodyTotal = 0;
  let withTopic = 0;
  let withFiles = 0;
  for (const m of memories) {
    types[m.type] = (types[m.type] ?? 0) + 1;
    const b = m.body.length;
    bodyTotal += b;
    bodyBuckets[b === 0 ? 'empty' : b < 200 ? '1-199' : b <= 600 ? '200-600' : b <= 1000 ? '601-1000' : '1001+']++;
    summaryMin = Math.min(summaryMin, m.summary.length);
    summaryMax = Math.max(summaryMax, m.summary.length);
    if (m.topic) withTopic++;
    if (m.source.files) withFiles++;
  }
  return {
    memories: memories.length,
    types,
    bodyBuckets,
    bodyMean: Math.round(bodyTotal / Math.max(1, memories.length)),
    summaryLength: [summaryMin, summaryMax],
    withTopic,
    withFiles,
    first: memories[0]?.created,
    last: memories.at(-1)?.created,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      edges: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.out) {
    process.stderr.write('Usage: node bench/corpus.mjs --n 10000 --out /tmp/corpus-10k [--seed 1] [--edges 30000]\n');
    process.exit(values.help ? 0 : 2);
  }
  const started = performance.now();
  const memories = generateCorpus({ n: Number(values.n), seed: Number(values.seed) });
  const written = writeCorpus(values.out, memories);
  const info = { ...describeCorpus(memories), dir: written.dir, bytes: written.bytes };
  if (values.edges) {
    const edges = generateEdges({ memories, n: Number(values.edges), seed: Number(values.seed) });
    // The edge writer arrives with the graph work; keep the data for it meanwhile.
    writeFileSync(join(written.dir, 'edges.json'), JSON.stringify(edges));
    info.edges = edges.length;
  }
  info.ms = Math.round(performance.now() - started);
  process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
