/**
 * Import and export (issue 23) against real temp git repositories and the built CLI:
 * per-format round trips from the fixtures in test/fixtures/interop/ (each cites the
 * format's own documentation or source), idempotence, redaction on import, bad input, and
 * the private tier never reaching `git status` or a commit.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDirName } from '../src/core/interop/claude.js';
import { fixturePath } from './helpers/fixture-repo.js';
import { initRepo, json, ok, tempRepo, type RunResult, type TempRepo } from './helpers/repo.js';

interface Content {
  type: string;
  summary: string;
  body: string;
  tags: string[];
  scope: string;
}

/** What a repository knows, independent of ids and dates: the content of every memory. */
function contents(repo: TempRepo): Content[] {
  const out: Content[] = [];
  for (const dir of ['.cortex/memories', '.git/cortex/local/memories']) {
    if (!existsSync(join(repo.dir, dir))) continue;
    for (const name of readdirSync(join(repo.dir, dir)).filter((n) => n.endsWith('.md'))) {
      const shown = json<{ memory: { type: string; summary: string; body: string; tags: string[]; scope: string } }>(ok(repo.cortex(['show', name.slice(0, -3), '--json']), 'show'));
      const m = shown.memory;
      out.push({ type: m.type, summary: m.summary, body: m.body.trim(), tags: [...m.tags].sort(), scope: m.scope });
    }
  }
  return out.sort((a, b) => (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : a.type < b.type ? -1 : 1));
}

function importJson(repo: TempRepo, args: string[], env?: NodeJS.ProcessEnv): { created: unknown[]; updated: unknown[]; unchanged: unknown[]; skipped: Array<{ reason: string }>; format: string; edges: { created: number; unchanged: number } } {
  return json(ok(repo.cortex(['import', ...args, '--json'], env ? { env } : {}), `import ${args.join(' ')}`));
}

function copyFixture(repo: TempRepo, name: string, to = name): string {
  const target = join(repo.dir, 'sources', to);
  cpSync(fixturePath('interop', name), target, { recursive: true });
  return `sources/${to}`;
}

