/**
 * The foundation, end to end: the built CLI in real temporary git repositories.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { parseMemory } from '../src/core/memory-format.js';
import { json, tempRepo } from './helpers/repo.js';

const SQLITE = 'Chose SQLite over Postgres because zero-config matters';

function memoryFiles(dir: string): string[] {
  return readdirSync(join(dir, '.cortex/memories')).filter((n) => n.endsWith('.md') && !n.startsWith('.'));
}

describe('cortex init', () => {
  it('creates .cortex/ and ignores .memory/, and changes nothing when re-run', () => {
    const repo = tempRepo({ '.gitignore': 'node_modules/\n' });
    expect(repo.cortex(['init']).code).toBe(0);
    expect(existsSync(join(repo.dir, '.cortex/memories'))).toBe(true);
    expect(repo.read('.gitignore')).toBe('node_modules/\n.memory/\n.cortex/**/.*.tmp\n');
    const again = json<{ steps: { action: string }[] }>(repo.cortex(['init', '--json']));
    expect(again.steps.every((s) => s.action === 'unchanged')).toBe(true);
    expect(repo.read('.gitignore')).toBe('node_modules/\n.memory/\n.cortex/**/.*.tmp\n');
  });

  it('is needed before other commands, with a hint', () => {
    const repo = tempRepo();
    const r = repo.cortex(['recall', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No \.cortex\/ directory/);
    expect(r.stderr).toMatch(/cortex init/);
  });
});

describe('cortex remember and recall', () => {
  it('stores one valid file and recalls it first for a paraphrased question', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const r = repo.cortex(['remember', SQLITE, '--type', 'decision', '--tags', 'storage']);
    expect(r.code, r.stderr).toBe(0);
    const files = memoryFiles(repo.dir);
    expect(files).toHaveLength(1);
    const text = repo.read(`.cortex/memories/${files[0]}`);
    const parsed = parseMemory(text, { file: files[0]!, expectedId: files[0]!.slice(0, -3) });
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.memory).toMatchObject({ type: 'decision', summary: SQLITE, tags: ['storage'], source: { branch: 'main' } });
    expect(parsed.memory!.id).toMatch(/^chose-sqlite-over-postgres-because-zero-config-[a-z2-7]{6}$/);

    repo.cortex(['remember', 'The CI runner has no GPU', '--type', 'gotcha']);
    repo.cortex(['remember', 'Use vitest for all tests', '--type', 'pattern']);
    const recall = repo.cortex(['recall', 'which database did we pick']);
    expect(recall.code).toBe(0);
    expect(recall.stdout.split('\n')[0]).toContain(parsed.memory!.id);

    const doc = json<{ schemaVersion: number; results: { id: string; type: string; summary: string }[] }>(
      repo.cortex(['recall', 'which database did we pick', '--json']),
    );
    expect(doc.schemaVersion).toBe(1);
    expect(doc.results[0]).toMatchObject({ id: parsed.memory!.id, type: 'decision', summary: SQLITE });
  });

  it('does not store identical content twice, and updates by topic', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const a = json<{ action: string; id: string }>(repo.cortex(['remember', SQLITE, '--type', 'decision', '--json']));
    const b = json<{ action: string; id: string }>(repo.cortex(['remember', SQLITE, '--type', 'decision', '--json']));
    expect(a.action).toBe('created');
    expect(b).toMatchObject({ action: 'duplicate', id: a.id });
    const t1 = json<{ action: string; id: string }>(repo.cortex(['remember', 'Deploys go through staging', '--topic', 'ops/deploy', '--json']));
    const t2 = json<{ action: string; id: string }>(repo.cortex(['remember', 'Deploys go straight to prod on Fridays', '--topic', 'ops/deploy', '--json']));
    expect(t2).toMatchObject({ action: 'updated', id: t1.id });
    expect(memoryFiles(repo.dir)).toHaveLength(2);
    expect(repo.read(`.cortex/memories/${t1.id}.md`)).toContain('summary: Deploys go straight to prod on Fridays');
  });

  it('reads the text from stdin', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const r = repo.cortex(['remember', '--type', 'context', '--json'], { input: 'Release notes live in CHANGELOG.md\nWritten by hand before each tag.' });
    const doc = json<{ memory: { summary: string; body: string } }>(r);
    expect(doc.memory.summary).toBe('Release notes live in CHANGELOG.md');
    expect(doc.memory.body).toBe('Written by hand before each tag.');
  });

  it('stores secrets redacted', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const aws = 'AKIA' + 'QWERTYUIOPASDFGH';
    const gh = 'ghp_' + 'x7Kp2mQ9vR4tY8wZ1aB3cD5eF6gH0jL2nM4p';
    const r = repo.cortex(['remember', `Deploy key is ${aws} and the bot token ${gh}`, '--type', 'context', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const file = repo.read(`.cortex/memories/${memoryFiles(repo.dir)[0]}`);
    expect(file).not.toContain(aws);
    expect(file).not.toContain(gh);
    expect(file).toMatch(/\[REDACTED:[a-z-]+\]/);
    expect(json<{ redacted: string[] }>(r).redacted.length).toBeGreaterThanOrEqual(2);
  });

  it('lets 20 concurrent remember processes each write a valid file that the index finds', async () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => repo.cortexAsync(['remember', `Concurrent fact number ${i} about zebra${i} stripes`, '--type', 'context'])),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const files = memoryFiles(repo.dir);
    expect(files).toHaveLength(20);
    for (const f of files) expect(parseMemory(repo.read(`.cortex/memories/${f}`), { file: f }).memory).toBeDefined();
    const list = json<{ total: number }>(repo.cortex(['list', '--json']));
    expect(list.total).toBe(20);
    for (let i = 0; i < 20; i++) {
      const hits = json<{ results: { summary: string }[] }>(repo.cortex(['recall', `zebra${i}`, '--json']));
      expect(hits.results.map((h) => h.summary)).toContain(`Concurrent fact number ${i} about zebra${i} stripes`);
    }
  }, 120_000);
});

