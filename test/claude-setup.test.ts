/**
 * `cortex init --claude` and `cortex review` through the built CLI, against real
 * temporary repositories and a real (temporary) Claude Code settings directory.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SELF_REPORT_ALIASES } from '../src/core/extract.js';
import { CLI, json, REPO_ROOT, tempRepo, type TempRepo } from './helpers/repo.js';

const readPlugin = (path: string): string => readFileSync(join(REPO_ROOT, 'plugin', path), 'utf8');

const OTHER_HOOKS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'say "done"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/guard.sh', timeout: 5 }] }],
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'cat NOTES.md' }] }],
  },
};

interface Settings {
  model?: string;
  permissions?: unknown;
  hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; shell?: string; timeout?: number }[] }[]>;
}

describe('cortex init --claude', () => {
  it('keeps every existing setting and hook, adds the Cortex hooks with an explicit shell, and changes nothing when re-run', () => {
    const repo = tempRepo({ '.claude/settings.json': `${JSON.stringify(OTHER_HOOKS, null, 4)}\n` });
    const r = repo.cortex(['init', '--claude']);
    expect(r.code, r.stderr).toBe(0);
    const settings = JSON.parse(repo.read('.claude/settings.json')) as Settings;
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual(OTHER_HOOKS.permissions);
    // The person's hooks are all still there, untouched and first.
    expect(settings.hooks.Stop![0]).toEqual(OTHER_HOOKS.hooks.Stop[0]);
    expect(settings.hooks.PreToolUse).toEqual(OTHER_HOOKS.hooks.PreToolUse);
    expect(settings.hooks.SessionStart![0]).toEqual(OTHER_HOOKS.hooks.SessionStart[0]);
    const events = { SessionStart: 'session-start', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop', PreCompact: 'pre-compact', SessionEnd: 'session-end' };
    for (const [event, sub] of Object.entries(events)) {
      const ours = settings.hooks[event]!.flatMap((g) => g.hooks).filter((h) => h.command.includes(`cortex hook ${sub}`));
      expect(ours, event).toHaveLength(1);
      expect(ours[0]).toMatchObject({ type: 'command', shell: 'bash' });
      expect(ours[0]!.timeout).toBeGreaterThan(0);
    }
    // The file keeps its 4-space indentation.
    expect(repo.read('.claude/settings.json')).toMatch(/^\{\n {4}"model"/);

    const rules = repo.read('.claude/rules/cortex-memory.md');
    expect(rules).toContain('[MEMORY: decision]');
    for (const alias of Object.keys(SELF_REPORT_ALIASES)) expect(rules).toContain(`\`${alias}\``);
    expect(rules).not.toContain('{{');
    // Skills, not the deprecated .claude/commands/: the same files the plugin ships.
    expect(repo.read('.claude/skills/recall/SKILL.md')).toBe(readPlugin('skills/recall/SKILL.md'));
    expect(repo.read('.claude/skills/remember/SKILL.md')).toBe(readPlugin('skills/remember/SKILL.md'));
    expect(existsSync(join(repo.dir, '.claude/commands'))).toBe(false);

    // No `cortex` on PATH in the tests: what could not be done is labelled so, never "ok".
    expect(r.stdout).toMatch(/^skipped {2}\.mcp\.json {2}not written: `cortex` is not on PATH.*for this machine only: claude mcp add --scope local cortex -- /m);
    expect(r.stdout).toMatch(/^skipped {2}PATH {2}no `cortex` on PATH: the hooks above run `cortex hook …` and do nothing until it is/m);
    expect(r.stdout).not.toMatch(/^ok .*(not on PATH|\.mcp\.json)/m);

    const before = ['.claude/settings.json', '.claude/rules/cortex-memory.md', '.claude/skills/recall/SKILL.md'].map((f) => repo.read(f));
    const again = json<{ steps: { target: string; action: string }[] }>(repo.cortex(['init', '--claude', '--json']));
    expect(again.steps.filter((s) => s.action !== 'unchanged').map((s) => [s.target, s.action])).toEqual([
      ['PATH', 'skipped'],
      ['.mcp.json', 'skipped'],
    ]);
    expect(['.claude/settings.json', '.claude/rules/cortex-memory.md', '.claude/skills/recall/SKILL.md'].map((f) => repo.read(f))).toEqual(before);
  });

  it('updates an older Cortex hook in place instead of adding a second one, and refuses a settings file that is not JSON', () => {
    const old = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'cortex hook stop' }] }] } };
    const repo = tempRepo({ '.claude/settings.json': JSON.stringify(old) });
    expect(repo.cortex(['init', '--claude']).code).toBe(0);
    const stop = (JSON.parse(repo.read('.claude/settings.json')) as Settings).hooks.Stop!;
    expect(stop).toHaveLength(1);
    expect(stop[0]!.hooks).toHaveLength(1);
    expect(stop[0]!.hooks[0]).toMatchObject({ shell: 'bash' });

    const broken = tempRepo({ '.claude/settings.json': '{ "model": "opus", }' });
    const r = broken.cortex(['init', '--claude']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(broken.read('.claude/settings.json')).toBe('{ "model": "opus", }');
  });

  it('replaces the slash commands an older version wrote in .claude/commands/ by skills, and keeps edited ones', () => {
    // Byte for byte what `cortex init --claude` wrote before skills (templates/claude/recall.md, remember.md).
    const oldRecall =
      "---\ndescription: Search this project's Cortex memory\nargument-hint: <what to look for>\nallowed-tools: Bash(cortex recall:*), Bash(cortex show:*)\n---\n" +
      "Look up what this project's Cortex memory holds about: $ARGUMENTS\n\n" +
      'Run `cortex recall "<query>" --limit 8` with the Bash tool (the query in double quotes), and\n' +
      '`cortex show <id>` for any result whose summary is not enough. Then summarise what the stored\n' +
      'memories say about the request, citing their ids. If nothing relevant is stored, say so.\n';
    const repo = tempRepo({ '.claude/commands/recall.md': oldRecall, '.claude/commands/remember.md': '---\ndescription: mine\n---\nMy own /remember.\n' });
    const r = json<{ steps: { target: string; action: string; detail: string }[] }>(repo.cortex(['init', '--claude', '--json']));
    expect(r.steps.find((s) => s.target === '.claude/commands/recall.md')).toMatchObject({ action: 'removed' });
    expect(r.steps.find((s) => s.target === '.claude/commands/remember.md')).toMatchObject({ action: 'unchanged', detail: expect.stringMatching(/edited by hand/) });
    expect(existsSync(join(repo.dir, '.claude/commands/recall.md'))).toBe(false);
    expect(repo.read('.claude/commands/remember.md')).toBe('---\ndescription: mine\n---\nMy own /remember.\n');
    expect(repo.read('.claude/skills/recall/SKILL.md')).toBe(readPlugin('skills/recall/SKILL.md'));
  });

  it('--global writes the user settings ($CLAUDE_CONFIG_DIR, else ~/.claude) and leaves the repository alone', () => {
    const repo = tempRepo();
    const r = repo.cortex(['init', '--claude', '--global']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(repo.home, '.claude/settings.json'))).toBe(true);
    expect(existsSync(join(repo.home, '.claude/rules/cortex-memory.md'))).toBe(true);
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
    expect(existsSync(join(repo.dir, '.cortex'))).toBe(false);

    const configDir = join(repo.home, 'custom-claude');
    expect(repo.cortex(['init', '--claude', '--global'], { env: { CLAUDE_CONFIG_DIR: configDir } }).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')) as Settings;
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);

    expect(repo.cortex(['init', '--global']).code).toBe(2);
  });
});

/** PATH with `bin` first and the directory of this node (a shim's `node`), and no other cortex. */
function pathWith(bin: string): string {
  return [bin, dirname(process.execPath), ...(process.env.PATH ?? '').split(delimiter).filter((d) => d !== '' && !existsSync(join(d, 'cortex')))].join(delimiter);
}

