import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fingerprintText } from '../../core/fingerprint.js';
import { memoryFingerprint } from '../../services/graph-view.js';
import { DocTable, isDocJournal, type IndexedDoc, type NewRecords, type RecordLog } from './doc-table.js';

function doc(id: string, summary: string, links?: string[]): IndexedDoc {
  return {
    id, type: 'decision', summary, status: 'active', scope: 'project', tags: ['db'], priority: 5, confidence: 1, pinned: false,
    created: '2026-01-01T00:00:00Z', updated: '2026-01-02T00:00:00Z', contentKey: `k-${id}-${summary}`, bodyLength: 3, preview: 'é ✓ body',
    file: `.cortex/memories/${id}.md`, ...(links ? { links } : {}),
  };
}

/** A records file being written, in memory. */
class MemoryLog implements RecordLog {
  private bytes = Buffer.alloc(0);
  write(bytes: Uint8Array): void {
    this.bytes = Buffer.concat([this.bytes, bytes]);
  }
  read(start: number, end: number): Uint8Array {
    if (end > this.bytes.length) throw new RangeError('past the end');
    return this.bytes.subarray(start, end);
  }
  get size(): number {
    return this.bytes.length;
  }
}

/** The bytes of a new records file. */
function bytesOf(records: NewRecords | undefined): Buffer {
  if (records === undefined) throw new Error('no new records file');
  return 'log' in records ? Buffer.from(records.log.read(0, records.log.size)) : Buffer.concat([...records.blocks]);
}

const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), summary: fc.string({ maxLength: 8 }), links: fc.option(fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 2 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
  fc.record({ kind: fc.constant('save' as const), rewrite: fc.boolean() }),
  fc.record({ kind: fc.constant('journal' as const) }),
);

describe('DocTable', () => {
  it('behaves like a Map of records through sets, deletes and save/load round trips', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30, size: 'max' }), fc.boolean(), (ops, logged) => {
        let table = new DocTable();
        // A fresh build writes its records to a log from the first row.
        if (logged) table.logTo(new MemoryLog());
        // The records file as the index keeps it: replaced only when a save writes a new one.
        let file: Uint8Array = new Uint8Array(0);
        // The columns last saved: a journal is replayed onto them.
        let base = table.toSaved({ rewrite: true }).saved;
        const model = new Map<string, IndexedDoc>();
        for (const o of ops) {
          if (o.kind === 'set') {
            const d = doc(o.id, o.summary, o.links);
            table.set(o.id, d);
            model.set(o.id, d);
          } else if (o.kind === 'delete') {
            expect(table.delete(o.id)).toBe(model.delete(o.id));
          } else if (o.kind === 'save') {
            const { saved, records } = table.toSaved({ rewrite: o.rewrite });
            if (records) file = bytesOf(records);
            base = saved;
            table = DocTable.fromSaved(deserialize(serialize(saved)), file);
          } else if (o.kind === 'journal') {
            // A save that keeps the columns: what changed since them, replayed after a load.
            const journal = deserialize(serialize(table.journal()));
            expect(isDocJournal(journal)).toBe(true);
            table = DocTable.fromSaved(deserialize(serialize(base)), file);
            table.applyJournal(journal);
          }
          expect(table.size).toBe(model.size);
          for (const [id, d] of model) {
            expect(table.get(id)).toEqual(d);
            expect(table.typeOf(id)).toBe(d.type);
            expect(table.facets(id)).toEqual({ id, type: d.type, status: d.status, scope: d.scope, contentKey: d.contentKey, ...(d.links ? { links: d.links } : {}) });
          }
          expect(new Set(table.keys())).toEqual(new Set(model.keys()));
          // The graph cache's key, kept as rows change, is the one computed from the records.
          const print = table.fingerprint();
          expect(fingerprintText(print)).toBe(
            memoryFingerprint([...model.values()].map((d) => ({ scope: d.scope, id: d.id, links: d.links }))),
          );
        }
      }),
    );
  });

  it('keeps a new file stat of a loaded memory through a journal', () => {
    const table = new DocTable();
    table.set('a', doc('a', 'x'));
    table.setStat('a', 10, 1000);
    const { saved } = table.toSaved({ rewrite: true });
    const records = bytesOf(table.toSaved({ rewrite: true }).records);
    const loaded = DocTable.fromSaved(deserialize(serialize(saved)), records);
    expect(loaded.statOf('a')).toEqual({ size: 10, mtimeMs: 1000 });
    loaded.setStat('a', 10, 2000);
    const again = DocTable.fromSaved(deserialize(serialize(saved)), records);
    again.applyJournal(deserialize(serialize(loaded.journal())));
    expect(again.statOf('a')).toEqual({ size: 10, mtimeMs: 2000 });
    expect(again.get('a')).toEqual(doc('a', 'x'));
  });

  it('refuses saved columns that do not line up (the index is then rebuilt)', () => {
    const table = new DocTable();
    table.set('a', doc('a', 'x'));
    const { saved } = table.toSaved({ rewrite: true });
    const records = bytesOf(table.toSaved({ rewrite: true }).records);
    expect(DocTable.fromSaved(saved, records).get('a')).toEqual(doc('a', 'x'));
    expect(() => DocTable.fromSaved(saved, records.subarray(1))).toThrow();
    expect(() => DocTable.fromSaved({ ...saved, types: [] }, records)).toThrow();
    expect(() => DocTable.fromSaved([], records)).toThrow();
    // Kept with the table (no new records file): the records file is not needed to read it.
    const kept = table.toSaved();
    expect(kept.records).toBeUndefined();
    expect(DocTable.fromSaved(kept.saved, new Uint8Array(0)).get('a')).toEqual(doc('a', 'x'));
  });

  it('takes its log as the records file when it holds exactly the live records, and copies them otherwise', () => {
    const table = new DocTable();
    const log = new MemoryLog();
    table.logTo(log);
    table.set('b', doc('b', 'x'));
    table.set('a', doc('a', 'y', ['b']));
    expect(log.size).toBeGreaterThan(0);
    expect(table.get('a')).toEqual(doc('a', 'y', ['b']));
    const whole = table.toSaved({ rewrite: true });
    expect(whole.records && 'log' in whole.records && whole.records.log).toBe(log);
    expect(DocTable.fromSaved(whole.saved, bytesOf(whole.records)).get('b')).toEqual(doc('b', 'x'));
    // A record replaced (two files with one id) or deleted: the live ones are copied.
    table.set('b', doc('b', 'z'));
    table.delete('a');
    const copied = table.toSaved({ rewrite: true });
    expect(copied.records && 'blocks' in copied.records).toBe(true);
    const loaded = DocTable.fromSaved(copied.saved, bytesOf(copied.records));
    expect([...loaded.keys()]).toEqual(['b']);
    expect(loaded.get('b')).toEqual(doc('b', 'z'));
    expect(() => new DocTable().logTo(log) ?? table.logTo(log)).toThrow(/first row/);
  });
});
