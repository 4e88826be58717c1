/**
 * The keyword index in `.memory/index.json`: MiniSearch over every memory of one tier,
 * plus a stat cache (file → size, mtime, content hash) so a warm run re-reads only
 * the files that changed. A missing, corrupt or mismatched cache is rebuilt silently.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch, { type SearchResult } from 'minisearch';
import type { Diagnostic, Memory, MemoryStatus, MemoryType, Scope } from '../core/memory.js';
import { normalizeBody } from '../core/memory-format.js';
import { planQuery } from '../core/query.js';
import { processTerm, tokenize } from '../core/text.js';
import { writeFileAtomic } from '../store/atomic.js';
import { displayPath, listMemoryFiles, readMemoryFile, type MemoryFileEntry } from '../store/memory-store.js';
import type { TierPaths } from '../store/paths.js';

/** Bump when the cache layout or the text analysis changes: old caches are rebuilt. */
export const INDEX_FORMAT_VERSION = 4;

/** Search-time field weights: summary > tags > content (DESIGN §7). */
export const FIELD_BOOSTS = { summary: 3, tags: 2, topic: 1.5, content: 1, files: 1, type: 0.5 } as const;
const FIELDS = Object.keys(FIELD_BOOSTS);

/** Weight of a thesaurus expansion relative to a word of the query itself. */
export const EXPANSION_WEIGHT = 0.3;
/** Score multiplier for memories of a type the question hints at. */
export const TYPE_HINT_BOOST = 1.25;

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

interface FileEntry {
  size: number;
  mtimeMs: number;
  hash: string;
  id?: string;
  diagnostics?: Diagnostic[];
}

interface IndexFile {
  version: number;
  optionsHash: string;
  files: Record<string, FileEntry>;
  docs: Record<string, IndexedDoc>;
  search: unknown;
}

const MINISEARCH_OPTIONS = {
  fields: FIELDS,
  idField: 'id',
  storeFields: [] as string[],
  tokenize: (text: string) => tokenize(text),
  processTerm: (term: string) => processTerm(term),
  autoVacuum: false,
};

const OPTIONS_HASH = createHash('sha1')
  .update(JSON.stringify({ fields: FIELDS, analysis: 'porter+stop+camel/v1' }))
  .digest('hex')
  .slice(0, 12);

export interface RefreshReport {
  added: number;
  updated: number;
  removed: number;
  /** Current problems of broken files (also for files unchanged since the last run). */
  diagnostics: Diagnostic[];
}

export interface SearchOptions {
  limit?: number;
  types?: MemoryType[];
  tags?: string[];
  /** Statuses to include; default `['active']`. */
  statuses?: MemoryStatus[];
  scope?: Scope;
  /** ISO date: only memories updated at or after it. */
  since?: string;
  /** Use the thesaurus (default true). */
  expand?: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Query terms that matched. */
  terms: string[];
}

export const DEFAULT_SEARCH: Required<Omit<SearchOptions, 'types' | 'tags' | 'scope' | 'since'>> = {
  limit: 10,
  statuses: ['active'],
  expand: true,
};

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** Hash of what a memory says, ignoring metadata: equal keys mean identical content. */
export function contentKeyOf(memory: Pick<Memory, 'type' | 'summary' | 'body'>): string {
  return sha1(`${memory.type}\n${memory.summary.trim().toLowerCase()}\n${normalizeBody(memory.body)}`);
}

function toDoc(memory: Memory, file: string, links: string[]): IndexedDoc {
  const body = normalizeBody(memory.body);
  return {
    id: memory.id,
    type: memory.type,
    summary: memory.summary,
    status: memory.status,
    scope: memory.scope,
    tags: memory.tags,
    priority: memory.priority,
    confidence: memory.confidence,
    pinned: memory.pinned,
    topic: memory.topic,
    created: memory.created,
    updated: memory.updated,
    branch: memory.source.branch,
    commit: memory.source.commit,
    session: memory.source.session,
    files: memory.source.files,
    links: links.length > 0 ? links : undefined,
    contentKey: contentKeyOf(memory),
    bodyLength: body.length,
    preview: body.slice(0, 240),
    file,
  };
}

function searchDoc(memory: Memory) {
  return {
    id: memory.id,
    summary: memory.summary,
    tags: memory.tags.join(' '),
    topic: memory.topic ?? '',
    content: memory.body,
    files: (memory.source.files ?? []).join(' '),
    type: memory.type,
  };
}

/** Extracts `[[id]]` links; replaced by the graph module's parser when present. */
export type LinkExtractor = (body: string) => string[];
const NO_LINKS: LinkExtractor = () => [];

/**
 * One tier's keyword index, loaded from `.memory/index.json` (or built fresh).
 */
