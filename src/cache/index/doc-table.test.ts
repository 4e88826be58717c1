import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fingerprintText } from '../../core/fingerprint.js';
import { buildSessionOrder } from '../../core/neighbours.js';
import { naiveAround } from '../../../test/helpers/neighbours-oracle.js';
import { memoryFingerprint } from '../../services/graph-view.js';
import { BytesRecords, DocTable, isDocJournal, type DocJournal, type IndexedDoc, type NewRecords, type RecordLog, type SavedDocs } from './doc-table.js';
import { WHOLE_AFTER, encodeDocs, openDocs } from './docs-file.js';

/** Writes a doc table's file to a temporary directory; returns its path. */
function writeDocs(saved: SavedDocs, bytes: Uint8Array = encodeDocs(saved)): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-docs-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'index-docs-0.v8');
  writeFileSync(path, bytes);
  return path;
}

function doc(id: string, summary: string, links?: string[], session?: string, minute = 0): IndexedDoc {
  return {
    id, type: 'decision', summary, status: 'active', scope: 'project', tags: ['db'], priority: 5, confidence: 1, pinned: false,
    created: `2026-01-01T00:0${minute}:00Z`, updated: '2026-01-02T00:00:00Z', contentKey: `k-${id}-${summary}`, bodyLength: 3, preview: 'é ✓ body',
    file: `.cortex/memories/${id}.md`, ...(links ? { links } : {}), ...(session !== undefined ? { session } : {}),
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

/** The naive oracle of `sessionNeighbours`: the session's list (core's order), both ways, nearest first. */
function naiveNeighbours(docs: Iterable<IndexedDoc>, id: string, width: number): string[] {
  return naiveAround(buildSessionOrder([...docs]), id, width);
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
    summary: fc.string({ maxLength: 8 }),
    links: fc.option(fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
    session: fc.option(fc.constantFrom('s1', 's2', 's10', 'é'), { nil: undefined }),
    minute: fc.integer({ min: 0, max: 3 }),
    // A content key some memories share (duplicates: the first in row order is the one found).
    shared: fc.option(fc.constantFrom('k-x', 'k-y'), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g') }),
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
        // The live ids in row order: a new id is appended, a deleted one leaves (saves keep the order).
        let rowOrder: string[] = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            const d = { ...doc(o.id, o.summary, o.links, o.session, o.minute), ...(o.shared ? { contentKey: o.shared } : {}) };
            table.set(o.id, d);
            if (!model.has(o.id)) rowOrder.push(o.id);
            model.set(o.id, d);
          } else if (o.kind === 'delete') {
            rowOrder = rowOrder.filter((id) => id !== o.id);
            expect(table.delete(o.id)).toBe(model.delete(o.id));
          } else if (o.kind === 'save') {
            const { saved, records } = table.toSaved({ rewrite: o.rewrite });
            if (records) file = bytesOf(records);
            base = saved;
            // Read back from its file, by position, as the index does.
            table = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(file));
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
            expect(table.filterFacets(id)).toEqual({ type: d.type, status: d.status, scope: d.scope });
            // A row hint (a search's document number) is only a guess: right or wrong, the same answer.
            for (const hint of [0, 1, 2, 5, 99]) expect(table.get(id, hint)).toEqual(d);
            expect(table.facets(id)).toEqual({ id, type: d.type, status: d.status, scope: d.scope, contentKey: d.contentKey, ...(d.links ? { links: d.links } : {}) });
          }
          expect(new Set(table.keys())).toEqual(new Set(model.keys()));
          // Conversation neighbours: as core orders each session, through saves and journals.
          for (const id of model.keys()) {
            for (const width of [1, 2]) expect(table.sessionNeighbours(id, width)).toEqual(naiveNeighbours(model.values(), id, width));
          }
          expect(table.sessionNeighbours('missing', 2)).toEqual([]);
          expect(table.get('missing', 0)).toBeUndefined();
          for (const d of model.values()) expect(table.idWithContentKey(d.contentKey)).toBe(rowOrder.find((id) => model.get(id)!.contentKey === d.contentKey));
          expect(table.idWithContentKey('k-none')).toBeUndefined();
          expect(new Map(table.linked())).toEqual(new Map([...model].filter(([, d]) => d.links).map(([id, d]) => [id, d.links!])));
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

  it("gives a journal's ids their saved rows, so a replay finds none by binary search", () => {
    const table = new DocTable();
    for (const id of ['a', 'b', 'c']) table.set(id, doc(id, id));
    const { saved, records } = table.toSaved({ rewrite: true });
    const file = bytesOf(records);
    const loaded = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(file));
    loaded.set('c', doc('c', 'changed'));
    loaded.set('d', doc('d', 'new'));
    loaded.delete('a');
    loaded.delete('b');
    loaded.set('b', doc('b', 'again'));
    const journal = deserialize(serialize(loaded.journal())) as DocJournal;
    expect(isDocJournal(journal)).toBe(true);
    expect(journal.set.map((e) => [e.id, e.row])).toEqual([['c', 2], ['d', -1], ['b', 1]]);
    expect(journal.deleted.map((id, i) => [id, journal.deletedRows![i]])).toEqual([['a', 0], ['b', 1]]);
    const expected = new Map([['b', doc('b', 'again')], ['c', doc('c', 'changed')], ['d', doc('d', 'new')]]);
    // Replayed with the rows, and without them (a journal written before they were kept).
    const { deletedRows: _rows, ...bare } = journal;
    for (const j of [journal, { ...bare, set: journal.set.map(({ row: _row, ...e }) => e) }]) {
      const again = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(file));
      again.applyJournal(j);
      expect(new Map([...again.keys()].map((id) => [id, again.get(id)]))).toEqual(expected);
      expect(again.has('a')).toBe(false);
    }
    // Rows that cannot be the saved columns' (another table's journal) are not believed.
    expect(isDocJournal({ ...journal, deletedRows: [0] })).toBe(false);
    const odd = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(file));
    odd.applyJournal({ ...journal, set: journal.set.map((e) => ({ ...e, row: 99 })) });
    expect(new Map([...odd.keys()].map((id) => [id, odd.get(id)]))).toEqual(expected);
  });

  it('reads a memory\'s session neighbours next to its saved place, and by search in a file saved without the places', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ session: fc.constantFrom('s1', 's2', 's3', ''), minute: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(39), { maxLength: 6 }),
        (rows, changed) => {
          const table = new DocTable();
          const docs = rows.map((r, i) => doc(`m${String(i).padStart(2, '0')}`, 'x', undefined, r.session || undefined, r.minute));
          for (const d of docs) table.set(d.id, d);
          const { saved, records } = table.toSaved({ rewrite: true });
          expect(saved.sessionAt).toHaveLength(docs.length);
          const file = bytesOf(records);
          const { sessionAt: _places, ...before } = saved;
          for (const columns of [saved, before]) {
            const loaded = DocTable.open(openDocs(writeDocs(columns)), new BytesRecords(file));
            const model = new Map(docs.map((d) => [d.id, d]));
            // Some memories moved to another session or minute since the save (set again).
            for (const i of changed.filter((i) => i < docs.length)) {
              const d = doc(docs[i]!.id, 'y', undefined, ['s1', 's2', undefined][i % 3], (i * 7) % 6);
              loaded.set(d.id, d);
              model.set(d.id, d);
            }
            for (const id of model.keys()) {
              for (const width of [1, 2, 3]) expect(loaded.sessionNeighbours(id, width)).toEqual(naiveNeighbours(model.values(), id, width));
            }
          }
        },
      ),
    );
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

  it('reads its file by position, value by value and then whole, with any characters', () => {
    const table = new DocTable();
    const n = 3 * WHOLE_AFTER;
    const model = new Map<string, IndexedDoc>();
    for (let i = 0; i < n; i++) {
      const id = `m${String(i).padStart(5, '0')}-${i % 7 === 0 ? 'é✓' : 'x'}`;
      const d = doc(id, `summary ${i}`, i % 5 === 0 ? ['m00000-é✓'] : undefined, i % 3 === 0 ? undefined : `s${i % 11}`, i % 4);
      table.set(id, d);
      model.set(id, d);
    }
    const { saved, records } = table.toSaved({ rewrite: true });
    const opened = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(bytesOf(records)));
    for (const [id, d] of model) {
      expect(opened.get(id)).toEqual(d);
      expect(opened.facets(id)?.contentKey).toBe(d.contentKey);
    }
    expect(opened.sessionNeighbours('m00001-x', 2)).toEqual(naiveNeighbours(model.values(), 'm00001-x', 2));
    expect(opened.has('m99999-x')).toBe(false);
  });

  it('refuses a file that is not a doc table or does not hold its columns (the index is then rebuilt)', () => {
    const table = new DocTable();
    table.set('a', doc('a', 'x'));
    const { saved } = table.toSaved({ rewrite: true });
    const bytes = encodeDocs(saved);
    expect(() => openDocs(writeDocs(saved, bytes.subarray(0, bytes.length - 9)))).toThrow();
    expect(() => openDocs(writeDocs(saved, Buffer.from('not a doc table at all')))).toThrow();
    expect(() => openDocs(writeDocs(saved, serialize(saved)))).toThrow();
  });

  it('refuses records that do not line up with an opened file: a record when read, all of them before a save', () => {
    const table = new DocTable();
    for (const id of ['a', 'b', 'c']) table.set(id, doc(id, `summary of ${id}`));
    const { saved, records } = table.toSaved({ rewrite: true });
    const bytes = bytesOf(records);
    // The records file lost its last record: `a` still reads, `c` does not, nor does a save.
    const open = () => DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(bytes.subarray(0, bytes.length - 5)));
    const opened = open();
    expect(opened.get('a')).toEqual(doc('a', 'summary of a'));
    expect(() => opened.get('c')).toThrow(/do not line up/);
    expect(() => open().toSaved({ rewrite: true })).toThrow(/do not line up/);
    expect(() => open().toSaved()).toThrow(/do not line up/);
  });

  it('finds the first memory with a content key, in row order, through edits and deletions', () => {
    const table = new DocTable();
    const same = (id: string) => ({ ...doc(id, 'x'), contentKey: 'same' });
    for (const id of ['a', 'b', 'c']) table.set(id, same(id));
    const { saved, records } = table.toSaved({ rewrite: true });
    const opened = DocTable.open(openDocs(writeDocs(saved)), new BytesRecords(bytesOf(records)));
    expect(opened.idWithContentKey('same')).toBe('a');
    opened.delete('a');
    expect(opened.idWithContentKey('same')).toBe('b');
    opened.set('b', doc('b', 'y'));
    expect(opened.idWithContentKey('same')).toBe('c');
    opened.set('a', same('a'));
    expect(opened.idWithContentKey('same')).toBe('c');
    opened.set('b', same('b'));
    expect(opened.idWithContentKey('same')).toBe('b');
  });
});
