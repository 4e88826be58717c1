import { describe, expect, it } from 'vitest';
import { CortexError } from '../errors.js';
import { DEFAULT_CONFIG, type CortexConfig } from '../core/config.js';
import { EMBED_UNAVAILABLE, EmbedUnavailableError, embeddingText, isEmbeddable, modelIdentity, queryEmbeddingText, resolveEmbedOptions } from './embedder.js';

function configWith(embed: Partial<CortexConfig['embed']>): Pick<CortexConfig, 'embed'> {
  return { embed: { ...DEFAULT_CONFIG.embed, ...embed } };
}

describe('embeddingText', () => {
  const memory = { type: 'decision' as const, summary: 'Use SQLite for the index', body: 'One file, no server.' };

  it('writes [type] [project:<name>] summary, a newline, then the content', () => {
    expect(embeddingText(memory, { project: 'cortex' })).toBe('[decision] [project:cortex] Use SQLite for the index\nOne file, no server.');
  });

  it('omits the project tag when there is no project name', () => {
    expect(embeddingText(memory)).toBe('[decision] Use SQLite for the index\nOne file, no server.');
    expect(embeddingText(memory, { project: '  ' })).toBe('[decision] Use SQLite for the index\nOne file, no server.');
  });

  it('omits the newline for an empty body and trims surrounding whitespace', () => {
    expect(embeddingText({ type: 'gotcha', summary: ' Watch the lock ', body: '\n\n' }, { project: 'p' })).toBe('[gotcha] [project:p] Watch the lock');
  });

  it('caps the text at maxChars', () => {
    const long = { ...memory, body: 'x'.repeat(10_000) };
    expect(embeddingText(long, { maxChars: 100 })).toHaveLength(100);
    expect(embeddingText(long)).toHaveLength(4_000);
  });
});

describe('isEmbeddable', () => {
  it('never embeds raw code memories', () => {
    expect(isEmbeddable({ type: 'code' })).toBe(false);
  });

  it('embeds every other type', () => {
    for (const type of ['architecture', 'decision', 'rejected', 'gotcha', 'code_description'] as const) {
      expect(isEmbeddable({ type })).toBe(true);
    }
  });
});

describe('resolveEmbedOptions', () => {
  it('defaults to all-MiniLM-L6-v2, q8, download-to-cache, enabled', () => {
    expect(resolveEmbedOptions({ env: {}, config: undefined })).toEqual({
      model: 'Xenova/all-MiniLM-L6-v2',
      dtype: 'q8',
      modelDir: undefined,
      enabled: true,
    });
  });

  it('takes config.embed over the defaults', () => {
    const config = configWith({ model: 'org/other', dtype: 'fp32', modelDir: '/models', enabled: false });
    expect(resolveEmbedOptions({ env: {}, config })).toEqual({ model: 'org/other', dtype: 'fp32', modelDir: '/models', enabled: false });
  });

  it('takes the environment over config.embed', () => {
    const config = configWith({ model: 'org/other', dtype: 'fp32', modelDir: '/models' });
    const env = { CORTEX_EMBED_MODEL: 'test/tiny-random-static', CORTEX_EMBED_DTYPE: 'fp16', CORTEX_MODEL_DIR: '/work/shared/models' };
    expect(resolveEmbedOptions({ env, config })).toEqual({
      model: 'test/tiny-random-static',
      dtype: 'fp16',
      modelDir: '/work/shared/models',
      enabled: true,
    });
  });

  it('disables embeddings with CORTEX_EMBED=0 (or false/off/no), and re-enables with 1', () => {
    for (const value of ['0', 'false', 'OFF', 'no']) {
      expect(resolveEmbedOptions({ env: { CORTEX_EMBED: value }, config: undefined }).enabled).toBe(false);
    }
    expect(resolveEmbedOptions({ env: { CORTEX_EMBED: '1' }, config: configWith({ enabled: false }) }).enabled).toBe(true);
    expect(resolveEmbedOptions({ env: { CORTEX_EMBED: 'maybe' }, config: configWith({ enabled: false }) }).enabled).toBe(false);
  });

  it('treats empty environment values as unset', () => {
    const env = { CORTEX_EMBED_MODEL: '', CORTEX_MODEL_DIR: ' ', CORTEX_EMBED: '' };
    expect(resolveEmbedOptions({ env, config: configWith({ modelDir: '/models' }) })).toMatchObject({
      model: 'Xenova/all-MiniLM-L6-v2',
      modelDir: '/models',
      enabled: true,
    });
  });
});

describe('EmbedUnavailableError', () => {
  it('is a CortexError with code EMBED_UNAVAILABLE, a message and a hint', () => {
    const err = new EmbedUnavailableError('model directory not found: /x', { hint: 'Set CORTEX_MODEL_DIR.' });
    expect(err).toBeInstanceOf(CortexError);
    expect(err.code).toBe(EMBED_UNAVAILABLE);
    expect(err.name).toBe('EmbedUnavailableError');
    expect(err.toJSON()).toEqual({ code: 'EMBED_UNAVAILABLE', message: 'model directory not found: /x', hint: 'Set CORTEX_MODEL_DIR.' });
  });
});

describe('queryEmbeddingText', () => {
  it('gives the query the same metadata prefix as the memories', () => {
    expect(queryEmbeddingText(' which database ', { project: 'cortex' })).toBe('[project:cortex] which database');
    expect(queryEmbeddingText('which database', { project: 'cortex', type: 'decision' })).toBe('[decision] [project:cortex] which database');
    expect(queryEmbeddingText('which database')).toBe('which database');
  });

  it('lines up with embeddingText: a memory whose text is the query differs only by its type tag', () => {
    const memory = embeddingText({ type: 'decision', summary: 'which database', body: '' }, { project: 'cortex' });
    expect(memory).toBe(queryEmbeddingText('which database', { project: 'cortex', type: 'decision' }));
  });

  it('caps the length', () => {
    expect(queryEmbeddingText('x'.repeat(5_000))).toHaveLength(1_000);
  });
});

describe('modelIdentity', () => {
  it('includes the dtype, since q8 and fp32 vectors differ', () => {
    expect(modelIdentity({ model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8' })).toBe('Xenova/all-MiniLM-L6-v2:q8');
    expect(modelIdentity({ model: 'm', dtype: 'fp32' })).not.toBe(modelIdentity({ model: 'm', dtype: 'q8' }));
  });
});