export class KeywordIndex {
  private files: Record<string, FileEntry>;
  readonly docs: Map<string, IndexedDoc>;
  // Loading the MiniSearch tree is the largest cost of opening the index (10,000 memories:
  // hundreds of ms), and only a query needs it: list, status and graph walks never do.
  private searchIndex: MiniSearch | undefined;
  private searchData: unknown;
  private dirty: boolean;
  /** True when the cache could not be used and the index was built from scratch. */
  readonly rebuilt: boolean;

  private constructor(data: IndexFile | undefined) {
    if (data) {
      this.files = data.files;
      this.docs = new Map(Object.entries(data.docs));
      this.searchData = data.search;
      this.dirty = false;
      this.rebuilt = false;
    } else {
      this.files = {};
      this.docs = new Map();
      this.searchIndex = new MiniSearch(MINISEARCH_OPTIONS);
      this.dirty = true;
      this.rebuilt = true;
    }
  }

  private get search(): MiniSearch {
    if (!this.searchIndex) {
      try {
        this.searchIndex = MiniSearch.loadJS(this.searchData as never, MINISEARCH_OPTIONS);
      } catch {
        // Damaged beyond what `load` checks: forget every file so this run's refresh
        // (or the next one) re-reads them all into a fresh index. Never fatal.
        this.searchIndex = new MiniSearch(MINISEARCH_OPTIONS);
        this.files = {};
        this.docs.clear();
        this.dirty = true;
      }
      this.searchData = undefined;
    }
    return this.searchIndex;
  }

  static indexPath(paths: TierPaths): string {
    return join(paths.cacheDir, 'index.json');
  }

  /** Loads the cache; anything unusable (missing, corrupt, other version) gives an empty index. */
  static load(paths: TierPaths): KeywordIndex {
    let data: IndexFile | undefined;
    try {
      const parsed = JSON.parse(readFileSync(KeywordIndex.indexPath(paths), 'utf8')) as IndexFile;
      const search = parsed?.search as { serializationVersion?: unknown; index?: unknown } | undefined;
      if (
        parsed?.version === INDEX_FORMAT_VERSION &&
        parsed.optionsHash === OPTIONS_HASH &&
        parsed.files &&
        parsed.docs &&
        typeof search?.serializationVersion === 'number' &&
        search.index !== undefined
      ) {
        data = parsed;
      }
    } catch {
      data = undefined;
    }
    if (data) {
      try {
        return new KeywordIndex(data);
      } catch {
        // A cache that parses as JSON but not as an index: rebuild.
      }
    }
    return new KeywordIndex(undefined);
  }

  /** An empty index that ignores any cache (a full rebuild). */
  static empty(): KeywordIndex {
    return new KeywordIndex(undefined);
  }

