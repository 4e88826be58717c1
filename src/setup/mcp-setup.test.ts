import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ParseError } from '../errors.js';
import { buildRegistration, resolveLaunch, setupMcpJson, verifyLaunch } from './mcp-setup.js';

/** The built CLI (`npm test` builds first): the server the registrations start. */
const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-reg-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An executable `<dir>/bin/cortex` with this shell script in it. */
function script(dir: string, text: string): NodeJS.ProcessEnv {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'bin', 'cortex'), text);
  chmodSync(join(dir, 'bin', 'cortex'), 0o755);
  return { PATH: join(dir, 'bin') };
}

describe('buildRegistration', () => {
  it('registers a portable command in the project scope (.mcp.json, shared), always loaded', () => {
    const reg = buildRegistration({ command: 'cortex', args: ['mcp'], portable: true });
    expect(reg.claudeAdd).toBe('claude mcp add --scope project cortex -- cortex mcp');
    expect(reg.scope).toBe('project');
    expect(reg.mcpJson).toEqual({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: true } } });
  });

  it('registers a machine-specific path locally, quoted for the shell', () => {
    const reg = buildRegistration({ command: 'node', args: ["/home/o'neil/my tools/cli.js", 'mcp'], portable: false }, { name: 'memory' });
    expect(reg.scope).toBe('local');
    expect(reg.claudeAdd).toBe(`claude mcp add --scope local memory -- node '/home/o'\\''neil/my tools/cli.js' mcp`);
    expect(reg.mcpJson.mcpServers.memory).toEqual({ command: 'node', args: ["/home/o'neil/my tools/cli.js", 'mcp'], alwaysLoad: true });
  });
});

describe('resolveLaunch', () => {
  it('uses `cortex` when there is one on PATH, whatever it resolves to', () => {
    const dir = tempDir();
    const cli = join(dir, 'pkg', 'dist', 'cli.js');
    mkdirSync(join(dir, 'pkg', 'dist'), { recursive: true });
    writeFileSync(cli, '#!/usr/bin/env node\n');
    chmodSync(cli, 0o755);
    mkdirSync(join(dir, 'bin'));
    symlinkSync(cli, join(dir, 'bin', 'cortex'));
    const found = join(dir, 'bin', 'cortex');
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli })).toEqual({ command: 'cortex', args: ['mcp'], portable: true, found });
    // A pinned directory makes the entry specific to this machine.
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli, dir: '/srv/repo' })).toEqual({
      command: 'cortex',
      args: ['mcp', '--dir', '/srv/repo'],
      portable: false,
      found,
    });
    // A wrapper script of another installation is a `cortex` on PATH just the same.
    const other = tempDir();
    const env = script(other, '#!/bin/sh\nexec node /opt/elsewhere/cli.js "$@"\n');
    expect(resolveLaunch({ env, cliPath: cli })).toEqual({ command: 'cortex', args: ['mcp'], portable: true, found: join(other, 'bin', 'cortex') });
  });

  it('falls back to node and the absolute cli path when PATH has no cortex', () => {
    const dir = tempDir();
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    mkdirSync(join(dir, 'bin'));
    // Not executable: not a command.
    writeFileSync(join(dir, 'bin', 'cortex'), '#!/bin/sh\n');
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli })).toEqual({ command: 'node', args: [cli, 'mcp'], portable: false });
    expect(resolveLaunch({ env: {}, cliPath: cli })).toEqual({ command: 'node', args: [cli, 'mcp'], portable: false });
  });
});

describe('verifyLaunch', () => {
  it('lists the tools of a server that starts, and says why one does not', async () => {
    const dir = tempDir();
    const ok = await verifyLaunch({ command: process.execPath, args: [BUILT_CLI, 'mcp'], portable: false }, { cwd: dir, env: process.env });
    expect(ok).toEqual({ ok: true, tools: expect.arrayContaining(['memory_recall', 'memory_remember', 'memory_status']) });

    const missing = await verifyLaunch({ command: join(dir, 'no-such-cortex'), args: ['mcp'], portable: false }, { cwd: dir, env: process.env });
    expect(missing).toEqual({ ok: false, problem: 'it could not be started' });

    const env = { ...process.env, ...script(dir, '#!/bin/sh\necho "cortex: command not found in this venv" >&2\nexit 3\n') };
    const broken = await verifyLaunch({ command: join(dir, 'bin', 'cortex'), args: ['mcp'], portable: false }, { cwd: dir, env });
    expect(broken).toEqual({ ok: false, problem: 'it did not answer as an MCP server; it said: cortex: command not found in this venv' });

    // Reads the requests and never answers (it ends when its stdin closes).
    writeFileSync(join(dir, 'bin', 'cortex'), '#!/bin/sh\nwhile read -r line; do :; done\n');
    const silent = await verifyLaunch({ command: join(dir, 'bin', 'cortex'), args: ['mcp'], portable: false }, { cwd: dir, env, timeoutMs: 1_000 });
    expect(silent).toEqual({ ok: false, problem: 'it did not answer within 1 s' });
  });
});

