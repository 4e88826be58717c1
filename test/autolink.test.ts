/**
 * Auto-linking on write, against a fixture corpus whose word overlaps put one memory in
 * each tier by construction; the expected tier of each is computed from the thresholds and
 * the rarity-weighted overlap, with document frequencies counted over the corpus.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoLinkMemory } from '../src/services/autolink.js';
import { openCortex, type Cortex } from '../src/api/cortex.js';
import { openTierIndex } from '../src/services/indexes.js';
import { listReview } from '../src/cache/review-queue.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { parseEdge } from '../src/core/edge-format.js';
import type { Memory } from '../src/core/memory.js';
import { rarityOverlap } from '../src/core/similarity.js';
import { analyze } from '../src/core/text.js';
import { projectFor, vectorKey } from '../src/services/embed.js';
import { embedSettings } from '../src/services/embed-settings.js';
import { createTestEmbedder } from '../src/embed/test-embedder.js';
import { contentKeyOf } from '../src/cache/index/keyword-index.js';
import { VectorCache, saveVectorCache } from '../src/cache/vectors.js';
import { tempRepo, type TempRepo } from './helpers/repo.js';

// Ten made-up words: no stop words, no stems in common.
const W = ['zephyr', 'quokka', 'lumen', 'vortex', 'nimbus', 'cobalt', 'tundra', 'saffron', 'ember', 'glyph'];
const NEW = { summary: W.slice(0, 4).join(' '), body: W.slice(4).join(' ') };
const other = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${'abcdefghij'[i]}word`);

/** Each shares some of the new memory's ten words and adds words of its own (weighted overlap in the comment). */
const CORPUS = {
  none: { summary: `${W[0]} ${other('a', 4).join(' ')}`, body: other('b', 5).join(' ') }, // 0.02
  relates: { summary: `${W[1]} ${W[8]} ${other('c', 2).join(' ')}`, body: `${W[9]} ${other('d', 3).join(' ')}` }, // 0.20
  suggested: { summary: `${W.slice(0, 3).join(' ')} ${other('e', 1).join(' ')}`, body: `${W.slice(5, 9).join(' ')} ${other('f', 1).join(' ')}` }, // 0.45
  duplicate: { summary: W.slice(0, 4).join(' '), body: `${W.slice(4, 8).join(' ')} ${other('g', 1).join(' ')}` }, // 0.72
};

type Tier = 'nothing' | 'relates' | 'suggested' | 'consolidate';

function tierOf(score: number): Tier {
  const t = DEFAULT_CONFIG.autolink;
  return score >= t.consolidateMin ? 'consolidate' : score >= t.suggestedMin ? 'suggested' : score >= t.relatesMin ? 'relates' : 'nothing';
}

const words = (m: { summary: string; body: string }) => new Set(analyze(`${m.summary}\n${m.body}`));

/** The score auto-linking gives `m` against NEW in a store holding CORPUS and NEW. */
function scoreOf(m: { summary: string; body: string }): number {
  const docs = [NEW, ...Object.values(CORPUS)].map(words);
  return rarityOverlap(words(NEW), words(m), { docFreq: (t) => docs.filter((d) => d.has(t)).length, totalDocs: docs.length }).score;
}

async function setup(repo: TempRepo, filler = 0): Promise<{ cortex: Cortex; ids: Record<keyof typeof CORPUS, string> }> {
  repo.cortex(['init']);
  const cortex = openCortex({ dir: repo.dir, env: repo.env });
  const ids = {} as Record<keyof typeof CORPUS, string>;
  for (const [name, m] of Object.entries(CORPUS)) {
    ids[name as keyof typeof CORPUS] = (await cortex.remember({ ...m, type: 'context', autoLink: false })).memory.id;
  }
  for (let i = 0; i < filler; i++) {
    await cortex.remember({ summary: `${W[i % 4]} filler note ${i}`, body: `padding text number ${i}`, autoLink: false });
  }
  return { cortex, ids };
}

