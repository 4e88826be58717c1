import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FAKES } from '../../test/helpers/secrets-corpus.js';
import fc from 'fast-check';
import { appendReview, listReview, pairId, queuedIds, removeReview, reviewQueuePath } from './review-queue.js';
import { redactionGateStamp } from './gate-stamp.js';

function cache(): { cacheDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-review-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return { cacheDir: join(dir, '.memory') };
}

const entry = (kind: string, id: string, extra: Record<string, unknown> = {}) => ({ kind, id, created: '2026-01-01T00:00:00Z', ...extra });

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** True when the queue's text starts with this gate's header (the last write was this module's). */
function written(text: string): boolean {
  try {
    return (JSON.parse(text.split('\n')[0]!) as { gate?: string }).gate === redactionGateStamp();
  } catch {
    return false;
  }
}

describe('review queue', () => {
  it('appends new ids only, lists by kind in order, and removes by id or predicate', async () => {
    const paths = cache();
    expect(listReview(paths)).toEqual([]);
    expect(await appendReview(paths, [entry('consolidate', 'c1', { a: 'x', b: 'y', score: 0.6 }), entry('candidate', 'k1', { text: 'maybe' })])).toBe(2);
    expect(await appendReview(paths, [entry('consolidate', 'c1'), entry('candidate', 'k2')])).toBe(1);
    expect(listReview(paths).map((e) => e.id)).toEqual(['c1', 'k1', 'k2']);
    expect(listReview(paths, { kind: 'candidate' }).map((e) => e.id)).toEqual(['k1', 'k2']);
    expect(listReview(paths)[0]).toEqual(entry('consolidate', 'c1', { a: 'x', b: 'y', score: 0.6, n: 1 }));
    expect(await removeReview(paths, ['k1', 'nope'])).toBe(1);
    expect(await removeReview(paths, (e) => e.kind === 'consolidate')).toBe(1);
    expect(listReview(paths).map((e) => e.id)).toEqual(['k2']);
  });

  it('skips torn and foreign lines, and drops them at the next write', async () => {
    const paths = cache();
    mkdirSync(paths.cacheDir, { recursive: true });
    writeFileSync(reviewQueuePath(paths), `${JSON.stringify(entry('candidate', 'ok'))}\n[1,2]\n{"kind":"x"}\n{"kind":"candidate","id":"torn","cre`);
    expect(listReview(paths).map((e) => e.id)).toEqual(['ok']);
    await appendReview(paths, [entry('candidate', 'new')]);
    expect(readFileSync(reviewQueuePath(paths), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([undefined, 'ok', 'new']);
  });

  it('numbers entries once, when queued: removing one never renumbers the others, and numbers are not reused', async () => {
    const paths = cache();
    await appendReview(paths, [entry('candidate', 'a'), entry('candidate', 'b'), entry('candidate', 'c')]);
    expect(listReview(paths).map((e) => [e.id, e.n])).toEqual([['a', 1], ['b', 2], ['c', 3]]);
    await removeReview(paths, ['a']);
    expect(listReview(paths).map((e) => [e.id, e.n])).toEqual([['b', 2], ['c', 3]]);
    await removeReview(paths, ['b', 'c']);
    await appendReview(paths, [entry('candidate', 'd')]);
    expect(listReview(paths).map((e) => [e.id, e.n])).toEqual([['d', 4]]);
  });

  it('numbers entries queued before numbers existed, the same way on every read, and keeps those numbers', async () => {
    const paths = cache();
    mkdirSync(paths.cacheDir, { recursive: true });
    writeFileSync(reviewQueuePath(paths), `${JSON.stringify(entry('candidate', 'old1'))}\n${JSON.stringify(entry('candidate', 'old2'))}\n`);
    expect(listReview(paths).map((e) => e.n)).toEqual([1, 2]);
    expect(listReview(paths).map((e) => e.n)).toEqual([1, 2]);
    await appendReview(paths, [entry('candidate', 'new')]);
    expect(listReview(paths).map((e) => [e.id, e.n])).toEqual([['old1', 1], ['old2', 2], ['new', 3]]);
  });

  it('scans a queue another gate wrote whole at the next write, and stamps what it writes', async () => {
    const paths = cache();
    mkdirSync(paths.cacheDir, { recursive: true });
    const [, wrap, secret] = FAKES[0]!;
    // Written by an older Cortex (another stamp) and by one before stamps: neither is trusted.
    for (const header of [{ nextNumber: 2, gate: 'an-older-gate' }, { nextNumber: 2 }]) {
      writeFileSync(reviewQueuePath(paths), `${JSON.stringify(header)}\n${JSON.stringify(entry('candidate', 'old', { n: 1, text: wrap(secret) }))}\n`);
      await appendReview(paths, [entry('candidate', 'new', { text: 'the retry is deliberate' })]);
      const written = readFileSync(reviewQueuePath(paths), 'utf8');
      expect(written).not.toContain(secret);
      expect(JSON.parse(written.split('\n')[0]!)).toEqual({ nextNumber: 3, gate: redactionGateStamp() });
      await removeReview(paths, ['new']);
    }
    // A new entry is scanned whatever the stamp.
    await appendReview(paths, [entry('candidate', 'third', { text: wrap(secret) })]);
    expect(readFileSync(reviewQueuePath(paths), 'utf8')).not.toContain(secret);
  });

  it('writes the same file whether an append keeps the lines as they are or writes every entry anew', async () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('append' as const), ids: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 3 }), kind: fc.constantFrom('candidate', 'rejected', 'consolidate') }),
      fc.record({ op: fc.constant('remove' as const), ids: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 2 }) }),
      // What a person or another program may leave: a torn line, a line with spaces, a duplicate.
      fc.record({ op: fc.constant('damage' as const), line: fc.constantFrom('{"kind":"candidate","id":"torn","cre', '{ "kind" : "rejected", "id": "spaced", "created": "2026-01-01T00:00:00Z" }', '{"kind":"candidate","id":"a","created":"2026-01-01T00:00:00Z"}') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const paths = cache();
        mkdirSync(paths.cacheDir, { recursive: true });
        for (const o of ops) {
          const before = readFileSafe(reviewQueuePath(paths));
          if (o.op === 'append') await appendReview(paths, o.ids.map((id) => entry(o.kind, id, { text: `about ${id}` })));
          else if (o.op === 'remove') await removeReview(paths, o.ids);
          else writeFileSync(reviewQueuePath(paths), `${readFileSafe(reviewQueuePath(paths))}${o.line}\n`);
          // The ids of one kind, read line by line, are those the whole queue lists.
          for (const kind of ['candidate', 'rejected', 'consolidate']) expect(queuedIds(paths, kind)).toEqual(new Set(listReview(paths, { kind }).map((e) => e.id)));
          // After a write (by this gate), the file is exactly its header and every entry serialised.
          const text = readFileSafe(reviewQueuePath(paths));
          if (o.op !== 'damage' && text !== before) {
            expect(written(text)).toBe(true);
            const next = (JSON.parse(text.split('\n')[0]!) as { nextNumber: number }).nextNumber;
            const canonical = [JSON.stringify({ nextNumber: next, gate: redactionGateStamp() }), ...listReview(paths).map((e) => JSON.stringify(e))].map((l) => `${l}\n`).join('');
            expect(text).toBe(canonical);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('names a pair the same whichever memory comes first', () => {
    expect(pairId('consolidate', 'b', 'a')).toBe(pairId('consolidate', 'a', 'b'));
    expect(pairId('consolidate', 'a', 'b')).not.toBe(pairId('rejected', 'a', 'b'));
  });
});
