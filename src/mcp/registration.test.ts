import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildRegistration, resolveLaunch } from './registration.js';

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