  get size(): number {
    return this.docs.size;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /**
   * Brings the index up to date with the files on disk: stat every file, re-read only
   * those whose size or mtime changed, and parse only those whose content changed.
   */
  refresh(paths: TierPaths, options: { base: string; links?: LinkExtractor; entries?: MemoryFileEntry[] }): RefreshReport {
    const links = options.links ?? NO_LINKS;
    const entries = options.entries ?? listMemoryFiles(paths);
    const report: RefreshReport = { added: 0, updated: 0, removed: 0, diagnostics: [] };
    const seen = new Set<string>();
    for (const entry of entries) {
      const name = `${entry.id}.md`;
      seen.add(name);
      const known = this.files[name];
      if (known && known.size === entry.size && known.mtimeMs === entry.mtimeMs) {
        if (known.diagnostics) report.diagnostics.push(...known.diagnostics);
        continue;
      }
      const shown = displayPath(entry.path, options.base);
      const read = readMemoryFile(entry, shown);
      const hash = read.text === undefined ? '' : sha1(read.text);
      if (known && known.hash === hash && hash !== '') {
        this.files[name] = { ...known, size: entry.size, mtimeMs: entry.mtimeMs };
        this.dirty = true;
        if (known.diagnostics) report.diagnostics.push(...known.diagnostics);
        continue;
      }
      if (known?.id !== undefined) this.removeDoc(known.id);
      const fileEntry: FileEntry = { size: entry.size, mtimeMs: entry.mtimeMs, hash };
      if (read.diagnostics.length > 0) fileEntry.diagnostics = read.diagnostics;
      if (read.memory) {
        const memory = read.memory;
        if (this.docs.has(memory.id)) this.removeDoc(memory.id);
        this.docs.set(memory.id, toDoc(memory, shown, links(memory.body)));
        this.search.add(searchDoc(memory));
        fileEntry.id = memory.id;
        if (known) report.updated++;
        else report.added++;
      } else if (known?.id !== undefined) {
        report.removed++;
      }
      report.diagnostics.push(...read.diagnostics);
      this.files[name] = fileEntry;
      this.dirty = true;
    }
    for (const name of Object.keys(this.files)) {
      if (seen.has(name)) continue;
      const gone = this.files[name];
      if (gone?.id !== undefined) {
        this.removeDoc(gone.id);
        report.removed++;
      }
      delete this.files[name];
      this.dirty = true;
    }
    return report;
  }

  private removeDoc(id: string): void {
    if (!this.docs.has(id)) return;
    this.docs.delete(id);
    if (this.search.has(id)) this.search.discard(id);
  }

  /** Records a memory just written by this process, so the index need not re-read it. */
  upsert(memory: Memory, entry: MemoryFileEntry, text: string, options: { base: string; links?: LinkExtractor }): void {
    const name = `${entry.id}.md`;
    const known = this.files[name];
    if (known?.id !== undefined) this.removeDoc(known.id);
    this.removeDoc(memory.id);
    const shown = displayPath(entry.path, options.base);
    this.docs.set(memory.id, toDoc(memory, shown, (options.links ?? NO_LINKS)(memory.body)));
    this.search.add(searchDoc(memory));
    this.files[name] = { size: entry.size, mtimeMs: entry.mtimeMs, hash: sha1(text), id: memory.id };
    this.dirty = true;
  }

  /** Forgets a memory whose file was deleted by this process. */
  remove(id: string): void {
    this.removeDoc(id);
    delete this.files[`${id}.md`];
    this.dirty = true;
  }

  /** Saves the cache atomically when anything changed. */
  save(paths: TierPaths): void {
    if (!this.dirty) return;
    if (this.searchIndex && this.searchIndex.dirtCount > 0) this.searchIndex.vacuum();
    const data: IndexFile = {
      version: INDEX_FORMAT_VERSION,
      optionsHash: OPTIONS_HASH,
      files: this.files,
      docs: Object.fromEntries(this.docs),
      // Never loaded: the search data is unchanged, written back as read.
      search: this.searchIndex ? this.searchIndex.toJSON() : this.searchData,
    };
    writeFileAtomic(KeywordIndex.indexPath(paths), JSON.stringify(data));
    this.dirty = false;
  }

  /** True when `doc` passes the filters. */
  static matches(doc: IndexedDoc, options: SearchOptions): boolean {
    const statuses = options.statuses ?? DEFAULT_SEARCH.statuses;
    if (!statuses.includes(doc.status)) return false;
    if (options.types && options.types.length > 0 && !options.types.includes(doc.type)) return false;
    if (options.tags && options.tags.length > 0 && !options.tags.every((t) => doc.tags.includes(t))) return false;
    if (options.scope && doc.scope !== options.scope) return false;
    if (options.since && Date.parse(doc.updated) < Date.parse(options.since)) return false;
    return true;
  }

  /**
   * Keyword search: BM25+ with field boosts, prefix and fuzzy matching, thesaurus
   * expansions at a lower weight, and a boost for the types the question hints at.
   */
  query(text: string, options: SearchOptions = {}): SearchHit[] {
    const opts = { ...DEFAULT_SEARCH, ...options };
    const plan = planQuery(text, { expand: opts.expand });
    if (plan.terms.length === 0) return [];
    const expansions = new Set(plan.expansions);
    const hinted = new Set(plan.typeHints);
    const all = [...plan.terms, ...plan.expansions];
    const results: SearchResult[] = this.search.search(all.join(' '), {
      // Terms are already analysed: split on spaces, do not stem twice.
      tokenize: (s: string) => s.split(' '),
      processTerm: (t: string) => t,
      boost: FIELD_BOOSTS,
      boostTerm: (term: string) => (expansions.has(term) ? EXPANSION_WEIGHT : 1),
      prefix: (term: string) => term.length >= 4 && !expansions.has(term),
      fuzzy: (term: string) => (term.length >= 6 && !expansions.has(term) ? 0.2 : false),
      maxFuzzy: 2,
      combineWith: 'OR',
      filter: (result: SearchResult) => {
        const doc = this.docs.get(result.id as string);
        return doc !== undefined && KeywordIndex.matches(doc, opts);
      },
      boostDocument: (id: unknown) => {
        const doc = this.docs.get(id as string);
        return doc && hinted.has(doc.type) ? TYPE_HINT_BOOST : 1;
      },
    });
    return results.slice(0, opts.limit).map((r) => ({ id: r.id as string, score: r.score, terms: r.terms }));
  }

  /** Documents passing the filters, without a query. */
  filter(options: SearchOptions = {}): IndexedDoc[] {
    const out: IndexedDoc[] = [];
    for (const doc of this.docs.values()) if (KeywordIndex.matches(doc, options)) out.push(doc);
    return out;
  }

  /** The doc with this content key, if any (duplicate detection). */
  findByContentKey(key: string): IndexedDoc | undefined {
    for (const doc of this.docs.values()) if (doc.contentKey === key) return doc;
    return undefined;
  }

  /** Docs with this topic and scope, excluding superseded ones. */
  findByTopic(topic: string, scope: Scope): IndexedDoc[] {
    const out: IndexedDoc[] = [];
    for (const doc of this.docs.values()) {
      if (doc.topic === topic && doc.scope === scope && doc.status !== 'superseded') out.push(doc);
    }
    return out;
  }
}
