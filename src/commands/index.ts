import { UsageError } from '../errors.js';
import type { CommandDef, IO } from '../term/args.js';
import { bool, int } from '../term/args.js';
import { openGraph } from '../services/graph.js';
import { clearDerivedCaches, openIndexes, refreshNamedFiles } from '../services/indexes.js';
import type { EmbedIndexOutput } from '../services/embed.js';
import { createProgress } from '../term/progress.js';
import { resolve } from 'node:path';
import { fileArgument, openContextOf, printJson, warnDiagnostics } from './shared.js';

const PHASE_LABEL = { load: 'loading model', read: 'reading memories', embed: 'embedding' } as const;

const command: CommandDef = {
  name: 'index',
  summary: 'Rebuild or refresh the local search index',
  usage: ['index [--rebuild]', 'index <memory-file>…', 'index --embed [--batch-size <n>] [--rebuild]'],
  description:
    'Brings .memory/ (the local, gitignored search cache) up to date with .cortex/. Only changed files\n' +
    'are re-read; --rebuild deletes every derived cache (the index, staleness, graph, edge, projection,\n' +
    'prompt-hook and briefing caches; not usage signals, the review queue or embedding vectors) and\n' +
    'starts from scratch. Every command does this on its own when needed:\n' +
    'running it by hand is only useful after large changes or to check timings.\n' +
    '\n' +
    'From 5,000 memories on, a command re-reads files only when the memories directory changed (a file\n' +
    'added, removed or renamed: git, cortex and most editors write that way) and re-checks the memories\n' +
    'it shows; a memory edited in place and not shown is indexed by `cortex index` (which always checks\n' +
    'every file), by the git hooks, or at once with `cortex index <memory-file>…`, which re-reads just\n' +
    'the named files (relative to the working directory).\n' +
    '\n' +
    'With --embed it also computes the embedding vector of every memory that has none yet (new or\n' +
    'edited memories, or all of them after a model change) and stores them in .memory/vectors.bin;\n' +
    'from then on `cortex recall` is hybrid (keyword + semantic). `code` memories are never embedded.\n' +
    'Ctrl-C stops between batches and keeps what was embedded: run it again to resume. Without a\n' +
    'usable model it prints one line saying why and how to fix it, and exits 1 (the keyword index is\n' +
    'still updated; recall stays keyword-only).\n' +
    'Model: CORTEX_EMBED_MODEL (default Xenova/all-MiniLM-L6-v2), CORTEX_EMBED_DTYPE (default q8),\n' +
    'CORTEX_MODEL_DIR (a local model directory, for offline use; relative to the project root), or\n' +
    'embed: in .cortex/config.yaml. The model is downloaded to the library cache on first use.\n' +
    '\n' +
    'It also re-checks every edge file, which catches edge files edited in place (other commands\n' +
    'notice an edge change when a file is added, deleted or replaced).',
  options: {
    rebuild: { type: 'boolean', description: 'Delete every derived cache and index every file again (with --embed: re-embed every memory).' },
    embed: { type: 'boolean', description: 'Also compute missing embedding vectors (for semantic and hybrid recall).' },
    'batch-size': { type: 'string', value: '<n>', description: 'Memories per embedding batch (default 32); the unit of resumable progress.' },
  },
  examples: ['cortex index', 'cortex index .cortex/memories/db-choice-ab12cd.md', 'cortex index --embed', 'CORTEX_MODEL_DIR=~/models cortex index --embed --json'],
  exitCodes: ['1 --embed could not load a model (the notice says why; the keyword index was updated)', '130 interrupted (--embed: what was embedded is saved; run it again to resume)'],
  async run(inv, io) {
    const ctx = openContextOf(inv, io);
    const batchSize = int(inv, 'batch-size', [1, 4096]);
    const embed = bool(inv, 'embed');
    if (batchSize !== undefined && !embed) throw new UsageError('--batch-size only applies with --embed.', { hint: 'Run `cortex index --embed --batch-size <n>`.' });
    const started = Date.now();
    if (inv.positionals.length > 0) {
      if (embed || bool(inv, 'rebuild')) throw new UsageError('Named files are re-read on their own: no --rebuild or --embed with them.', { hint: 'Run `cortex index <memory-file>…`, or `cortex index --rebuild` for everything.' });
      const named = inv.positionals.map((p) => resolve(ctx.root, fileArgument(inv, io, ctx.root, p)));
      const { tiers, outside } = refreshNamedFiles(ctx, named);
      if (outside.length > 0) {
        throw new UsageError(`Not a memory file: ${outside.join(', ')}.`, { hint: 'Name files in .cortex/memories/ (or the global tier\'s memories directory), e.g. `cortex index .cortex/memories/<id>.md`.' });
      }
      const ms = Date.now() - started;
      warnDiagnostics(io, tiers.flatMap((t) => t.report.diagnostics));
      const summary = tiers.map((t) => ({ scope: t.scope, memories: t.index.size, ...t.report, diagnostics: t.report.diagnostics.length }));
      if (inv.json) printJson(io, { ms, tiers: summary });
      else for (const t of summary) io.out(`${t.scope}: ${t.memories} memories (${t.added} added, ${t.updated} updated, ${t.removed} removed)\n`);
      return 0;
    }
    // --rebuild starts every derived cache afresh (staleness, graph, briefings …), not only the index.
    if (bool(inv, 'rebuild')) clearDerivedCaches(ctx);
    const tiers = openIndexes(ctx, { rebuild: bool(inv, 'rebuild'), sweep: true });
    const graph = openGraph(ctx, { tiers, verify: true });
    const ms = Date.now() - started;
    warnDiagnostics(io, [...tiers.flatMap((t) => t.report.diagnostics), ...graph.diagnostics]);
    const summary = tiers.map((t) => ({ scope: t.scope, memories: t.index.size, ...t.report, diagnostics: t.report.diagnostics.length }));
    let vectors: EmbedIndexOutput | undefined;
    let embedMs = 0;
    if (embed) {
      const embedStarted = Date.now();
      vectors = await embedVectors(inv.json, io, (onProgress, signal) =>
        import('../services/embed.js').then(({ embedIndex }) =>
          embedIndex(ctx, { tiers, rebuild: bool(inv, 'rebuild'), onProgress, signal, ...(batchSize !== undefined ? { batchSize } : {}) }),
        ),
      );
      embedMs = Date.now() - embedStarted;
      warnDiagnostics(io, vectors.diagnostics);
      if (vectors.notice) io.err(`notice: ${vectors.notice}\n`);
    }
    if (inv.json) {
      printJson(io, { ms, tiers: summary, edges: graph.graph.edges.length, ...(vectors ? { embed: { ...embedJson(vectors), ms: embedMs } } : {}) });
    } else {
      for (const t of summary) io.out(`${t.scope}: ${t.memories} memories (${t.added} added, ${t.updated} updated, ${t.removed} removed)\n`);
      io.out(`graph: ${graph.graph.edges.length} edges\n`);
      if (vectors?.available) {
        for (const t of vectors.tiers) {
          io.out(
            `${t.scope} vectors: ${t.embeddable - t.missing}/${t.embeddable} (${t.embedded} embedded, ${t.cached} cached, ${t.removed} removed) with ${vectors.model}\n`,
          );
        }
      }
      io.err(`${io.paint.dim(`${ms + embedMs} ms`)}\n`);
    }
    if (vectors?.aborted) {
      const missing = vectors.tiers.reduce((n, t) => n + t.missing, 0);
      io.err(`interrupted: ${missing} memories still have no vector; what was embedded is saved. Run \`cortex index --embed\` again to resume.\n`);
      return 130;
    }
    // Asked to embed and could not: the notice above says why and how to fix it.
    if (vectors !== undefined && !vectors.available) return 1;
    return 0;
  },
};

