/**
 * The synthetic test model and memory files for the embedding tests.
 *
 * The model lives outside the repository, in `../shared/models` beside the clone (as CI
 * lays it out); `CORTEX_MODEL_DIR` overrides, and `/work/shared/models` is the fallback
 * for checkouts that sit elsewhere (git worktrees). Tests skip when none has the model.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderMemory } from '../../src/core/memory-format.js';
import type { Memory } from '../../src/core/memory.js';
import { SHARED } from './repo.js';

export const TINY_MODEL = 'test/tiny-random-static';

function hasTinyModel(dir: string): boolean {
  return existsSync(join(dir, TINY_MODEL, 'onnx', 'model.onnx'));
}

/** The directory holding `test/tiny-random-static`, or `undefined` when there is none. */
export const MODEL_DIR: string | undefined = [process.env.CORTEX_MODEL_DIR, join(SHARED, 'models'), '/work/shared/models']
  .filter((d): d is string => typeof d === 'string' && d !== '')
  .map((d) => resolve(d))
  .find(hasTinyModel);

if (MODEL_DIR === undefined) console.warn('skipping tiny-model tests: no test/tiny-random-static under ../shared/models (set CORTEX_MODEL_DIR)');

/** Environment selecting the synthetic model. */
export function tinyEnv(modelDir: string = MODEL_DIR ?? '/nonexistent'): NodeJS.ProcessEnv {
  return { CORTEX_MODEL_DIR: modelDir, CORTEX_EMBED_MODEL: TINY_MODEL, CORTEX_EMBED_DTYPE: 'fp32' };
}

/**
 * A second synthetic model under `<root>/<name>` with the tiny model's tokenizer and a
 * freshly generated ONNX graph of `dims` dimensions (same generator as the shared one).
 */
export function makeModel(root: string, name: string, dims: number): void {
  if (!MODEL_DIR) throw new Error('no tiny model');
  const source = join(MODEL_DIR, TINY_MODEL);
  const target = join(root, name);
  mkdirSync(join(target, 'onnx'), { recursive: true });
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
    if (existsSync(join(source, file))) copyFileSync(join(source, file), join(target, file));
  }
  const script = join(MODEL_DIR, 'test', 'make-tiny-random-static.mjs');
  const r = spawnSync(process.execPath, [script, join(target, 'onnx', 'model.onnx'), '30522', String(dims)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`model generator failed: ${r.stderr}`);
}

let counter = 0;

/** A valid memory file's path and text; ids get a base32 suffix so they pass validation. */
export function memoryFile(fields: Partial<Memory> & Pick<Memory, 'summary'>): [string, string] {
  const suffix = [...String(counter++)].map((d) => 'abcdefghij'[Number(d)]).join('').padStart(6, 'a');
  const slug = fields.summary.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  const memory: Memory = {
    id: fields.id ?? `${slug}-${suffix}`,
    type: 'decision',
    scope: 'project',
    priority: 5,
    confidence: 0.9,
    pinned: false,
    status: 'active',
    tags: [],
    created: '2026-11-01T10:00:00Z',
    updated: '2026-11-01T10:00:00Z',
    source: { kind: 'manual' },
    body: '',
    extra: {},
    ...fields,
  };
  return [`.cortex/memories/${memory.id}.md`, renderMemory(memory)];
}

/** `n` deterministic, distinct memories, as a file map for `tempRepo`. */
export function manyMemories(n: number, offset = 0): Record<string, string> {
  const topics = ['cache', 'queue', 'auth', 'deploy', 'schema', 'logging', 'parser', 'retry', 'index', 'session'];
  const files: Record<string, string> = {};
  for (let i = offset; i < offset + n; i++) {
    const topic = topics[i % topics.length]!;
    const [path, text] = memoryFile({
      id: `memory-${i}-${'abcdefghijklmnopqrstuvwxyz234567'[i % 32]}aaaaa`,
      summary: `Note ${i} about the ${topic} module`,
      type: i % 3 === 0 ? 'pattern' : 'decision',
      body: `Detail ${i}: the ${topic} code keeps state ${i % 7} and was changed in step ${i}.`,
    });
    files[path] = text;
  }
  return files;
}