/** A real install: `<dir>/bin/cortex` linking to the built cli.js, as `npm link` makes it. */
function install(dir: string): { cli: string; env: NodeJS.ProcessEnv } {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  // npm makes the target of a bin link executable; tsc does not.
  chmodSync(BUILT_CLI, 0o755);
  symlinkSync(BUILT_CLI, join(dir, 'bin', 'cortex'));
  // `#!/usr/bin/env node` needs node on PATH.
  return { cli: BUILT_CLI, env: { ...process.env, PATH: `${join(dir, 'bin')}:${join(process.execPath, '..')}` } };
}

describe('setupMcpJson', () => {
  it('creates .mcp.json once `cortex mcp` answered, then leaves it alone when re-run', async () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    const root = join(dir, 'repo');
    mkdirSync(root);
    const step = await setupMcpJson({ root, env, cliPath: cli });
    expect(step).toMatchObject({ target: '.mcp.json', action: 'created' });
    expect(step.detail).toMatch(/`cortex mcp` \(.*bin\/cortex\) answered with 8 tools/);
    const text = readFileSync(join(root, '.mcp.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: true } } });
    expect((await setupMcpJson({ root, env, cliPath: cli })).action).toBe('unchanged');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(text);
  });

  it('keeps other servers and keys, never replaces an existing cortex command, and adds alwaysLoad to it', async () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    const root = join(dir, 'repo');
    mkdirSync(root);
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } }, note: 'x' }));
    expect((await setupMcpJson({ root, env, cliPath: cli })).action).toBe('updated');
    expect(JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { github: { command: 'gh-mcp' }, cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: true } },
      note: 'x',
    });
    // An entry from before alwaysLoad: its command stays, the key is added; then nothing changes.
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { cortex: { command: 'node', args: ['/opt/cortex/cli.js', 'mcp'] } } }));
    expect(await setupMcpJson({ root, env, cliPath: cli })).toMatchObject({ action: 'updated', detail: '"cortex" server: alwaysLoad added (its command kept)' });
    expect(JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { cortex: { command: 'node', args: ['/opt/cortex/cli.js', 'mcp'], alwaysLoad: true } },
    });
    // A person's own choice is kept, even without cortex on PATH.
    const custom = JSON.stringify({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: false } } });
    writeFileSync(join(root, '.mcp.json'), custom);
    expect((await setupMcpJson({ root, env: {}, cliPath: cli })).action).toBe('unchanged');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(custom);
  });

  it('refuses a broken .mcp.json without touching it', async () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    for (const broken of ['{ "mcpServers": ', '[1, 2]', '{"mcpServers": []}']) {
      writeFileSync(join(dir, '.mcp.json'), broken);
      await expect(setupMcpJson({ root: dir, env, cliPath: cli })).rejects.toThrow(ParseError);
      expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(broken);
    }
  });

  it('writes nothing without a portable command, and says what to run', async () => {
    const dir = tempDir();
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    const step = await setupMcpJson({ root: dir, env: {}, cliPath: cli });
    expect(step.action).toBe('skipped');
    expect(step.detail).toContain('not written: `cortex` is not on PATH');
    expect(step.detail).toContain(`for this machine only: claude mcp add --scope local cortex -- node ${cli} mcp`);
    expect(() => readFileSync(join(dir, '.mcp.json'))).toThrow();
  });

  it('writes nothing when the cortex on PATH does not answer, and says so truthfully', async () => {
    const dir = tempDir();
    const env = { ...process.env, ...script(dir, '#!/bin/sh\necho "volta error: no cortex-memory in this toolchain" >&2\nexit 1\n') };
    const root = join(dir, 'repo');
    mkdirSync(root);
    const step = await setupMcpJson({ root, env, cliPath: BUILT_CLI });
    expect(step.action).toBe('skipped');
    expect(step.detail).toBe(
      `not written: \`cortex mcp\` (the cortex on PATH is ${join(dir, 'bin', 'cortex')}) was started to check it, and it did not answer as an ` +
        'MCP server; it said: volta error: no cortex-memory in this toolchain. Fix or reinstall that cortex and run `cortex init --claude` ' +
        `again, or register this copy for this machine only: claude mcp add --scope local cortex -- node ${BUILT_CLI} mcp`,
    );
    expect(() => readFileSync(join(root, '.mcp.json'))).toThrow();
  });
});
