import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readVectorFileHeader } from './vector-header.js';
import { renderVectorCache, VectorCache } from './vectors.js';

function tempFile(bytes: Uint8Array | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-vh-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'vectors.bin');
  writeFileSync(file, bytes);
  return file;
}

describe('readVectorFileHeader', () => {
  it('agrees with the writer on model, count and dimensions (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 0, max: 20 }), (model, dims, count) => {
        const cache = new VectorCache({ model, dims });
        for (let i = 0; i < count; i++) cache.set(`k${i}`, new Float32Array(dims).fill(i));
        const header = readVectorFileHeader(tempFile(renderVectorCache(cache)));
        expect(header).toEqual({ version: 1, dims, count, model });
      }),
      { numRuns: 30 },
    );
  });

  it('returns undefined for a missing, short or foreign file', () => {
    expect(readVectorFileHeader(join(tmpdir(), 'no-such-dir-cortex', 'vectors.bin'))).toBeUndefined();
    expect(readVectorFileHeader(tempFile('CXVEC'))).toBeUndefined();
    expect(readVectorFileHeader(tempFile('{"version":1}'.padEnd(64, ' ')))).toBeUndefined();
  });

  it('returns undefined when the model length runs past the end of the file', () => {
    const bytes = renderVectorCache(new VectorCache({ model: 'm', dims: 2 }));
    bytes.writeUInt32LE(200, 16);
    expect(readVectorFileHeader(tempFile(bytes))).toBeUndefined();
  });
});