describe('broken and hostile input', () => {
  const broken = '---\nid: broken-memory-abcdef\ntype: decision\nsummary: "unterminated\ntags: [a\n---\nBody.\n';

  it('lint names the file and line with a hint and exits 1; recall and list still work and leave the file untouched', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    repo.cortex(['remember', SQLITE, '--type', 'decision']);
    repo.write('.cortex/memories/broken-memory-abcdef.md', broken);
    const before = readFileSync(join(repo.dir, '.cortex/memories/broken-memory-abcdef.md'));
    const mtime = statSync(join(repo.dir, '.cortex/memories/broken-memory-abcdef.md')).mtimeMs;

    const lint = repo.cortex(['lint']);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/^\.cortex\/memories\/broken-memory-abcdef\.md:\d+(:\d+)?: error: invalid YAML/m);
    expect(lint.stdout).toMatch(/hint: /);

    const recall = repo.cortex(['recall', 'database']);
    expect(recall.code).toBe(0);
    expect(recall.stdout).toContain('chose-sqlite');
    const warnings = recall.stderr.split('\n').filter((l) => l.includes('broken-memory-abcdef.md'));
    expect(warnings).toHaveLength(1);

    const list = repo.cortex(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('chose-sqlite');
    expect(list.stderr.split('\n').filter((l) => l.includes('broken-memory-abcdef.md'))).toHaveLength(1);

    expect(readFileSync(join(repo.dir, '.cortex/memories/broken-memory-abcdef.md')).equals(before)).toBe(true);
    expect(statSync(join(repo.dir, '.cortex/memories/broken-memory-abcdef.md')).mtimeMs).toBe(mtime);
  });

  it('rejects ids that escape .cortex/ as usage errors without reading anything', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    for (const id of ['../../etc/passwd', '/etc/passwd', 'a\\..\\b', 'con', '..']) {
      const r = repo.cortex(['show', id]);
      expect(r.code, id).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/Invalid memory id/);
      expect(r.stderr).not.toMatch(/root:/);
    }
  });

  it('reports an unknown id as not found (exit 1) with a hint', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const r = repo.cortex(['show', 'no-such-memory-abcdef']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No memory with id "no-such-memory-abcdef"/);
    expect(r.stderr).toMatch(/hint: /);
  });

  it('turns unknown flags and commands into usage errors (exit 2)', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    expect(repo.cortex(['recall', 'x', '--bogus']).code).toBe(2);
    const r = repo.cortex(['recal', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Did you mean `cortex recall`/);
    const tag = repo.cortex(['remember', 'x', '--tag', 'storage']);
    expect(tag.code).toBe(2);
    expect(tag.stderr).toContain("unknown option '--tag'");
    expect(tag.stderr).toContain('Did you mean --tags?');
    expect(repo.cortex(['recall', 'x', '--zzzzzz']).stderr).not.toContain('Did you mean');
    const j = repo.cortex(['remember', 'x', '--priority', '11', '--json']);
    expect(j.code).toBe(2);
    expect(json<{ error: { code: string } }>(j).error.code).toBe('USAGE');
  });
});

