/**
 * Hybrid recall semantics through the library API, with a deterministic embedder
 * injected through the `Embedder` interface (synonyms share a dimension), in real
 * temporary repositories. The real model path is covered by semantic-cli.test.ts.
 */
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { vectorsFile } from '../src/services/embed-settings.js';
import { parseMemory } from '../src/core/memory-format.js';
import { embeddingText, type Embedder } from '../src/embed/embedder.js';
import { createTestEmbedder, type TestEmbedder } from '../src/embed/test-embedder.js';
import { readVectorFileHeader } from '../src/cache/vector-header.js';
import { manyMemories, memoryFile, MODEL_DIR, tinyEnv } from './helpers/models.js';
import { tempRepo, type TempRepo } from './helpers/repo.js';

const SYNONYMS = [
  ['storage', 'engine', 'database', 'sqlite', 'postgres', 'datastore'],
  ['settle', 'settled', 'chose', 'choose', 'decided', 'pick'],
  ['test', 'tests', 'vitest', 'jest'],
];

const SQLITE = memoryFile({ id: 'chose-sqlite-over-postgres-aaaaaa', summary: 'Chose SQLite over Postgres', body: 'No server to run on developer laptops.' });
const VITEST = memoryFile({ id: 'use-vitest-for-all-tests-aaaaab', type: 'pattern', summary: 'Use vitest for all tests', body: 'Colocated test files.' });
const GPU = memoryFile({ id: 'the-ci-runner-has-no-gpu-aaaaac', type: 'gotcha', summary: 'The CI runner has no GPU', body: 'Keep the models small.' });
const DEPLOY = memoryFile({ id: 'deploys-go-through-staging-aaaaad', type: 'context', summary: 'Deploys go through staging first', body: 'Then production.' });
// Keyword search finds this one for the query below ("engine"); it must never enter the vector side.
const CODE = memoryFile({ id: 'open-engine-aaaaae', type: 'code', summary: 'openEngine()', body: 'const engine = openDatabase("sqlite") // storage engine' });

const QUERY = 'what storage engine did we settle on';

function project(extra: Record<string, string> = {}): TempRepo {
  return tempRepo(Object.fromEntries([SQLITE, VITEST, GPU, DEPLOY, CODE, ...Object.entries(extra)]));
}

function open(repo: TempRepo, embedder: TestEmbedder | undefined, env: NodeJS.ProcessEnv = {}) {
  return openCortex({ dir: repo.dir, env: { ...repo.env, ...env }, ...(embedder ? { embedder } : {}) });
}

function vectorCount(repo: TempRepo): number {
  return readVectorFileHeader(join(repo.dir, '.memory', 'vectors.bin'))?.count ?? 0;
}

describe('hybrid recall with an injected embedder', () => {
  it('finds a paraphrase that keyword search misses', async () => {
    const repo = project();
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const cortex = open(repo, embedder);

    const keyword = await cortex.recall({ query: QUERY, mode: 'keyword' });
    expect(keyword.mode).toBe('keyword');
    expect(keyword.results.map((r) => r.id)).not.toContain('chose-sqlite-over-postgres-aaaaaa');

    const hybrid = await cortex.recall({ query: QUERY, mode: 'hybrid', limit: 3 });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.notice).toBeUndefined();
    const found = hybrid.results.find((r) => r.id === 'chose-sqlite-over-postgres-aaaaaa');
    expect(found?.similarity).toBeGreaterThan(0.5);
    // Keyword hits survive the fusion.
    for (const r of keyword.results.slice(0, 1)) expect(hybrid.results.map((x) => x.id)).toContain(r.id);

    const semantic = await cortex.recall({ query: QUERY, mode: 'semantic' });
    expect(semantic.results[0]?.id).toBe('chose-sqlite-over-postgres-aaaaaa');
    expect(semantic.results.map((r) => r.type)).not.toContain('code');
  });

  it('ranks a memory both signals agree on above one only keyword search finds', async () => {
    const repo = project();
    const cortex = open(repo, createTestEmbedder({ synonyms: SYNONYMS }));
    const out = await cortex.recall({ query: 'which storage engine did we choose, sqlite?', mode: 'hybrid' });
    const ids = out.results.map((r) => r.id);
    expect(ids.indexOf('chose-sqlite-over-postgres-aaaaaa')).toBe(0);
    expect(ids).toContain('open-engine-aaaaae');
    const code = out.results.find((r) => r.id === 'open-engine-aaaaae');
    expect(code?.similarity).toBeUndefined();
    expect(code!.score).toBeLessThan(out.results[0]!.score);
  });

  it('applies the filters to the semantic side too', async () => {
    const repo = project();
    const cortex = open(repo, createTestEmbedder({ synonyms: SYNONYMS }));
    const out = await cortex.recall({ query: QUERY, mode: 'semantic', types: ['pattern', 'gotcha'] });
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.every((r) => r.type === 'pattern' || r.type === 'gotcha')).toBe(true);
  });

  it('drops semantic candidates below the similarity floor', async () => {
    const repo = project();
    const cortex = open(repo, createTestEmbedder({ synonyms: SYNONYMS }));
    const all = await cortex.recall({ query: QUERY, mode: 'semantic', minSimilarity: -1 });
    const floor = (all.results[0]!.similarity! + all.results[1]!.similarity!) / 2;
    const some = await cortex.recall({ query: QUERY, mode: 'semantic', minSimilarity: floor });
    expect(some.results.map((r) => r.id)).toEqual(['chose-sqlite-over-postgres-aaaaaa']);
  });
});

