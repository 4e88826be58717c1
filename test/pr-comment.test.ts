import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PR_COMMENT_MARKER, renderPrComment, type ReviewDiff, type ReviewMemoryChange } from '../src/core/pr-comment.js';

const HEAD = '0123456789abcdef0123456789abcdef01234567';

function mem(id: string, over: Partial<ReviewMemoryChange> = {}): ReviewMemoryChange {
  return { id, type: 'decision', summary: `Summary of ${id}`, change: 'added', fields: [], file: `.cortex/memories/${id}.md`, provenance: { kind: 'extraction', confidence: 0.7, session: 'sess-1234567890abcdef', branch: 'feature/pool' }, ...over };
}

const goal: ReviewDiff = {
  range: 'main...feature',
  head: HEAD,
  memories: [
    mem('use-pgbouncer'),
    mem('pool-size-20', { type: 'gotcha', provenance: { kind: 'manual', confidence: 1 } }),
    mem('retry-on-deadlock', { type: 'pattern', provenance: { kind: 'extraction', confidence: 0.8, confirmed: 'person' } }),
    mem('acquire-timeout', { change: 'edited', fields: ['summary', 'body'], edits: [{ field: 'summary', before: 'Timeout is 5 s', after: 'Timeout is 30 s' }, { field: 'body', before: '…old text', after: '…new text' }] }),
    mem('old-pool-note', { type: 'gotcha', change: 'archived', fields: ['status'] }),
  ],
  edges: [{ id: 'use-pgbouncer--relates-to--pool-size-20', source: 'use-pgbouncer', relation: 'relates-to', target: 'pool-size-20', change: 'added', fields: [], file: '.cortex/edges/use-pgbouncer--relates-to--pool-size-20.md' }],
  flags: [],
  code: [{ path: 'src/db/pool.ts', symbol: 'Pool.acquire', kind: 'method', change: 'changed', memories: [{ id: 'acquire-timeout', summary: 'Timeout is 30 s', entry: 'src/db/pool.ts#Pool.acquire' }, { id: 'pool-size-20', summary: 'Summary of pool-size-20', entry: 'src/db/pool.ts' }] }],
};

describe('renderPrComment', () => {
  it('renders the goal scenario: five memories, the function, links, unconfirmed marks (snapshot)', () => {
    const text = renderPrComment(goal, { repo: 'acme/api' });
    expect(text.startsWith(PR_COMMENT_MARKER)).toBe(true);
    for (const id of ['use-pgbouncer', 'pool-size-20', 'retry-on-deadlock', 'acquire-timeout', 'old-pool-note']) expect(text).toContain(`\`${id}\``);
    expect(text).toContain(`https://github.com/acme/api/blob/${HEAD}/.cortex/memories/use-pgbouncer.md`);
    expect(text).toContain('This PR changes `Pool.acquire` in `src/db/pool.ts`, which 2 memories describe');
    expect(text).toContain('`Timeout is 5 s` → `Timeout is 30 s`');
    expect(text).toContain('**Unconfirmed:** 2');
    expect(text).toMatchSnapshot();
  });

  it('marks only automatic captures nobody confirmed that the PR adds or edits', () => {
    const text = renderPrComment(goal);
    const lines = text.split('\n').filter((l) => l.includes('unconfirmed**'));
    expect(lines.map((l) => /`([^`]+)`/.exec(l)![1]).sort()).toEqual(['acquire-timeout', 'use-pgbouncer']);
  });

  it('says flags with file and line, and an empty range plainly', () => {
    const text = renderPrComment({ ...goal, flags: [{ kind: 'secret', file: '.cortex/memories/x.md', line: 7, message: 'looks like a secret (aws)' }] });
    expect(text).toContain('**secret** `.cortex/memories/x.md:7`');
    expect(renderPrComment({ range: 'a...b', head: HEAD, memories: [], edges: [], flags: [] })).toContain('No memory changes in this pull request.');
  });

  it('collapses at 200 changed memories and stays under the limit, saying what it left out', () => {
    const many = Array.from({ length: 200 }, (_, i) => mem(`m-${String(i).padStart(3, '0')}`, { summary: 'x'.repeat(150) }));
    const text = renderPrComment({ ...goal, memories: many }, { repo: 'acme/api' });
    expect(text).toContain('<details><summary><b>decision (200: 200 added)</b></summary>');
    expect(text.length).toBeLessThanOrEqual(65_536);
    const small = renderPrComment({ ...goal, memories: many }, { maxChars: 5000 });
    expect(small.length).toBeLessThanOrEqual(5000);
    expect(small).toMatch(/… \d+ more lines left out/);
    expect((small.match(/<details>/g) ?? []).length).toBe((small.match(/<\/details>/g) ?? []).length);
  });

  it('never exceeds maxChars and never lets a summary break out of its line (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }), { maxLength: 60 }), fc.integer({ min: 800, max: 20_000 }), (summaries, maxChars) => {
        const memories = summaries.map((s, i) => mem(`m${i}`, { summary: s }));
        const text = renderPrComment({ ...goal, memories }, { maxChars });
        expect(text.length).toBeLessThanOrEqual(maxChars);
        expect(text.split('\n').filter((l) => l.startsWith('<details>')).length).toBe(text.split('\n').filter((l) => l === '</details>').length);
      }),
      { numRuns: 100 },
    );
  });
});
