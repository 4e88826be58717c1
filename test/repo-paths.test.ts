/**
 * `source.files` on every write path, in real temporary git repositories: the CLI
 * (`remember --files`, `edit --files`), the MCP tool (real SDK client against the built
 * server) and capture (the store path of hooks and model capture). Paths inside the
 * repository are stored relative to its root; paths outside it are refused with a one-line
 * error naming the value and the fix, except in capture, which drops them and says so.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { storeCandidates } from '../src/api/capture.js';
import { openCortex } from '../src/api/cortex.js';
import type { Candidate } from '../src/core/extract/types.js';
import { CLI, json, tempRepo, type TempRepo } from './helpers/repo.js';

function initialised(): TempRepo {
  const repo = tempRepo({ 'src/db.ts': 'export {};\n' });
  expect(repo.cortex(['init']).code).toBe(0);
  return repo;
}

const filesOf = (repo: TempRepo, id: string): string[] | undefined => openCortex({ dir: repo.dir, env: repo.env }).get(id).memory.source.files;

describe('cortex remember --files / edit --files', () => {
  it('stores absolute paths inside the repository relative, and refuses paths outside it', () => {
    const repo = initialised();
    const ok = repo.cortex(['remember', 'The db module opens SQLite lazily', '--files', `${repo.dir}/src/db.ts,./README.md`, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    const id = json<{ id: string }>(ok).id;
    expect(filesOf(repo, id)).toEqual(['src/db.ts', 'README.md']);

    for (const bad of ['/etc/passwd', '../x']) {
      const r = repo.cortex(['remember', 'Something about a file', '--files', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`"${bad}" is outside the repository`);
      expect(r.stderr).toMatch(/relative to its root/);
    }
    expect(repo.list('.cortex/memories')).toHaveLength(1);

    expect(repo.cortex(['edit', id, '--files', `${repo.dir}/src/other.ts`]).code).toBe(0);
    expect(filesOf(repo, id)).toEqual(['src/other.ts']);
    const refused = repo.cortex(['edit', id, '--files', '/etc/passwd']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"/etc/passwd" is outside the repository');
    expect(filesOf(repo, id)).toEqual(['src/other.ts']);
  });

  it('takes relative paths from the working directory (or -C), as git does: remember, edit and recall --file alike', () => {
    const repo = initialised();
    repo.write('src/db/pool.ts', 'export function acquire(): void {}\n');
    const sub = join(repo.dir, 'src');
    const r = repo.cortex(['remember', 'The pool never allocates', '--files', 'db/pool.ts#acquire', '--json'], { cwd: sub });
    expect(r.code, r.stderr).toBe(0);
    const id = json<{ id: string }>(r).id;
    expect(filesOf(repo, id)).toEqual(['src/db/pool.ts#acquire']);
    expect(repo.cortex(['-C', 'src', 'edit', id, '--files', 'db/pool.ts,../README.md']).code).toBe(0);
    expect(filesOf(repo, id)).toEqual(['src/db/pool.ts', 'README.md']);
    const found = repo.cortex(['recall', '--file', 'db/pool.ts', '--json'], { cwd: sub });
    expect(found.code, found.stderr).toBe(0);
    expect(json<{ path: string; results: { id: string }[] }>(found)).toMatchObject({ path: 'src/db/pool.ts', results: [{ id }] });
  });

  it('accepts paths under the real path of a repository reached through a symlink', () => {
    const repo = initialised();
    const link = join(repo.home, 'linked-repo');
    symlinkSync(repo.dir, link);
    const r = repo.cortex(['remember', 'Through the link', '--files', `${repo.dir}/src/db.ts`, '--json'], { cwd: link });
    expect(r.code, r.stderr).toBe(0);
    expect(filesOf(repo, json<{ id: string }>(r).id)).toEqual(['src/db.ts']);
  });
});

describe('memory_remember files (real MCP client)', () => {
  it('stores repo-relative paths and answers a path outside the repository with a tool error', async () => {
    const repo = initialised();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.dir, env: repo.env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'cortex-test', version: '0.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'memory_remember', arguments: args })) as CallToolResult;

    const ok = await call({ summary: 'The db module opens SQLite lazily', type: 'pattern', files: [join(repo.dir, 'src', 'db.ts')] });
    expect(ok.isError).toBeFalsy();
    const id = (ok.structuredContent as { id: string }).id;
    expect(filesOf(repo, id)).toEqual(['src/db.ts']);
    // The next briefing does not call it outdated: the file exists where the memory says.
    expect(repo.cortex(['surface']).stdout).not.toMatch(/lazily.*OUTDATED|OUTDATED.*lazily/);

    for (const bad of ['/etc/passwd', '../x']) {
      const r = await call({ summary: `About ${bad}`, type: 'context', files: [bad] });
      expect(r.isError).toBe(true);
      const message = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      expect(message).toContain(`"${bad}" is outside the repository`);
      expect(message).toMatch(/relative to its root/);
    }
    expect(repo.list('.cortex/memories')).toHaveLength(1);
  });
});

describe('capture', () => {
  it('drops paths outside the repository and reports them, never failing', async () => {
    const repo = initialised();
    const cortex = openCortex({ dir: repo.dir, env: repo.env });
    const candidate: Candidate = {
      type: 'gotcha',
      summary: 'The db module must be opened before the hooks run',
      body: 'Seen in the session.',
      confidence: 0.9,
      tags: [],
      layer: 'llm',
      session: 's1',
      files: [join(repo.dir, 'src', 'db.ts'), '/etc/passwd', '../elsewhere.ts'],
    };
    const out = await storeCandidates(cortex.context, [candidate]);
    expect(out.memories).toHaveLength(1);
    expect(out.memories[0]!.memory.source.files).toEqual(['src/db.ts']);
    expect(out.memories[0]!.droppedFiles).toEqual(['/etc/passwd', '../elsewhere.ts']);
  });
});
