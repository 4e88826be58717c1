/**
 * The memories a keyword index knows, as saved in `.memory/index.v8`: each memory's record
 * ({@link IndexedDoc}) is kept as its JSON text and parsed only when something reads it,
 * beside the few fields that every query and graph walk needs (type, status, scope,
 * content key, topic, `[[links]]`), which are kept unpacked. A query over 10,000 memories
 * then parses the records of the ten it returns, not all of them.
 */
import type { MemoryStatus, MemoryType, Scope } from '../core/memory.js';

/** What the index keeps of each memory: enough to list and filter without reading files. */
export interface IndexedDoc {
  id: string;
  type: MemoryType;
  summary: string;
  status: MemoryStatus;
  scope: Scope;
  tags: string[];
  priority: number;
  confidence: number;
  pinned: boolean;
  topic?: string | undefined;
  created: string;
  updated: string;
  branch?: string | undefined;
  commit?: string | undefined;
  session?: string | undefined;
  files?: string[] | undefined;
  /** `[[id]]` links in the body. */
  links?: string[] | undefined;
  /** Hash of type, summary and body: equal content means a duplicate. */
  contentKey: string;
  /** Body length in characters. */
  bodyLength: number;
  /** First characters of the body, for previews. */
  preview: string;
  /** Path relative to the repository root (or absolute for the global tier). */
  file: string;
}

/** The fields of a memory that are kept unpacked. */
export type DocFacets = Pick<IndexedDoc, 'id' | 'type' | 'status' | 'scope' | 'contentKey' | 'topic' | 'links'>;

/** A memory as saved: its facets and its whole record as JSON. */
export interface SavedDoc extends DocFacets {
  json: string;
}

interface Slot extends DocFacets {
  /** The record as JSON; undefined for a record set since the table was loaded. */
  json: string | undefined;
  /** The parsed record, once read. */
  doc: IndexedDoc | undefined;
}

function facetsOf(doc: IndexedDoc): DocFacets {
  const facets: DocFacets = { id: doc.id, type: doc.type, status: doc.status, scope: doc.scope, contentKey: doc.contentKey };
  if (doc.topic !== undefined) facets.topic = doc.topic;
  if (doc.links !== undefined) facets.links = doc.links;
  return facets;
}

function isSavedDoc(value: unknown): value is SavedDoc {
  const v = value as SavedDoc;
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.json === 'string' && typeof v.type === 'string' && typeof v.status === 'string';
}

/**
 * A read-only Map of id → record whose records parse on first read, plus the unpacked facets.
 *
 * @example
 * const docs = DocTable.fromSaved(saved); // saved: SavedDoc[] from the index file
 * docs.facets('db-choice-ab12cd')?.status  // 'active', nothing parsed
 * docs.get('db-choice-ab12cd')?.summary    // parses this one record
 */
export class DocTable implements ReadonlyMap<string, IndexedDoc> {
  private readonly slots = new Map<string, Slot>();

  /** A table from saved records; throws when they are not records (the caller rebuilds). */
  static fromSaved(saved: unknown): DocTable {
    if (!Array.isArray(saved)) throw new TypeError('docs is not an array');
    const table = new DocTable();
    for (const s of saved) {
      if (!isSavedDoc(s)) throw new TypeError('not a saved doc');
      (s as Slot).doc = undefined;
      table.slots.set(s.id, s as Slot);
    }
    return table;
  }

  /** The records in saved form (each record's JSON is reused when it was not replaced). */
  toSaved(): SavedDoc[] {
    const out: SavedDoc[] = [];
    for (const slot of this.slots.values()) {
      const { doc, json, ...facets } = slot;
      out.push({ ...facets, json: json ?? JSON.stringify(doc) });
    }
    return out;
  }

  get size(): number {
    return this.slots.size;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** The unpacked fields of a memory, without parsing its record. */
  facets(id: string): DocFacets | undefined {
    return this.slots.get(id);
  }

  /** Every memory's unpacked fields. */
  allFacets(): IterableIterator<DocFacets> {
    return this.slots.values();
  }

  get(id: string): IndexedDoc | undefined {
    const slot = this.slots.get(id);
    if (!slot) return undefined;
    if (slot.doc === undefined) slot.doc = JSON.parse(slot.json!) as IndexedDoc;
    return slot.doc;
  }

  set(id: string, doc: IndexedDoc): void {
    this.slots.set(id, { ...facetsOf(doc), json: undefined, doc });
  }

  delete(id: string): boolean {
    return this.slots.delete(id);
  }

  clear(): void {
    this.slots.clear();
  }

  *keys(): MapIterator<string> {
    yield* this.slots.keys();
  }

  *values(): MapIterator<IndexedDoc> {
    for (const id of this.slots.keys()) yield this.get(id)!;
  }

  *entries(): MapIterator<[string, IndexedDoc]> {
    for (const id of this.slots.keys()) yield [id, this.get(id)!];
  }

  [Symbol.iterator](): MapIterator<[string, IndexedDoc]> {
    return this.entries();
  }

  forEach(fn: (value: IndexedDoc, key: string, map: ReadonlyMap<string, IndexedDoc>) => void, thisArg?: unknown): void {
    for (const [id, doc] of this.entries()) fn.call(thisArg, doc, id, this);
  }
}