/** Starts what `.mcp.json` registers, as Claude Code does (in the repository, with this PATH), and lists its tools. */
async function registeredTools(repo: TempRepo, path: string): Promise<{ name: string; _meta?: Record<string, unknown> }[]> {
  const entry = (JSON.parse(repo.read('.mcp.json')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.cortex!;
  const client = new Client({ name: 'cortex-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: entry.command, args: entry.args, cwd: repo.dir, env: { ...(repo.env as Record<string, string>), PATH: path }, stderr: 'pipe' }),
  );
  onTestFinished(() => client.close());
  return (await client.listTools()).tools;
}

describe('cortex init --claude registers the MCP server in .mcp.json', () => {
  // npm's, pnpm's and Volta's `cortex` is not a link to cli.js: a script (or a binary) that
  // runs it. Whatever is on PATH is registered, once it has answered tools/list.
  const shims: [string, (repo: TempRepo) => string][] = [
    [
      'a wrapper script',
      (repo) => {
        const bin = join(repo.home, 'bin');
        mkdirSync(bin);
        writeFileSync(join(bin, 'cortex'), `#!/bin/sh\n# a wrapper, as a team's tools/ folder has it\nexec "${process.execPath}" "${CLI}" "$@"\n`);
        chmodSync(join(bin, 'cortex'), 0o755);
        return bin;
      },
    ],
    [
      'a symlink to a package manager\'s shim',
      (repo) => {
        // pnpm: $PNPM_HOME/cortex is a shell script that runs node on the package's cli.js;
        // the PATH entry links to it.
        const home = join(repo.home, 'pnpm-home');
        mkdirSync(home);
        writeFileSync(join(home, 'cortex'), `#!/bin/sh\nbasedir=$(dirname "$0")\nexec node "${CLI}" "$@"\n`);
        chmodSync(join(home, 'cortex'), 0o755);
        const bin = join(repo.home, 'bin');
        mkdirSync(bin);
        symlinkSync(join(home, 'cortex'), join(bin, 'cortex'));
        return bin;
      },
    ],
  ];
  for (const [what, make] of shims) {
    it(`with ${what} on PATH: a working entry, always loaded`, async () => {
      const repo = tempRepo();
      const path = pathWith(make(repo));
      const r = repo.cortex(['init', '--claude'], { env: { PATH: path } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^created {2}\.mcp\.json {2}registers the cortex MCP server for Claude Code: `cortex mcp` \(.*\/bin\/cortex\) answered with 8 tools/m);
      expect(r.stdout).not.toMatch(/PATH {2}no `cortex` on PATH/);
      expect(JSON.parse(repo.read('.mcp.json'))).toEqual({ mcpServers: { cortex: { command: 'cortex', args: ['mcp'], alwaysLoad: true } } });
      const tools = await registeredTools(repo, path);
      expect(tools.map((t) => t.name).sort()).toEqual(
        ['memory_forget', 'memory_get', 'memory_link', 'memory_recall', 'memory_remember', 'memory_review', 'memory_status', 'memory_traverse'],
      );
      // The two a session needs unprompted ask Claude Code to load them even without alwaysLoad.
      expect(tools.filter((t) => t._meta?.['anthropic/alwaysLoad'] === true).map((t) => t.name).sort()).toEqual(['memory_recall', 'memory_remember']);
    });
  }

  it('with a cortex on PATH that does not start: nothing written, and the reason', () => {
    const repo = tempRepo();
    const bin = join(repo.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'cortex'), '#!/bin/sh\necho "cortex-memory is not installed for node 18" >&2\nexit 1\n');
    chmodSync(join(bin, 'cortex'), 0o755);
    const r = repo.cortex(['init', '--claude'], { env: { PATH: pathWith(bin) } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^skipped {2}\.mcp\.json {2}not written: `cortex mcp` \(the cortex on PATH is .*\/bin\/cortex\) was started to check it, and it did not answer as an MCP server; it said: cortex-memory is not installed for node 18\. .*for this machine only: claude mcp add --scope local cortex -- node /m,
    );
    expect(existsSync(join(repo.dir, '.mcp.json'))).toBe(false);
  });
});

describe('cortex review', () => {
  it('lists the queued candidates, accepts and rejects them by number', () => {
    const repo = tempRepo({ 'README.md': '# x\n' });
    repo.git(['add', '.']);
    repo.git(['commit', '-q', '-m', 'init']);
    repo.cortex(['init']);
    const line = (o: Record<string, unknown>) => `${JSON.stringify({ sessionId: 'rv', cwd: repo.dir, gitBranch: 'main', isSidechain: false, ...o })}\n`;
    const texts = [
      'Maybe we could go with Redis over Memcached for the session cache, since it persists.',
      'Perhaps we should use pnpm over npm here, because installs are faster.',
    ];
    repo.write(
      't.jsonl',
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'What cache and package manager?' } }) +
        texts.map((t, i) => line({ type: 'assistant', uuid: `a${i}`, message: { id: `m${i}`, role: 'assistant', model: 'x', content: [{ type: 'text', text: t }] } })).join(''),
    );
    const input = JSON.stringify({ session_id: 'rv', transcript_path: join(repo.dir, 't.jsonl'), cwd: repo.dir });
    // PreCompact judges the open exchange (Stop waits for the person's next prompt).
    expect(repo.cortex(['hook', 'pre-compact'], { input }).code).toBe(0);

    const listed = json<{ schemaVersion: number; items: { n: number; id: string; type: string; confidence: number; summary: string }[] }>(repo.cortex(['review', '--json']));
    expect(listed.schemaVersion).toBe(1);
    expect(listed.items.length).toBeGreaterThanOrEqual(1);
    for (const item of listed.items) {
      expect(item.confidence).toBeLessThan(0.7);
      expect(item.confidence).toBeGreaterThanOrEqual(0.4);
    }
    const first = listed.items[0]!;
    const accepted = json<{ accepted: { id: string; memory: string; action: string }[] }>(repo.cortex(['review', '--accept', '1', '--json']));
    expect(accepted.accepted).toMatchObject([{ id: first.id, action: 'created' }]);
    const shown = repo.read(`.cortex/memories/${accepted.accepted[0]!.memory}.md`);
    expect(shown).toContain(first.summary);
    expect(shown).toMatch(/confidence: 0\.9/);
    expect(shown).toMatch(/layer: keyword/);

    const rest = json<{ items: { id: string }[] }>(repo.cortex(['review', '--json'])).items;
    expect(rest.map((i) => i.id)).not.toContain(first.id);
    if (rest.length > 0) {
      expect(repo.cortex(['review', '--reject', '1']).code).toBe(0);
      expect(json<{ items: unknown[] }>(repo.cortex(['review', '--json'])).items).toHaveLength(rest.length - 1);
    }
    const missing = repo.cortex(['review', '--accept', '99']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No review entry "99"/);
    expect(repo.cortex(['review']).stdout).toMatch(/No extracted memory waits|\d+\./);
  });
});
