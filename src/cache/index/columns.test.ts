import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { CodeColumn, StringColumn, isSavedCodes, isSavedStrings } from './columns.js';

const value = fc.constantFrom('', 'a', 'decision', 'é✓', 'a.md', 'ab');

describe('StringColumn and CodeColumn', () => {
  it('hold what an array holds through sets, appends and save/load round trips', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), row: fc.nat(12), value }),
      fc.record({ kind: fc.constant('save' as const), keep: fc.array(fc.nat(12), { maxLength: 12, size: 'max' }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30, size: 'max' }), (ops) => {
        let strings = new StringColumn();
        let codes = new CodeColumn();
        let model: string[] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            const row = Math.min(o.row, model.length);
            strings.set(row, o.value);
            codes.set(row, o.value);
            model[row] = o.value;
          } else {
            const rows = o.keep.filter((r) => r < model.length);
            const savedStrings = deserialize(serialize(strings.saveRows(rows))) as unknown;
            const savedCodes = deserialize(serialize(codes.saveRows(rows))) as unknown;
            expect(isSavedStrings(savedStrings, rows.length)).toBe(true);
            expect(isSavedCodes(savedCodes, rows.length)).toBe(true);
            if (!isSavedStrings(savedStrings, rows.length) || !isSavedCodes(savedCodes, rows.length)) return;
            strings = StringColumn.fromSaved(savedStrings);
            codes = CodeColumn.fromSaved(savedCodes);
            model = rows.map((r) => model[r]!);
          }
          expect(strings.length).toBe(model.length);
          expect(codes.length).toBe(model.length);
          model.forEach((v, row) => {
            expect(strings.at(row)).toBe(v);
            expect(codes.at(row)).toBe(v);
            for (const other of ['', 'a', 'decision', 'é✓', 'a.md', 'ab']) expect(strings.equals(row, other)).toBe(v === other);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hold what an array holds past blocks of appended rows, through sets and saves of any rows', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '✓'), maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 0, maxLength: 900, size: 'max' }),
        fc.array(fc.tuple(fc.nat(), word), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.integer({ min: 0, max: 900 }),
        (initial, sets, keep, loadedCount) => {
          // Some rows loaded from a saved column, the rest appended.
          const loaded = initial.slice(0, loadedCount);
          const column = StringColumn.fromSaved(StringColumn.save(loaded));
          const model = [...loaded];
          for (const v of initial.slice(loadedCount)) {
            column.set(model.length, v);
            model.push(v);
          }
          for (const [at, v] of sets) {
            const row = model.length === 0 ? 0 : at % (model.length + 1);
            column.set(row, v);
            model[row] = v;
          }
          expect(column.length).toBe(model.length);
          model.forEach((v, row) => {
            expect(column.at(row)).toBe(v);
            expect(column.equals(row, v)).toBe(true);
            expect(column.equals(row, `${v}x`)).toBe(false);
          });
          const rows = model.length === 0 ? [] : [...keep.map((k) => k % model.length), ...model.keys()];
          const again = StringColumn.fromSaved(column.saveRows(rows));
          expect(Array.from({ length: rows.length }, (_, i) => again.at(i))).toEqual(rows.map((r) => model[r]));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuse saved forms that do not line up', () => {
    const saved = StringColumn.save(['ab', 'c']);
    expect(isSavedStrings(saved, 2)).toBe(true);
    expect(isSavedStrings(saved, 3)).toBe(false);
    expect(isSavedStrings({ ...saved, text: 'abcd' }, 2)).toBe(false);
    expect(isSavedStrings({ text: 'abc', ends: Uint32Array.of(2, 1) }, 2)).toBe(false);
    // Damage past these checks gives wrong values, never a crash.
    expect(CodeColumn.fromSaved({ values: ['x'], codes: Uint32Array.of(1) }).at(0)).toBe('');
    expect(StringColumn.fromSaved({ text: 'abc', ends: Uint32Array.of(2, 1, 3) }).at(1)).toBe('');
    expect(isSavedCodes({ values: ['x'], codes: [0] }, 1)).toBe(false);
  });

  it('save runs of loaded rows as slices, in any order, around changed rows', () => {
    const column = StringColumn.fromSaved(StringColumn.save(['a', 'bb', 'ccc', 'dddd', 'eeeee']));
    column.set(3, 'X');
    column.set(5, 'new');
    const saved = column.saveRows([4, 0, 1, 3, 2, 2, 5, 1, 2]);
    expect(isSavedStrings(saved, 9)).toBe(true);
    const again = StringColumn.fromSaved(saved);
    expect(Array.from({ length: 9 }, (_, i) => again.at(i))).toEqual(['eeeee', 'a', 'bb', 'X', 'ccc', 'ccc', 'new', 'bb', 'ccc']);
  });

  it('refuse to set a row past the end', () => {
    expect(() => new StringColumn().set(1, 'x')).toThrow(RangeError);
    expect(() => new CodeColumn().set(1, 'x')).toThrow(RangeError);
  });
});
