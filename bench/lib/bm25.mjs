/**
 * The plain-BM25 control of the recall benchmarks: MiniSearch with a Porter stemmer and its
 * default BM25 (k 1.2, b 0.7, d 0.5), one text field, OR queries, nothing else — no stop words,
 * no prefix or fuzzy matching, no thesaurus, no feedback, no graph. Whatever Cortex recall adds
 * on top of keyword search has to beat this on data it was never tuned on.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../locomo/dataset.mjs';

const require = createRequire(join(REPO_ROOT, 'package.json'));
const { default: MiniSearch } = await import(require.resolve('minisearch'));
const { stemmer } = await import(require.resolve('stemmer'));

/**
 * An index over `units` (`{ id, text }`); `add(unit)` adds one more; `search(query, limit)`
 * returns ids, best first (ties in MiniSearch's order, deterministic for one build).
 *
 * @example
 * plainBm25([{ id: 'a', text: 'Melanie painted a lake' }]).search('paintings', 5) // ['a']
 */
export function plainBm25(units) {
  const index = new MiniSearch({ fields: ['text'], processTerm: (term) => stemmer(term.toLowerCase()) });
  index.addAll(units);
  return {
    add(unit) {
      index.add(unit);
    },
    search(query, limit) {
      return index.search(query).slice(0, limit).map((r) => r.id);
    },
  };
}
