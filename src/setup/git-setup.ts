/**
 * The git side of `cortex init` (like `git lfs install`: idempotent, safe to re-run):
 * `.gitattributes` entries, the merge driver in this clone's git config, and the git hooks.
 * Also what `cortex doctor` inspects. Reads and writes the config with isomorphic-git.
 *
 * Hooks go where the repository runs them: `core.hooksPath` when set, husky's `.husky/`
 * scripts, lefthook's config, else `.git/hooks`. A hook that is already there is never
 * overwritten: it is kept as `<hook>.pre-cortex` and run first by ours; in husky and
 * lefthook files a marked block is added or updated in place.
 */
import { chmodSync, existsSync, readFileSync, renameSync } from 'node:fs';
import * as fs from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import git from 'isomorphic-git';
import { loadYaml } from '../core/lazy.js';
import { writeFileAtomic } from '../store/atomic.js';
import { findGitRoot } from '../store/paths.js';
import { readHookTemplate } from '../templates.js';
import { commonGitDirOf } from '../git/head.js';
import { upgradeIntentToAdd } from '../services/stage.js';
import { ensureLine, type InitStep } from './step.js';
import type { Context } from '../services/context.js';

export const GIT_HOOK_EVENTS = ['pre-commit', 'post-merge', 'post-checkout', 'post-rewrite'] as const;
export type GitHookEvent = (typeof GIT_HOOK_EVENTS)[number];

export const ATTRIBUTES_HEADER = '# Cortex: merge drivers for memories, edges and the generated projections (cortex init)';
export const ATTRIBUTE_LINES = [
  '.cortex/memories/*.md merge=cortex',
  '.cortex/edges/*.md merge=cortex',
  '.cortex/decisions.md merge=cortex linguist-generated',
  '.cortex/plan.md merge=cortex linguist-generated',
  '.cortex/decisions-archive.md merge=cortex linguist-generated',
] as const;

/** Marks our own hook scripts, so a re-run updates them instead of chaining them. */
export const HOOK_SIGNATURE = '# cortex-hook:';
/** Suffix of a hook that was there before: ours runs it first. */
export const CHAINED_SUFFIX = '.pre-cortex';

export interface GitSetupOptions {
  /**
   * How hooks and the merge driver run cortex, as a shell command (quoted words).
   * Recorded as `cortex.command` in this clone's git config. Default `cortex`.
   */
  cortexCommand?: string;
}

/** The driver line: git substitutes (and quotes) %O %A %B %P %L. */
export function driverCommand(cortexCommand: string): string {
  return `${cortexCommand} merge-driver %O %A %B %P %L`;
}

const LEFTHOOK_FILES = ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml'];

export type HookHome =
  | { kind: 'hooks-dir'; dir: string; via: 'git-dir' | 'core.hooksPath' }
  | { kind: 'husky'; dir: string }
  | { kind: 'lefthook'; file: string };

async function getConfig(root: string, path: string): Promise<string | undefined> {
  try {
    // Linked worktrees share the main repository's config: read and write it there.
    const v = await git.getConfig({ fs, dir: root, gitdir: commonGitDirOf(root), path });
    return v === undefined || v === null ? undefined : String(v);
  } catch {
    return undefined;
  }
}

/** Where this repository runs its hooks from (see the module comment). */
export async function hookHome(root: string): Promise<HookHome> {
  const lefthook = LEFTHOOK_FILES.map((f) => join(root, f)).find((f) => existsSync(f));
  if (lefthook) return { kind: 'lefthook', file: lefthook };
  const hooksPath = await getConfig(root, 'core.hooksPath');
  if (hooksPath) {
    const dir = isAbsolute(hooksPath) ? hooksPath : resolve(root, hooksPath);
    const rel = relative(root, dir).replace(/\\/g, '/');
    // husky ≥ 9 points core.hooksPath at .husky/_ (generated); the scripts people edit are .husky/<hook>.
    if (rel === '.husky' || rel === '.husky/_') return { kind: 'husky', dir: join(root, '.husky') };
    return { kind: 'hooks-dir', dir, via: 'core.hooksPath' };
  }
  return { kind: 'hooks-dir', dir: join(commonGitDirOf(root), 'hooks'), via: 'git-dir' };
}

/** The marked block of a hook template (`# >>> cortex <event>` … `# <<< cortex <event>`). */
export function hookBlock(event: GitHookEvent): string {
  const text = readHookTemplate(`git/${event}`);
  const start = text.indexOf(`# >>> cortex ${event}`);
  const endMarker = `# <<< cortex ${event}`;
  const end = text.indexOf(endMarker);
  return text.slice(start, end + endMarker.length);
}

