// Deterministic synthetic memories for the embedding benchmark: the same seed gives the
// same files, byte for byte, on every machine. No network, no external data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 as prng } from './lib/random.mjs';


const SUBJECTS = ['cache', 'queue', 'auth', 'deploy', 'schema', 'logger', 'parser', 'retry', 'index', 'session', 'router', 'billing', 'search', 'upload', 'config', 'metrics', 'webhook', 'scheduler', 'migration', 'sandbox'];
const VERBS = ['uses', 'avoids', 'needs', 'replaces', 'wraps', 'batches', 'validates', 'retries', 'caches', 'streams', 'locks', 'shards'];
const OBJECTS = ['SQLite', 'Postgres', 'Redis', 'a worker pool', 'JSON lines', 'protobuf', 'an LRU map', 'S3', 'the event bus', 'a mutex', 'WAL mode', 'gzip', 'a circuit breaker', 'HTTP/2', 'a bloom filter', 'cron'];
const REASONS = ['because latency matters more than throughput', 'since the CI runner has no GPU', 'so that hooks never block the session', 'to keep the install zero-config', 'after an outage in staging', 'because the old path leaked file handles', 'to stay under the 300 ms budget', 'so that a crash never corrupts the file'];
const FILLER = ['The change touched', 'See also', 'Measured on', 'Watch out for', 'Rejected alternative:', 'Follow-up:', 'Context:', 'Note that'];
const FILES = ['src/db.ts', 'src/queue/worker.ts', 'src/auth/session.ts', 'src/api/routes.ts', 'src/cache/lru.ts', 'scripts/deploy.sh', 'src/search/index.ts', 'src/config.ts'];
const TYPES = [
  ['decision', 30],
  ['pattern', 15],
  ['gotcha', 15],
  ['architecture', 10],
  ['context', 10],
  ['rejected', 8],
  ['progress', 5],
  ['code', 5],
  ['preference', 2],
];
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function pickType(rand) {
  let r = rand() * 100;
  for (const [type, weight] of TYPES) {
    if ((r -= weight) < 0) return type;
  }
  return 'decision';
}

/** The text of memory `i`: `{ id, type, summary, body, tags }`. */
export function syntheticMemory(i, rand) {
  const subject = pick(rand, SUBJECTS);
  const type = pickType(rand);
  const summary = `The ${subject} ${pick(rand, VERBS)} ${pick(rand, OBJECTS)} ${pick(rand, REASONS)} (${i})`;
  const sentences = [];
  const n = 2 + Math.floor(rand() * 5);
  for (let s = 0; s < n; s++) sentences.push(`${pick(rand, FILLER)} ${pick(rand, FILES)}: the ${pick(rand, SUBJECTS)} ${pick(rand, VERBS)} ${pick(rand, OBJECTS)} ${pick(rand, REASONS)}.`);
  const body = type === 'code' ? `\`\`\`ts\nexport function ${subject}${i}() {\n  return open('${pick(rand, OBJECTS)}');\n}\n\`\`\`` : sentences.join(' ');
  let suffix = '';
  for (let k = 0; k < 6; k++) suffix += BASE32[Math.floor(rand() * 32)];
  const slug = `${subject}-${i}`;
  return { id: `${slug}-${suffix}`, type, summary, body, tags: [subject] };
}

/** Writes `count` memory files under `<root>/.cortex/memories/`; returns the memories. */
export function writeCorpus(root, count, seed = 42) {
  const rand = prng(seed);
  const dir = join(root, '.cortex', 'memories');
  mkdirSync(dir, { recursive: true });
  const memories = [];
  for (let i = 0; i < count; i++) {
    const m = syntheticMemory(i, rand);
    const day = String(1 + (i % 28)).padStart(2, '0');
    const text = [
      '---',
      `id: ${m.id}`,
      `type: ${m.type}`,
      `summary: ${JSON.stringify(m.summary)}`,
      'scope: project',
      `priority: ${1 + (i % 10)}`,
      'confidence: 0.9',
      'pinned: false',
      'status: active',
      `tags: [${m.tags.join(', ')}]`,
      `created: 2026-10-${day}T10:00:00Z`,
      `updated: 2026-10-${day}T10:00:00Z`,
      'source:',
      '  kind: manual',
      '---',
      m.body,
      '',
    ].join('\n');
    writeFileSync(join(dir, `${m.id}.md`), text);
    memories.push(m);
  }
  return memories;
}