type EmbedRun = (onProgress: (p: { phase: 'load' | 'read' | 'embed'; done: number; total: number }) => void, signal: AbortSignal | undefined) => Promise<EmbedIndexOutput>;

/** Runs the backfill with a progress display on stderr and Ctrl-C trapped (stop, save, exit 130). */
async function embedVectors(json: boolean, io: IO, run: EmbedRun): Promise<EmbedIndexOutput> {
  const signal = io.trapInterrupt?.();
  let phase: keyof typeof PHASE_LABEL | undefined;
  let progress = createProgress(io, { silent: true });
  let loading = false;
  const endLoading = () => {
    if (loading) io.err('\r\u001b[K');
    loading = false;
  };
  const result = await run((p) => {
    if (json) return;
    if (p.phase === 'load') {
      // A model load has no meaningful count: a transient line on a TTY, nothing in logs.
      if (p.done === 0 && io.stderrIsTTY) {
        io.err(`${PHASE_LABEL.load}…`);
        loading = true;
      }
      return;
    }
    endLoading();
    if (p.phase !== phase) {
      progress.finish();
      phase = p.phase;
      progress = createProgress(io, { label: PHASE_LABEL[p.phase] });
    }
    progress.update(p.done, p.total);
  }, signal);
  endLoading();
  progress.finish();
  return result;
}

function embedJson(v: EmbedIndexOutput): Record<string, unknown> {
  return {
    available: v.available,
    ...(v.notice ? { notice: v.notice } : {}),
    ...(v.available ? { model: v.model, dims: v.dims, project: v.project, modelLoaded: v.modelLoaded } : {}),
    aborted: v.aborted,
    timings: v.timings,
    tiers: v.tiers.map((t) => ({ scope: t.scope, embeddable: t.embeddable, cached: t.cached, embedded: t.embedded, removed: t.removed, missing: t.missing })),
  };
}
export default command;
