/**
 * Temporary repositories built from `test/fixtures/<scenario>/`: the memories under
 * `.cortex/memories/`, the scenario's configuration in `.cortex/config.yaml` and its usage
 * signals in `.memory/signals.json`, on branch `main`, with `CORTEX_NOW` set to the
 * scenario's clock.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageSignal } from '../../src/core/rank.js';
import { REPO_ROOT, tempRepo, type TempRepo } from './repo.js';

export interface FixtureContext {
  now: string;
  currentBranch?: string;
  budget?: number;
  signals?: Record<string, UsageSignal>;
  centrality?: Record<string, number>;
  staleness?: Record<string, string[]>;
  config?: unknown;
}

export interface FixtureRepo {
  repo: TempRepo;
  context: FixtureContext;
  /** Ids of the fixture's memories, sorted. */
  ids: string[];
  /** Environment for runs: the scenario's clock. */
  env: NodeJS.ProcessEnv;
  dir: string;
}

export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');

export function fixturePath(name: string, ...rest: string[]): string {
  return join(FIXTURES, name, ...rest);
}

/**
 * A repository holding the fixture's memories. `context.signals` (or a `signals.json`
 * beside the memories) becomes `.memory/signals.json`; `context.config` becomes
 * `.cortex/config.yaml` (JSON is YAML).
 */
export function fixtureRepo(name: string): FixtureRepo {
  const dir = join(FIXTURES, name);
  const context = JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')) as FixtureContext;
  const files: Record<string, string> = { '.gitignore': '.memory/\n', '.cortex/edges/.gitkeep': '' };
  const ids: string[] = [];
  for (const file of readdirSync(join(dir, 'memories')).filter((f) => f.endsWith('.md')).sort()) {
    files[`.cortex/memories/${file}`] = readFileSync(join(dir, 'memories', file), 'utf8');
    ids.push(file.slice(0, -3));
  }
  if (context.config !== undefined) files['.cortex/config.yaml'] = `${JSON.stringify(context.config, null, 2)}\n`;
  if (context.signals) files['.memory/signals.json'] = `${JSON.stringify({ version: 1, signals: context.signals })}\n`;
  else if (existsSync(join(dir, 'signals.json'))) files['.memory/signals.json'] = readFileSync(join(dir, 'signals.json'), 'utf8');
  const repo = tempRepo(files);
  return { repo, context, ids, env: { CORTEX_NOW: context.now }, dir: repo.dir };
}
