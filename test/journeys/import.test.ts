/**
 * Journey: import from where memories live (issue 37). Claude Code's auto memory under
 * `$CLAUDE_CONFIG_DIR/projects/<mangled root>/memory/`, and every format from a file
 * outside the repository, through the built CLI in a real git repository: the dry run's
 * promise is kept, re-import changes nothing, a malformed JSONL record names its line,
 * the provenance goes to `source.from` (never `source.files`, the code anchors) and a
 * secret in a file name or split across a blank line never reaches a file.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDirName } from '../../src/core/interop/claude.js';
import { fixturePath } from '../helpers/fixture-repo.js';
import { initRepo, json, ok, tempRepo, type RunResult, type TempRepo } from '../helpers/repo.js';

/** Every memory and edge file under .cortex/ (both tiers), path → text. */
function snapshot(repo: TempRepo): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const full = join(repo.dir, rel);
    if (!existsSync(full)) return;
    for (const name of readdirSync(full, { withFileTypes: true })) {
      const r = `${rel}/${name.name}`;
      if (name.isDirectory()) walk(r);
      else if (name.name.endsWith('.md') && /(memories|edges)\//.test(r)) out.set(r, readFileSync(join(repo.dir, r), 'utf8'));
    }
  };
  walk('.cortex');
  return out;
}

/** Briefing lines flagged as possibly outdated (the legend line at the top is not one). */
function flagged(repo: TempRepo): string[] {
  return ok(repo.cortex(['surface', '--budget', '2000']), 'surface').stdout.split('\n').filter((l) => l.startsWith('- ') && l.includes('POSSIBLY OUTDATED'));
}

interface ImportJson {
  source: string;
  created: Array<{ id: string; summary: string }>;
  updated: unknown[];
  unchanged: unknown[];
  skipped: Array<{ reason: string; line?: number }>;
}