function edgeFiles(repo: TempRepo) {
  return repo.list('.cortex/edges').map((name) => parseEdge(repo.read(`.cortex/edges/${name}`), { file: `.cortex/edges/${name}` }).edge!);
}

describe('auto-linking on remember', () => {
  it('creates the tiered edges the thresholds imply, queues the duplicate, and never writes supersedes', async () => {
    const repo = tempRepo();
    const { cortex, ids } = await setup(repo);
    const expectedTier = Object.fromEntries(Object.entries(CORPUS).map(([name, m]) => [name, tierOf(scoreOf(m))]));
    // The corpus is built so that each tier occurs exactly once.
    expect(Object.values(expectedTier).sort()).toEqual(['consolidate', 'nothing', 'relates', 'suggested']);

    const result = await cortex.remember({ ...NEW, type: 'context', topic: 'test/new' });
    const id = result.memory.id;
    const edges = edgeFiles(repo);
    for (const [name, other] of Object.entries(ids)) {
      const tier = expectedTier[name];
      const linking = edges.filter((e) => (e.source === id && e.target === other) || (e.source === other && e.target === id));
      if (tier === 'relates' || tier === 'suggested') {
        expect(linking, name).toHaveLength(1);
        expect(linking[0]).toMatchObject({
          source: id,
          target: other,
          relation: 'relates_to',
          status: tier === 'relates' ? 'active' : 'suggested',
          bidirectional: true,
          origin: 'jaccard',
        });
        expect(linking[0]!.strength).toBeCloseTo(scoreOf(CORPUS[name as keyof typeof CORPUS]), 3);
      } else {
        expect(linking, name).toEqual([]);
      }
    }
    expect(edges.filter((e) => e.relation !== 'relates_to')).toEqual([]);
    expect(result.links!.consolidate).toEqual([{ a: id, b: ids.duplicate, score: expect.closeTo(scoreOf(CORPUS.duplicate), 6) }]);
    expect(listReview(cortex.context.paths, { kind: 'consolidate' })).toEqual([expect.objectContaining({ a: id, b: ids.duplicate })]);

    // What consolidate lists for review, and what accept and reject do.
    const list = await cortex.consolidate.list();
    expect(list.duplicates.map((d) => [d.a.id, d.b.id])).toEqual([[id, ids.duplicate]]);
    expect(list.suggested.map((s) => [s.source.id, s.target.id])).toEqual([[id, ids.suggested]]);
    expect((await cortex.consolidate.accept({ a: ids.suggested, b: id })).edges).toHaveLength(1);
    expect(edgeFiles(repo).find((e) => e.target === ids.suggested)?.status).toBe('active');
    expect(await cortex.consolidate.reject({ a: id, b: ids.duplicate })).toEqual({ edges: [], dismissed: true });
    expect(await cortex.consolidate.list()).toEqual({ duplicates: [], suggested: [], supersedes: [] });

    // An update of the same memory links nothing twice and does not bring back the rejected pair.
    const before = repo.list('.cortex/edges');
    const again = await cortex.remember({ ...NEW, body: `${NEW.body} extra`, type: 'context', topic: 'test/new' });
    expect(again.action).toBe('updated');
    expect(again.links!.consolidate).toEqual([]);
    expect(repo.list('.cortex/edges')).toEqual(before);
    expect(listReview(cortex.context.paths, { kind: 'consolidate' })).toEqual([]);
  });

  it('lists and dismisses the duplicates of global memories, from the global tier', async () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    const dup = (await cortex.remember({ ...CORPUS.duplicate, type: 'context', scope: 'global', autoLink: false })).memory.id;
    const result = await cortex.remember({ ...NEW, type: 'context', scope: 'global', topic: 'test/global' });
    const id = result.memory.id;
    expect(result.links!.consolidate).toEqual([expect.objectContaining({ a: id, b: dup })]);
    expect(listReview(cortex.context.global, { kind: 'consolidate' })).toHaveLength(1);
    expect((await cortex.consolidate.list()).duplicates.map((d) => [d.a.id, d.b.id])).toEqual([[id, dup]]);
    expect(await cortex.consolidate.reject({ a: id, b: dup })).toEqual({ edges: [], dismissed: true });
    expect(await cortex.consolidate.list()).toEqual({ duplicates: [], suggested: [], supersedes: [] });
    expect(listReview(cortex.context.global, { kind: 'rejected' })).toHaveLength(1);
    expect(listReview(cortex.context.paths, {})).toEqual([]);
    // Rejected, in the queue auto-linking reads: updating the memory proposes the pair no more.
    const again = await cortex.remember({ ...NEW, body: `${NEW.body} again`, type: 'context', scope: 'global', topic: 'test/global' });
    expect(again.memory.id).toBe(id);
    expect(again.links!.consolidate).toEqual([]);
  });

  it('compares a bounded number of candidates from the index, not every memory', async () => {
    const repo = tempRepo();
    const { cortex } = await setup(repo, 40);
    const result = await cortex.remember({ ...NEW, type: 'context' });
    expect(result.links!.compared).toBe(20);
  });

  it('never links memories whose only shared words are common ones, and links at most maxEdges', async () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    // Chat turns: every one says who spoke and when; each has one word of its own.
    const own = (i: number) => `${'bcdfghjklm'[i % 10]}${'aeiou'[Math.floor(i / 10) % 5]}${'xyz'[Math.floor(i / 50)]}ber`;
    for (let i = 0; i < 60; i++) {
      await cortex.remember({ summary: `Caroline said today on 8 May 2023 at the lake: ${own(i)}`, type: 'context', autoLink: false });
    }
    const alone = await cortex.remember({ summary: 'Caroline said today on 8 May 2023 at the lake: quokkas', type: 'context' });
    expect(alone.links!.compared).toBeGreaterThan(0);
    expect(alone.links!.edges).toEqual([]);
    expect(alone.links!.consolidate).toEqual([]);

    // Six memories share two rarer words with the next one: three edges, to the closest.
    const potters: string[] = [];
    for (let i = 0; i < 6; i++) {
      const extra = Array.from({ length: i }, (_, k) => own(100 + 10 * i + k)).join(' ');
      potters.push((await cortex.remember({ summary: `Melanie pottery class glaze ${extra}`.trim(), type: 'context', autoLink: false })).memory.id);
    }
    const linked = await cortex.remember({ summary: 'Caroline said today on 8 May 2023: pottery class glaze and kilns', type: 'context' });
    expect(linked.links!.consolidate).toEqual([]);
    expect(linked.links!.edges.map((e) => e.target)).toEqual(potters.slice(0, DEFAULT_CONFIG.autolink.maxEdges));
    const strengths = linked.links!.edges.map((e) => e.strength);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
  });

  it('compares a memory changed on disk by its new text, though a long-lived process kept the terms of the old one', async () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    const [oldWords, newWords] = [W.slice(0, 5), W.slice(5)];
    // Longer than the index's preview: the terms come from the file, then from what was kept.
    const long = (words: string[], times: number) => `${words.join(' ')} `.repeat(times).trim();
    const ledger = await cortex.remember({ summary: 'ledger notes', body: long(oldWords, 8), type: 'context', autoLink: false });
    for (let i = 0; i < 6; i++) await cortex.remember({ summary: other('abcdef'[i]!, 3).join(' '), type: 'context', autoLink: false });
    const near = (r: Awaited<ReturnType<Cortex['remember']>>) => [...r.links!.edges.map((e) => e.target), ...r.links!.consolidate.flatMap((c) => [c.a, c.b])];

    const first = await cortex.remember({ summary: oldWords.slice(0, 3).join(' '), body: oldWords.slice(3).join(' '), type: 'context' });
    expect(near(first)).toContain(ledger.memory.id);
    // Another program rewrites the ledger's body (same summary, other words).
    const file = join(repo.dir, ledger.file);
    writeFileSync(file, readFileSync(file, 'utf8').replace(long(oldWords, 8), long(newWords, 9)));
    await new Promise((r) => setTimeout(r, 50));
    const second = await cortex.remember({ summary: newWords.slice(0, 3).join(' '), body: newWords.slice(3).join(' '), type: 'context' });
    expect(near(second)).toContain(ledger.memory.id);
    const third = await cortex.remember({ summary: `${oldWords.slice(0, 4).join(' ')} again`, body: oldWords[4]!, type: 'context' });
    expect(near(third)).toContain(first.memory.id);
    expect(near(third)).not.toContain(ledger.memory.id);
  });

  it('uses the cosine from .memory/vectors.bin when it exists, without loading a model', async () => {
    const repo = tempRepo();
    const { cortex, ids } = await setup(repo);
    const ctx = cortex.context;
    // The "none" memory shares one word but means the same: its vector says so.
    const same = new Float32Array([1, 0, 0]);
    // Written under the key and model identity the embedding indexer uses.
    const cache = new VectorCache({ model: embedSettings(ctx).identity });
    const key = (m: Pick<Memory, 'type' | 'summary' | 'body'>) => vectorKey({ contentKey: contentKeyOf(m) }, projectFor(ctx, 'project'));
    cache.set(key({ type: 'context', ...NEW }), same);
    cache.set(key({ type: 'context', ...CORPUS.none }), new Float32Array([0.95, 0.31, 0]));
    await saveVectorCache(join(ctx.paths.cacheDir, 'vectors.bin'), cache);

    const result = await cortex.remember({ ...NEW, type: 'context' });
    const edge = result.links!.edges.find((e) => e.target === ids.none);
    expect(edge).toBeUndefined(); // cosine ≈ 0.95: a duplicate, not an edge
    expect(result.links!.consolidate.map((c) => c.b).sort()).toEqual([ids.duplicate, ids.none].sort());

    // With an explicit lookup the cosine picks the tier; null switches it off.
    const tier = openTierIndex(ctx, 'project');
    const memory = cortex.get(result.memory.id).memory;
    const lowCosine = await autoLinkMemory(ctx, { tier, memory, options: { vectors: { get: (m) => (m.summary === CORPUS.none.summary ? new Float32Array([0.3, 0.95, 0]) : same) } } });
    expect(lowCosine.edges.find((e) => e.target === ids.none)).toMatchObject({ origin: 'embedding', status: 'active' });
    const written = readFileSync(join(repo.dir, lowCosine.edges.find((e) => e.target === ids.none)!.file), 'utf8');
    expect(written).toMatch(/cosine 0\.3/);
  });

  it('finds the vectors the embedding indexer wrote, and embeds the new memory with the embedder at hand', async () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    // One synonym group holds every word of the new memory and of "none": to this embedder
    // they say the same thing, while they share only one word (Jaccard 1/19).
    const embedder = createTestEmbedder({ synonyms: [[...words(NEW), ...words(CORPUS.none)]] });
    const cortex = openCortex({ dir: repo.dir, env: repo.env, embedder });
    const none = (await cortex.remember({ ...CORPUS.none, type: 'context', autoLink: false })).memory.id;
    expect((await cortex.embed()).tiers.some((t) => t.embedded > 0)).toBe(true);

    const result = await cortex.remember({ ...NEW, type: 'context' });
    expect(result.links!.consolidate.map((c) => c.b)).toEqual([none]);
    // Without the embedder the same write falls back to Jaccard, which links nothing.
    const plain = openCortex({ dir: repo.dir, env: repo.env });
    const again = await plain.remember({ summary: `${NEW.summary} again`, body: NEW.body, type: 'context' });
    expect(again.links!.consolidate.map((c) => c.b)).not.toContain(none);
  });
});