describe('import → export → import, per format', () => {
  const cases: Array<{ format: string; fixture: string; source: string; exportArgs: string[]; reimport: string }> = [
    { format: 'memory-bank', fixture: 'memory-bank', source: 'sources/memory-bank', exportArgs: ['--format', 'memory-bank', '--out', 'out/memory-bank'], reimport: 'out/memory-bank' },
    { format: 'claude-md', fixture: 'claude-md', source: 'sources/claude-md/CLAUDE.md', exportArgs: ['--format', 'claude-md', '--out', 'out/CLAUDE.md'], reimport: 'out/CLAUDE.md' },
    { format: 'agents-md', fixture: 'agents-md', source: 'sources/agents-md/AGENTS.md', exportArgs: ['--format', 'agents-md', '--out', 'out/AGENTS.md'], reimport: 'out/AGENTS.md' },
    { format: 'mcp-memory', fixture: 'mcp-memory', source: 'sources/mcp-memory/memory.jsonl', exportArgs: ['--format', 'mcp-memory', '--out', 'out/memory.jsonl'], reimport: 'out/memory.jsonl' },
    { format: 'basic-memory', fixture: 'basic-memory', source: 'sources/basic-memory', exportArgs: ['--format', 'basic-memory', '--out', 'out/basic-memory'], reimport: 'out/basic-memory' },
  ];
  for (const c of cases) {
    it(`${c.format}: the memories imported from the export equal those imported from the source`, () => {
      const a = initRepo();
      copyFixture(a, c.fixture);
      const first = importJson(a, [c.source, '--from', c.format]);
      expect(first.created.length).toBeGreaterThan(0);
      ok(a.cortex(['export', ...c.exportArgs]), 'export');
      const b = initRepo();
      cpSync(join(a.dir, 'out'), join(b.dir, 'out'), { recursive: true });
      importJson(b, [c.reimport, '--from', c.format]);
      expect(contents(b)).toEqual(contents(a));
    });
  }

  it('claude: export writes the auto-memory directory Claude Code reads, and importing it gives the same memories', () => {
    const a = initRepo();
    const claudeHome = join(a.home, 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: claudeHome };
    copyFixture(a, 'claude');
    const first = importJson(a, ['sources/claude/memory', '--from', 'claude'], env);
    expect(first.created.length).toBe(5);
    // A person's existing MEMORY.md lines stay; the export owns only its marked section.
    const dir = join(claudeHome, 'projects', claudeProjectDirName(a.dir), 'memory');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n- hand-written note Claude keeps\n');
    ok(a.cortex(['export', '--format', 'claude', '--include-private'], { env }), 'export');
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    expect(index).toMatch(/^# Memory\n\n- hand-written note Claude keeps\n/);
    expect(index).toContain('<!-- CORTEX_EXPORT_START -->');
    const topics = readdirSync(dir).filter((n) => n.startsWith('cortex-'));
    expect(topics.length).toBe(5);
    const topic = readFileSync(join(dir, topics[0]!), 'utf8');
    expect(topic).toMatch(/^---\nname: .+\ndescription: .+\ntype: (user|feedback|project|reference)\n/);
    const b = initRepo();
    cpSync(dir, join(b.dir, 'claude-memory'), { recursive: true });
    importJson(b, ['claude-memory', '--from', 'claude']);
    // The hand-written line comes back too (it is knowledge in MEMORY.md): compare the rest.
    const back = contents(b).filter((m) => m.summary !== 'hand-written note Claude keeps');
    expect(back).toEqual(contents(a));
  });

  it('jsonl is lossless: export → import → export gives the same bytes, and the same memory files', () => {
    const a = initRepo();
    copyFixture(a, 'mcp-memory');
    importJson(a, ['sources/mcp-memory/memory.jsonl']);
    ok(a.cortex(['remember', 'Chose SQLite over Postgres', '--type', 'decision', '--tags', 'storage', '--topic', 'decision/storage']), 'remember');
    const exported = ok(a.cortex(['export']), 'export').stdout;
    expect(exported.split('\n')[0]).toBe('{"format":"cortex-jsonl","version":1}');
    const b = initRepo();
    b.write('all.jsonl', exported);
    const imported = importJson(b, ['all.jsonl']);
    expect(imported.format).toBe('jsonl');
    expect(ok(b.cortex(['export']), 'export').stdout).toBe(exported);
    for (const name of a.list('.cortex/memories')) expect(b.read(`.cortex/memories/${name}`)).toBe(a.read(`.cortex/memories/${name}`));
    for (const name of a.list('.cortex/edges')) expect(b.read(`.cortex/edges/${name}`)).toBe(a.read(`.cortex/edges/${name}`));
  });
});

describe('import', () => {
  it('is idempotent: a second import changes no file and reports everything unchanged', () => {
    const repo = initRepo();
    copyFixture(repo, 'memory-bank');
    const first = importJson(repo, ['sources/memory-bank']);
    expect(first.format).toBe('memory-bank');
    ok(repo.git(['add', '-A']), 'add');
    ok(repo.git(['commit', '-q', '-m', 'import']), 'commit');
    const second = importJson(repo, ['sources/memory-bank']);
    expect(second.created).toEqual([]);
    expect(second.updated).toEqual([]);
    expect(second.unchanged.length).toBe(first.created.length);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });

  it('maps types from the source field and from section headings, with provenance', () => {
    const repo = initRepo();
    copyFixture(repo, 'mcp-memory');
    const out = importJson(repo, ['sources/mcp-memory/memory.jsonl']);
    expect(out.format).toBe('mcp-memory');
    expect(out.edges.created).toBe(2);
    const all = contents(repo);
    expect(all.find((m) => m.summary === 'Use ZXing for scanning')?.type).toBe('decision');
    expect(all.find((m) => m.summary === 'John_Smith')?.tags).toEqual(['entity:person']);
    copyFixture(repo, 'claude-md');
    importJson(repo, ['sources/claude-md/CLAUDE.md']);
    const gotcha = contents(repo).find((m) => m.summary.startsWith('The dev server caches env vars'));
    expect(gotcha?.type).toBe('gotcha');
    const file = repo.list('.cortex/memories').find((n) => n.startsWith('the-dev-server-caches'))!;
    const text = repo.read(`.cortex/memories/${file}`);
    expect(text).toContain('kind: import');
    expect(text).toContain('sources/claude-md/CLAUDE.md:');
    expect(text).toContain('topic: import/claude-md/');
  });

  it('never lets a secret in a source file reach .cortex/', () => {
    const repo = initRepo();
    const secret = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
    repo.write('notes/CLAUDE.md', `## Gotchas\n- The deploy token is ${secret} (rotate it)\n  Also in the body: ${secret}\n`);
    const out = importJson(repo, ['notes/CLAUDE.md']);
    expect(out.created.length).toBe(1);
    const grep = repo.git(['grep', '--no-index', '-l', secret, '--', '.cortex', '.memory']);
    expect(grep.stdout).toBe('');
  });

  it('stops at a malformed JSONL line, naming the file and line, and writes nothing', () => {
    const repo = initRepo();
    repo.write('bad.jsonl', '{"type":"entity","name":"A","entityType":"x","observations":[]}\n{"type":"entity", oops\n');
    const r = repo.cortex(['import', 'bad.jsonl', '--from', 'mcp-memory']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl:2 is not JSON/);
    expect(r.stderr).toMatch(/Fix or delete line 2/);
    expect(repo.list('.cortex/memories')).toEqual([]);
  });

  it('refuses an unreadable file with its name and the fix, and writes nothing', () => {
    if (process.getuid?.() === 0) return; // root reads anything
    const repo = initRepo();
    copyFixture(repo, 'memory-bank');
    chmodSync(join(repo.dir, 'sources/memory-bank/progress.md'), 0o000);
    const r = repo.cortex(['import', 'sources/memory-bank']);
    chmodSync(join(repo.dir, 'sources/memory-bank/progress.md'), 0o644);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/progress\.md/);
    expect(r.stderr).toMatch(/chmod u\+r/);
    expect(repo.list('.cortex/memories')).toEqual([]);
  });

  it('a missing source is a one-line error with a hint', () => {
    const repo = initRepo();
    const r = repo.cortex(['import', 'nope/']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Cannot import nope: no such file or directory/);
  });

  it('--dry-run reports without writing', () => {
    const repo = initRepo();
    copyFixture(repo, 'claude-md');
    const out = importJson(repo, ['sources/claude-md/CLAUDE.md', '--dry-run']);
    expect(out.created.length).toBeGreaterThan(0);
    expect(repo.list('.cortex/memories')).toEqual([]);
  });
});

