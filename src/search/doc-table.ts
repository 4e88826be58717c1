/**
 * The memories a keyword index knows, as saved in `.memory/index.v8`: each memory's record
 * ({@link IndexedDoc}) is kept as its JSON text and parsed only when something reads it,
 * beside the few fields that every query and graph walk needs (type, status, scope,
 * content key, topic, `[[links]]`), which are kept unpacked, all as columns. A query over 10,000 memories
 * then parses the records of the ten it returns, not all of them.
 */
import { addLine, emptyFingerprint, memoryLine, type FingerprintParts } from '../core/fingerprint.js';
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

/** The table as saved: one column per field, one row per memory (V8's serializer copies string arrays fast). */
export interface SavedDocs {
  ids: string[];
  types: string[];
  statuses: string[];
  scopes: string[];
  contentKeys: string[];
  /** '' for none. */
  topics: string[];
  /** The `[[links]]`, space-separated; '' for none. */
  links: string[];
  /**
   * Every record as JSON, one after another; record `i` ends at `jsonEnds[i]`. One string
   * rather than 10,000: V8 allocates it once, outside the young generation, so loading
   * it leaves nothing for the garbage collector to copy.
   */
  json: string;
  jsonEnds: Uint32Array;
  /** The fingerprint of the rows' memory lines (core/fingerprint.ts): count and the two lane sums. */
  fingerprint: [number, number, number];
}

const COLUMNS = ['ids', 'types', 'statuses', 'scopes', 'contentKeys', 'topics', 'links'] as const;

function isSavedDocs(value: unknown): value is SavedDocs {
  const v = value as SavedDocs;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.ids)) return false;
  if (typeof v.json !== 'string' || !(v.jsonEnds instanceof Uint32Array) || v.jsonEnds.length !== v.ids.length) return false;
  if (v.ids.length > 0 && v.jsonEnds[v.ids.length - 1] !== v.json.length) return false;
  if (!Array.isArray(v.fingerprint) || v.fingerprint.length !== 3 || v.fingerprint[0] !== v.ids.length) return false;
  return COLUMNS.every((c) => Array.isArray(v[c]) && v[c].length === v.ids.length);
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
  private types: string[] = [];
  private statuses: string[] = [];
  private scopes: string[] = [];
  private contentKeys: string[] = [];
  private topics: string[] = [];
  private links: string[] = [];
  /** All records as loaded, as JSON, and where each loaded row's ends. */
  private json = '';
  private jsonEnds: Uint32Array = new Uint32Array(0);
  /** Rows whose record was set since the table was loaded (its JSON is not in `json`). */
  private readonly fresh = new Set<number>();
  /** Parsed records, by row. */
  private parsed: (IndexedDoc | undefined)[] = [];
  /** The fingerprint of the live rows, kept up to date by `set` and `delete`. */
  private print: FingerprintParts = emptyFingerprint();

  /** A table from saved columns; throws when they are not (the caller rebuilds). */
  static fromSaved(saved: unknown): DocTable {
    if (!isSavedDocs(saved)) throw new TypeError('not a saved doc table');
    const table = new DocTable();
    table.ids = saved.ids;
    table.types = saved.types;
    table.statuses = saved.statuses;
    table.scopes = saved.scopes;
    table.contentKeys = saved.contentKeys;
    table.topics = saved.topics;
    table.links = saved.links;
    table.json = saved.json;
    table.jsonEnds = saved.jsonEnds;
    table.parsed = new Array<IndexedDoc | undefined>(saved.ids.length);
    const [count, a, b] = saved.fingerprint;
    table.print = { count, a, b };
    for (let row = 0; row < saved.ids.length; row++) table.rows.set(saved.ids[row]!, row);
    return table;
  }

  /** The live rows as columns (each record's JSON is reused when it was not replaced). */
  toSaved(): SavedDocs {
    const out = { ids: [] as string[], types: [] as string[], statuses: [] as string[], scopes: [] as string[], contentKeys: [] as string[], topics: [] as string[], links: [] as string[] };
    const json: string[] = [];
    const ends = new Uint32Array(this.rows.size);
    let end = 0;
    for (const row of this.rows.values()) {
      out.ids.push(this.ids[row]!);
      out.types.push(this.types[row]!);
      out.statuses.push(this.statuses[row]!);
      out.scopes.push(this.scopes[row]!);
      out.contentKeys.push(this.contentKeys[row]!);
      out.topics.push(this.topics[row]!);
      out.links.push(this.links[row]!);
      const record = this.recordJson(row);
      json.push(record);
      end += record.length;
      ends[out.ids.length - 1] = end;
    }
    return { ...out, json: json.join(''), jsonEnds: ends, fingerprint: [this.print.count, this.print.a, this.print.b] };
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
    return memoryLine(this.scopes[row]!, this.ids[row]!, this.links[row]!);
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** The memory's type, without parsing its record. */
  typeOf(id: string): MemoryType | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : (this.types[row] as MemoryType);
  }

  private facetsAt(row: number): DocFacets {
    const facets: DocFacets = {
      id: this.ids[row]!,
      type: this.types[row] as MemoryType,
      status: this.statuses[row] as MemoryStatus,
      scope: this.scopes[row] as Scope,
      contentKey: this.contentKeys[row]!,
    };
    if (this.topics[row] !== '') facets.topic = this.topics[row];
    if (this.links[row] !== '') facets.links = this.links[row]!.split(' ');
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

  private recordJson(row: number): string {
    if (this.fresh.has(row) || row >= this.jsonEnds.length) return JSON.stringify(this.parsed[row]);
    return this.json.slice(row === 0 ? 0 : this.jsonEnds[row - 1]!, this.jsonEnds[row]!);
  }

  get(id: string): IndexedDoc | undefined {
    const row = this.rows.get(id);
    if (row === undefined) return undefined;
    let doc = this.parsed[row];
    if (doc === undefined) doc = this.parsed[row] = JSON.parse(this.recordJson(row)) as IndexedDoc;
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
    this.types[row] = doc.type;
    this.statuses[row] = doc.status;
    this.scopes[row] = doc.scope;
    this.contentKeys[row] = doc.contentKey;
    this.topics[row] = doc.topic ?? '';
    this.links[row] = doc.links?.join(' ') ?? '';
    addLine(this.print, this.lineAt(row));
    this.fresh.add(row);
    this.parsed[row] = doc;
  }

  delete(id: string): boolean {
    const row = this.rows.get(id);
    if (row === undefined) return false;
    addLine(this.print, this.lineAt(row), -1);
    this.rows.delete(id);
    this.ids[row] = undefined;
    this.parsed[row] = undefined;
    return true;
  }

  clear(): void {
    this.rows.clear();
    this.ids = [];
    this.types = [];
    this.statuses = [];
    this.scopes = [];
    this.contentKeys = [];
    this.topics = [];
    this.links = [];
    this.json = '';
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
