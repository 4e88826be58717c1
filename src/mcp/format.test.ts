import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InternalError, MemoryNotFoundError, UsageError } from '../errors.js';
import { redactDeep } from '../core/redact.js';
import { errorResult, formatRecall, formatTraverse, gateStructured, PREVIEW_CHARS, roundScore, shortPreview, textResult } from './format.js';

describe('shortPreview', () => {
  it('keeps short text whole, on one line', () => {
    expect(shortPreview('We need a store\nthat works  offline.')).toBe('We need a store that works offline.');
  });

  it('cuts long text at a word boundary with an ellipsis', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    expect(shortPreview(text, 20)).toBe('alpha beta gamma…');
  });

  it('is never longer than the limit and never spans lines', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 10, max: 200 }), (text, max) => {
        const p = shortPreview(text, max);
        expect(p.length).toBeLessThanOrEqual(max);
        expect(p).not.toMatch(/\n/);
      }),
    );
    expect(shortPreview('x'.repeat(500)).length).toBe(PREVIEW_CHARS);
  });
});

describe('roundScore', () => {
  it('keeps two decimals', () => {
    expect(roundScore(1.23456)).toBe(1.23);
    expect(roundScore(0.005)).toBe(0.01);
  });
});

describe('gateStructured', () => {
  // Built at run time, so no scanner flags this file: a GitHub token's shape.
  const token = `ghp_${'x7Kq2mZ9'.repeat(4)}Ab3d`;
  const word = fc.constantFrom('id', 'summary', 'relates_to', 'a-k3f9qa', 'Chose SQLite', token, `key ${token}`, `TOKEN=${token}`, 'x');

  it('is redactDeep, answer after answer: a clean string is remembered, one with a secret redacted every time (property)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, word, fc.integer(), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(word, tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const expected = redactDeep(value).value;
        expect(gateStructured(value)).toEqual(expected);
        expect(gateStructured(value)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
    expect(JSON.stringify(gateStructured({ [token]: [token, { note: `key ${token}` }] }))).not.toContain(token);
  });
});

describe('textResult', () => {
  it('carries structured content only when given', () => {
    expect(textResult('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(textResult('hi', { a: 1 })).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
  });
});

describe('errorResult', () => {
  it('gives a CortexError its one-line message and hint, as a tool error, without logging', () => {
    const logged: string[] = [];
    const r = errorResult(new UsageError('The query is empty.', { hint: 'Example: cortex recall "database choice"' }), (l) => logged.push(l));
    expect(r).toEqual({ content: [{ type: 'text', text: 'The query is empty.\nhint: Example: cortex recall "database choice"' }], isError: true });
    expect(logged).toEqual([]);
  });

  it('points an unknown id at memory_recall rather than the CLI', () => {
    const r = errorResult(new MemoryNotFoundError('abc'));
    const text = (r.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe('No memory with id "abc".');
    expect(text).toMatch(/memory_recall/);
  });

  it('reports anything else as a bug and logs its stack', () => {
    const logged: string[] = [];
    const r = errorResult(new TypeError('x is undefined'), (l) => logged.push(l));
    const text = (r.content[0] as { text: string }).text;
    expect(r.isError).toBe(true);
    expect(text.split('\n')[0]).toBe('Unexpected error: x is undefined');
    expect(text).toMatch(/bug in cortex/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/TypeError: x is undefined\n\s+at /);
    expect(errorResult(new InternalError('broken invariant')).isError).toBe(true);
    expect((errorResult('a string').content[0] as { text: string }).text).toMatch(/^Unexpected error: a string/);
  });
});

describe('formatRecall', () => {
  const hit = { id: 'chose-sqlite-k3f9qa', type: 'decision', summary: 'Chose SQLite', score: 1.234, preview: 'No daemon.', status: 'active', scope: 'project' };

  it('numbers the results with id, type, summary and score, preview indented', () => {
    expect(formatRecall('db', [hit])).toBe('1 memory for "db":\n1. chose-sqlite-k3f9qa [decision] Chose SQLite (score 1.23)\n   No daemon.');
  });

  it('marks archived and global memories, skips empty previews and adds the notice', () => {
    const text = formatRecall('db', [{ ...hit, status: 'archived', scope: 'global', preview: '' }, hit], 'keyword only: no model');
    expect(text.split('\n')).toEqual([
      '2 memories for "db":',
      '1. chose-sqlite-k3f9qa [decision] Chose SQLite (archived, global) (score 1.23)',
      '2. chose-sqlite-k3f9qa [decision] Chose SQLite (score 1.23)',
      '   No daemon.',
      'notice: keyword only: no model',
    ]);
  });

  it('names the branch a result was read from', () => {
    expect(formatRecall('db', [{ ...hit, ref: { branch: 'feat/x', merged: false } }]).split('\n')[1]).toBe(
      '1. chose-sqlite-k3f9qa [decision] Chose SQLite (on feat/x, not merged) (score 1.23)',
    );
  });

  it('says so when nothing matches', () => {
    expect(formatRecall('zebra', [])).toBe('No memories match "zebra".');
    expect(formatRecall('zebra', [], undefined, 2)).toBe('Nothing relevant to "zebra": 2 matches below the relevance floor (no_floor shows them).');
    expect(formatRecall('db', [hit], undefined, 1).split('\n').at(-1)).toBe('(1 match below the relevance floor left out; no_floor shows it)');
  });

  it('lists linked memories and code under a result', () => {
    const text = formatRecall('db', [{ ...hit, related: ['← refines wal-p2x81d'], code: [{ id: 'db-code-aaaaaa', summary: 'src/db.ts' }] }]);
    expect(text.split('\n').slice(3)).toEqual(['   linked: ← refines wal-p2x81d', '   code: db-code-aaaaaa (src/db.ts)']);
  });
});

describe('formatTraverse', () => {
  const start = { id: 'sqlite-k3f9qa', type: 'decision', summary: 'Chose SQLite' };
  const node = (id: string, depth: number, direction: 'out' | 'in', from = 'sqlite-k3f9qa') => ({
    id,
    type: 'gotcha',
    summary: id.toUpperCase(),
    status: 'active',
    depth,
    relation: 'refines',
    direction,
    from,
  });

  it('groups by depth, with arrows and the node each was reached from below depth 1', () => {
    const text = formatTraverse(start, [node('a', 1, 'in'), node('b', 1, 'out'), { ...node('c', 2, 'in', 'a'), status: 'archived' }], 3);
    expect(text.split('\n')).toEqual([
      'sqlite-k3f9qa [decision] Chose SQLite',
      'depth 1:',
      '  ← refines a [gotcha] A',
      '  → refines b [gotcha] B',
      'depth 2:',
      '  ← refines c [gotcha] C (archived, via a)',
    ]);
  });

  it('says how many were left out, and when nothing is linked', () => {
    expect(formatTraverse(start, [node('a', 1, 'in')], 5).split('\n').at(-1)).toMatch(/^… and 4 more/);
    expect(formatTraverse(start, [], 0)).toBe('sqlite-k3f9qa [decision] Chose SQLite\nNo memory is linked to it.');
  });
});
