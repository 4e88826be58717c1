import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addPendingLinks, pendingLinksPath, readPendingLinks, removePendingLinks } from './pending-links.js';

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-pending-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, '.memory');
}

describe('pending links', () => {
  it('adds ids in order, each once, and removes them; the file goes when the list is empty', () => {
    const dir = cacheDir();
    expect(readPendingLinks(dir)).toEqual([]);
    addPendingLinks(dir, ['use-wal-k3f9qa', 'retry-lock-aaaaaa']);
    addPendingLinks(dir, ['use-wal-k3f9qa', 'third-bbbbbb']);
    expect(readPendingLinks(dir)).toEqual(['use-wal-k3f9qa', 'retry-lock-aaaaaa', 'third-bbbbbb']);
    removePendingLinks(dir, ['retry-lock-aaaaaa', 'not-listed-cccccc']);
    expect(readPendingLinks(dir)).toEqual(['use-wal-k3f9qa', 'third-bbbbbb']);
    removePendingLinks(dir, ['use-wal-k3f9qa', 'third-bbbbbb']);
    expect(readPendingLinks(dir)).toEqual([]);
    expect(existsSync(pendingLinksPath(dir))).toBe(false);
  });

  it('keeps only safe ids: a torn line, a path or text is never listed', () => {
    const dir = cacheDir();
    addPendingLinks(dir, ['../../etc/passwd', 'Some Text', 'good-id-dddddd']);
    mkdirSync(dir, { recursive: true });
    appendFileSync(pendingLinksPath(dir), 'torn/lin');
    expect(readPendingLinks(dir)).toEqual(['good-id-dddddd']);
    // An id added after a torn line is not glued to it.
    addPendingLinks(dir, ['next-id-eeeeee']);
    expect(readPendingLinks(dir)).toEqual(['good-id-dddddd', 'next-id-eeeeee']);
  });

  it('reads a directory where the file should be as an empty list', () => {
    const dir = cacheDir();
    mkdirSync(pendingLinksPath(dir), { recursive: true });
    expect(readPendingLinks(dir)).toEqual([]);
  });
});
