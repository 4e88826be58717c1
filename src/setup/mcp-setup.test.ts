import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ParseError } from '../errors.js';
import { buildRegistration, resolveLaunch, setupMcpJson } from './mcp-setup.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-reg-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('buildRegistration', () => {
  it('registers a portable command in the project scope (.mcp.json, shared)', () => {
    const reg = buildRegistration({ command: 'cortex', args: ['mcp'], portable: true });
    expect(reg.claudeAdd).toBe('claude mcp add --scope project cortex -- cortex mcp');
    expect(reg.scope).toBe('project');
    expect(reg.mcpJson).toEqual({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'] } } });
  });

  it('registers a machine-specific path locally, quoted for the shell', () => {
    const reg = buildRegistration({ command: 'node', args: ["/home/o'neil/my tools/cli.js", 'mcp'], portable: false }, { name: 'memory' });
    expect(reg.scope).toBe('local');
    expect(reg.claudeAdd).toBe(`claude mcp add --scope local memory -- node '/home/o'\\''neil/my tools/cli.js' mcp`);
    expect(reg.mcpJson.mcpServers.memory).toEqual({ command: 'node', args: ["/home/o'neil/my tools/cli.js", 'mcp'] });
  });
});

describe('resolveLaunch', () => {
  it('uses `cortex` when the cortex on PATH is this installation', () => {
    const dir = tempDir();
    const cli = join(dir, 'pkg', 'dist', 'cli.js');
    mkdirSync(join(dir, 'pkg', 'dist'), { recursive: true });
    writeFileSync(cli, '#!/usr/bin/env node\n');
    chmodSync(cli, 0o755);
    mkdirSync(join(dir, 'bin'));
    symlinkSync(cli, join(dir, 'bin', 'cortex'));
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli })).toEqual({ command: 'cortex', args: ['mcp'], portable: true });
    // A pinned directory makes the entry specific to this machine.
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli, dir: '/srv/repo' })).toEqual({
      command: 'cortex',
      args: ['mcp', '--dir', '/srv/repo'],
      portable: false,
    });
  });

  it('falls back to node and the absolute cli path when PATH has another cortex or none', () => {
    const dir = tempDir();
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'cortex'), '#!/bin/sh\n');
    chmodSync(join(dir, 'bin', 'cortex'), 0o755);
    expect(resolveLaunch({ env: { PATH: join(dir, 'bin') }, cliPath: cli })).toEqual({ command: 'node', args: [cli, 'mcp'], portable: false });
    expect(resolveLaunch({ env: {}, cliPath: cli })).toEqual({ command: 'node', args: [cli, 'mcp'], portable: false });
  });
});

/** A fake install: `<dir>/pkg/dist/cli.js` with `<dir>/bin/cortex` linking to it. */
function install(dir: string): { cli: string; env: NodeJS.ProcessEnv } {
  const cli = join(dir, 'pkg', 'dist', 'cli.js');
  mkdirSync(join(dir, 'pkg', 'dist'), { recursive: true });
  writeFileSync(cli, '#!/usr/bin/env node\n');
  chmodSync(cli, 0o755);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  symlinkSync(cli, join(dir, 'bin', 'cortex'));
  return { cli, env: { PATH: join(dir, 'bin') } };
}

describe('setupMcpJson', () => {
  it('creates .mcp.json, then leaves it alone when re-run', () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    const root = join(dir, 'repo');
    mkdirSync(root);
    expect(setupMcpJson({ root, env, cliPath: cli })).toMatchObject({ target: '.mcp.json', action: 'created' });
    const text = readFileSync(join(root, '.mcp.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'] } } });
    expect(setupMcpJson({ root, env, cliPath: cli }).action).toBe('unchanged');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(text);
  });

  it('keeps other servers and keys, and never replaces an existing cortex entry', () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    const root = join(dir, 'repo');
    mkdirSync(root);
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } }, note: 'x' }));
    expect(setupMcpJson({ root, env, cliPath: cli }).action).toBe('updated');
    expect(JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { github: { command: 'gh-mcp' }, cortex: { command: 'cortex', args: ['mcp'] } },
      note: 'x',
    });
    const custom = JSON.stringify({ mcpServers: { cortex: { command: 'node', args: ['/opt/cortex/cli.js', 'mcp'] } } });
    writeFileSync(join(root, '.mcp.json'), custom);
    expect(setupMcpJson({ root, env, cliPath: cli }).action).toBe('unchanged');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(custom);
  });

  it('refuses a broken .mcp.json without touching it', () => {
    const dir = tempDir();
    const { cli, env } = install(dir);
    for (const broken of ['{ "mcpServers": ', '[1, 2]', '{"mcpServers": []}']) {
      writeFileSync(join(dir, '.mcp.json'), broken);
      expect(() => setupMcpJson({ root: dir, env, cliPath: cli })).toThrow(ParseError);
      expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(broken);
    }
  });

  it('writes nothing without a portable command, and says what to run', () => {
    const dir = tempDir();
    const cli = join(dir, 'cli.js');
    writeFileSync(cli, '');
    const step = setupMcpJson({ root: dir, env: {}, cliPath: cli });
    expect(step.action).toBe('skipped');
    expect(step.detail).toContain('not written: `cortex` is not on PATH');
    expect(step.detail).toContain(`for this machine only: claude mcp add --scope local cortex -- node ${cli} mcp`);
    expect(() => readFileSync(join(dir, '.mcp.json'))).toThrow();
  });
});
