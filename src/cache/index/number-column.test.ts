import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenFile } from '../../store/safe-read.js';
import { NumberColumn, WHOLE_AFTER } from './number-column.js';

const dir = mkdtempSync(join(tmpdir(), 'cortex-number-column-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** `values` written to a file after `pad` bytes of something else, opened as a column. */
function inFile(kind: 'u32' | 'f64', values: number[], pad: number, fill: number) {
  const array = kind === 'u32' ? Uint32Array.from(values) : Float64Array.from(values);
  const path = join(dir, `c${files++}.bin`);
  writeFileSync(path, Buffer.concat([Buffer.alloc(pad, 0xab), Buffer.from(array.buffer), Buffer.alloc(16, 0xcd)]));
  return NumberColumn.file(kind, { file: new OpenFile(openSync(path, 'r')), position: pad, count: values.length }, fill);
}

type Op = { get: number } | { set: number; value: number } | { whole: number } | { copy: number } | { run: number; count: number };

describe('NumberColumn', () => {
  it('reads, sets, copies and grows as an array grown with its fill would, in a file or in memory (property)', () => {
    const op = (n: number, kind: 'u32' | 'f64'): fc.Arbitrary<Op> =>
      fc.oneof(
        { arbitrary: fc.record({ get: fc.nat(n + 40) }), weight: 6 },
        { arbitrary: fc.record({ set: fc.nat(n + 40), value: kind === 'u32' ? fc.nat(0xffffffff) : fc.double({ noNaN: true }) }), weight: 3 },
        { arbitrary: fc.record({ whole: fc.nat(n + 60) }), weight: 1 },
        { arbitrary: fc.record({ copy: fc.nat(n + 60) }), weight: 1 },
        { arbitrary: fc.record({ run: fc.nat(n + 40), count: fc.nat(8) }), weight: 2 },
      );
    const caseOf = (kind: 'u32' | 'f64') =>
      fc.array(kind === 'u32' ? fc.nat(0xffffffff) : fc.double({ noNaN: true }), { maxLength: 3000 }).chain((values) =>
        fc.record({ values: fc.constant(values), pad: fc.nat(9), ops: fc.array(op(values.length, kind), { maxLength: 120 }), fill: kind === 'u32' ? fc.constant(0) : fc.constantFrom(0, Number.NaN), file: fc.boolean() }),
      );
    for (const kind of ['u32', 'f64'] as const) {
      fc.assert(
        fc.property(caseOf(kind), ({ values, pad, ops, fill, file }) => {
          const oracle = new Map<number, number>(values.map((v, i) => [i, v]));
          const column = file ? inFile(kind, values, pad, fill) : NumberColumn.of(kind === 'u32' ? Uint32Array.from(values) : Float64Array.from(values), fill);
          const expected = (i: number) => oracle.get(i) ?? fill;
          for (const o of ops) {
            if ('get' in o) expect(column.get(o.get)).toEqual(expected(o.get));
            else if ('run' in o) {
              // A run of values in one read: what `get` gives each.
              const into: number[] = [];
              column.getRun(o.run, o.count, into);
              expect(into).toEqual(Array.from({ length: o.count }, (_, k) => expected(o.run + k)));
            } else if ('set' in o) {
              column.set(o.set, o.value);
              oracle.set(o.set, o.value);
            } else if ('copy' in o) {
              // Into memory that is not the column's, at an offset (a kernel's memory).
              const target = kind === 'u32' ? new Uint32Array(o.copy + 3).subarray(3) : new Float64Array(o.copy + 3).subarray(3);
              column.copyInto(target as never);
              for (let i = 0; i < o.copy; i++) expect(target[i]).toEqual(expected(i));
            } else {
              const whole = column.whole(o.whole);
              expect(whole.length).toBeGreaterThanOrEqual(o.whole);
              for (let i = 0; i < whole.length; i++) expect(whole[i]).toEqual(expected(i));
            }
          }
          const whole = column.whole();
          for (const [i, v] of oracle) expect(whole[i]).toEqual(v);
        }),
        { numRuns: 150 },
      );
    }
  });

  it('reads values by position until as many are asked for as the column has 2 kB, then the whole column once', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => i * 3);
    const column = inFile('u32', values, 4, 0);
    // 400,000 bytes: 195 reads one by one.
    for (let i = 0; i < 195; i++) expect(column.get(i * 500)).toBe(i * 1500);
    expect(column.inMemory).toBe(false);
    expect(column.get(7)).toBe(21);
    expect(column.inMemory).toBe(true);
    expect(Math.min(WHOLE_AFTER, (4 * values.length) >>> 11)).toBe(195);
  });

  it('keeps values set while in the file aside, and reads past its end as its fill', () => {
    const column = inFile('f64', [1.5, 2.5], 0, Number.NaN);
    column.set(5, 9);
    column.set(0, 7);
    expect([column.get(0), column.get(1), column.get(2), column.get(5), column.get(99)]).toEqual([7, 2.5, Number.NaN, 9, Number.NaN]);
    expect(column.inMemory).toBe(false);
    expect([...column.whole()]).toEqual([7, 2.5, Number.NaN, Number.NaN, Number.NaN, 9]);
    // A run read in one go from the file, with the values set meanwhile.
    const run = inFile('u32', Array.from({ length: 10_000 }, (_, i) => i), 0, 0);
    run.set(4, 40);
    const into: number[] = [];
    run.getRun(2, 6, into);
    expect(into).toEqual([2, 3, 40, 5, 6, 7]);
    expect(run.inMemory).toBe(false);
  });

  it('throws when the file is shorter than the column', () => {
    const path = join(dir, 'short.bin');
    writeFileSync(path, Buffer.from(Uint32Array.of(1, 2, 3).buffer));
    const column = NumberColumn.file('u32', { file: new OpenFile(openSync(path, 'r')), position: 0, count: 1000 }, 0);
    expect(column.get(2)).toBe(3);
    expect(() => column.get(500)).toThrow(RangeError);
    expect(() => column.whole()).toThrow(RangeError);
  });
});
