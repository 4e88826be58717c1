/**
 * Fallback peak-RSS probe for machines without GNU time: preloaded into a node child with
 * `node --import bench/lib/rss-preload.mjs …`, it writes "maxRSS(KB) user(s) system(s)" —
 * the same line `/usr/bin/time -f '%M %U %S'` writes — to $CORTEX_BENCH_RSS_FILE on exit.
 * A node process cannot read its children's rusage, so the probe must live in the child.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.CORTEX_BENCH_RSS_FILE;
if (file) {
  // Children of the measured process must not overwrite its figures.
  delete process.env.CORTEX_BENCH_RSS_FILE;
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${u.maxRSS} ${u.userCPUTime / 1e6} ${u.systemCPUTime / 1e6}\n`);
  });
}
