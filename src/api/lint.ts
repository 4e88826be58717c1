/**
 * `lint`: every problem in `.cortex/`, file by file, with a fix hint for each.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../core/memory.js';
import { findSecrets } from '../core/redact.js';
import { shellQuote } from '../core/shell.js';
import { displayPath, listMemoryFiles, readMemoryFile } from '../store/memory-store.js';
import { isTempFileName } from '../store/atomic.js';
import type { Context } from '../services/context.js';

export interface LintOutput {
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
  filesChecked: number;
}

/** The temporary files atomic writes use (`.<name>.<pid>.<random>.tmp`, see store/atomic.ts). */

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.ruleId.localeCompare(b.ruleId);
}

/** Temporary files that interrupted writes left under `.cortex/`: git would commit them. */
function tempFileDiagnostics(ctx: Context): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const dir of [ctx.paths.cortexDir, ctx.paths.memoriesDir, ctx.paths.edgesDir, ctx.local.memoriesDir, ctx.local.edgesDir]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.filter(isTempFileName).sort()) {
      const file = displayPath(join(dir, name), ctx.root);
      out.push({ file, reason: 'is the temporary file of an interrupted write', ruleId: 'temp-file', severity: 'warning', hint: `Delete it (rm ${file}); \`cortex lifecycle\` removes such files too.` });
    }
  }
  return out;
}

/**
 * Reads every memory file (no cache) and reports each problem.
 *
 * @example
 * const { errors } = await lint(ctx); // 0 when everything is valid
 */
export async function lint(ctx: Context): Promise<LintOutput> {
  const diagnostics: Diagnostic[] = [...ctx.configDiagnostics];
  const shared = listMemoryFiles(ctx.paths, { base: ctx.root, skipped: diagnostics });
  // The private tier is checked like the shared one (same format), and each is told apart.
  const privateEntries = listMemoryFiles(ctx.local, { base: ctx.root, skipped: diagnostics });
  const entries = [...shared, ...privateEntries];
  const topics = new Map<string, string[]>();
  for (const [i, entry] of entries.entries()) {
    const shown = displayPath(entry.path, ctx.root);
    const read = readMemoryFile(entry, shown);
    diagnostics.push(...read.diagnostics);
    const m = read.memory;
    const inPrivate = i >= shared.length;
    // The redaction gate over the file as written (a secret typed or pasted in by hand):
    // the same rules as the pre-commit hook, with the line and the rule.
    if (read.text !== undefined) {
      for (const f of findSecrets(read.text)) {
        diagnostics.push({
          file: shown,
          line: f.line,
          reason: `looks like a secret (${f.kind})`,
          ruleId: `secret:${f.kind}`,
          severity: inPrivate ? 'warning' : 'error',
          hint: 'Remove the secret from the file, and rotate it if it was ever committed.',
        });
      }
    }
    if (m && !inPrivate && (m.scope === 'local' || m.extra.private === true)) {
      diagnostics.push({ file: shown, reason: 'is marked private but is in the shared tier .cortex/memories/ (it would be committed)', ruleId: 'private-in-shared-tier', severity: 'error', hint: `Move it to the private tier: mkdir -p ${shellQuote(displayPath(ctx.local.memoriesDir, ctx.root))} && mv ${shown} ${shellQuote(displayPath(ctx.local.memoriesDir, ctx.root))}/ (and set scope: local), or remove the private mark.` });
    }
    if (m && inPrivate && m.scope !== 'local') {
      diagnostics.push({ file: shown, reason: `is in the private tier but says scope: ${m.scope}`, ruleId: 'private-scope', severity: 'warning', hint: 'Set scope: local in its frontmatter.' });
    }
    if (m?.topic && m.status === 'active') {
      const key = `${m.scope}\0${m.topic}`;
      topics.set(key, [...(topics.get(key) ?? []), shown]);
    }
  }
  for (const [key, files] of topics) {
    if (files.length < 2) continue;
    const topic = key.split('\0')[1];
    for (const file of files.slice(1)) {
      diagnostics.push({
        file,
        reason: `topic "${topic}" is also used by ${files[0]}; one topic should have one active memory`,
        ruleId: 'topic-duplicate',
        severity: 'warning',
        hint: 'Merge them with `cortex consolidate --merge`, or give one another topic with `cortex edit`.',
      });
    }
  }
  diagnostics.push(...tempFileDiagnostics(ctx));
  // The graph's rules (edges, [[links]], conflict markers), loaded only when lint runs.
  const { graphLintRule } = await import('./graph-lint.js');
  diagnostics.push(...graphLintRule(ctx));
  diagnostics.sort(compareDiagnostics);
  return {
    diagnostics,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    filesChecked: entries.length,
  };
}