describe('show, list, edit, forget, status', () => {
  it('walks a memory through its life', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const { id } = json<{ id: string }>(repo.cortex(['remember', SQLITE, '--type', 'decision', '--tags', 'storage', '--json']));
    const shown = repo.cortex(['show', id]);
    expect(shown.stdout).toContain(`id: ${id}`);
    expect(json<{ memory: { id: string } }>(repo.cortex(['show', id, '--json'])).memory.id).toBe(id);

    const before = repo.read(`.cortex/memories/${id}.md`);
    const noop = json<{ changed: boolean }>(repo.cortex(['edit', id, '--priority', '5', '--json']));
    expect(noop.changed).toBe(false);
    expect(repo.read(`.cortex/memories/${id}.md`)).toBe(before);

    const edited = json<{ changed: boolean; memory: { priority: number; tags: string[] } }>(
      repo.cortex(['edit', id, '--priority', '8', '--add-tag', 'database', '--json']),
    );
    expect(edited.changed).toBe(true);
    expect(edited.memory).toMatchObject({ priority: 8, tags: ['storage', 'database'] });

    expect(json<{ total: number }>(repo.cortex(['list', '--type', 'decision', '--json'])).total).toBe(1);
    expect(json<{ total: number }>(repo.cortex(['list', '--type', 'gotcha', '--json'])).total).toBe(0);

    const status = json<{ tiers: { total: number; byType: Record<string, number> }[] }>(repo.cortex(['status', '--json']));
    expect(status.tiers[0]).toMatchObject({ total: 1, byType: { decision: 1 } });

    expect(repo.cortex(['forget', id]).code).toBe(0);
    expect(repo.read(`.cortex/memories/${id}.md`)).toContain('status: archived');
    expect(json<{ results: unknown[] }>(repo.cortex(['recall', 'sqlite', '--json'])).results).toHaveLength(0);
    expect(json<{ results: unknown[] }>(repo.cortex(['recall', 'sqlite', '--status', 'archived', '--json'])).results).toHaveLength(1);

    expect(repo.cortex(['forget', id, '--hard']).code).toBe(0);
    expect(memoryFiles(repo.dir)).toHaveLength(0);
  });

  it('forget --query lists what a search matches and acts only with --yes; a prefix of several ids is refused', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    repo.cortex(['remember', 'Redis is the session cache', '--type', 'architecture']);
    repo.cortex(['remember', 'Redis eviction policy is allkeys-lru', '--type', 'gotcha']);
    // Both ids start with "redis": a prefix of several ids is a usage error, never a search.
    const prefix = repo.cortex(['forget', 'redis']);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(/"redis" is the start of 2 memory ids/);
    const r = repo.cortex(['forget', '--query', 'redis']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/2 memories match/);
    expect(json<{ total: number }>(repo.cortex(['list', '--json'])).total).toBe(2);
    expect(repo.cortex(['forget', '--query', 'redis', '--yes']).code).toBe(0);
    expect(json<{ total: number }>(repo.cortex(['list', '--json'])).total).toBe(0);
  });

  it('edit without flags opens $EDITOR and keeps an invalid result as typed', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const { id } = json<{ id: string }>(repo.cortex(['remember', SQLITE, '--type', 'decision', '--json']));
    const script = join(repo.home, 'editor.sh');
    repo.write('../home/editor.sh', '#!/bin/sh\nsed -i "s/^priority: 5/priority: 9/" "$1"\n');
    const ok = repo.cortex(['edit', id], { env: { EDITOR: `sh ${script}` } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(repo.read(`.cortex/memories/${id}.md`)).toContain('priority: 9');

    repo.write('../home/editor.sh', '#!/bin/sh\nsed -i "s/^type: decision/type: nonsense/" "$1"\n');
    const bad = repo.cortex(['edit', id], { env: { EDITOR: `sh ${script}` } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown type "nonsense"/);
    expect(repo.read(`.cortex/memories/${id}.md`)).toContain('type: nonsense');
  });

  it('remember --edit reads the template back', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    const script = join(repo.home, 'editor.sh');
    repo.write(
      '../home/editor.sh',
      '#!/bin/sh\ncat > "$1" <<EOF\n---\ntype: gotcha\nsummary: Timestamps are stored in UTC\ntags: [time]\npriority: 6\n---\nConvert at the edge only.\nEOF\n',
    );
    const r = repo.cortex(['remember', '--edit', '--json'], { env: { EDITOR: `sh ${script}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ memory: object }>(r).memory).toMatchObject({ type: 'gotcha', summary: 'Timestamps are stored in UTC', tags: ['time'], priority: 6, body: 'Convert at the edge only.' });
  });
});

describe('the index cache', () => {
  it('is rebuilt silently when deleted or corrupt, and follows hand edits', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    repo.cortex(['remember', SQLITE, '--type', 'decision']);
    repo.write('.memory/index.v8', '{"version": 1, "garbage');
    const r = repo.cortex(['recall', 'sqlite', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(json<{ results: unknown[] }>(r).results).toHaveLength(1);

    const [file] = memoryFiles(repo.dir);
    repo.write(`.cortex/memories/${file}`, repo.read(`.cortex/memories/${file}`).replace('SQLite', 'DuckDB'));
    const after = json<{ results: { summary: string }[] }>(repo.cortex(['recall', 'duckdb', '--json']));
    expect(after.results[0]?.summary).toContain('DuckDB');
  });
});

describe('cortex --help', () => {
  it('lists commands and documents each one', () => {
    const repo = tempRepo();
    const r = repo.cortex(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['init', 'remember', 'recall', 'show', 'list', 'edit', 'forget', 'lint', 'status']) {
      expect(r.stdout).toContain(`  ${c}`);
      const h = repo.cortex([c, '--help']);
      expect(h.code).toBe(0);
      expect(h.stdout).toContain(`cortex ${c}`);
      expect(h.stdout).toContain('--json');
    }
  });
});

describe('the split index cache', () => {
  it('rebuilds silently when the search-tree file is missing or damaged', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    repo.cortex(['remember', SQLITE, '--type', 'decision']);
    const searchFile = () => readdirSync(join(repo.dir, '.memory')).find((n) => n.startsWith('index-search-'));
    expect(searchFile()).toBeDefined();
    repo.write(`.memory/${searchFile()}`, 'garbage');
    const r = repo.cortex(['recall', 'sqlite', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ results: unknown[] }>(r).results).toHaveLength(1);
    rmSync(join(repo.dir, '.memory', searchFile()!));
    const again = repo.cortex(['recall', 'sqlite', '--json']);
    expect(json<{ results: unknown[] }>(again).results).toHaveLength(1);
  });

  it('names the damage and the fix when postings turn out damaged where the header could not show it, and rebuilds from the memories', () => {
    const repo = tempRepo();
    repo.cortex(['init']);
    repo.cortex(['remember', SQLITE, '--type', 'decision']);
    const path = join(repo.dir, '.memory', readdirSync(join(repo.dir, '.memory')).find((n) => n.startsWith('index-search-'))!);
    // Every term's first section claims far more documents than its postings hold.
    const bytes = readFileSync(path);
    const length = bytes.readUInt32LE(4);
    const { termOffsets } = deserialize(bytes.subarray(8, 8 + length)) as { termOffsets: Uint32Array };
    const postings = (8 + length + 3) & ~3;
    for (const offset of termOffsets.subarray(0, -1)) bytes.writeUInt32LE(0xffffff, postings + 4 * (offset + 2));
    writeFileSync(path, bytes);
    const r = repo.cortex(['recall', 'sqlite']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is damaged');
    expect(r.stderr).toContain('cortex index --rebuild');
    expect(r.stderr).not.toContain('bug in cortex');
    expect(repo.cortex(['index', '--rebuild']).code).toBe(0);
    expect(json<{ results: unknown[] }>(repo.cortex(['recall', 'sqlite', '--json'])).results).toHaveLength(1);
  });
});
