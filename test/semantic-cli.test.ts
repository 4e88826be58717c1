/**
 * Semantic recall end to end: the built CLI in temporary repositories with the real
 * @huggingface/transformers loading and inference path and the synthetic model from
 * ../shared/models (random weights: only mechanics are asserted, never relevance).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readVectorFileHeader } from '../src/cache/vector-header.js';
import { makeModel, manyMemories, memoryFile, MODEL_DIR, TINY_MODEL, tinyEnv } from './helpers/models.js';
import { CLI, json, REPO_ROOT, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

const TRACE = join(REPO_ROOT, 'test', 'helpers', 'trace-imports.mjs');

interface EmbedDoc {
  embed: {
    available: boolean;
    notice?: string;
    model?: string;
    dims?: number;
    modelLoaded?: boolean;
    aborted: boolean;
    tiers: { scope: string; embeddable: number; cached: number; embedded: number; removed: number; missing: number }[];
  };
}
interface RecallDoc {
  mode: string;
  notice?: string;
  results: { id: string; score: number; similarity?: number }[];
}

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-sem-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function project(n = 12): TempRepo {
  const [codePath, codeText] = memoryFile({ id: 'open-db-aaaaaa', type: 'code', summary: 'openDb()', body: 'export const openDb = () => sqlite.open()' });
  return tempRepo({ ...manyMemories(n), [codePath]: codeText, '.cortex/config.yaml': 'recall:\n  limit: 5\n' });
}

function vectors(repo: TempRepo) {
  return readVectorFileHeader(join(repo.dir, '.memory', 'vectors.bin'));
}

function stderrLines(r: RunResult): string[] {
  return r.stderr.split('\n').filter((l) => l.trim() !== '');
}

describe.skipIf(!MODEL_DIR)('cortex index --embed with the synthetic model', () => {
  const env = tinyEnv();

  it('embeds every memory but code, reads the dimensions from the model, and caches', () => {
    const repo = project();
    const first = repo.cortex(['index', '--embed', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe(''); // no progress under --json
    const doc = json<EmbedDoc>(first);
    expect(doc.embed).toMatchObject({ available: true, model: `${TINY_MODEL}:fp32`, dims: 32, aborted: false });
    expect(doc.embed.tiers[0]).toMatchObject({ scope: 'project', embeddable: 12, embedded: 12, cached: 0, missing: 0 });
    expect(vectors(repo)).toMatchObject({ count: 12, dims: 32, model: `${TINY_MODEL}:fp32` });

    const second = json<EmbedDoc>(repo.cortex(['index', '--embed', '--json'], { env }));
    expect(second.embed.tiers[0]).toMatchObject({ embedded: 0, cached: 12 });
    expect(second.embed.modelLoaded).toBe(false); // nothing to embed: the model is not even loaded
    expect(doc.embed.modelLoaded).toBe(true);

    const text = repo.cortex(['index', '--embed', '--batch-size', '5'], { env });
    expect(text.stdout).toContain(`project vectors: 12/12 (0 embedded, 12 cached, 0 removed) with ${TINY_MODEL}:fp32`);
  });

  it('batches: the batch size is the unit of progress', () => {
    const repo = project(23);
    const r = repo.cortex(['index', '--embed', '--batch-size', '10'], { env });
    expect(r.code, r.stderr).toBe(0);
    // Not a TTY: count lines, never bar redraws.
    expect(r.stderr).not.toContain('\r');
    const counts = stderrLines(r).filter((l) => l.startsWith('embedding: '));
    expect(counts).toEqual(['embedding: 0/23', 'embedding: 10/23', 'embedding: 20/23', 'embedding: 23/23']);
  });

  it('re-embeds everything when the model changes, with the new model\'s dimensions', () => {
    const repo = project();
    repo.cortex(['index', '--embed'], { env });
    const models = tmp();
    makeModel(models, 'test/tiny-16', 16);
    const other = { ...env, CORTEX_MODEL_DIR: models, CORTEX_EMBED_MODEL: 'test/tiny-16' };
    // The cached vectors belong to another model: the default mode is keyword until they are rebuilt.
    expect(json<RecallDoc>(repo.cortex(['recall', 'cache module', '--json'], { env: other })).mode).toBe('keyword');
    const doc = json<EmbedDoc>(repo.cortex(['index', '--embed', '--json'], { env: other }));
    expect(doc.embed).toMatchObject({ model: 'test/tiny-16:fp32', dims: 16 });
    expect(doc.embed.tiers[0]).toMatchObject({ embedded: 12, cached: 0 });
    expect(vectors(repo)).toMatchObject({ count: 12, dims: 16, model: 'test/tiny-16:fp32' });
    expect(json<RecallDoc>(repo.cortex(['recall', 'cache module', '--json'], { env: other })).mode).toBe('hybrid');
  });

  it('stops on Ctrl-C between batches, saves, exits 130, and resumes', async () => {
    const n = 800;
    const repo = tempRepo(manyMemories(n));
    expect(repo.cortex(['index'], { env }).code).toBe(0); // keep the keyword indexing out of the timing
    const child = spawn(process.execPath, [CLI, 'index', '--embed', '--batch-size', '1'], { cwd: repo.dir, env: { ...repo.env, ...env } });
    let stderr = '';
    let stdout = '';
    let signalled = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      // The first count after the start: embedding is under way.
      if (!signalled && /embedding: [1-9]\d*\/800/.test(stderr)) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(signalled, stderr).toBe(true);
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: \d+ memories still have no vector; what was embedded is saved/);
    const saved = vectors(repo)?.count ?? 0;
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(n);
    expect(stdout).toMatch(/project vectors: \d+\/800/);

    const resumed = json<EmbedDoc>(repo.cortex(['index', '--embed', '--json'], { env }));
    expect(resumed.embed.tiers[0]).toMatchObject({ cached: saved, embedded: n - saved, missing: 0 });
    expect(vectors(repo)?.count).toBe(n);
  }, 60_000);

  it('recall is hybrid once vectors exist; --json stays one clean document', () => {
    const repo = project();
    expect(json<RecallDoc>(repo.cortex(['recall', 'cache module', '--json'], { env })).mode).toBe('keyword');
    repo.cortex(['index', '--embed'], { env });
    const r = repo.cortex(['recall', 'cache module', '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = json<RecallDoc>(r);
    expect(doc.mode).toBe('hybrid');
    expect(doc.results).toHaveLength(5);
    expect(doc.results.every((x) => x.id !== 'open-db-aaaaaa' || x.similarity === undefined)).toBe(true);
    expect(doc.results.some((x) => typeof x.similarity === 'number')).toBe(true);
    expect(json<RecallDoc>(repo.cortex(['recall', 'cache module', '--mode', 'keyword', '--json'], { env })).mode).toBe('keyword');
    expect(json<RecallDoc>(repo.cortex(['recall', 'cache module', '--mode', 'semantic', '--json'], { env })).mode).toBe('semantic');
    expect(repo.cortex(['recall', 'x', '--mode', 'fuzzy'], { env }).code).toBe(2);
  });

  it('rebuilds everything after .memory/ is deleted', () => {
    const repo = project();
    repo.cortex(['index', '--embed'], { env });
    const before = json<RecallDoc>(repo.cortex(['recall', 'cache module', '--json'], { env }));
    rmSync(join(repo.dir, '.memory'), { recursive: true });
    const keyword = repo.cortex(['recall', 'cache module', '--json'], { env });
    expect(keyword.code).toBe(0);
    expect(json<RecallDoc>(keyword).mode).toBe('keyword');
    const hybrid = json<RecallDoc>(repo.cortex(['recall', 'cache module', '--mode', 'hybrid', '--json'], { env }));
    expect(hybrid).toEqual(before);
    expect(vectors(repo)).toMatchObject({ count: 12, dims: 32 });
  });
});

describe('degraded mode: keyword results, one notice line, exit 0', () => {
  function expectNotice(r: RunResult, pattern: RegExp, code = 0): void {
    expect(r.code, r.stderr).toBe(code);
    // `index` also reports its timing on stderr; nothing else may be there.
    const lines = stderrLines(r).filter((l) => !/^\d+ ms$/.test(l));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^notice: keyword-only recall: /);
    expect(lines[0]).toMatch(pattern);
    expect(lines[0]).toMatch(/Fix: /);
  }

  it('a missing model directory', () => {
    const repo = project();
    const env = tinyEnv(join(repo.home, 'no-models'));
    const r = repo.cortex(['recall', 'cache module', '--mode', 'hybrid'], { env });
    expectNotice(r, /model directory not found: .*no-models \(CORTEX_MODEL_DIR\)/);
    // Keyword results, at most the limit (5): the relevance floor drops memories that share only "module".
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.every((l) => l.includes('cache'))).toBe(true);
    const doc = json<RecallDoc>(repo.cortex(['recall', 'cache module', '--mode', 'semantic', '--json'], { env }));
    expect(doc.mode).toBe('keyword');
    expect(doc.notice).toMatch(/model directory not found/);
    expect(doc.results.length).toBeGreaterThan(0);
    // `index --embed` was asked to embed: embedding nothing is a failure (exit 1), with the same reason.
    const index = repo.cortex(['index', '--embed'], { env });
    expectNotice(index, /model directory not found/, 1);
  });

  it('a relative model directory is resolved against the project root', () => {
    const repo = project();
    mkdirSync(join(repo.dir, 'sub'));
    const r = repo.cortex(['recall', 'cache module', '--mode', 'hybrid'], { env: tinyEnv('models-here'), cwd: join(repo.dir, 'sub') });
    expectNotice(r, new RegExp(`model directory not found: ${repo.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/models-here `));
  });

  it.skipIf(!MODEL_DIR)('a broken model file', () => {
    const repo = project();
    const models = tmp();
    cpSync(join(MODEL_DIR!, TINY_MODEL), join(models, TINY_MODEL), { recursive: true });
    const onnx = join(models, TINY_MODEL, 'onnx', 'model.onnx');
    rmSync(onnx, { force: true });
    writeFileSync(onnx, 'not an onnx graph');
    const r = repo.cortex(['recall', 'cache module', '--mode', 'hybrid'], { env: tinyEnv(models) });
    expectNotice(r, /broken model file .*model\.onnx/);
  });

  it('the optional package is not installed', () => {
    // A copy of the built CLI whose node_modules has everything but @huggingface/transformers.
    const root = tmp();
    cpSync(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true });
    cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
    mkdirSync(join(root, 'node_modules'));
    for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
      if (name !== '@huggingface' && !name.startsWith('.')) symlinkSync(join(REPO_ROOT, 'node_modules', name), join(root, 'node_modules', name));
    }
    const repo = project();
    const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'recall', 'cache module', '--mode', 'hybrid'], {
      cwd: repo.dir,
      env: { ...repo.env, ...tinyEnv() },
      encoding: 'utf8',
    });
    expectNotice({ code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, /@huggingface\/transformers is not installed.*--omit=optional/);
  });
});

describe('the keyword path never loads the vector code or the embedding library', () => {
  function traced(repo: TempRepo, args: string[], env: NodeJS.ProcessEnv): { result: RunResult; modules: string[] } {
    const file = join(repo.home, `trace-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(file, '');
    const r = spawnSync(process.execPath, ['--import', TRACE, CLI, ...args], { cwd: repo.dir, env: { ...repo.env, ...env, CORTEX_TRACE_IMPORTS: file }, encoding: 'utf8' });
    return { result: { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, modules: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  }
  const heavy = (modules: string[]) => modules.filter((m) => /@huggingface|onnxruntime|\/cache\/vectors\.js|\/services\/embed\.js|\/api\/recall\/hybrid\.js|\/embed\/transformers\.js/.test(m));

  it.skipIf(!MODEL_DIR)('with and without vectors, unless vectors are used', () => {
    const repo = project();
    const env = tinyEnv();
    const before = traced(repo, ['recall', 'cache module'], env);
    expect(before.result.code, before.result.stderr).toBe(0);
    expect(before.modules.some((m) => m.endsWith('/dist/api/recall/recall.js'))).toBe(true);
    expect(heavy(before.modules)).toEqual([]);
    expect(heavy(traced(repo, ['remember', 'Another note about the cache', '--type', 'context'], env).modules)).toEqual([]);

    repo.cortex(['index', '--embed'], { env });
    const keyword = traced(repo, ['recall', 'cache module', '--mode', 'keyword'], env);
    expect(keyword.result.code).toBe(0);
    expect(heavy(keyword.modules)).toEqual([]);

    // The trace does see them when they are used, so the checks above can fail.
    const hybrid = traced(repo, ['recall', 'cache module'], env);
    expect(hybrid.result.code).toBe(0);
    expect(heavy(hybrid.modules).some((m) => m.includes('@huggingface'))).toBe(true);
    expect(heavy(hybrid.modules).some((m) => m.endsWith('/dist/cache/vectors.js'))).toBe(true);
  });
});
