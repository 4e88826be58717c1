import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { assertRealDirectories, checkWritableDirectory, directoryProblem, readRegularFile } from './safe-read.js';

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

describe('directoryProblem and checkWritableDirectory', () => {
  it('refuse a link (inside or out), a file and a FIFO where a directory goes, and accept a real or missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cortex-safe-dir-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'real/sub'), { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'inside-link'));
    symlinkSync(tmpdir(), join(dir, 'outside-link'));
    writeFileSync(join(dir, 'file'), 'x');
    expect(directoryProblem(join(dir, 'real'))).toBeUndefined();
    expect(directoryProblem(join(dir, 'missing'))).toBeUndefined();
    expect(directoryProblem(join(dir, 'inside-link'))).toBe('is a symbolic link');
    expect(directoryProblem(join(dir, 'outside-link'))).toBe('is a symbolic link');
    expect(directoryProblem(join(dir, 'file'))).toBe('is a file, not a directory');
    expect(checkWritableDirectory(dir, 'real/sub')).toBeUndefined();
    expect(checkWritableDirectory(dir, 'real/new/deeper')).toBeUndefined();
    expect(checkWritableDirectory(dir, 'outside-link/memory-bank')).toBe('outside-link is a symbolic link');
    expect(checkWritableDirectory(dir, 'inside-link')).toBe('inside-link is a symbolic link');
    expect(checkWritableDirectory(dir, 'file/x')).toBe('file is a file, not a directory');
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(dir, 'fifo')]);
      expect(directoryProblem(join(dir, 'fifo'))).toBe('is a FIFO, not a directory');
    }
    expect(() => assertRealDirectories([join(dir, 'real'), join(dir, 'file')], dir)).toThrow(/^file is a file, not a directory; Cortex reads and writes only real directories, so nothing was read or written\.$/);
  });
});