describe('vectors: caching, invalidation, backfill', () => {
  it('degrades to keyword search with a notice when embeddings are turned off', async () => {
    const repo = project();
    const out = await open(repo, undefined, { CORTEX_EMBED: '0' }).recall({ query: 'vitest', mode: 'semantic' });
    expect(out.mode).toBe('keyword');
    expect(out.notice).toMatch(/embeddings are turned off/);
    expect(out.results[0]?.id).toBe('use-vitest-for-all-tests-aaaaab');
  });


  it('defaults to hybrid once vectors exist, and never re-embeds an unchanged memory', async () => {
    const repo = project();
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const cortex = open(repo, embedder);
    expect((await cortex.recall({ query: QUERY })).mode).toBe('keyword');

    const first = await cortex.embed();
    expect(first.available).toBe(true);
    expect(first.tiers[0]).toMatchObject({ scope: 'project', embeddable: 4, embedded: 4, cached: 0, missing: 0 });
    expect(vectorCount(repo)).toBe(4); // the code memory has none
    expect(embedder.embeddedCount).toBe(4);

    // A touched but unchanged file, and a metadata-only edit, keep their vectors.
    utimesSync(join(repo.dir, SQLITE[0]), new Date(), new Date('2030-01-01'));
    repo.write(GPU[0], GPU[1].replace('priority: 5', 'priority: 9'));
    const again = await open(repo, embedder).embed();
    expect(again.tiers[0]).toMatchObject({ embedded: 0, cached: 4, removed: 0 });
    expect(embedder.embeddedCount).toBe(4);

    const out = await open(repo, embedder).recall({ query: QUERY });
    expect(out.mode).toBe('hybrid');
    expect(embedder.embeddedCount).toBe(5); // the query only
  });

  it('re-embeds an edited memory and drops its old vector', async () => {
    const repo = project();
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    await open(repo, embedder).embed();
    repo.write(DEPLOY[0], DEPLOY[1].replace('Then production.', 'Then production, after a smoke test.'));
    const out = await open(repo, embedder).embed();
    expect(out.tiers[0]).toMatchObject({ embedded: 1, cached: 3, removed: 1 });
    expect(vectorCount(repo)).toBe(4);
  });

  it('embeds new memories during recall, within a budget', async () => {
    const repo = project();
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    await open(repo, embedder).embed();
    const [path, text] = memoryFile({ id: 'picked-postgres-for-analytics-aaaaaf', summary: 'Picked a datastore for analytics', body: 'Columnar.' });
    repo.write(path, text);

    const skipped = await open(repo, embedder).recall({ query: QUERY, embedOnRecall: 0 });
    expect(skipped.mode).toBe('hybrid');
    expect(skipped.notice).toMatch(/1 memory has no vector yet.*cortex index --embed/);
    expect(skipped.results.find((r) => r.id === 'picked-postgres-for-analytics-aaaaaf')?.similarity).toBeUndefined();

    const before = embedder.embeddedCount;
    const out = await open(repo, embedder).recall({ query: QUERY });
    expect(out.notice).toBeUndefined();
    expect(embedder.embeddedCount - before).toBe(2); // the new memory and the query
    expect(out.results.find((r) => r.id === 'picked-postgres-for-analytics-aaaaaf')?.similarity).toBeGreaterThan(0);
    expect(vectorCount(repo)).toBe(5);
  });

  it('re-embeds everything for another model, and treats the old vectors as absent', async () => {
    const repo = project();
    await open(repo, createTestEmbedder({ synonyms: SYNONYMS })).embed();
    const other = createTestEmbedder({ synonyms: SYNONYMS, dims: 48 });
    expect((await open(repo, other).recall({ query: QUERY })).mode).toBe('keyword');
    const out = await open(repo, other).embed();
    expect(out.tiers[0]).toMatchObject({ embedded: 4, cached: 0 });
    expect(readVectorFileHeader(join(repo.dir, '.memory/vectors.bin'))).toMatchObject({ count: 4, dims: 48, model: other.model });
  });

  it('stops between batches when aborted, keeps what it embedded, and resumes', async () => {
    const repo = tempRepo(manyMemories(10));
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const controller = new AbortController();
    const first = await open(repo, embedder).embed({
      batchSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'embed' && p.done >= 4) controller.abort();
      },
    });
    expect(first.aborted).toBe(true);
    expect(first.tiers[0]).toMatchObject({ embedded: 4, missing: 6 });
    expect(vectorCount(repo)).toBe(4);

    const second = await open(repo, embedder).embed({ batchSize: 2 });
    expect(second.aborted).toBe(false);
    expect(second.tiers[0]).toMatchObject({ cached: 4, embedded: 6, missing: 0 });
    expect(embedder.embeddedCount).toBe(10);
  });

  it('rebuilds everything after .memory/ is deleted', async () => {
    const repo = project();
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    await open(repo, embedder).embed();
    const before = await open(repo, embedder).recall({ query: QUERY });
    rmSync(join(repo.dir, '.memory'), { recursive: true });

    const keyword = await open(repo, embedder).recall({ query: QUERY });
    expect(keyword.mode).toBe('keyword');
    expect(existsSync(join(repo.dir, '.memory/index.v8'))).toBe(true);
    const after = await open(repo, embedder).recall({ query: QUERY, mode: 'hybrid' });
    expect(after.results).toEqual(before.results);
    expect(vectorCount(repo)).toBe(4);
  });

  it('searches the global tier, whose memories carry no project tag', async () => {
    const repo = project();
    const [path, text] = memoryFile({ id: 'prefer-sqlite-datastores-aaaaag', type: 'preference', scope: 'global', summary: 'Settle on an embedded storage engine', body: 'Less to operate.' });
    repo.write(join('..', 'home', 'cortex-home', path.replace('.cortex/', '')), text);
    const embedder = createTestEmbedder({ synonyms: SYNONYMS });
    const out = await open(repo, embedder).embed();
    expect(out.tiers.map((t) => [t.scope, t.embedded])).toEqual([
      ['project', 4],
      ['global', 1],
    ]);
    const ctx = open(repo, embedder).context;
    expect(existsSync(vectorsFile(ctx.global))).toBe(true);
    const recall = await open(repo, embedder).recall({ query: QUERY, mode: 'semantic' });
    const global = recall.results.find((r) => r.scope === 'global');
    expect(global?.id).toBe('prefer-sqlite-datastores-aaaaag');
  });
});

