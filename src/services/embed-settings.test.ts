import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempRepo } from '../../test/helpers/repo.js';
import { renderVectorCache, VectorCache } from '../cache/vectors.js';
import { contextFor } from './context.js';
import { projectName, vectorKey } from './embed.js';
import { embedSettings, hasVectors, vectorsFile } from './embed-settings.js';

function project(files: Record<string, string> = {}) {
  const repo = tempRepo({ '.cortex/memories/.keep': '', ...files });
  return { repo, ctx: (env: NodeJS.ProcessEnv = {}) => contextFor(repo.dir, { env: { ...repo.env, ...env } }) };
}

describe('embedSettings', () => {
  it('resolves a relative model directory against the project root, from env or config', () => {
    const { repo, ctx } = project({ '.cortex/config.yaml': 'embed:\n  modelDir: vendor/models\n' });
    expect(embedSettings(ctx())).toMatchObject({ modelDir: join(repo.dir, 'vendor/models'), modelDirSource: 'config' });
    expect(embedSettings(ctx({ CORTEX_MODEL_DIR: 'm' }))).toMatchObject({ modelDir: join(repo.dir, 'm'), modelDirSource: 'env' });
    expect(embedSettings(ctx({ CORTEX_MODEL_DIR: '/abs/models' })).modelDir).toBe('/abs/models');
  });

  it('defaults to the quantized MiniLM model, downloaded to the library cache', () => {
    const { ctx } = project();
    expect(embedSettings(ctx())).toMatchObject({ model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8', modelDir: undefined, identity: 'Xenova/all-MiniLM-L6-v2:q8', minSimilarity: 0.2 });
  });

  it('takes the similarity floor from the config', () => {
    const { ctx } = project({ '.cortex/config.yaml': 'embed:\n  minSimilarity: 0.35\n' });
    expect(embedSettings(ctx()).minSimilarity).toBe(0.35);
  });
});

describe('hasVectors', () => {
  function writeVectors(dir: string, model: string, count: number): void {
    const cache = new VectorCache({ model, dims: 2 });
    for (let i = 0; i < count; i++) cache.set(`k${i}`, new Float32Array([1, i]));
    mkdirSync(join(dir, '.memory'), { recursive: true });
    writeFileSync(join(dir, '.memory', 'vectors.bin'), renderVectorCache(cache));
  }

  it('is true only for a non-empty cache of the configured model, with embeddings on', () => {
    const { repo, ctx } = project();
    expect(hasVectors(ctx())).toBe(false);
    writeVectors(repo.dir, 'Xenova/all-MiniLM-L6-v2:q8', 0);
    expect(hasVectors(ctx())).toBe(false);
    writeVectors(repo.dir, 'Xenova/all-MiniLM-L6-v2:q8', 3);
    expect(hasVectors(ctx())).toBe(true);
    expect(hasVectors(ctx({ CORTEX_EMBED_DTYPE: 'fp32' }))).toBe(false);
    expect(hasVectors(ctx({ CORTEX_EMBED: 'off' }))).toBe(false);
    expect(hasVectors(ctx(), { scope: 'global' })).toBe(false);
    expect(vectorsFile(ctx().paths)).toBe(join(repo.dir, '.memory', 'vectors.bin'));
  });
});

describe('projectName and vectorKey', () => {
  it('names the project after package.json (without its scope), else the directory', () => {
    const { repo, ctx } = project();
    expect(projectName(ctx())).toBe('repo');
    writeFileSync(join(repo.dir, 'package.json'), JSON.stringify({ name: '@acme/billing' }));
    expect(projectName(ctx())).toBe('billing');
    writeFileSync(join(repo.dir, 'package.json'), '{ not json');
    expect(projectName(ctx())).toBe('repo');
  });

  it('changes with the content and with the project name, and only then', () => {
    const a = vectorKey({ contentKey: 'c1' }, 'p');
    expect(vectorKey({ contentKey: 'c1' }, 'p')).toBe(a);
    expect(vectorKey({ contentKey: 'c2' }, 'p')).not.toBe(a);
    expect(vectorKey({ contentKey: 'c1' }, 'q')).not.toBe(a);
    expect(vectorKey({ contentKey: 'c1' }, undefined)).not.toBe(a);
  });
});
