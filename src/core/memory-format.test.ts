import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryMemory } from '../../test/helpers/arbitrary.js';
import { parseMemory, renderMemory } from './memory-format.js';

const EXAMPLE = `---
id: chose-sqlite-over-postgres-k3f9qa
type: decision
summary: Chose SQLite over PostgreSQL because zero-config matters most
scope: project
priority: 7
confidence: 0.95
pinned: false
status: active
tags: [storage, sqlite]
topic: decision/storage-engine
created: 2026-11-21T10:00:00Z
updated: 2026-11-21T10:00:00Z
source:
  kind: extraction
  layer: self-report
  session: 4b2c8e1a
  branch: feat/storage
  commit: 3f2a9c1
  files: [src/db.ts]
---
We need a store that works with no server on every developer laptop. PostgreSQL was
rejected: it needs a running daemon. See [[wal-mode-for-concurrent-hooks-p2x81d]].
`;

describe('parseMemory', () => {
  it('reads the DESIGN example with no diagnostics', () => {
    const { memory, diagnostics } = parseMemory(EXAMPLE, { file: 'x.md', expectedId: 'chose-sqlite-over-postgres-k3f9qa' });
    expect(diagnostics).toEqual([]);
    expect(memory).toMatchObject({
      id: 'chose-sqlite-over-postgres-k3f9qa',
      type: 'decision',
      priority: 7,
      confidence: 0.95,
      tags: ['storage', 'sqlite'],
      topic: 'decision/storage-engine',
      source: { kind: 'extraction', layer: 'self-report', session: '4b2c8e1a', commit: '3f2a9c1', files: ['src/db.ts'] },
    });
    expect(memory!.body.startsWith('We need a store')).toBe(true);
  });

  it('reports broken YAML with the file line, an excerpt and a hint', () => {
    const { memory, diagnostics } = parseMemory('---\nid: a-abcdef\ntype: decision\nsummary: "open\n---\n', { file: 'a.md' });
    expect(memory).toBeUndefined();
    expect(diagnostics[0]).toMatchObject({ file: 'a.md', line: 4, ruleId: 'yaml-syntax', severity: 'error' });
    expect(diagnostics[0]!.reason).toContain('summary: "open');
    expect(diagnostics[0]!.hint).toBeTruthy();
  });

  it('reports missing frontmatter with an example', () => {
    const { diagnostics } = parseMemory('just text', { file: 'a.md' });
    expect(diagnostics[0]).toMatchObject({ ruleId: 'frontmatter-missing', line: 1 });
    expect(diagnostics[0]!.hint).toContain('summary:');
  });

  it('gives one diagnostic per invalid field, on its line', () => {
    const text = '---\nid: a-abcdef\ntype: idea\nsummary: S\npriority: 12\nconfidence: 2\nstatus: gone\ncreated: yesterday\nupdated: 2026-01-01T00:00:00Z\n---\n';
    const { memory, diagnostics } = parseMemory(text, { file: 'a.md' });
    expect(memory).toBeUndefined();
    const lineOf = (text: string) => diagnostics.find((d) => d.reason.includes(text))?.line;
    expect(lineOf('unknown type')).toBe(3);
    expect(lineOf('priority')).toBe(5);
    expect(lineOf('confidence')).toBe(6);
    expect(lineOf('unknown status')).toBe(7);
    expect(lineOf('created')).toBe(8);
    expect(diagnostics).toHaveLength(5);
  });

  it('rejects unsafe ids and ids that differ from the file name', () => {
    expect(parseMemory('---\nid: ../../etc\ntype: context\nsummary: s\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n').diagnostics[0]!.ruleId).toBe('id-unsafe');
    const r = parseMemory('---\nid: a-abcdef\ntype: context\nsummary: s\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n', { expectedId: 'b-abcdef' });
    expect(r.memory).toBeUndefined();
    expect(r.diagnostics[0]!.ruleId).toBe('id-mismatch');
  });

  it('fills defaults for a minimal hand-written memory and warns about missing dates', () => {
    const r = parseMemory('---\nid: note-abcdef\ntype: context\nsummary: A note\n---\nText\n', { fallbackDate: '2026-01-02T03:04:05Z' });
    expect(r.memory).toMatchObject({ scope: 'project', priority: 5, confidence: 1, pinned: false, status: 'active', tags: [], created: '2026-01-02T03:04:05Z' });
    expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
  });

  it('keeps all-digit sessions and commits as strings', () => {
    const r = parseMemory('---\nid: a-abcdef\ntype: context\nsummary: s\ncreated: 2026-01-01\nupdated: 2026-01-01\nsource:\n  kind: manual\n  session: 12345678\n  commit: 1234567\n---\n');
    expect(r.memory!.source).toMatchObject({ session: '12345678', commit: '1234567' });
  });

  it('keeps the text of hand-written hashes YAML would read as other numbers', () => {
    for (const commit of ['0123456', '1234e56', '0x12345', '012345678901', '1e10']) {
      const text = `---\nid: a-abcdef\ntype: context\nsummary: s\ncreated: 2026-01-01\nupdated: 2026-01-01\nsource:\n  kind: manual\n  session: 0042\n  commit: ${commit}\n---\n`;
      const r = parseMemory(text);
      expect(r.memory!.source).toMatchObject({ session: '0042', commit });
      expect(parseMemory(renderMemory(r.memory!)).memory!.source.commit).toBe(commit);
    }
  });

  it('preserves unknown keys, in order, after the known ones', () => {
    const text = EXAMPLE.replace('---\nWe need', 'reviewed_by: alice\nz_extra: 3\n---\nWe need');
    const m = parseMemory(text).memory!;
    expect(m.extra).toEqual({ reviewed_by: 'alice', z_extra: 3 });
    expect(renderMemory(m)).toBe(text);
  });
});

