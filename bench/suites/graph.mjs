/**
 * Suite `graph`: the knowledge graph as files, whole-process, per corpus size. The
 * corpus's memories plus `generateEdges` (3 edges per memory: 30,000 at N = 10,000)
 * written as `.cortex/edges/*.md`, in a directory of its own (the foundation suite's
 * corpus stays edge-free).
 *
 *   traverse hub           `cortex traverse <most linked> --depth 3` (warm caches)
 *   traverse typical       `cortex traverse <median in-degree> --depth 3`
 *   recall enriched        `cortex recall <q>`: keyword recall + neighbours and code links
 *   recall --no-enrich     the same without the graph, for the difference
 *   after cortex link      `cortex traverse` right after a `cortex link` (graph rebuilt
 *                          from the edge cache, centrality recomputed)
 *   after a hand edit      `cortex traverse` right after an edge file was added outside
 *                          Cortex (the edge directory is re-listed and stat'ed)
 *
 * DESIGN §10 has no graph budget; the keyword-recall budget (≤ 300 ms warm) applies to
 * the enriched recall too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS_VERSION, generateCorpus, generateEdges, writeCorpus } from '../corpus.mjs';

export const BUDGETS = {
  recallWarm: { label: 'recall keyword, warm (enriched)', metric: 'wall', max: 300 },
};
export const BUDGET_N = 10_000;
export const EDGES_PER_MEMORY = 3;
export const QUERY = 'sqlite migration';

/** A corpus with edge files, cached beside the plain ones. */
async function graphCorpus(ctx, n) {
  const dir = join(ctx.out, 'corpus', `graph-n${n}-s${ctx.seed}-v${CORPUS_VERSION}`);
  const stampFile = join(dir, '.bench-corpus.json');
  const stamp = JSON.stringify({ n, seed: ctx.seed, version: CORPUS_VERSION, edges: n * EDGES_PER_MEMORY });
  const memories = generateCorpus({ n, seed: Number(ctx.seed) });
  const edges = generateEdges({ memories, n: n * EDGES_PER_MEMORY, seed: Number(ctx.seed) });
  if (!(existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)) {
    ctx.log(`generating graph corpus N = ${n}, ${edges.length} edges in ${dir} …`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeCorpus(dir, memories);
    const { renderEdge } = await import(pathToFileURL(join(ctx.root, 'dist', 'core', 'edge-format.js')).href);
    const edgesDir = join(dir, '.cortex', 'edges');
    mkdirSync(edgesDir, { recursive: true });
    for (const e of edges) writeFileSync(join(edgesDir, `${e.source}--${e.relation}--${e.target}.md`), renderEdge(e));
    writeFileSync(stampFile, stamp);
  }
  const inDegree = new Map(memories.map((m) => [m.id, 0]));
  for (const e of edges) if (e.status === 'active') inDegree.set(e.target, inDegree.get(e.target) + 1);
  const byDegree = [...inDegree].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { dir, hub: byDegree[0][0], typical: byDegree[Math.floor(byDegree.length / 2)][0], ids: memories.map((m) => m.id) };
}

function reached(stdout) {
  try {
    return JSON.parse(stdout).total;
  } catch {
    return undefined;
  }
}

/**
 * Runs the suite for every corpus size in `ctx.ns`; returns the rows (baseline included).
 *
 * @example
 * const rows = await graph(ctx);
 */
export default async function graph(ctx) {
  const rows = [];
  for (const n of ctx.ns) {
    const corpus = await graphCorpus(ctx, n);
    const dir = corpus.dir;
    const cortex = (args) => ({ cmd: ctx.node, args: [ctx.cli, ...args], cwd: dir, env: ctx.env });
    const run = (args) => spawnSync(ctx.node, [ctx.cli, ...args], { cwd: dir, env: ctx.env, encoding: 'utf8' });
    // Warm every cache once (index, edge cache, graph.v8) and age the edge directory past
    // the racy window, as any checkout is.
    run(['index']);
    await new Promise((r) => setTimeout(r, 300));
    run(['traverse', corpus.hub]);
    const hubReach = reached(run(['traverse', corpus.hub, '--depth', '3', '--json']).stdout);
    const typicalReach = reached(run(['traverse', corpus.typical, '--depth', '3', '--json']).stdout);
    ctx.log(`N = ${n}: traverse --depth 3 reaches ${hubReach} memories from the hub, ${typicalReach} from a typical memory`);

    const nonEmpty = (stdout) => (stdout.trim() === '' ? 'no output' : undefined);
    const edgesDir = join(dir, '.cortex', 'edges');
    const handEdges = [];
    const linked = [];
    const pair = (i) => [corpus.ids[(i * 7919 + 11) % corpus.ids.length], corpus.ids[(i * 104729 + 5) % corpus.ids.length]];
    const cases = [
      { name: 'traverse hub --depth 3', ...cortex(['traverse', corpus.hub, '--depth', '3']), check: nonEmpty, meta: { key: 'traverseHub', reached: hubReach } },
      { name: 'traverse typical --depth 3', ...cortex(['traverse', corpus.typical, '--depth', '3']), check: nonEmpty, meta: { key: 'traverseTypical', reached: typicalReach } },
      { name: `recall enriched: "${QUERY}"`, ...cortex(['recall', QUERY]), check: nonEmpty, meta: { key: 'recallEnriched', budgets: [BUDGETS.recallWarm] } },
      { name: `recall --no-enrich: "${QUERY}"`, ...cortex(['recall', QUERY, '--no-enrich']), check: nonEmpty, meta: { key: 'recallPlain' } },
      {
        name: 'traverse after cortex link',
        ...cortex(['traverse', corpus.typical, '--depth', '3']),
        before: (i) => {
          const [a, b] = pair(i);
          if (a === b || run(['link', a, 'exemplifies', b]).status !== 0) return;
          linked.push([a, b]);
        },
        check: nonEmpty,
        meta: { key: 'afterLink' },
      },
      {
        name: 'traverse after an edge file added by hand',
        ...cortex(['traverse', corpus.typical, '--depth', '3']),
        before: (i) => {
          const [a, b] = pair(i + 1000);
          if (a === b) return;
          const name = `${a}--derived_from--${b}.md`;
          const tmp = join(edgesDir, `.${name}.tmp`);
          writeFileSync(tmp, `---\nsource: ${a}\ntarget: ${b}\nrelation: derived_from\nstrength: 0.5\nstatus: active\nbidirectional: false\norigin: manual\ncreated: 2026-11-20T12:00:00Z\n---\n`);
          renameSync(tmp, join(edgesDir, name));
          handEdges.push(name);
        },
        check: nonEmpty,
        meta: { key: 'afterHandEdit' },
      },
    ];

    try {
      const summaries = await ctx.measure(`N = ${n.toLocaleString('en-US')}, ${readdirSync(edgesDir).length.toLocaleString('en-US')} edge files`, cases);
      for (const s of summaries) rows.push(ctx.row({ ...s, n }, n === BUDGET_N && !s.isBaseline ? (s.budgets ?? []) : []));
    } finally {
      // Back to the generated graph, so the next run measures the same thing.
      for (const name of handEdges) rmSync(join(edgesDir, name), { force: true });
      for (const [a, b] of linked) run(['unlink', a, 'exemplifies', b]);
    }
  }
  return rows;
}
