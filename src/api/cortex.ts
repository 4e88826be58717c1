/**
 * `openCortex`: the library API. The CLI, the hooks and the MCP server call these
 * functions and nothing below them.
 */
import type { AnticipateInput, AnticipateOutput } from './anticipate.js';
import type { CaptureInput, CaptureOutput } from './capture.js';
import type { LinkPendingOptions, LinkPendingResult } from './link-pending.js';
import type { ConsolidateList, MergeInput, MergeResult, ReviewPairInput, ReviewPairOutput } from './consolidate.js';
import { openContext, type Context, type OpenCortexOptions } from '../services/context.js';
import { openGraph, type GraphView, type OpenGraphOptions } from '../services/graph.js';
import { link, unlink, type LinkInput, type LinkResult, type UnlinkInput, type UnlinkOutput } from './link.js';
import { traverseMemories, type TraverseInput, type TraverseOutput } from './traverse.js';
import type { EmbedIndexInput, EmbedIndexOutput } from '../services/embed.js';
import { lint, type LintOutput } from './lint.js';
import {
  forget,
  getMemory,
  listMemories,
  resolveMemoryId,
  updateMemory,
  updateMemorySource,
  type ForgetInput,
  type ForgetOutput,
  type GetResult,
  type ListInput,
  type ListOutput,
  type UpdateInput,
  type UpdateResult,
} from './memories.js';
import type { LifecycleInput, LifecycleOutput } from './lifecycle.js';
import { recall, type RecallInput, type RecallOutput } from './recall/recall.js';
import { recallFile, type RecallFileInput, type RecallFileOutput } from './recall/file.js';
import type { IndexCodeInput, IndexCodeOutput } from './index-code.js';
import { rememberAndMark, type RememberInput, type RememberResult } from './remember.js';
import type { ReviewItem } from './review.js';
import { recordAccess } from '../services/signals.js';
import { stageCreated } from '../services/stage.js';
import { status, type StatusOutput } from './status.js';
import type { SurfaceInput, SurfaceOutput } from './surface.js';

export interface Cortex {
  /** The resolved context: root, paths, configuration. */
  readonly context: Context;
  remember(input: RememberInput): Promise<RememberResult>;
  recall(input: RecallInput): Promise<RecallOutput>;
  /** The memories anchored to a file or a symbol in it (`src/db.ts#acquire`): what the file hook shows. */
  recallFile(input: RecallFileInput): RecallFileOutput;
  /** Parses the source into a symbol table and resolves every code anchor (`cortex index-code`). */
  indexCode(input?: IndexCodeInput): Promise<IndexCodeOutput>;
  /**
   * Reads one memory; counts as an access in the usage signals. Every method that takes a
   * memory id (get, update, forget, link, unlink, traverse) also takes a prefix of it that
   * only one memory has; an unknown id throws `MemoryNotFoundError` naming the nearest ids.
   */
  get(id: string): GetResult;
  list(input?: ListInput): ListOutput;
  update(id: string, input: UpdateInput): Promise<UpdateResult>;
  /**
   * Replaces a memory with the full text of its file (frontmatter and body) as a person
   * edited it; text that is not a valid memory with the same id throws `ParseError` (its
   * diagnostics in `data.diagnostics`) and leaves the file as it was.
   */
  updateSource(id: string, text: string): Promise<UpdateResult>;
  forget(input: ForgetInput): Promise<ForgetOutput>;
  lint(): Promise<LintOutput>;
  status(): StatusOutput;
  /** Links two memories with an edge file. */
  link(input: LinkInput): Promise<LinkResult>;
  /** Removes edge files between two memories. */
  unlink(input: UnlinkInput): Promise<UnlinkOutput>;
  /** Breadth-first walk from a memory, grouped by depth. */
  traverse(input: TraverseInput): TraverseOutput;
  /** The graph with its centrality (for ranking and the lifecycle's hub protection). */
  graph(options?: OpenGraphOptions): GraphView;
  consolidate: {
    list(): Promise<ConsolidateList>;
    accept(input: ReviewPairInput): Promise<ReviewPairOutput>;
    reject(input: ReviewPairInput): Promise<ReviewPairOutput>;
    merge(input: MergeInput): Promise<MergeResult>;
  };
  /**
   * Computes the missing embedding vectors (`cortex index --embed`). Loads the embedding
   * model; never throws for an unavailable one (`available: false` and a `notice`).
   */
  embed(input?: Partial<EmbedIndexInput>): Promise<EmbedIndexOutput>;
  /** The session briefing (and the surface cache, and `--write` targets). */
  surface(input?: SurfaceInput): Promise<SurfaceOutput>;
  /** Archive, reactivate and prune memories as DESIGN §3 says (or only plan it). */
  lifecycle(input?: LifecycleInput): Promise<LifecycleOutput>;
  /** Extracts memories from a Claude Code transcript since its checkpoint (what the Stop hook runs). */
  capture(input: CaptureInput): Promise<CaptureOutput>;
  /** Auto-links the memories written with `autoLink: 'later'` (`capture({ link: 'later' })`): what the session-end worker runs. */
  linkPending(options?: LinkPendingOptions): Promise<LinkPendingResult>;
  /** The memories relevant enough to volunteer for a prompt (what the UserPromptSubmit hook runs). */
  anticipate(input: AnticipateInput): Promise<AnticipateOutput>;
  /** The review queue of low-confidence extraction candidates. */
  review: {
    list(): Promise<{ items: ReviewItem[] }>;
    /** Numbers (as listed) or ids, or `'all'`; `by` is recorded as `source.confirmed` (default `person`). */
    accept(select: readonly string[] | 'all', by?: 'person' | 'assistant'): Promise<{ accepted: { item: ReviewItem; result: RememberResult }[]; skipped: ReviewItem[] }>;
    reject(select: readonly string[] | 'all'): Promise<{ rejected: ReviewItem[] }>;
  };
}