describe('parseMemory on hostile input', () => {
  const head = '---\nid: x-aaaaaa\ntype: context\nsummary: hostile\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n';

  it('answers a YAML alias bomb with a diagnostic, not a hang or a throw', () => {
    let bomb = 'a: &a [x, x, x, x, x, x, x, x, x]\n';
    let prev = 'a';
    for (const l of 'bcdefghijklmnop') {
      bomb += `${l}: &${l} [${Array(9).fill(`*${prev}`).join(', ')}]\n`;
      prev = l;
    }
    const started = Date.now();
    const { memory, diagnostics } = parseMemory(`${head}${bomb}---\nbody\n`, { file: 'x.md' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(memory).toBeUndefined();
    expect(diagnostics[0]).toMatchObject({ file: 'x.md', severity: 'error', reason: expect.stringContaining('alias') });
  });

  it('answers nesting deep enough to overflow the stack with a diagnostic', () => {
    const { memory, diagnostics } = parseMemory(`${head}x: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n---\nbody\n`, { file: 'x.md' });
    expect(memory).toBeUndefined();
    expect(diagnostics[0]?.severity).toBe('error');
  });

  it('keeps __proto__ and constructor keys as plain data, at the top and in source, and writes them back', () => {
    const text = `${head}__proto__:\n  polluted: true\nconstructor: x\nsource:\n  kind: manual\n  __proto__: {y: 1}\n---\nbody\n`;
    const { memory } = parseMemory(text, { expectedId: 'x-aaaaaa' });
    expect(memory).toBeDefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(memory!.extra)).toBe(Object.prototype);
    expect(Object.keys(memory!.extra)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(memory!.source)).toBe(Object.prototype);
    const again = renderMemory(memory!);
    expect(again).toContain('__proto__:\n  polluted: true\nconstructor: x\n');
    expect(parseMemory(again).memory).toEqual(memory);
  });
});

describe('renderMemory', () => {
  it('reproduces the DESIGN example byte for byte', () => {
    expect(renderMemory(parseMemory(EXAMPLE).memory!)).toBe(EXAMPLE);
  });

  it('quotes values YAML would read as another type', () => {
    const m = parseMemory(EXAMPLE).memory!;
    const text = renderMemory({ ...m, summary: 'yes', source: { ...m.source, commit: '1234567', session: '1e5' } });
    const back = parseMemory(text).memory!;
    expect(back.summary).toBe('yes');
    expect(back.source.commit).toBe('1234567');
    expect(back.source.session).toBe('1e5');
  });

  it('parse(render(m)) equals m (property)', () => {
    fc.assert(
      fc.property(arbitraryMemory, (m) => {
        const { memory, diagnostics } = parseMemory(renderMemory(m));
        expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(memory).toEqual(m);
      }),
      { numRuns: 300 },
    );
  });

  it('rendering twice is byte-identical, and a re-render of a parsed file changes nothing (property)', () => {
    fc.assert(
      fc.property(arbitraryMemory, (m) => {
        const once = renderMemory(m);
        expect(renderMemory(m)).toBe(once);
        expect(renderMemory(parseMemory(once).memory!)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

describe('source.from (provenance of imported memories)', () => {
  const head = ['---', 'id: deploys-a1b2c3', 'type: context', 'summary: Deploys', 'scope: project', 'priority: 5', 'confidence: 1', 'pinned: false', 'status: active', 'tags: []', 'created: 2026-11-01T10:00:00Z', 'updated: 2026-11-01T10:00:00Z', 'source:'];
  it('is read and written after files, and round-trips', () => {
    const text = [...head, '  kind: import', '  layer: manual', '  files: [src/db.ts]', '  from: claude:~/.claude/projects/-x/memory/MEMORY.md:3', '---', 'Body.', ''].join('\n');
    const m = parseMemory(text).memory!;
    expect(m.source.from).toBe('claude:~/.claude/projects/-x/memory/MEMORY.md:3');
    expect(m.source.files).toEqual(['src/db.ts']);
    expect(renderMemory(m)).toBe(text);
  });
  it('an earlier release\'s import (the source file in files, beside format) is recognised as provenance, not as a code anchor', () => {
    const text = [...head, '  kind: import', '  layer: manual', '  files: [notes/CLAUDE.md:3]', '  format: claude-md', '---', 'Body.', ''].join('\n');
    const m = parseMemory(text).memory!;
    expect(m.source.files).toBeUndefined();
    expect(m.source.from).toBe('claude-md:notes/CLAUDE.md:3');
    expect(m.source.extra).toBeUndefined();
    expect(renderMemory(m)).toContain('  from: claude-md:notes/CLAUDE.md:3\n');
  });
  it('a manual memory with files and an unknown format key keeps both', () => {
    const text = [...head, '  kind: manual', '  files: [src/db.ts]', '  format: x', '---', 'Body.', ''].join('\n');
    const m = parseMemory(text).memory!;
    expect(m.source.files).toEqual(['src/db.ts']);
    expect(renderMemory(m)).toBe(text);
  });
});
