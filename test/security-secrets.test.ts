/**
 * The redaction gate, end to end: the whole secrets corpus (test/helpers/secrets-corpus.ts,
 * built from fragments at run time) is pushed through every write path of the built CLI,
 * the MCP server and the Claude Code hooks, in one repository, many secrets per call; then
 * every file under the repository (and `.memory/`) is searched for every secret, in clear
 * or lower-cased (tags and ids are lower-cased). The look-alikes go through the same
 * writer and must come back unchanged.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../src/services/context.js';
import { rememberMany } from '../src/api/remember.js';
import { SECRET_KINDS } from '../src/core/redact.js';
import { json, tempRepo, type TempRepo } from './helpers/repo.js';
import { FAKES, LOOK_ALIKES } from './helpers/secrets-corpus.js';

const TEXTS = FAKES.map(([, wrap, secret]) => wrap(secret));
const ONE_LINE = TEXTS.filter((t) => !t.includes('\n'));

/** Every file under `dir` (but `.git/`), with its path relative to `dir`. */
function allFiles(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') walk(path);
      } else if (entry.isFile()) {
        out.push({ path: relative(dir, path), text: readFileSync(path).toString('latin1') });
      }
    }
  };
  walk(dir);
  return out;
}

/** The secrets found in clear: `[label, file]` for each, in contents or in file names. */
function leaks(dir: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const files = allFiles(dir);
  FAKES.forEach(([label, , secret]) => {
    const forms = [...new Set([secret, secret.toLowerCase()])];
    for (const f of files) {
      if (forms.some((s) => f.text.includes(s) || f.path.includes(s))) found.push([label, f.path]);
    }
  });
  return found;
}

function ok(r: { code: number; stdout: string; stderr: string }): typeof r {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

/** One MCP session: each call a JSON-RPC request; returns the responses by id. */
function mcp(repo: TempRepo, calls: Array<{ name: string; arguments: unknown }>): Map<number, { result?: { isError?: boolean } }> {
  const lines = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: c })),
  ];
  const r = repo.cortex(['mcp'], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
  const out = new Map<number, { result?: { isError?: boolean } }>();
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const msg = JSON.parse(line) as { id: number; result?: { isError?: boolean } };
    out.set(msg.id, msg);
  }
  return out;
}

/** A Claude Code transcript in which the session says every secret, in every kind of event. */
function transcript(session: string): string {
  let n = 0;
  const base = (type: string, message: unknown): string =>
    JSON.stringify({ type, sessionId: session, cwd: '/work/app', gitBranch: 'main', uuid: `u${++n}`, timestamp: `2026-11-21T10:00:${String(n % 60).padStart(2, '0')}.000Z`, message });
  const lines: string[] = [];
  TEXTS.forEach((text, i) => {
    lines.push(base('user', { role: 'user', content: `Use this for the deploy: ${text}` }));
    lines.push(
      base('assistant', {
        role: 'assistant',
        content: [
          { type: 'text', text: `[MEMORY: decision] Deploy with credential ${text} because it works` },
          { type: 'text', text: `We decided to use ${text} for staging, probably.` },
          { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `export TOKEN_${i}=1 && echo ${JSON.stringify(text)} > /tmp/x` } },
        ],
      }),
    );
    lines.push(base('user', { role: 'user', content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'ok' }] }));
  });
  lines.push(
    base('assistant', {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_todo', name: 'TodoWrite', input: { todos: ONE_LINE.slice(0, 20).map((t) => ({ content: `Rotate ${t}`, status: 'pending', activeForm: 'rotating' })) } }],
    }),
  );
  return `${lines.join('\n')}\n`;
}