describe('journey: import from where memories live', () => {
  it('cortex import --from claude reads Claude Code\'s auto memory under CLAUDE_CONFIG_DIR, keeps the dry run\'s promise, and re-import changes nothing', () => {
    const repo = initRepo();
    const config = join(repo.home, 'claude-config');
    const memoryDir = join(config, 'projects', claudeProjectDirName(repo.dir), 'memory');
    mkdirSync(memoryDir, { recursive: true });
    cpSync(fixturePath('interop', 'claude', 'memory'), memoryDir, { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: config };

    const dry = json<ImportJson>(ok(repo.cortex(['import', '--from', 'claude', '--dry-run', '--json'], { env }), 'dry run'));
    expect(dry.created.length).toBeGreaterThan(0);
    const real = repo.cortex(['import', '--from', 'claude', '--json'], { env });
    expect(real.stderr).not.toContain('outside the repository');
    expect(real.code).toBe(0);
    const out = json<ImportJson>(real);
    expect(out.created.length).toBe(dry.created.length);

    // Provenance in source.from, home written as ~; no code anchor from the source file.
    for (const [path, text] of snapshot(repo)) {
      if (!path.includes('/memories/')) continue;
      expect(text, path).toMatch(/\n {2}from: ["']?claude:~\/claude-config\/projects\//);
      expect(text, path).not.toMatch(/\n {2}files:/);
    }
    const before = snapshot(repo);
    const again = json<ImportJson>(ok(repo.cortex(['import', '--from', 'claude', '--json'], { env }), 're-import'));
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(snapshot(repo)).toEqual(before);
    ok(repo.cortex(['lint']), 'lint');

    // The source moving away flags nothing as possibly outdated: provenance is not an anchor.
    cpSync(memoryDir, join(repo.home, 'moved'), { recursive: true });
    rmSync(memoryDir, { recursive: true });
    expect(flagged(repo)).toEqual([]);
  });

  it('--from claude in a linked git worktree reads the main checkout\'s auto memory, as Claude Code does; autoMemoryDirectory in the user settings wins', () => {
    const repo = initRepo();
    const config = join(repo.home, 'claude-config');
    // Claude Code keeps one auto memory per repository, under the main work tree's path.
    const memoryDir = join(config, 'projects', claudeProjectDirName(repo.dir), 'memory');
    mkdirSync(memoryDir, { recursive: true });
    cpSync(fixturePath('interop', 'claude', 'memory'), memoryDir, { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: config };
    const wt = join(repo.home, 'wt-feature');
    ok(repo.git(['worktree', 'add', '-q', '-b', 'feature', wt]), 'git worktree add');
    const inWorktree = (args: string[], extra: NodeJS.ProcessEnv = {}) => repo.cortex(args, { env: { ...env, ...extra }, cwd: wt });
    const dry = json<ImportJson>(ok(inWorktree(['import', '--from', 'claude', '--dry-run', '--json']), 'dry run in the worktree'));
    expect(dry.created.length).toBeGreaterThan(0);
    expect(dry.source).toContain(claudeProjectDirName(repo.dir));
    expect(dry.source).not.toContain(claudeProjectDirName(wt));

    // A person who moved Claude Code's auto memory elsewhere (user settings): read from there.
    const moved = join(repo.home, 'synced-memory');
    mkdirSync(moved, { recursive: true });
    writeFileSync(join(moved, 'MEMORY.md'), '# Memory\n\n- Deploys go out from the release branch every Tuesday\n');
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/synced-memory' }));
    const fromSetting = json<ImportJson>(ok(inWorktree(['import', '--from', 'claude', '--dry-run', '--json']), 'dry run with autoMemoryDirectory'));
    expect(fromSetting.source).toContain('synced-memory');
    expect(fromSetting.created.map((c) => c.summary)).toEqual(['Deploys go out from the release branch every Tuesday']);
  });

  it('every format imports from a file outside the repository (the help\'s own example ~/.mcp/memory.jsonl included)', () => {
    const repo = initRepo();
    const outside = join(repo.home, 'sources');
    mkdirSync(join(repo.home, '.mcp'), { recursive: true });
    cpSync(fixturePath('interop', 'mcp-memory', 'memory.jsonl'), join(repo.home, '.mcp', 'memory.jsonl'));
    cpSync(fixturePath('interop'), outside, { recursive: true });
    const r = repo.cortex(['import', '~/.mcp/memory.jsonl'.replace('~', repo.home), '--json']);
    expect(r.stderr).toBe('');
    expect(json<ImportJson>(r).created.length).toBeGreaterThan(0);
    const sources: Array<[string, string[]]> = [
      ['claude-md/CLAUDE.md', []],
      ['agents-md/AGENTS.md', []],
      ['memory-bank', ['--from', 'memory-bank']],
      ['basic-memory', ['--from', 'basic-memory']],
      ['claude/memory', ['--from', 'claude']],
    ];
    for (const [source, args] of sources) {
      const path = join(outside, source);
      if (!existsSync(path)) throw new Error(`fixture ${source} is missing`);
      const run = repo.cortex(['import', path, ...args, '--json']);
      expect(run.code, `${source}: ${run.stderr}`).toBe(0);
      expect(json<ImportJson>(run).created.length, source).toBeGreaterThan(0);
    }
    // Cortex's own JSONL, exported and imported into another repository from outside both.
    const exported = ok(repo.cortex(['export', '--format', 'jsonl']), 'export').stdout;
    writeFileSync(join(outside, 'all.jsonl'), exported);
    const other = initRepo();
    const back = json<ImportJson>(ok(other.cortex(['import', join(outside, 'all.jsonl'), '--json']), 'jsonl import'));
    expect(back.created.length).toBeGreaterThan(0);
    ok(repo.cortex(['lint']), 'lint');
    ok(other.cortex(['lint']), 'lint other');
    expect(flagged(repo)).toEqual([]);
  });

  it('a JSONL record with missing fields is reported with its line number, not dropped silently', () => {
    const repo = initRepo();
    const file = join(repo.home, 'graph.jsonl');
    writeFileSync(
      file,
      [
        '{"type":"entity","name":"Billing service","entityType":"project","observations":["Runs nightly"]}',
        '{"type":"entity","entityType":"project","observations":["no name"]}',
        '{"type":"relation","from":"Billing service"}',
      ].join('\n') + '\n',
    );
    const r = repo.cortex(['import', file, '--from', 'mcp-memory']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/graph\.jsonl:2\b/);
    expect(r.stderr).toMatch(/and 1 more line/);
    expect(snapshot(repo).size).toBe(0);

    const mine = join(repo.home, 'mine.jsonl');
    writeFileSync(mine, ['{"format":"cortex-jsonl","version":1}', '{"kind":"memory","memory":{"id":"half-a-record-abc123","summary":"Half a record"}}'].join('\n') + '\n');
    const m = repo.cortex(['import', mine]);
    expect(m.code).not.toBe(0);
    expect(m.stderr).toMatch(/mine\.jsonl:2\b/);
  });

  it('redaction runs on the whole source before splitting, lower-casing or deriving ids and topics', () => {
    const repo = initRepo();
    const dir = join(repo.home, 'memory');
    mkdirSync(dir, { recursive: true });
    const databricks = `dapi${'a1b2c3d4'.repeat(4)}`;
    const pgpBody = 'lQOYBF' + 'x7Qk9zVq3mP0aL2wR8tYcN5jH6gB4dE1fS'.repeat(3);
    const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pgpBody}\n${pgpBody}\n-----END PGP PRIVATE KEY BLOCK-----`;
    const ghp = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
    writeFileSync(join(dir, 'MEMORY.md'), `# Memory\n\n## Notes\n\n- The signing key:\n\n${pgp}\n`);
    writeFileSync(join(dir, `token_${databricks}.md`), `---\nname: token\ndescription: Deploy notes\ntype: project\ntags: [${ghp}]\n---\nDeploys run nightly.\n`);
    const r = repo.cortex(['import', dir, '--from', 'claude', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const all = [...snapshot(repo)].map(([p, t]) => `${p}\n${t}`).join('\n').toLowerCase();
    expect(all).not.toContain(databricks.slice(4, 16).toLowerCase());
    expect(all).not.toContain(ghp.slice(4, 16).toLowerCase());
    expect(all).not.toContain(pgpBody.slice(0, 16).toLowerCase());
    expect(r.stdout.toLowerCase()).not.toContain(databricks.slice(4, 16).toLowerCase());
  });

  it('a memory imported by the previous release (its source file in source.files) is recognised as provenance: not outdated when the file goes, stored as source.from when next written', () => {
    const repo = initRepo();
    repo.write('notes/CLAUDE.md', '# Notes\n\n- Deploys run nightly\n');
    const legacy = [
      '---',
      'id: deploys-run-nightly-a1b2c3',
      'type: context',
      'summary: Deploys run nightly',
      'scope: project',
      'priority: 5',
      'confidence: 0.9',
      'pinned: false',
      'status: active',
      'tags: []',
      'topic: import/claude-md/notes-deploys-run-nightly',
      'created: 2026-11-01T10:00:00Z',
      'updated: 2026-11-01T10:00:00Z',
      'source:',
      '  kind: import',
      '  layer: manual',
      '  files: [notes/CLAUDE.md:3]',
      '  format: claude-md',
      '---',
      '',
      'Deploys run nightly.',
      '',
    ].join('\n');
    repo.write('.cortex/memories/deploys-run-nightly-a1b2c3.md', legacy);
    ok(repo.git(['add', '-A']), 'add');
    ok(repo.git(['commit', '-q', '-m', 'legacy import']), 'commit');
    ok(repo.git(['rm', '-q', 'notes/CLAUDE.md']), 'rm');
    ok(repo.git(['commit', '-q', '-m', 'notes gone']), 'commit');
    expect(flagged(repo)).toEqual([]);
    const shown = json<{ memory: { source: { from?: string; files?: string[] } } }>(ok(repo.cortex(['show', 'deploys-run-nightly-a1b2c3', '--json']), 'show'));
    expect(shown.memory.source.from).toBe('claude-md:notes/CLAUDE.md:3');
    expect(shown.memory.source.files).toBeUndefined();
    ok(repo.cortex(['lint']), 'lint');
  });
});
