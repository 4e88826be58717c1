import { describe, expect, it } from 'vitest';
import type { Memory } from './memory.js';
import { diffMemory, renderDiffMarkdown, sortChanges, type MemoryDiff } from './memory-diff.js';

function memory(patch: Partial<Memory> = {}): Memory {
  return {
    id: 'a-aaaaaa',
    type: 'decision',
    summary: 'Chose SQLite',
    scope: 'project',
    priority: 5,
    confidence: 1,
    pinned: false,
    status: 'active',
    tags: ['db'],
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    source: { kind: 'manual', files: ['src/db.ts'] },
    body: 'Because.',
    extra: {},
    ...patch,
  };
}

describe('diffMemory', () => {
  it('names additions and deletions', () => {
    expect(diffMemory(undefined, memory())).toEqual({ change: 'added', fields: [] });
    expect(diffMemory(memory(), undefined)).toEqual({ change: 'deleted', fields: [] });
    expect(diffMemory(undefined, undefined)).toBeUndefined();
  });

  it('lists the changed fields of an edit, nested source fields by dotted path, and the body', () => {
    const after = memory({ priority: 8, tags: ['db', 'perf'], source: { kind: 'manual', files: ['src/pool.ts'] }, body: 'Because, really.' });
    expect(diffMemory(memory(), after)).toEqual({ change: 'edited', fields: ['priority', 'tags', 'source.files', 'body'] });
  });

  it('names status moves after where they lead', () => {
    expect(diffMemory(memory(), memory({ status: 'superseded' }))?.change).toBe('superseded');
    expect(diffMemory(memory(), memory({ status: 'archived' }))?.change).toBe('archived');
    expect(diffMemory(memory({ status: 'archived' }), memory())?.change).toBe('restored');
  });

  it('sees no change in an identical memory', () => {
    expect(diffMemory(memory(), memory())).toBeUndefined();
  });
});

describe('renderDiffMarkdown', () => {
  const diff: MemoryDiff = {
    memories: [
      { id: 'b-bbbbbb', type: 'gotcha', summary: 'CI has *no* GPU', change: 'added', fields: [], file: '.cortex/memories/b-bbbbbb.md' },
      { id: 'a-aaaaaa', type: 'decision', summary: 'Chose SQLite', change: 'edited', fields: ['priority'], file: '.cortex/memories/a-aaaaaa.md' },
    ],
    edges: [{ id: 'b-bbbbbb--contradicts--a-aaaaaa', source: 'b-bbbbbb', relation: 'contradicts', target: 'a-aaaaaa', change: 'added', fields: [], file: 'x' }],
    flags: [{ kind: 'contradiction', file: '.cortex/edges/x.md', message: 'b contradicts a' }],
  };

  it('groups by type in model order, with counts, fields, edges and flags', () => {
    const md = renderDiffMarkdown(diff, { range: 'main...feature' });
    expect(md).toBe(
      [
        '## Memory changes in `main...feature`',
        '',
        '**Memories:** 1 added, 1 edited · **Edges:** 1 added · **Flags:** 1',
        '',
        '### decision',
        '',
        '- **edited** `a-aaaaaa`: Chose SQLite (priority)',
        '',
        '### gotcha',
        '',
        '- **added** `b-bbbbbb`: CI has \\*no\\* GPU',
        '',
        '### edges',
        '',
        '- **added** `b-bbbbbb` contradicts `a-aaaaaa`',
        '',
        '### Flags',
        '',
        '- **contradiction** `.cortex/edges/x.md`: b contradicts a',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing changed', () => {
    expect(renderDiffMarkdown({ memories: [], edges: [], flags: [] }, { range: 'a..b' })).toContain('No memory or edge changes.');
  });

  it('orders changes independently of input order', () => {
    expect(sortChanges({ ...diff, memories: [...diff.memories].reverse() })).toEqual(sortChanges(diff));
  });
});
