import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { FileTable, type FileEntry } from './file-table.js';

const NAMES = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md'];
const problem = { file: 'x', reason: 'broken', ruleId: 'yaml', severity: 'error' as const };

const entry: fc.Arbitrary<FileEntry> = fc
  .record({ size: fc.nat(5000), mtimeMs: fc.double({ min: 0, max: 2e12, noNaN: true }), hash: fc.constantFrom('', 'h1', 'h2'), id: fc.option(fc.constantFrom('a', 'x'), { nil: undefined }), broken: fc.boolean() })
  .map(({ broken, id, ...e }) => ({ ...e, ...(id !== undefined ? { id } : {}), ...(broken ? { diagnostics: [problem] } : {}) }));

const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), name: fc.constantFrom(...NAMES), entry }),
  fc.record({ kind: fc.constant('touch' as const), name: fc.constantFrom(...NAMES), size: fc.nat(5000), mtimeMs: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom(...NAMES) }),
  // A directory listing in some order: the table is saved in that order afterwards.
  fc.record({ kind: fc.constant('list' as const), order: fc.shuffledSubarray(NAMES) }),
  fc.record({ kind: fc.constant('save' as const) }),
);

describe('FileTable', () => {
  it('counts the misses of one listing, not of its life: the same listing again and again misses as often each time', () => {
    const table = new FileTable();
    const names = Array.from({ length: 50 }, (_, i) => `m${i}.md`);
    for (const name of names) table.set(name, { size: 1, mtimeMs: 1, hash: 'h' }, -1);
    // A listing where one file moved to the front: the guesses fail around it, a few misses.
    const order = [names[30]!, ...names.filter((n) => n !== names[30])];
    const perListing: number[] = [];
    for (let run = 0; run < 100; run++) {
      table.startListing();
      for (const name of order) expect(table.rowOf(name)).toBeGreaterThanOrEqual(0);
      perListing.push(table.misses);
    }
    expect(new Set(perListing)).toEqual(new Set([perListing[0]]));
    expect(perListing[0]).toBeLessThanOrEqual(3);
  });

  it('behaves like a Map of file entries through sets, touches, deletes, listings and save/load round trips', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40, size: 'max' }), (ops) => {
        let table = new FileTable();
        const model = new Map<string, FileEntry>();
        let lastListing: string[] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            table.set(o.name, o.entry);
            model.set(o.name, o.entry);
          } else if (o.kind === 'touch') {
            const row = table.rowOf(o.name);
            expect(row >= 0).toBe(model.has(o.name));
            if (row >= 0) {
              table.touch(row, o.size, o.mtimeMs);
              model.set(o.name, { ...model.get(o.name)!, size: o.size, mtimeMs: o.mtimeMs });
            }
          } else if (o.kind === 'delete') {
            expect(table.delete(o.name)).toBe(model.delete(o.name));
            lastListing = lastListing.filter((n) => n !== o.name);
          } else if (o.kind === 'list') {
            const rows = o.order.map((n) => table.rowOf(n)).filter((r) => r >= 0);
            table.listed(rows);
            lastListing = o.order.filter((n) => model.has(n));
          } else {
            table = FileTable.fromSaved(deserialize(serialize(table.toSaved())));
            // Saved in the order of the last listing, the others after.
            expect([...table.keys()].slice(0, lastListing.length)).toEqual(lastListing);
          }
          expect(table.size).toBe(model.size);
          for (const name of NAMES) {
            expect(table.get(name)).toEqual(model.get(name));
            const row = table.rowOf(name);
            expect(row >= 0).toBe(model.has(name));
            if (row >= 0) {
              expect(table.nameAt(row)).toBe(name);
              expect(table.sizeAt(row)).toBe(model.get(name)!.size);
              expect(table.mtimeAt(row)).toBe(model.get(name)!.mtimeMs);
              expect(table.diagnosticsAt(row)).toEqual(model.get(name)!.diagnostics);
            }
          }
          expect(new Set(table.keys())).toEqual(new Set(model.keys()));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses saved columns that do not line up (the index is then rebuilt)', () => {
    const table = new FileTable();
    table.set('a.md', { size: 1, mtimeMs: 2, hash: 'h', id: 'a' });
    const saved = table.toSaved();
    expect(() => FileTable.fromSaved({ ...saved, hashes: [] })).toThrow();
    expect(() => FileTable.fromSaved({ ...saved, sizes: [1] })).toThrow();
    expect(() => FileTable.fromSaved(undefined)).toThrow();
    expect(FileTable.fromSaved(saved).get('a.md')).toEqual({ size: 1, mtimeMs: 2, hash: 'h', id: 'a' });
  });
});
