/**
 * Generated corpora cached on disk: `<out>/corpus/n<N>-s<seed>-v<version>/`, with a stamp
 * file written last, so a half-written or edited corpus is regenerated.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_VERSION, generateCorpus, writeCorpus } from '../corpus.mjs';

/**
 * Returns a project directory holding the corpus of `n` memories for `seed`, generating it
 * when missing or stale. `files`: absolute paths of the memory files, sorted.
 * A caller that edits files calls `markDirty()` first and `markClean()` after restoring them.
 *
 * @example
 * const { dir, files } = ensureCorpus({ out: 'bench/.out', n: 10000, seed: 1 });
 */
export function ensureCorpus({ out, n, seed = 1, log = () => {} }) {
  const dir = join(out, 'corpus', `n${n}-s${seed}-v${CORPUS_VERSION}`);
  const stampFile = join(dir, '.bench-corpus.json');
  const stamp = JSON.stringify({ n, seed, version: CORPUS_VERSION });
  const memoriesDir = join(dir, '.cortex', 'memories');
  const fresh = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (!fresh) {
    log(`generating corpus N = ${n} (seed ${seed}) in ${dir} …`);
    rmSync(stampFile, { force: true });
    mkdirSync(dir, { recursive: true });
    writeCorpus(dir, generateCorpus({ n, seed }));
    writeFileSync(stampFile, stamp);
  }
  const files = readdirSync(memoriesDir).filter((f) => f.endsWith('.md')).sort().map((f) => join(memoriesDir, f));
  return {
    dir,
    files,
    markDirty: () => rmSync(stampFile, { force: true }),
    markClean: () => writeFileSync(stampFile, stamp),
  };
}

/**
 * The environment every benchmark child gets: no global tier, no colour, no inherited
 * NODE_OPTIONS, and a code cache of its own (src/cli.ts; `CORTEX_CODE_CACHE=off` in the
 * caller's environment measures without it).
 */
export function benchEnv(out) {
  const env = { ...process.env, CORTEX_HOME: join(out, 'cortex-home-empty'), CORTEX_CODE_CACHE: process.env.CORTEX_CODE_CACHE ?? join(out, 'code-cache'), NO_COLOR: '1' };
  // Inherited flags (a debugger, --max-old-space-size) would change what is measured.
  delete env.NODE_OPTIONS;
  delete env.FORCE_COLOR;
  return env;
}