/** Replaces (or appends) the marked block in a script; returns the new text. */
function withBlock(text: string, event: GitHookEvent): string {
  const block = hookBlock(event);
  const start = text.indexOf(`# >>> cortex ${event}`);
  const endMarker = `# <<< cortex ${event}`;
  const end = text.indexOf(endMarker);
  if (start >= 0 && end > start) return `${text.slice(0, start)}${block}${text.slice(end + endMarker.length)}`;
  const sep = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${sep}${block}\n`;
}

function rel(root: string, path: string): string {
  const r = relative(root, path).replace(/\\/g, '/');
  return r.startsWith('..') ? path : r;
}

function installHookFile(root: string, dir: string, event: GitHookEvent): InitStep {
  const path = join(dir, event);
  const target = rel(root, path);
  const template = readHookTemplate(`git/${event}`);
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (existing === template) return { target, action: 'unchanged', detail: 'cortex hook installed' };
  if (existing !== undefined && !existing.includes(HOOK_SIGNATURE)) {
    const chained = `${path}${CHAINED_SUFFIX}`;
    if (existsSync(chained)) {
      // Something replaced our hook after an earlier install: keep it where the user can see it.
      let n = 2;
      while (existsSync(`${chained}.${n}`)) n++;
      renameSync(path, `${chained}.${n}`);
      writeFileAtomic(path, template);
      chmodSync(path, 0o755);
      return { target, action: 'updated', detail: `the hook found here was moved to ${event}${CHAINED_SUFFIX}.${n}; run it from ${event}${CHAINED_SUFFIX} if it is still needed` };
    }
    renameSync(path, chained);
    writeFileAtomic(path, template);
    chmodSync(path, 0o755);
    return { target, action: 'updated', detail: `installed; the existing hook now runs first as ${event}${CHAINED_SUFFIX}` };
  }
  writeFileAtomic(path, template);
  chmodSync(path, 0o755);
  return { target, action: existing === undefined ? 'created' : 'updated', detail: existing === undefined ? 'cortex hook installed' : 'cortex hook updated' };
}

function installHuskyHook(root: string, dir: string, event: GitHookEvent): InitStep {
  const path = join(dir, event);
  const target = rel(root, path);
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  // husky 8 scripts source its helper; husky 9 scripts are plain sh without a header.
  const header = existsSync(join(dir, '_', 'husky.sh')) ? '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\n' : '';
  const next = withBlock(existing ?? header, event);
  if (next === existing) return { target, action: 'unchanged', detail: 'cortex block present (husky)' };
  writeFileAtomic(path, next);
  chmodSync(path, 0o755);
  return { target, action: existing === undefined ? 'created' : 'updated', detail: 'cortex block added (husky; commit this file)' };
}

function installLefthook(root: string, file: string): InitStep {
  const target = rel(root, file);
  const { parseDocument } = loadYaml();
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text);
  for (const event of GIT_HOOK_EVENTS) {
    const run = hookBlock(event).split('\n').filter((l) => !l.startsWith('# ')).join('\n');
    // A literal block keeps the script's lines and quotes as written.
    const node = doc.createNode(run) as import('yaml').Scalar;
    node.type = 'BLOCK_LITERAL';
    const current = doc.getIn([event, 'commands', 'cortex', 'run']);
    if (current !== run) doc.setIn([event, 'commands', 'cortex', 'run'], node);
  }
  const next = doc.toString();
  if (next === text) return { target, action: 'unchanged', detail: 'cortex commands present (lefthook)' };
  writeFileAtomic(file, next);
  return { target, action: 'updated', detail: 'cortex commands added; run `lefthook install` so git runs every hook' };
}

/**
 * The git part of `cortex init`. Outside a git repository it only says so.
 *
 * @example
 * const steps = await setUpGit(ctx, { cortexCommand: 'cortex' });
 */
export async function setUpGit(ctx: Context, options: GitSetupOptions = {}): Promise<InitStep[]> {
  const root = findGitRoot(ctx.root);
  if (!root) return [{ target: 'git', action: 'unchanged', detail: 'not a git repository: merge driver and hooks skipped' }];
  const steps: InitStep[] = [];
  const attributes = join(root, '.gitattributes');
  const hadAny = existsSync(attributes) && ATTRIBUTE_LINES.some((l) => readFileSync(attributes, 'utf8').split(/\r?\n/).includes(l));
  const actions = [hadAny ? 'unchanged' : ensureLine(attributes, ATTRIBUTES_HEADER), ...ATTRIBUTE_LINES.map((l) => ensureLine(attributes, l))];
  const action = actions.includes('created') ? 'created' : actions.includes('updated') ? 'updated' : 'unchanged';
  steps.push({ target: '.gitattributes', action, detail: action === 'unchanged' ? 'merge=cortex declared' : 'declares merge=cortex for .cortex/ and marks the projections generated' });

  const command = options.cortexCommand ?? 'cortex';
  const wanted: [string, string][] = [
    ['merge.cortex.name', 'Cortex memory merge (field by field; projections regenerated)'],
    ['merge.cortex.driver', driverCommand(command)],
    ['cortex.command', command],
  ];
  let changed = false;
  for (const [path, value] of wanted) {
    if ((await getConfig(root, path)) === value) continue;
    await git.setConfig({ fs, dir: root, gitdir: commonGitDirOf(root), path, value });
    changed = true;
  }
  steps.push({ target: '.git/config', action: changed ? 'updated' : 'unchanged', detail: changed ? `merge driver: ${driverCommand(command)}` : 'merge driver configured' });

  const home = await hookHome(root);
  if (home.kind === 'lefthook') steps.push(installLefthook(root, home.file));
  else for (const event of GIT_HOOK_EVENTS) steps.push(home.kind === 'husky' ? installHuskyHook(root, home.dir, event) : installHookFile(root, home.dir, event));

  // An earlier Cortex marked new files intent-to-add, which breaks `git stash` (services/stage.ts).
  const upgraded = upgradeIntentToAdd({ cwd: root });
  if (upgraded.length > 0) {
    steps.push({
      target: 'git index',
      action: 'updated',
      detail: `staged the ${upgraded.length} .cortex/ file(s) an earlier Cortex had marked intent-to-add (a mark that breaks git stash): git commit -a takes them as before`,
    });
  }
  return steps;
}

export interface HookState {
  event: GitHookEvent;
  /** Where git will look for it. */
  where: string;
  installed: boolean;
  /** Installed but an older version than this cortex ships. */
  outdated: boolean;
}

export interface GitSetupState {
  gitRoot: string;
  /** `.gitattributes` lines present and missing. */
  attributes: { declared: string[]; missing: string[] };
  driver: { command: string | undefined; configured: boolean; runnable: boolean; reason?: string | undefined };
  hookHome: HookHome;
  hooks: HookState[];
}

/** Whether the program a shell command starts exists (absolute paths only; PATH names are trusted). */
function commandRunnable(command: string): { ok: boolean; reason?: string } {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
  for (const w of words.slice(0, 2)) {
    if (isAbsolute(w) && !existsSync(w)) return { ok: false, reason: `${w} does not exist` };
  }
  return { ok: true };
}

/**
 * What `cortex init` set up in this clone, for `cortex doctor`.
 *
 * @example
 * const state = await inspectGitSetup('/path/to/repo'); // state.driver.configured …
 */
export async function inspectGitSetup(root: string): Promise<GitSetupState> {
  const text = existsSync(join(root, '.gitattributes')) ? readFileSync(join(root, '.gitattributes'), 'utf8').split(/\r?\n/).map((l) => l.trim()) : [];
  const declared = ATTRIBUTE_LINES.filter((l) => text.includes(l));
  const mentions = text.some((l) => /\bmerge=cortex\b/.test(l));
  const driver = await getConfig(root, 'merge.cortex.driver');
  const runnable = driver ? commandRunnable(driver) : { ok: false };
  const home = await hookHome(root);
  const hooks: HookState[] = GIT_HOOK_EVENTS.map((event) => {
    if (home.kind === 'lefthook') {
      const yaml = readFileSync(home.file, 'utf8');
      const ok = new RegExp(`git-hook ${event}\\b`).test(yaml);
      return { event, where: rel(root, home.file), installed: ok, outdated: false };
    }
    const path = join(home.dir, event);
    const body = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (home.kind === 'husky') return { event, where: rel(root, path), installed: body.includes(`# >>> cortex ${event}`), outdated: body.includes(`# >>> cortex ${event}`) && !body.includes(hookBlock(event)) };
    const installed = body.includes(HOOK_SIGNATURE);
    let executable = true;
    try {
      fs.accessSync(path, fs.constants.X_OK);
    } catch {
      executable = false;
    }
    return { event, where: rel(root, path), installed: installed && executable, outdated: installed && body !== readHookTemplate(`git/${event}`) };
  });
  return {
    gitRoot: root,
    attributes: { declared: mentions ? [...declared] : declared, missing: ATTRIBUTE_LINES.filter((l) => !text.includes(l)) },
    driver: { command: driver, configured: driver !== undefined && driver.includes('merge-driver'), runnable: runnable.ok, reason: runnable.reason },
    hookHome: home,
    hooks,
  };
}