/**
 * Opens the Cortex project that contains `dir` (default: the working directory).
 * Throws `NotInitializedError` when there is no `.cortex/` at or above it.
 *
 * @example
 * const cortex = openCortex({ dir: '/path/to/repo' });
 * await cortex.remember({ text: 'Chose SQLite over Postgres', type: 'decision' });
 * const { results } = await cortex.recall({ query: 'which database' });
 *
 * @example
 * // Semantic recall with your own embedder (any `Embedder`; the default loads the configured model)
 * const cortex = openCortex({ dir: '/path/to/repo', embedder: myEmbedder });
 * await cortex.embed();
 * const { mode } = await cortex.recall({ query: 'what storage engine did we settle on' }); // 'hybrid'
 */
export function openCortex(options: OpenCortexOptions = {}): Cortex {
  const ctx = openContext(options);
  return {
    context: ctx,
    remember: (input) => rememberAndMark(ctx, input),
    recall: (input) => recall(ctx, input),
    recallFile: (input) => recallFile(ctx, input),
    indexCode: async (input) => (await import('./index-code.js')).indexCode(ctx, input),
    get: (id) => {
      const got = getMemory(ctx, resolveMemoryId(ctx, id));
      recordAccess(ctx, [{ id: got.memory.id, scope: got.scope }]);
      return got;
    },
    list: (input) => listMemories(ctx, input),
    update: (id, input) => updateMemory(ctx, resolveMemoryId(ctx, id), input),
    updateSource: (id, text) => updateMemorySource(ctx, resolveMemoryId(ctx, id), text),
    forget: (input) => forget(ctx, input),
    lint: () => lint(ctx),
    status: () => status(ctx),
    link: async (input) => {
      const result = await link(ctx, { ...input, source: resolveMemoryId(ctx, input.source), target: resolveMemoryId(ctx, input.target) });
      if (result.action === 'created') stageCreated(ctx, [result.file]);
      return result;
    },
    unlink: (input) => unlink(ctx, { ...input, source: resolveMemoryId(ctx, input.source), target: resolveMemoryId(ctx, input.target) }),
    traverse: (input) => traverseMemories(ctx, { ...input, id: resolveMemoryId(ctx, input.id) }),
    graph: (options) => openGraph(ctx, options),
    // Imported on demand, so that recall, remember and the hooks do not load the markdown
    // toolchain (the briefing), the consolidation code or the vector code.
    consolidate: {
      list: async () => (await import('./consolidate.js')).listConsolidation(ctx),
      accept: async (input) => (await import('./consolidate.js')).acceptSuggested(ctx, input),
      reject: async (input) => (await import('./consolidate.js')).rejectSuggested(ctx, input),
      merge: async (input) => (await import('./consolidate.js')).mergeMemories(ctx, { ...input, a: resolveMemoryId(ctx, input.a), b: resolveMemoryId(ctx, input.b) }),
    },
    embed: async (input) => (await import('../services/embed.js')).embedIndex(ctx, input),
    surface: async (input) => (await import('./surface.js')).surface(ctx, input),
    lifecycle: async (input) => (await import('./lifecycle.js')).lifecycle(ctx, input),
    // Imported on demand, like embed: transcript parsing and extraction are large modules.
    capture: async (input) => (await import('./capture.js')).captureTranscript(ctx, input),
    linkPending: async (options) => (await import('./link-pending.js')).linkPending(ctx, options),
    anticipate: async (input) => (await import('./anticipate.js')).anticipate(ctx, input),
    review: {
      list: async () => (await import('./review.js')).listReview(ctx),
      accept: async (select, by) => (await import('./review.js')).acceptReview(ctx, { select, ...(by !== undefined ? { by } : {}) }),
      reject: async (select) => (await import('./review.js')).rejectReview(ctx, { select }),
    },
  };
}