describe('export', () => {
  it('refuses an --out outside the repository, naming the fix', () => {
    const repo = initRepo();
    const r = repo.cortex(['export', '--format', 'memory-bank', '--out', join(repo.home, 'elsewhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outside the repository/);
  });

  it('agents-md keeps the rest of AGENTS.md byte for byte', () => {
    const repo = initRepo();
    repo.write('AGENTS.md', '# Agents\n\nHand-written.\n');
    ok(repo.cortex(['remember', 'Chose pnpm over npm', '--type', 'decision']), 'remember');
    ok(repo.cortex(['export', '--format', 'agents-md']), 'export');
    const text = repo.read('AGENTS.md');
    expect(text.startsWith('# Agents\n\nHand-written.\n\n<!-- CORTEX_EXPORT_START -->\n')).toBe(true);
    expect(text).toContain('- Chose pnpm over npm <!-- cortex type=decision -->');
    ok(repo.cortex(['export', '--format', 'agents-md']), 'export again');
    expect(repo.read('AGENTS.md')).toBe(text);
  });
});

describe('the private tier', () => {
  it('is recalled and briefed, but never in git status, a commit or an export unless asked', () => {
    const repo = initRepo();
    ok(repo.cortex(['remember', 'I prefer tabs over spaces in this repo', '--type', 'preference', '--private']), 'remember --private');
    ok(repo.cortex(['remember', 'My sandbox lives at /home/me/sandbox', '--scope', 'local']), 'remember --scope local');
    ok(repo.cortex(['remember', 'Chose SQLite over Postgres', '--type', 'decision']), 'remember');
    expect(repo.list('.git/cortex/local/memories').length).toBe(2);
    expect(existsSync(join(repo.dir, '.cortex/local'))).toBe(false);
    const status = repo.git(['status', '--porcelain', '--untracked-files=all']).stdout;
    expect(status).not.toMatch(/local/);
    ok(repo.git(['add', '-A']), 'add');
    ok(repo.git(['commit', '-q', '-m', 'memories']), 'commit');
    const tree = repo.git(['ls-tree', '-r', '--name-only', 'HEAD']).stdout;
    expect(tree).not.toMatch(/\.cortex\/local/);
    expect(tree).toMatch(/\.cortex\/memories\/chose-sqlite/);

    const recall = json<{ results: Array<{ summary: string; scope: string }> }>(ok(repo.cortex(['recall', 'tabs spaces', '--json']), 'recall'));
    expect(recall.results.find((r) => r.summary.startsWith('I prefer tabs'))?.scope).toBe('local');
    const brief = ok(repo.cortex(['surface']), 'surface').stdout;
    expect(brief).toContain('I prefer tabs');
    // Projections are committed: the private tier stays out of them.
    ok(repo.cortex(['remember', 'Chose tabs for my own notes', '--type', 'decision', '--private']), 'private decision');
    ok(repo.cortex(['project']), 'project');
    expect(repo.read('.cortex/decisions.md')).not.toContain('Chose tabs for my own notes');

    expect(ok(repo.cortex(['export']), 'export').stdout).not.toContain('I prefer tabs');
    expect(ok(repo.cortex(['export', '--include-private']), 'export private').stdout).toContain('I prefer tabs');
  });

  it('the pre-commit hook refuses a forced private file and a private memory outside .cortex/local/', () => {
    const repo = initRepo();
    // A file put (or left, by an older cortex) in .cortex/local/ and forced in.
    repo.write('.cortex/local/memories/mine-fedcba.md', '---\nid: mine-fedcba\ntype: preference\nsummary: Mine\nscope: local\n---\nMine.\n');
    ok(repo.git(['add', '-f', '.cortex/local']), 'add -f');
    let r = repo.git(['commit', '-q', '-m', 'leak']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/private tier/);
    ok(repo.git(['rm', '-r', '--cached', '-q', '.cortex/local']), 'unstage');
    repo.write('.cortex/memories/mine-abcdef.md', '---\nid: mine-abcdef\ntype: preference\nsummary: Mine\nscope: local\npriority: 5\nconfidence: 1\npinned: false\nstatus: active\ntags: []\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\nsource:\n  kind: manual\n---\nMine.\n');
    ok(repo.git(['add', '.cortex/memories/mine-abcdef.md']), 'add');
    r = repo.git(['commit', '-q', '-m', 'leak 2']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/marked private/);
    const lint = repo.cortex(['lint']);
    expect(lint.stdout + lint.stderr).toMatch(/private-in-shared-tier|marked private/);
  });

  it('import --scope local and Claude "user" memories land in the private tier', () => {
    const repo = initRepo();
    copyFixture(repo, 'claude');
    importJson(repo, ['sources/claude/memory']);
    const role = contents(repo).find((m) => m.summary.startsWith('Senior Go developer'));
    expect(role?.scope).toBe('local');
    copyFixture(repo, 'claude-md');
    importJson(repo, ['sources/claude-md/CLAUDE.md', '--scope', 'local']);
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).not.toMatch(/\.cortex\/local/);
  });
});
