/**
 * The memories a keyword index knows, as saved in `.memory/index.v8`: each memory's record
 * ({@link IndexedDoc}) is kept as its JSON text and parsed only when something reads it,
 * beside the few fields that every query and graph walk needs (type, status, scope,
 * content key, topic, `[[links]]`), which are kept unpacked, all as columns. A query over 10,000 memories
 * then parses the records of the ten it returns, not all of them.
 */
import { addLine, emptyFingerprint, memoryLine, type FingerprintParts } from '../../core/fingerprint.js';
import { CodeColumn, StringColumn, isSavedCodes, isSavedStrings, type SavedCodes, type SavedStrings } from './columns.js';
import type { MemoryStatus, MemoryType, Scope } from '../../core/memory.js';

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

const DECODER = new TextDecoder();

/** The table as saved: one column per field, one row per memory (see columns.ts). */
export interface SavedDocs {
  ids: string[];
  types: SavedCodes;
  statuses: SavedCodes;
  scopes: SavedCodes;
  contentKeys: SavedStrings;
  /** '' for none. */
  topics: SavedStrings;
  /** The `[[links]]`, space-separated; '' for none. */
  links: SavedStrings;
  /**
   * Where each record ends in the records' bytes (UTF-8 JSON, one after another), which
   * are saved beside the columns, not in them (see {@link DocTable.fromSaved}).
   */
  jsonEnds: Uint32Array;
  /** The fingerprint of the rows' memory lines (core/fingerprint.ts): count and the two lane sums. */
  fingerprint: [number, number, number];
}

function isSavedDocs(value: unknown): value is SavedDocs {
  const v = value as SavedDocs;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.ids)) return false;
  const n = v.ids.length;
  if (!(v.jsonEnds instanceof Uint32Array) || v.jsonEnds.length !== n) return false;
  if (!Array.isArray(v.fingerprint) || v.fingerprint.length !== 3 || v.fingerprint[0] !== n) return false;
  return isSavedCodes(v.types, n) && isSavedCodes(v.statuses, n) && isSavedCodes(v.scopes, n) && isSavedStrings(v.contentKeys, n) && isSavedStrings(v.topics, n) && isSavedStrings(v.links, n);
}

/**
 * A read-only Map of id → record whose records parse on first read, plus the unpacked
 * facets, kept as columns.
 *
 * @example
 * const docs = DocTable.fromSaved(saved); // saved: SavedDocs from the index file
 * docs.facets('db-choice-ab12cd')?.status  // 'active', nothing parsed
 * docs.get('db-choice-ab12cd')?.summary    // parses this one record
 */
export class DocTable implements ReadonlyMap<string, IndexedDoc> {
  /** id → row; rows of deleted memories stay in the columns (id undefined) until saved. */
  private readonly rows = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private types = new CodeColumn();
  private statuses = new CodeColumn();
  private scopes = new CodeColumn();
  private contentKeys = new StringColumn();
  private topics = new StringColumn();
  private links = new StringColumn();
  /** All records as loaded, as JSON, and where each loaded row's ends. */
  /** The loaded records as UTF-8 JSON, one after another (a view of the index file's bytes). */
  private records: Uint8Array = new Uint8Array(0);
  private jsonEnds: Uint32Array = new Uint32Array(0);
  /**
   * Rows whose record was set since the table was loaded (its JSON is not in `records`), with
   * their JSON once encoded: a long-lived process (the MCP server) saves after every write, and
   * encoding every record it ever wrote again on each save made `remember` slower as it ran.
   */
  private readonly fresh = new Map<number, Uint8Array | undefined>();
  /** Parsed records, by row. */
  private parsed: (IndexedDoc | undefined)[] = [];
  /** The fingerprint of the live rows, kept up to date by `set` and `delete`. */
  private print: FingerprintParts = emptyFingerprint();

  /** A table from saved columns; throws when they are not (the caller rebuilds). */
  static fromSaved(saved: unknown, records: Uint8Array): DocTable {
    if (!isSavedDocs(saved)) throw new TypeError('not a saved doc table');
    const n = saved.ids.length;
    if ((n > 0 ? saved.jsonEnds[n - 1] : 0) !== records.length) throw new TypeError('the records do not line up with the doc table');
    const table = new DocTable();
    table.ids = saved.ids;
    table.types = CodeColumn.fromSaved(saved.types);
    table.statuses = CodeColumn.fromSaved(saved.statuses);
    table.scopes = CodeColumn.fromSaved(saved.scopes);
    table.contentKeys = StringColumn.fromSaved(saved.contentKeys);
    table.topics = StringColumn.fromSaved(saved.topics);
    table.links = StringColumn.fromSaved(saved.links);
    table.records = records;
    table.jsonEnds = saved.jsonEnds;
    table.parsed = new Array<IndexedDoc | undefined>(saved.ids.length);
    const [count, a, b] = saved.fingerprint;
    table.print = { count, a, b };
    for (let row = 0; row < saved.ids.length; row++) table.rows.set(saved.ids[row]!, row);
    return table;
  }

