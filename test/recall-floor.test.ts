/**
 * Results stop when relevance stops: `--limit` is a maximum, the CLI says when nothing
 * relevant was found, `--no-floor` shows the whole ranking.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { aboveFloor } from '../src/core/recall-rank.js';
import { memoryFile } from './helpers/models.js';
import { CLI, tempRepo } from './helpers/repo.js';

const SUMMARIES = [
  'Chose SQLite over Postgres because zero-config matters most',
  'Backups of the SQLite file run nightly with litestream',
  'The worker needs a restart after a config change',
  'Release notes are written by hand for every tag',
  'The parser rejects files larger than 1 MB',
];

describe('aboveFloor', () => {
  it('keeps results above a share of the best score that cover enough of the query', () => {
    const ranked = [{ score: 10, coverage: 0.9 }, { score: 5, coverage: 0.1 }, { score: 4 }, { score: 1, coverage: 1 }];
    expect(aboveFloor(ranked)).toEqual([{ score: 10, coverage: 0.9 }, { score: 4 }]);
    expect(aboveFloor(ranked, { minScoreShare: 0, minCoverage: 0 })).toEqual(ranked);
    expect(aboveFloor([])).toEqual([]);
  });
});

describe('cortex recall and the relevance floor', () => {
  it('shows fewer results than --limit when the rest are not relevant, and says when nothing is', () => {
    const repo = tempRepo(Object.fromEntries(SUMMARIES.map((summary) => memoryFile({ summary }))), { git: false });
    const some = repo.cortex(['recall', 'sqlite backups', '--limit', '5']);
    expect(some.code).toBe(0);
    const shown = SUMMARIES.filter((summary) => some.stdout.includes(summary.slice(0, 30)));
    expect(shown).toContain(SUMMARIES[1]);
    expect(shown.length).toBeLessThan(5);

    const none = repo.cortex(['recall', 'how do I bake sourdough bread']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^No memories match "how do I bake sourdough bread"\.\n$/);

    // "needs" matches one memory, but it is a small part of the question.
    const weak = repo.cortex(['recall', 'which houseplants need little sunlight on a dark windowsill']);
    expect(weak.stdout).toBe('');
    expect(weak.stderr).toMatch(/^Nothing relevant to "which houseplants need little sunlight on a dark windowsill": 1 weak match below the relevance floor \(--no-floor shows it\)\.\n$/);
    const all = repo.cortex(['recall', 'which houseplants need little sunlight on a dark windowsill', '--no-floor']);
    expect(all.stdout).toMatch(/restart after a config change/);
  });
});

describe('memory_recall and the relevance floor', () => {
  it('says how many weak matches it left out, in the text and in structuredContent, and no_floor returns them', async () => {
    const repo = tempRepo(Object.fromEntries(SUMMARIES.map((summary) => memoryFile({ summary }))), { git: false });
    const client = new Client({ name: 'cortex-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.dir, env: repo.env as Record<string, string>, stderr: 'pipe' }));
    onTestFinished(() => client.close());
    const query = 'which houseplants need little sunlight on a dark windowsill';
    const weak = (await client.callTool({ name: 'memory_recall', arguments: { query } })) as CallToolResult;
    expect(weak.content).toEqual([{ type: 'text', text: `Nothing relevant to "${query}": 1 match below the relevance floor (no_floor shows it).` }]);
    expect(weak.structuredContent).toEqual({ query, mode: 'keyword', results: [], belowFloor: 1 });
    const all = (await client.callTool({ name: 'memory_recall', arguments: { query, no_floor: true } })) as CallToolResult;
    const results = (all.structuredContent as { results: { summary: string }[]; belowFloor?: number }).results;
    expect(results.map((r) => r.summary)).toEqual([SUMMARIES[2]]);
    expect((all.structuredContent as { belowFloor?: number }).belowFloor).toBeUndefined();
  });
});
