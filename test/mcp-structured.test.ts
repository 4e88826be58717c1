/**
 * What the model reads: Claude Code sends a tool result's `structuredContent` instead of
 * its text when there is one, so every fact and hint of the text must be in it. Each tool
 * is called through the real MCP SDK client against the built server; every
 * `structuredContent` is checked against the tool's published `outputSchema` (with Ajv, as
 * MCP Inspector does) and against the facts of its text: ids, paths, commands in
 * backticks, decimal figures, and the notes ("may duplicate …", "suggested until …").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, tempRepo } from './helpers/repo.js';

/** The facts a text states that a reader would act on. */
function factsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`[^`]+`/g)) out.add(m[0]);
  // Ids and paths: words joined by - / . (an id always has a hyphen).
  for (const m of text.matchAll(/[A-Za-z0-9_./]*[A-Za-z0-9]-[A-Za-z0-9][A-Za-z0-9_./-]*/g)) out.add(m[0].replace(/[.]+$/, ''));
  for (const m of text.matchAll(/\b\d+\.\d+\b/g)) out.add(m[0]);
  for (const line of text.split('\n')) {
    const note = /^note: (.*)$/.exec(line)?.[1];
    const kinds = note !== undefined ? /^redacted (.*) before writing$/.exec(note)?.[1] : undefined;
    // The kinds redacted are the facts of that note (structuredContent lists them in `redacted`).
    if (kinds !== undefined) for (const kind of kinds.split(', ')) out.add(`"${kind}"`);
    else if (note) for (const part of note.split('; ')) if (!/^may duplicate \S+$/.test(part)) out.add(part);
    const more = /\(([^()]*limit[^()]*)\)$/.exec(line)?.[1];
    if (more) out.add(more);
  }
  return [...out];
}

describe('structuredContent carries what the text says', () => {
  it('for every tool with an output schema, and validates against it', async () => {
    const repo = tempRepo({ 'src/db.ts': 'export {};\n' });
    expect(repo.cortex(['init']).code).toBe(0);
    const client = new Client({ name: 'cortex-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.dir, env: repo.env as Record<string, string>, stderr: 'pipe' }));
    onTestFinished(() => client.close());
    const { tools } = await client.listTools();
    const schemas = new Map<string, Tool['outputSchema']>(tools.map((t) => [t.name, t.outputSchema]));
    const ajv = new Ajv({ strict: false });
    const checked = new Set<string>();

    const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      const schema = schemas.get(name);
      if (schema === undefined) {
        expect(result.structuredContent, name).toBeUndefined();
        return result;
      }
      expect(ajv.validate(schema, result.structuredContent), `${name}: ${ajv.errorsText()}`).toBe(true);
      const json = JSON.stringify(result.structuredContent);
      for (const fact of factsOf(text)) expect(json, `${name}: "${fact}" is in the text but not in structuredContent`).toContain(fact);
      checked.add(name);
      return result;
    };
    const idOf = (r: CallToolResult) => (r.structuredContent as { id: string }).id;

    const sqlite = idOf(
      await call('memory_remember', {
        summary: 'Chose SQLite over Postgres because zero-config matters',
        type: 'decision',
        body: 'PostgreSQL was rejected: it needs a running daemon on every laptop.',
        files: ['src/db.ts'],
      }),
    );
    // A near-duplicate: the answer notes it and queues it for review.
    const dup = await call('memory_remember', {
      summary: 'Chose SQLite over Postgres because zero-config matters most',
      type: 'decision',
      body: 'PostgreSQL was rejected: it needs a running daemon on every laptop.',
    });
    expect(JSON.stringify(dup.structuredContent)).toContain(sqlite);
    expect((dup.structuredContent as { mayDuplicate?: string[] }).mayDuplicate).toEqual([sqlite]);
    // A secret is redacted, and the answer says so.
    const secret = await call('memory_remember', { summary: 'The deploy-bot token is ghp_R8dTq2Lk9VxW3mZp7Yb4Nc6Hf1Js5Ge0Ua2K', type: 'gotcha' });
    expect((secret.structuredContent as { redacted: string[] }).redacted.length).toBeGreaterThan(0);
    const wal = idOf(await call('memory_remember', { summary: 'WAL mode lets hooks write concurrently to the SQLite store', type: 'gotcha' }));

    const recall = await call('memory_recall', { query: 'which database did we pick' });
    expect((recall.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const linked = await call('memory_link', { source: wal, relation: 'supersedes', target: sqlite });
    expect(linked.structuredContent).toMatchObject({ status: 'suggested', note: expect.stringContaining('suggested until a person confirms it') });
    await call('memory_link', { source: wal, relation: 'refines', target: sqlite });
    await call('memory_link', { source: idOf(secret), relation: 'relates_to', target: sqlite, note: 'Both about the store.' });
    await call('memory_recall', { query: 'sqlite wal hooks' });
    const walked = await call('memory_traverse', { id: sqlite, limit: 1 });
    expect(walked.structuredContent).toMatchObject({ hint: expect.stringContaining('raise limit') });
    await call('memory_traverse', { id: wal });
    await call('memory_review');
    await call('memory_status');
    await call('memory_get', { id: sqlite });
    await call('memory_forget', { id: wal });
    await call('memory_forget', { id: idOf(dup), hard: true });

    // Every tool that publishes an output schema was checked at least once.
    expect([...checked].sort()).toEqual([...schemas].filter(([, s]) => s !== undefined).map(([n]) => n).sort());
  });
});