  /**
   * The live rows as columns, and their records' bytes (a loaded record is copied as it
   * is, without parsing it).
   */
  toSaved(): { saved: SavedDocs; records: Buffer } {
    const rows = [...this.rows.values()];
    const parts: Uint8Array[] = [];
    const ends = new Uint32Array(rows.length);
    let end = 0;
    // Consecutive loaded records are copied as one block.
    let blockFrom = -1;
    let blockTo = -1;
    rows.forEach((row, i) => {
      const loaded = !this.fresh.has(row) && row < this.jsonEnds.length;
      const start = row === 0 ? 0 : this.jsonEnds[row - 1]!;
      if (loaded && blockFrom >= 0 && start === blockTo) {
        blockTo = this.jsonEnds[row]!;
      } else {
        if (blockFrom >= 0) parts.push(this.records.subarray(blockFrom, blockTo));
        blockFrom = -1;
        if (loaded) {
          blockFrom = start;
          blockTo = this.jsonEnds[row]!;
        } else {
          parts.push(this.recordBytes(row));
        }
      }
      end += loaded ? this.jsonEnds[row]! - start : parts[parts.length - 1]!.length;
      ends[i] = end;
    });
    if (blockFrom >= 0) parts.push(this.records.subarray(blockFrom, blockTo));
    const saved: SavedDocs = {
      ids: rows.map((row) => this.ids[row]!),
      types: this.types.saveRows(rows),
      statuses: this.statuses.saveRows(rows),
      scopes: this.scopes.saveRows(rows),
      contentKeys: this.contentKeys.saveRows(rows),
      topics: this.topics.saveRows(rows),
      links: this.links.saveRows(rows),
      jsonEnds: ends,
      fingerprint: [this.print.count, this.print.a, this.print.b],
    };
    return { saved, records: Buffer.concat(parts, end) };
  }

  get size(): number {
    return this.rows.size;
  }

  /**
   * The fingerprint of the memories' scopes, ids and `[[links]]` (see `memoryLine`),
   * without reading them: the graph cache's key.
   */
  fingerprint(): FingerprintParts {
    return { ...this.print };
  }

  private lineAt(row: number): string {
    return memoryLine(this.scopes.at(row), this.ids[row]!, this.links.at(row));
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** The memory's type, without parsing its record. */
  typeOf(id: string): MemoryType | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : (this.types.at(row) as MemoryType);
  }

  private facetsAt(row: number): DocFacets {
    const facets: DocFacets = {
      id: this.ids[row]!,
      type: this.types.at(row) as MemoryType,
      status: this.statuses.at(row) as MemoryStatus,
      scope: this.scopes.at(row) as Scope,
      contentKey: this.contentKeys.at(row),
    };
    const topic = this.topics.at(row);
    if (topic !== '') facets.topic = topic;
    const links = this.links.at(row);
    if (links !== '') facets.links = links.split(' ');
    return facets;
  }

  /** The unpacked fields of a memory, without parsing its record. */
  facets(id: string): DocFacets | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : this.facetsAt(row);
  }

  /** Every memory's unpacked fields. */
  *allFacets(): IterableIterator<DocFacets> {
    for (const row of this.rows.values()) yield this.facetsAt(row);
  }

  private recordBytes(row: number): Uint8Array {
    if (this.fresh.has(row) || row >= this.jsonEnds.length) {
      let bytes = this.fresh.get(row);
      if (bytes === undefined) this.fresh.set(row, (bytes = Buffer.from(JSON.stringify(this.parsed[row]))));
      return bytes;
    }
    return this.records.subarray(row === 0 ? 0 : this.jsonEnds[row - 1]!, this.jsonEnds[row]!);
  }

  get(id: string): IndexedDoc | undefined {
    const row = this.rows.get(id);
    if (row === undefined) return undefined;
    let doc = this.parsed[row];
    if (doc === undefined) doc = this.parsed[row] = JSON.parse(DECODER.decode(this.recordBytes(row))) as IndexedDoc;
    return doc;
  }

  set(id: string, doc: IndexedDoc): void {
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.rows.set(id, row);
    } else {
      addLine(this.print, this.lineAt(row), -1);
    }
    this.ids[row] = id;
    this.types.set(row, doc.type);
    this.statuses.set(row, doc.status);
    this.scopes.set(row, doc.scope);
    this.contentKeys.set(row, doc.contentKey);
    this.topics.set(row, doc.topic ?? '');
    this.links.set(row, doc.links?.join(' ') ?? '');
    addLine(this.print, this.lineAt(row));
    this.fresh.set(row, undefined);
    this.parsed[row] = doc;
  }

  delete(id: string): boolean {
    const row = this.rows.get(id);
    if (row === undefined) return false;
    addLine(this.print, this.lineAt(row), -1);
    this.rows.delete(id);
    this.ids[row] = undefined;
    this.parsed[row] = undefined;
    if (this.fresh.has(row)) this.fresh.set(row, undefined);
    return true;
  }

  clear(): void {
    this.rows.clear();
    this.ids = [];
    this.types = new CodeColumn();
    this.statuses = new CodeColumn();
    this.scopes = new CodeColumn();
    this.contentKeys = new StringColumn();
    this.topics = new StringColumn();
    this.links = new StringColumn();
    this.records = new Uint8Array(0);
    this.jsonEnds = new Uint32Array(0);
    this.fresh.clear();
    this.parsed = [];
    this.print = emptyFingerprint();
  }

  *keys(): MapIterator<string> {
    yield* this.rows.keys();
  }

  *values(): MapIterator<IndexedDoc> {
    for (const id of this.rows.keys()) yield this.get(id)!;
  }

  *entries(): MapIterator<[string, IndexedDoc]> {
    for (const id of this.rows.keys()) yield [id, this.get(id)!];
  }

  [Symbol.iterator](): MapIterator<[string, IndexedDoc]> {
    return this.entries();
  }

  forEach(fn: (value: IndexedDoc, key: string, map: ReadonlyMap<string, IndexedDoc>) => void, thisArg?: unknown): void {
    for (const [id, doc] of this.entries()) fn.call(thisArg, doc, id, this);
  }
}
