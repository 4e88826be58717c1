/**
 * `doctor`: is this clone set up the way Cortex needs? Each check says what is wrong and
 * the command that fixes it. The classic trap it catches: a `.gitattributes` entry
 * `merge=cortex` in a clone whose git config has no such driver, where git silently
 * falls back to a text merge.
 */
import { existsSync } from 'node:fs';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { commonGitDirOf } from '../git/head.js';
import { computeStaleness } from '../cache/staleness.js';
import { openSearchIndex, searchIndexPath, type SearchIndex } from '../cache/index/search-index.js';
import { findGitRoot } from '../store/paths.js';
import type { Context } from '../services/context.js';
import { inspectGitSetup } from './git-setup.js';
import { project } from '../api/project.js';

export interface DoctorCheck {
  /** Stable name: `git`, `attributes`, `driver`, `hook:pre-commit`, `gitignore`, `projections`, `index`, `staleness`. */
  id: string;
  /** `error` makes doctor fail; `warning` and `info` do not. */
  severity: 'ok' | 'info' | 'warning' | 'error';
  message: string;
  /** The command (or edit) that fixes it. */
  fix?: string | undefined;
}

export interface DoctorOutput {
  ok: boolean;
  checks: DoctorCheck[];
}

async function gitChecks(ctx: Context, root: string): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const state = await inspectGitSetup(root);
  const declaresDriver = state.attributes.declared.length > 0;
  if (state.attributes.missing.length === 0) {
    checks.push({ id: 'attributes', severity: 'ok', message: '.gitattributes declares merge=cortex for .cortex/' });
  } else {
    checks.push({
      id: 'attributes',
      severity: 'error',
      message: `.gitattributes lacks ${state.attributes.missing.length === 5 ? 'the cortex entries' : state.attributes.missing.map((l) => `"${l}"`).join(', ')}: memories and projections merge as plain text`,
      fix: 'cortex init (then commit .gitattributes)',
    });
  }
  if (!state.driver.configured) {
    checks.push({
      id: 'driver',
      severity: 'error',
      message: declaresDriver
        ? '.gitattributes names the merge driver "cortex", but this clone does not configure it (merge.cortex.driver): git silently falls back to a text merge'
        : 'the merge driver "cortex" is not configured in this clone (merge.cortex.driver)',
      fix: "cortex init   (or: git config merge.cortex.driver 'cortex merge-driver %O %A %B %P %L')",
    });
  } else if (!state.driver.runnable) {
    checks.push({
      id: 'driver',
      severity: 'error',
      message: `the merge driver cannot run: ${state.driver.reason ?? 'its command is missing'} (merge.cortex.driver = ${state.driver.command})`,
      fix: 'cortex init   (records the cortex that runs it)',
    });
  } else {
    checks.push({ id: 'driver', severity: 'ok', message: `merge driver configured: ${state.driver.command}` });
  }
  const lefthook = state.hookHome.kind === 'lefthook';
  for (const h of state.hooks) {
    if (!h.installed) {
      checks.push({
        id: `hook:${h.event}`,
        severity: 'error',
        message: `${h.event} hook not installed (${h.where})`,
        fix: lefthook ? 'cortex init, then lefthook install' : 'cortex init',
      });
    } else if (h.outdated) {
      checks.push({ id: `hook:${h.event}`, severity: 'warning', message: `${h.event} hook is from another cortex version (${h.where})`, fix: 'cortex init' });
    } else {
      checks.push({ id: `hook:${h.event}`, severity: 'ok', message: `${h.event} hook installed (${h.where})` });
    }
  }
  let ignored = false;
  try {
    ignored = await git.isIgnored({ fs, dir: root, gitdir: commonGitDirOf(root), filepath: '.memory/index.v8' });
  } catch {
    ignored = false;
  }
  checks.push(
    ignored
      ? { id: 'gitignore', severity: 'ok', message: '.memory/ (local cache) is ignored by git' }
      : { id: 'gitignore', severity: 'error', message: '.memory/ is not in .gitignore: personal caches could be committed', fix: 'cortex init' },
  );
  return checks;
}

function indexCheck(ctx: Context): DoctorCheck & { index: SearchIndex } {
  const file = searchIndexPath(ctx.paths);
  const existed = existsSync(file);
  const index = openSearchIndex(ctx.paths);
  const report = index.refresh(ctx.paths, { base: ctx.root });
  const broken = new Set(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  if (broken.size > 0) {
    return { index, id: 'index', severity: 'error', message: `${broken.size} memory file(s) cannot be read, so search skips them (${[...broken].slice(0, 3).join(', ')})`, fix: 'cortex lint' };
  }
  if (existed && index.rebuilt) {
    return { index, id: 'index', severity: 'warning', message: 'the search index cache is corrupt or from another version; it is rebuilt on next use', fix: 'cortex index --rebuild' };
  }
  if (!existed) return { index, id: 'index', severity: 'info', message: 'no search index yet; it is built on first use', fix: 'cortex index' };
  return { index, id: 'index', severity: 'ok', message: `search index healthy (${index.size} memories)` };
}

/**
 * Runs every check. `ok` is false when any check is an error.
 *
 * @example
 * const { ok, checks } = await doctor(ctx);
 * checks.filter((c) => c.severity === 'error').map((c) => `${c.message} → ${c.fix}`)
 */
export async function doctor(ctx: Context): Promise<DoctorOutput> {
  const checks: DoctorCheck[] = [];
  const root = findGitRoot(ctx.root);
  if (!root) {
    checks.push({ id: 'git', severity: 'warning', message: 'not a git repository: no merge driver, hooks or branch awareness', fix: 'git init && cortex init' });
  } else {
    checks.push({ id: 'git', severity: 'ok', message: `git repository at ${root}` });
    checks.push(...(await gitChecks(ctx, root)));
  }
  const p = await project(ctx, { check: true });
  const stale = p.files.filter((f) => f.state !== 'unchanged');
  checks.push(
    stale.length === 0
      ? { id: 'projections', severity: 'ok', message: `projections up to date (${p.listed} memories listed)` }
      : { id: 'projections', severity: 'error', message: `projections out of date: ${stale.map((f) => `${f.file} (${f.state})`).join(', ')}`, fix: 'cortex project (then commit them)' },
  );
  const { index, ...check } = indexCheck(ctx);
  checks.push(check);
  if (root) {
    try {
      const active = [...index.docs.values()].filter((d) => d.status === 'active');
      const reasons = await computeStaleness(ctx, active.map((d) => ({ id: d.id, source: { commit: d.commit, files: d.files, branch: d.branch } })));
      const ids = Object.keys(reasons).sort();
      if (ids.length > 0) {
        const examples = ids.slice(0, 2).map((id) => `${id}: ${reasons[id]![0]}`);
        checks.push({
          id: 'staleness',
          severity: 'info',
          message: `${ids.length} memor${ids.length === 1 ? 'y' : 'ies'} may be outdated (${examples.join('; ')}); the briefing marks them [POSSIBLY OUTDATED]`,
          fix: 'review them with `cortex show <id>`; update or archive with `cortex edit` / `cortex forget`',
        });
      } else checks.push({ id: 'staleness', severity: 'ok', message: 'no memory refers to a file changed since it was recorded' });
    } catch {
      // Staleness is advice; a failure to compute it is not a broken setup.
    }
  }
  const { describeCapture } = await import('./capture-config.js');
  checks.push({ id: 'capture', ...describeCapture(ctx) });
  return { ok: !checks.some((c) => c.severity === 'error'), checks };
}

