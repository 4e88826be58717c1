/**
 * `cortex surface` end to end: the golden briefings through the built CLI, `--explain`,
 * `--write` targets, the configuration precedence, and the API with graph providers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import type { ExplainRow } from '../src/core/surface.js';
import { SURFACE_END, SURFACE_START } from '../src/core/surface.js';
import { fixturePath, fixtureRepo } from './helpers/fixture-repo.js';
import { json } from './helpers/repo.js';

interface SurfaceJson {
  schemaVersion: number;
  text: string;
  tokens: number;
  chars: number;
  limits: { targetTokens: number; maxTokens: number; maxChars: number };
  items: { id: string; stage: string }[];
  explain?: ExplainRow[];
  written: { file: string; action: string }[];
  cached: boolean;
}

const expectedOf = (name: string): string => readFileSync(fixturePath(name, 'expected.md'), 'utf8');

describe('cortex surface: golden briefings end to end', () => {
  it.each(['surface-decision-tiers', 'surface-overflow'])('prints %s/expected.md exactly, within its budget', (name) => {
    const { repo, context, env } = fixtureRepo(name);
    const r = repo.cortex(['surface', '--budget', String(context.budget)], { env });
    expect(r.stderr).not.toMatch(/warning|error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedOf(name));

    const doc = json<SurfaceJson>(repo.cortex(['surface', '--budget', String(context.budget), '--json'], { env }));
    expect(doc.schemaVersion).toBe(1);
    expect(doc.text).toBe(r.stdout);
    expect(doc.limits.maxTokens).toBe(context.budget);
    expect(doc.tokens).toBeLessThanOrEqual(context.budget!);
    expect(doc.chars).toBeLessThanOrEqual(10_000);
    expect(doc.explain).toBeUndefined();
  });

  it('renders surface-basic exactly through the API once the graph and reality checks are plugged in', async () => {
    const { repo, context, env } = fixtureRepo('surface-basic');
    // The referenced file exists, so only the plugged-in reality check marks anything outdated.
    repo.write('src/db.ts', 'export {};\n');
    const cortex = openCortex({ dir: repo.dir, env: { ...repo.env, ...env }, centrality: () => context.centrality ?? {}, staleness: [() => context.staleness ?? {}] });
    const out = await cortex.surface();
    expect(out.text).toBe(expectedOf('surface-basic'));
    expect(out.branch).toBe('main');
    expect(out.items[0]).toMatchObject({ id: 'ship-briefing-module-p4n7qa', stage: 'plan', section: 'Plan and progress' });
  });

  it('marks memories whose referenced files no longer exist, without any provider', () => {
    const { repo, env } = fixtureRepo('surface-basic');
    const text = repo.cortex(['surface', '--budget', '600'], { env }).stdout;
    const outdated = text.split('\n').filter((l) => l.includes('[POSSIBLY OUTDATED] (src/db.ts no longer exists)'));
    expect(outdated.map((l) => l.slice(0, 30))).toEqual(['- Chose SQLite over PostgreSQL', '- SQLite WAL mode needs a writ']);
    repo.write('src/db.ts', 'export {};\n');
    expect(repo.cortex(['surface', '--budget', '600'], { env }).stdout).not.toContain('no longer exists');
  });
});

describe('cortex surface --explain', () => {
  it('lists every candidate with its score parts and category budget, and why it is in or out', () => {
    const { repo, context, env, ids } = fixtureRepo('surface-overflow');
    const r = repo.cortex(['surface', '--explain', '--budget', String(context.budget)], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^#\s+in\s+rank\s+conf\s+prio\s+cent\s+use\s+branch\s+budget\s+tier\s+type\s+id\s+reason$/);
    for (const id of ids) {
      const row = lines.find((l) => l.includes(` ${id} `));
      expect(row, id).toMatch(/^\d+\s+(in|out)\s+\d\.\d{3}\s+(\d\.\d\d\s+){5}\d+\s+/);
    }
    expect(r.stdout).toMatch(/Briefing: ~\d+ tokens \(target 160, hard maximum 160\)/);
  });

  it('shows, for each excluded memory, why every included one won over it', () => {
    const { repo, context, env, ids } = fixtureRepo('surface-overflow');
    const doc = json<SurfaceJson>(repo.cortex(['surface', '--explain', '--json', '--budget', String(context.budget)], { env }));
    const rows = doc.explain!;
    expect(rows.map((r) => r.id).sort()).toEqual(ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const included = rows.filter((r) => r.included);
    const excluded = rows.filter((r) => !r.included);
    expect(included.map((r) => r.id).sort()).toEqual(doc.items.map((i) => i.id).sort());
    expect(excluded.length).toBeGreaterThan(0);
    const stageOrder: Record<string, number> = { plan: 0, budget: 1, overflow: 2 };
    for (const loser of excluded) {
      const budgetUsedBy = /^the (\w+) budget of \d+ lines? is used by higher-ranked (.+?); /.exec(loser.reason);
      if (/^the \w+ budget is 0 lines$/.test(loser.reason)) {
        // Not a candidate at all: its category has no lines.
        expect(loser.budget).toBe(0);
      } else if (budgetUsedBy) {
        // Lost on lines: the memories named hold its category's lines, are shown, and rank higher;
        // overflow lines went to higher-ranked memories.
        for (const winner of budgetUsedBy[2]!.split(', ')) {
          expect(byId.get(winner)?.included).toBe(true);
          expect(byId.get(winner)!.rank).toBeGreaterThan(loser.rank);
        }
        for (const winner of included.filter((w) => w.stage === 'overflow')) expect(winner.rank).toBeGreaterThan(loser.rank);
      } else {
        // Lost on tokens: every included memory came earlier in the filling order.
        expect(loser.reason).toMatch(/^token budget reached: needs ~\d+ tokens, \d+ of 160 left/);
        for (const winner of included) {
          const earlier =
            stageOrder[winner.stage!]! < stageOrder[loser.stage!]! || (winner.stage === loser.stage && winner.rank > loser.rank);
          expect(earlier, `${winner.id} before ${loser.id}`).toBe(true);
        }
      }
    }
  });
});

describe('cortex surface --write', () => {
  it('creates the default target and writes only when something changed', () => {
    const { repo, env } = fixtureRepo('surface-overflow');
    const first = json<SurfaceJson>(repo.cortex(['surface', '--write', '--json'], { env }));
    expect(first.written).toEqual([{ file: '.claude/cortex-memory.local.md', action: 'created' }]);
    expect(repo.read('.claude/cortex-memory.local.md')).toBe(first.text);
    const again = json<SurfaceJson>(repo.cortex(['surface', '--write', '--json'], { env }));
    expect(again.written).toEqual([{ file: '.claude/cortex-memory.local.md', action: 'unchanged' }]);
  });

  it('replaces only the marked section of AGENTS.md and keeps the rest of the file', () => {
    const { repo, env } = fixtureRepo('surface-overflow');
    const head = '# Agents\n\nRun `npm test` before committing.\n\n';
    const tail = '\n## Style\n\nTwo spaces.\n';
    repo.write('AGENTS.md', `${head}${SURFACE_START}\nstale briefing\n${SURFACE_END}\n${tail}`);
    const r = repo.cortex(['surface', '--target', 'AGENTS.md', '--budget', '160'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('updated: AGENTS.md');
    expect(repo.read('AGENTS.md')).toBe(`${head}${expectedOf('surface-overflow')}${tail}`);
    expect(existsSync(join(repo.dir, '.claude/cortex-memory.local.md'))).toBe(false);
  });

  it('takes its targets from CORTEX_SURFACE_TARGETS, below --target and above the config', () => {
    const { repo, env } = fixtureRepo('surface-overflow');
    repo.write('.cortex/config.yaml', 'surface:\n  targets: [from-config.md]\n');
    repo.write('NOTES.md', 'Notes without markers.\n');
    const fromEnv = json<SurfaceJson>(repo.cortex(['surface', '--write', '--json'], { env: { ...env, CORTEX_SURFACE_TARGETS: 'NOTES.md, docs/memory.md' } }));
    expect(fromEnv.written).toEqual([
      { file: 'NOTES.md', action: 'updated' },
      { file: 'docs/memory.md', action: 'created' },
    ]);
    expect(repo.read('NOTES.md')).toBe(`Notes without markers.\n\n${fromEnv.text}`);
    const fromFlag = json<SurfaceJson>(repo.cortex(['surface', '--target', 'flag.md', '--json'], { env: { ...env, CORTEX_SURFACE_TARGETS: 'NOTES.md' } }));
    expect(fromFlag.written.map((w) => w.file)).toEqual(['flag.md']);
    const fromConfig = json<SurfaceJson>(repo.cortex(['surface', '--write', '--json'], { env }));
    expect(fromConfig.written.map((w) => w.file)).toEqual(['from-config.md']);
  });

  it('refuses broken markers and paths outside the repository, writing nothing', () => {
    const { repo, env } = fixtureRepo('surface-overflow');
    const broken = `# Agents\n${SURFACE_START}\nno end marker\n`;
    repo.write('AGENTS.md', broken);
    const r = repo.cortex(['surface', '--target', 'AGENTS.md', '--target', 'other.md'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/AGENTS\.md has 1 <!-- CORTEX_MEMORY_START --> and 0 <!-- CORTEX_MEMORY_END --> markers/);
    expect(repo.read('AGENTS.md')).toBe(broken);
    expect(existsSync(join(repo.dir, 'other.md'))).toBe(false);
    const outside = repo.cortex(['surface', '--target', '../escape.md'], { env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('outside the repository');
  });
});

describe('surface configuration', () => {
  it('takes the budget from the flag, then CORTEX_SURFACE_BUDGET, then the config', () => {
    const { repo, env } = fixtureRepo('surface-basic');
    repo.write('.cortex/config.yaml', 'surface:\n  targetTokens: 300\n  maxTokens: 300\n');
    const limits = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      json<SurfaceJson>(repo.cortex(['surface', '--json', ...args], { env: { ...env, ...extra } })).limits.maxTokens;
    expect(limits(['--budget', '100'], { CORTEX_SURFACE_BUDGET: '200' })).toBe(100);
    expect(limits([], { CORTEX_SURFACE_BUDGET: '200' })).toBe(200);
    expect(limits([])).toBe(300);
    repo.write('.cortex/config.yaml', '');
    expect(json<SurfaceJson>(repo.cortex(['surface', '--json'], { env })).limits).toMatchObject({ targetTokens: 400, maxTokens: 550, maxChars: 10_000 });
  });

  it('names the key or variable and the allowed range when a value is wrong', () => {
    const { repo, env } = fixtureRepo('surface-basic');
    const badEnv = repo.cortex(['surface'], { env: { ...env, CORTEX_SURFACE_BUDGET: 'lots' } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('CORTEX_SURFACE_BUDGET is "lots"; allowed: an integer from 10 to 2500');
    const badFlag = repo.cortex(['surface', '--budget', '5'], { env });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--budget must be an integer from 10 to 2500');
    const badClock = repo.cortex(['surface'], { env: { CORTEX_NOW: 'yesterday' } });
    expect(badClock.code).toBe(2);
    expect(badClock.stderr).toContain('CORTEX_NOW is "yesterday"; allowed: an ISO-8601 date');
    repo.write('.cortex/config.yaml', 'surface:\n  targetTokens: 5\n  planShare: 2\n');
    const badConfig = repo.cortex(['surface', '--json'], { env });
    expect(badConfig.code).toBe(0);
    expect(badConfig.stderr).toContain('surface.targetTokens is 5; allowed: an integer from 10 to 2500');
    expect(badConfig.stderr).toContain('surface.planShare is 2; allowed: from 0 to 1');
    expect(json<SurfaceJson>(badConfig).limits.targetTokens).toBe(400);
  });

  it('builds the compact variant to surface.compactTokens', () => {
    const { repo, env } = fixtureRepo('surface-basic');
    const full = json<SurfaceJson>(repo.cortex(['surface', '--json'], { env }));
    repo.write('.cortex/config.yaml', 'surface:\n  compactTokens: 150\n');
    const compact = json<SurfaceJson>(repo.cortex(['surface', '--compact', '--json'], { env }));
    expect(compact.limits.maxTokens).toBe(150);
    expect(compact.tokens).toBeLessThanOrEqual(150);
    expect(compact.items.length).toBeLessThan(full.items.length);
    expect(compact.text.startsWith(SURFACE_START)).toBe(true);
  });
});

describe('loadMemories', () => {
  it('reads hand-written files through the full parser and reports broken ones', async () => {
    const { repo, env } = fixtureRepo('surface-overflow');
    mkdirSync(join(repo.dir, '.cortex/memories'), { recursive: true });
    writeFileSync(
      join(repo.dir, '.cortex/memories/hand-written-abcdef.md'),
      '---\n# written by hand\nid: hand-written-abcdef\ntype: gotcha\nsummary: Hand-written gotcha about hooks # with a comment\npriority: 9\ncreated: 2026-11-30T10:00:00Z\nupdated: 2026-11-30T10:00:00Z\n---\nBody.\n',
    );
    writeFileSync(join(repo.dir, '.cortex/memories/broken-abcdef.md'), 'no frontmatter here\n');
    const cortex = openCortex({ dir: repo.dir, env: { ...repo.env, ...env } });
    const out = await cortex.surface({ budget: 400 });
    expect(out.explain.map((r) => r.id)).toContain('hand-written-abcdef');
    expect(out.diagnostics.map((d) => [d.file, d.ruleId])).toContainEqual(['.cortex/memories/broken-abcdef.md', 'frontmatter-missing']);
  });
});
