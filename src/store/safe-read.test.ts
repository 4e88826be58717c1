import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readRegularFile } from './safe-read.js';

describe('readRegularFile', () => {
  it('reads a file whole up to the limit, and refuses one byte more', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-safe-read-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const limit = 64 * 1024;
    for (const size of [0, 1, 4095, 4096, 10_000, limit - 1, limit]) {
      const path = join(dir, `f${size}`);
      const bytes = Buffer.alloc(size, 'x');
      writeFileSync(path, bytes);
      const read = readRegularFile(path, { boundary: dir, maxBytes: limit });
      expect('buffer' in read && read.buffer.equals(bytes), `size ${size}`).toBe(true);
    }
    const path = join(dir, 'big');
    writeFileSync(path, Buffer.alloc(limit + 1, 'x'));
    const read = readRegularFile(path, { boundary: dir, maxBytes: limit });
    expect('problem' in read && read.problem.code).toBe('too-large');
  });
});
