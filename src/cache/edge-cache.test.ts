import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildEdge, edgeFileName } from '../core/edge.js';
import { renderEdge } from '../core/edge-format.js';
import { tierPaths, type TierPaths } from '../store/paths.js';
import { EdgeCache, dirStamp, sameStamp } from './edge-cache.js';

function tier(): { paths: TierPaths; base: string } {
  const base = mkdtempSync(join(tmpdir(), 'cortex-edge-cache-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const paths = tierPaths(join(base, '.cortex'), join(base, '.memory'));
  mkdirSync(paths.edgesDir, { recursive: true });
  return { paths, base };
}

const edge = (source: string, target: string, strength = 0.5) =>
  buildEdge({ source, target, relation: 'refines', strength, created: '2026-01-01T00:00:00Z' });

/** Writes like Cortex and git do: a new file renamed into place. */
function replaceFile(dir: string, name: string, text: string): void {
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(dir, name));
}

// A clock well past the last change, so stamps are not racy.
const later = () => Date.now() + 10_000;

describe('EdgeCache', () => {
  it('reads every file once, then answers from the cache without listing the directory', () => {
    const { paths, base } = tier();
    replaceFile(paths.edgesDir, edgeFileName(edge('a', 'b')), renderEdge(edge('a', 'b', 0.7)));
    replaceFile(paths.edgesDir, 'broken--refines--x.md', 'no frontmatter');
    const cache = EdgeCache.load(paths);
    expect(cache.refresh(paths, { base, now: later() })).toEqual({ listed: true, read: 2, removed: 0 });
    expect(cache.edges(paths, base)).toEqual([expect.objectContaining({ source: 'a', target: 'b', relation: 'refines', strength: 0.7, file: '.cortex/edges/a--refines--b.md' })]);
    expect(cache.diagnostics().map((d) => d.file)).toEqual(['.cortex/edges/broken--refines--x.md']);
    cache.save(paths);

    const again = EdgeCache.load(paths);
    expect(again.refresh(paths, { base, now: later() })).toEqual({ listed: false, read: 0, removed: 0 });
    expect(again.edges(paths, base)).toEqual(cache.edges(paths, base));
  });

  it('sees files added, replaced and deleted, re-reading only those', () => {
    const { paths, base } = tier();
    replaceFile(paths.edgesDir, 'a--refines--b.md', renderEdge(edge('a', 'b')));
    replaceFile(paths.edgesDir, 'b--refines--c.md', renderEdge(edge('b', 'c')));
    const cache = EdgeCache.load(paths);
    cache.refresh(paths, { base, now: later() });
    replaceFile(paths.edgesDir, 'a--refines--b.md', renderEdge(edge('a', 'b', 0.9)));
    replaceFile(paths.edgesDir, 'c--refines--d.md', renderEdge(edge('c', 'd')));
    rmSync(join(paths.edgesDir, 'b--refines--c.md'));
    expect(cache.refresh(paths, { base, now: later() })).toEqual({ listed: true, read: 2, removed: 1 });
    expect(cache.edges(paths, base).map((e) => [e.source, e.target, e.strength])).toEqual([
      ['a', 'b', 0.9],
      ['c', 'd', 0.5],
    ]);
  });

  it('misses an in-place edit that leaves the directory alone, until a verify', () => {
    const { paths, base } = tier();
    replaceFile(paths.edgesDir, 'a--refines--b.md', renderEdge(edge('a', 'b', 0.2)));
    const cache = EdgeCache.load(paths);
    cache.refresh(paths, { base, now: later() });
    const file = join(paths.edgesDir, 'a--refines--b.md');
    writeFileSync(file, renderEdge(edge('a', 'b', 0.8)));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(cache.refresh(paths, { base, now: later() }).listed).toBe(false);
    expect(cache.edges(paths, base)[0]!.strength).toBe(0.2);
    expect(cache.refresh(paths, { base, verify: true, now: later() })).toMatchObject({ listed: true, read: 1 });
    expect(cache.edges(paths, base)[0]!.strength).toBe(0.8);
  });

  it('lists again after a racy refresh, when a change could share the mtime of the one before', () => {
    const { paths, base } = tier();
    const cache = EdgeCache.load(paths);
    const mtime = statSync(paths.edgesDir).mtimeMs;
    cache.refresh(paths, { base, now: mtime + 10 });
    expect(cache.stamp?.racy).toBe(true);
    expect(cache.refresh(paths, { base, now: later() }).listed).toBe(true);
    expect(cache.refresh(paths, { base, now: later() }).listed).toBe(false);
  });

  it('records its own writes and deletes as trusted, so the next run stays warm', () => {
    const { paths, base } = tier();
    const cache = EdgeCache.load(paths);
    cache.refresh(paths, { base, now: later() });
    const e = edge('a', 'b', 0.3);
    replaceFile(paths.edgesDir, edgeFileName(e), renderEdge(e));
    cache.record(paths, edgeFileName(e), e);
    cache.save(paths);
    const next = EdgeCache.load(paths);
    expect(next.refresh(paths, { base, now: later() }).listed).toBe(false);
    expect(next.has(e)).toBe(true);
    rmSync(join(paths.edgesDir, edgeFileName(e)));
    next.forget(paths, edgeFileName(e));
    expect(next.refresh(paths, { base, now: later() }).listed).toBe(false);
    expect(next.edges(paths, base)).toEqual([]);
  });

  it('rebuilds from a corrupt cache file and copes with a missing directory', () => {
    const { paths, base } = tier();
    mkdirSync(paths.cacheDir, { recursive: true });
    writeFileSync(EdgeCache.cachePath(paths), '{"version":1,"dir":{');
    rmSync(paths.edgesDir, { recursive: true });
    const cache = EdgeCache.load(paths);
    expect(cache.refresh(paths, { base }).listed).toBe(true);
    expect(cache.edges(paths, base)).toEqual([]);
    expect(cache.stamp).toEqual({ exists: false, mtimeMs: 0, ino: 0 });
  });
});

describe('sameStamp', () => {
  it('compares mtime and inode, never trusts a racy stored stamp, and ignores a racy current one', () => {
    const s = { exists: true, mtimeMs: 5, ino: 1 };
    expect(sameStamp(s, { ...s })).toBe(true);
    expect(sameStamp(s, { ...s, mtimeMs: 6 })).toBe(false);
    expect(sameStamp(s, { ...s, ino: 2 })).toBe(false);
    expect(sameStamp(s, { ...s, racy: true })).toBe(false);
    expect(sameStamp({ ...s, racy: true }, s)).toBe(true);
    expect(sameStamp({ exists: false, mtimeMs: 0, ino: 0 }, { exists: false, mtimeMs: 0, ino: 0 })).toBe(true);
    expect(sameStamp(undefined, s)).toBe(false);
  });

  it('marks a stamp racy when the directory changed within the window', () => {
    const { paths } = tier();
    const mtime = statSync(paths.edgesDir).mtimeMs;
    expect(dirStamp(paths.edgesDir, mtime + 1).racy).toBe(true);
    expect(dirStamp(paths.edgesDir, mtime + 60_000).racy).toBeUndefined();
  });
});
