import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FileMemo, fileSignature } from './file-memo.js';

describe('FileMemo', () => {
  it('keeps a value while its file and key are unchanged, and misses after a rewrite, another key or a removal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-memo-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'cache.bin');
    writeFileSync(path, 'one');
    const memo = new FileMemo<string, number>((a, b) => a === b);
    expect(memo.set(path, fileSignature(path), 'k', 1)).toBe(1);
    expect(memo.get(path, fileSignature(path), 'k')).toBe(1);
    expect(memo.get(path, fileSignature(path), 'other')).toBeUndefined();
    writeFileSync(path, 'a longer text');
    expect(memo.get(path, fileSignature(path), 'k')).toBeUndefined();
    rmSync(path);
    expect(fileSignature(path)).toBeUndefined();
    expect(memo.get(path, fileSignature(path), 'k')).toBeUndefined();
    memo.set(path, undefined, 'k', 2); // a file that could not be written keeps nothing
    expect(memo.get(path, undefined, 'k')).toBeUndefined();
  });
});