describe('the secrets corpus', () => {
  it('has at least 50 fakes of at least 30 kinds, and at least 40 look-alikes', () => {
    expect(FAKES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(FAKES.map(([, , , kind]) => kind)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(FAKES.map(([, , , kind]) => kind)).size).toBeLessThanOrEqual(SECRET_KINDS.length);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(40);
  });
});

describe('every write path', () => {
  it('writes no secret of the corpus in clear anywhere under the repository or .memory/', async () => {
    const repo = tempRepo();
    ok(repo.cortex(['init']));
    const all = TEXTS.join('\n');

    // CLI: free text as an argument (first line → summary and id), and on stdin.
    ok(repo.cortex(['remember', `Deploy notes ${ONE_LINE[0]} and ${ONE_LINE[1]}\n${all}`, '--no-link']));
    ok(repo.cortex(['remember', '--no-link', '--type', 'gotcha'], { input: `Credentials seen today\n\n${all}` }));
    // A key block piped whole: its header line is the first line (the summary).
    for (const [, wrap, secret, kind] of FAKES) {
      if (kind === 'private-key') ok(repo.cortex(['remember', '--no-link'], { input: wrap(secret).replace(/^key:\n/, '') }));
    }
    // Tags, topic, an explicit summary.
    ok(repo.cortex(['remember', 'Tagged with secrets', '--no-link', ...TEXTS.map((t) => `--tags=${t}`)]));
    ok(repo.cortex(['remember', 'Topic with secrets', '--no-link', `--topic=${ONE_LINE.join(' ')}`]));
    ok(repo.cortex(['remember', 'body text', '--no-link', `--summary=${ONE_LINE.slice(0, 6).join(' ')}`]));
    // --edit: the template filled in by an "editor".
    const editor = join(repo.home, 'editor.mjs');
    const filled = `---\ntype: decision\nsummary: Edited ${ONE_LINE[2]}\ntags: [${JSON.stringify(ONE_LINE[3])}]\ntopic: ${JSON.stringify(ONE_LINE[4])}\npriority: 5\n---\n${all}\n`;
    writeFileSync(editor, `#!/usr/bin/env node\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(process.argv[2], ${JSON.stringify(filled)});\n`);
    chmodSync(editor, 0o755);
    ok(repo.cortex(['remember', '--edit', '--no-link'], { env: { EDITOR: editor } }));

    // edit: every field flag at once, then $EDITOR on the file itself.
    const a = json<{ id: string }>(ok(repo.cortex(['remember', 'Memory A about deploys', '--json', '--no-link']))).id;
    const b = json<{ id: string }>(ok(repo.cortex(['remember', 'Memory B about deploys', '--json', '--no-link']))).id;
    ok(repo.cortex(['edit', a, `--summary=${ONE_LINE.slice(6, 10).join(' ')}`, `--body=${all}`, `--topic=${ONE_LINE[5]!}`, ...ONE_LINE.map((t) => `--add-tag=${t}`)]));
    const appender = join(repo.home, 'append.mjs');
    writeFileSync(appender, `#!/usr/bin/env node\nimport { appendFileSync } from 'node:fs';\nappendFileSync(process.argv[2], ${JSON.stringify(`\n${all}\n`)});\n`);
    chmodSync(appender, 0o755);
    ok(repo.cortex(['edit', b], { env: { EDITOR: appender } }));
    // link --note, consolidate --merge --summary (the summary becomes the id and file name).
    ok(repo.cortex(['link', a, 'relates_to', b, `--note=${all}`]));
    ok(repo.cortex(['consolidate', '--merge', a, b, '--force', `--summary=${ONE_LINE.slice(10, 14).join(' ')}`]));

    // MCP: summary, body, tags, topic and files of memory_remember; a link's note.
    const calls: Array<{ name: string; arguments: unknown }> = [];
    for (let i = 0; i < ONE_LINE.length; i += 4) {
      const chunk = ONE_LINE.slice(i, i + 4);
      calls.push({
        name: 'memory_remember',
        arguments: {
          summary: `MCP ${i}: ${chunk.join(' ')}`.slice(0, 300),
          type: 'decision',
          body: all,
          tags: chunk.filter((t) => t.length <= 60),
          // Under a folder of the repository: a path outside it (one secret starts with //) is refused.
          files: chunk.map((secret) => `notes/${secret}`),
          ...(chunk[0]!.length <= 120 ? { topic: chunk[0] } : {}),
        },
      });
    }
    calls.push({ name: 'memory_link', arguments: { source: a, relation: 'refines', target: b, note: ONE_LINE.join('\n').slice(0, 2000) } });
    const answers = mcp(repo, calls);
    expect([...answers.values()].filter((m) => m.result?.isError === true)).toEqual([]);
    expect(answers.size).toBe(calls.length + 1);

    // Hooks: a transcript that says every secret (prompts, self-reports, prose proposals,
    // Bash commands, a todo list), read by Stop and PreCompact; garbage on stdin.
    const path = join(repo.home, 'session.jsonl');
    writeFileSync(path, transcript('sess-secrets'));
    const hook = (event: string, input: unknown): void => {
      ok(repo.cortex(['hook', event], { input: JSON.stringify(input) }));
    };
    hook('stop', { session_id: 'sess-secrets', transcript_path: path, cwd: repo.dir, last_assistant_message: `[MEMORY: gotcha] ${all}` });
    hook('pre-compact', { session_id: 'sess-secrets', transcript_path: path, cwd: repo.dir, trigger: 'auto' });
    ok(repo.cortex(['hook', 'stop'], { input: `{"cwd": ${JSON.stringify(repo.dir)}, "garbage": ${JSON.stringify(all)}` }));
    ok(repo.cortex(['hook', 'stop'], { input: JSON.stringify({ session_id: 'x', cwd: repo.dir, transcript_path: join(repo.home, `missing ${ONE_LINE[0]}.jsonl`) }) }));

    // Exports and caches: briefing targets, projections, a full rebuild, lint.
    ok(repo.cortex(['surface', '--write', '--target', 'AGENTS.md']));
    ok(repo.cortex(['project']));
    ok(repo.cortex(['index', '--rebuild']));

    const files = allFiles(repo.dir).map((f) => f.path);
    // Every path wrote something: the checkpoint, the review queue, the log, the targets.
    expect(files.filter((p) => p.startsWith('.memory/transcripts/')).length).toBeGreaterThan(0);
    expect(files).toContain('.memory/cortex.log');
    expect(files).toContain('AGENTS.md');
    expect(files.filter((p) => p.startsWith('.cortex/memories/')).length).toBeGreaterThan(15);
    expect(files.filter((p) => p.startsWith('.cortex/edges/')).length).toBeGreaterThan(0);
    expect(allFiles(repo.dir).some((f) => f.text.includes('[REDACTED:') || f.text.includes('[redacted:'))).toBe(true);
    expect(leaks(repo.dir)).toEqual([]);
  }, 180_000);

  it('quotes no secret of a broken hand-written file in diagnostics, caches or the log', () => {
    const repo = tempRepo();
    ok(repo.cortex(['init']));
    const secret = FAKES.find(([, , , kind]) => kind === 'github-token')![2];
    const file = '.cortex/memories/pasted-aaaaaa.md';
    repo.write(file, `---\nid: pasted-aaaaaa\ntype: context\nsummary: [unclosed ${secret}\n---\nbody\n`);
    const outputs = [repo.cortex(['lint', '--json']), repo.cortex(['recall', 'body']), repo.cortex(['surface'])];
    ok(repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: 's', source: 'startup', cwd: repo.dir }) }));
    expect(outputs[0]!.stdout).toContain('pasted-aaaaaa.md');
    for (const r of outputs) expect(r.stdout + r.stderr).not.toContain(secret);
    const cached = allFiles(repo.dir).filter((f) => f.path !== file && f.text.includes(secret));
    expect(cached.map((f) => f.path)).toEqual([]);
  });

  it('keeps every look-alike byte for byte', async () => {
    const repo = tempRepo();
    ok(repo.cortex(['init']));
    const ctx = openContext({ dir: repo.dir, env: repo.env });
    const results = await rememberMany(
      ctx,
      LOOK_ALIKES.map(([label, text]) => ({ summary: `Look-alike: ${label}`, body: text, autoLink: false })),
    );
    const changed = results.filter((r, i) => r.redacted.length > 0 || !r.memory.body.includes(LOOK_ALIKES[i]![1].trim()));
    expect(changed.map((r) => r.memory.summary)).toEqual([]);
  });
});