describe.skipIf(!MODEL_DIR)('the configured model, loaded lazily', () => {
  it('falls back to keyword search when the model is not ready within the time budget', async () => {
    const repo = project();
    const cortex = open(repo, undefined, tinyEnv());
    const out = await cortex.recall({ query: 'vitest', mode: 'hybrid', modelTimeoutMs: 1 });
    expect(out.mode).toBe('keyword');
    expect(out.notice).toMatch(/^keyword-only recall: the embedding model was not ready within 1 ms\. Fix: /);
    expect(out.results[0]?.id).toBe('use-vitest-for-all-tests-aaaaab');
  });

});

describe('what is embedded', () => {
  it('is `[type] [project:<name>] summary\\ncontent` of each file as parsed, whatever its layout', async () => {
    const tricky: Record<string, string> = Object.fromEntries([
      SQLITE,
      memoryFile({ id: 'rule-in-the-body-aaaaba', summary: 'A rule in the body', body: 'Above\n\n---\n\nBelow the rule.' }),
      memoryFile({ id: 'fenced-code-aaaabb', type: 'pattern', summary: 'Fenced code', body: '```yaml\n---\nkey: value\n---\n```\nAfter.' }),
      memoryFile({ id: 'no-body-aaaabc', type: 'gotcha', summary: 'No body at all', body: '' }),
    ]);
    // Hand-written files: CRLF line ends, blank lines after the frontmatter, a folded summary.
    tricky['.cortex/memories/crlf-file-aaaabd.md'] = SQLITE[1].replace('chose-sqlite-over-postgres-aaaaaa', 'crlf-file-aaaabd').replace(/\n/g, '\r\n').replace('---\r\nNo server', '---\r\n\r\n\r\nNo daemon');
    tricky['.cortex/memories/folded-summary-aaaabe.md'] =
      '---\nid: folded-summary-aaaabe\ntype: decision\nsummary: >-\n  A folded\n  summary\nstatus: active\n---\nBody of the folded one.  \n\n';
    const repo = tempRepo(tricky);
    const seen: string[] = [];
    const inner = createTestEmbedder();
    const recording: Embedder = { model: inner.model, dims: inner.dims, embed: async (texts) => (seen.push(...texts), inner.embed(texts)) };
    const out = await openCortex({ dir: repo.dir, env: repo.env, embedder: recording }).embed();
    expect(out.tiers[0]?.embedded).toBe(6);

    const expected = readdirSync(join(repo.dir, '.cortex/memories')).map((name) => {
      const { memory } = parseMemory(readFileSync(join(repo.dir, '.cortex/memories', name), 'utf8'), { expectedId: name.slice(0, -3) });
      return embeddingText(memory!, { project: 'repo' });
    });
    expect([...seen].sort()).toEqual(expected.sort());
    expect(seen).toContain('[decision] [project:repo] A folded summary\nBody of the folded one.');
    expect(seen).toContain('[gotcha] [project:repo] No body at all');
  });
});
