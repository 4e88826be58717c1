/**
 * Suite `foundation`: the keyword paths of the first release, whole-process, per corpus size.
 *
 *   recall cold          `cortex recall <q>` with no .memory/ (parse every file, build, save)
 *   recall warm          `cortex recall <q>` with a current index (load index.v8, stat files, search)
 *   index, no change     `cortex index` when nothing changed (load + stat, no save)
 *   index, 1 changed     `cortex index` after one memory file was edited (load, stat, re-parse 1, save)
 *   index --rebuild      `cortex index --rebuild` (parse every file, build, save)
 *
 * Each case runs interleaved with `node -e 0`; budgets (DESIGN §10) apply at 10,000 memories.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** DESIGN §10, for N = 10,000. Time budgets are wall-clock medians; memory is the peak over all runs. */
export const BUDGETS = {
  recallWarm: { label: 'recall keyword, warm', metric: 'wall', max: 300 },
  incremental: { label: 'incremental refresh, 1 file', metric: 'wall', max: 400 },
  rebuild: { label: 'full rebuild, keyword only', metric: 'wall', max: 3000 },
  peakRss: { label: 'peak memory, keyword path', metric: 'rss', max: 300 },
};
export const BUDGET_N = 10_000;

/** A keyword query and a natural-language question (thesaurus expansion and type hints). */
export const QUERIES = ['sqlite migration', 'why did we pick the retry policy'];

function parseJson(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/**
 * Runs the suite for every corpus size in `ctx.ns`; returns the rows (baseline included).
 *
 * @example
 * const rows = await foundation(ctx);
 */
export default async function foundation(ctx) {
  const rows = [];
  for (const n of ctx.ns) {
    const corpus = await ctx.corpus(n);
    const dir = corpus.dir;
    const indexFile = join(dir, '.memory', 'index.v8');
    const cortex = (args) => ({ cmd: ctx.node, args: [ctx.cli, ...args], cwd: dir, env: ctx.env });
    const originals = new Map();
    const nonEmpty = (stdout) => (stdout.trim() === '' ? 'no results' : undefined);
    let indexMtime;

    const cases = [
      {
        name: `recall cold: "${QUERIES[0]}"`,
        ...cortex(['recall', QUERIES[0]]),
        before: () => rmSync(join(dir, '.memory'), { recursive: true, force: true }),
        check: nonEmpty,
        meta: { key: 'recallCold' },
      },
      ...QUERIES.map((q, k) => ({
        name: `recall warm: "${q}"`,
        ...cortex(['recall', q]),
        before: () => {
          indexMtime = statSync(indexFile).mtimeMs;
        },
        // A warm recall that rewrites the index was not warm: the figure would be wrong.
        check: (stdout) => nonEmpty(stdout) ?? (statSync(indexFile).mtimeMs !== indexMtime ? 'the index was rewritten' : undefined),
        meta: { key: `recallWarm${k}`, budgets: [BUDGETS.recallWarm] },
      })),
      {
        name: 'index, no change',
        ...cortex(['index', '--json']),
        check: (stdout) => {
          const t = parseJson(stdout)?.tiers?.[0];
          return t && t.memories === n && t.added + t.updated + t.removed === 0 ? undefined : 'expected an unchanged index';
        },
        meta: { key: 'refreshNoop' },
      },
      {
        name: 'index, 1 file changed',
        ...cortex(['index', '--json']),
        before: (i) => {
          const file = corpus.files[(i * 7919) % corpus.files.length];
          const text = originals.get(file) ?? readFileSync(file, 'utf8');
          if (!originals.has(file)) {
            corpus.markDirty();
            originals.set(file, text);
          }
          writeFileSync(file, `${text}\nEdited by the benchmark, run ${i}.\n`);
        },
        check: (stdout) => {
          const t = parseJson(stdout)?.tiers?.[0];
          return t && t.updated === 1 && t.added === 0 && t.removed === 0 ? undefined : `expected 1 updated, got ${stdout.trim()}`;
        },
        meta: { key: 'incremental', budgets: [BUDGETS.incremental] },
      },
      {
        name: 'index --rebuild',
        ...cortex(['index', '--rebuild', '--json']),
        check: (stdout) => (parseJson(stdout)?.tiers?.[0]?.added === n ? undefined : `expected ${n} added`),
        meta: { key: 'rebuild', budgets: [BUDGETS.rebuild] },
      },
    ];

    try {
      const summaries = await ctx.measure(`N = ${n.toLocaleString('en-US')}`, cases);
      for (const s of summaries) {
        const budgets = n === BUDGET_N && !s.isBaseline ? [...(s.budgets ?? []), BUDGETS.peakRss] : [];
        rows.push(ctx.row({ ...s, n }, budgets));
      }
    } finally {
      for (const [file, text] of originals) writeFileSync(file, text);
      if (originals.size > 0) corpus.markClean();
    }
  }
  return rows;
}
