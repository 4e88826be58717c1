import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectIndent, isCortexHookCommand, mergeHookSettings, type ClaudeHookBlock } from './claude-settings.js';

const BLOCK: ClaudeHookBlock = {
  SessionStart: [{ hooks: [{ type: 'command', shell: 'bash', command: 'command -v cortex >/dev/null 2>&1 || exit 0; cortex hook session-start', timeout: 10 }] }],
  Stop: [{ hooks: [{ type: 'command', shell: 'bash', command: 'command -v cortex >/dev/null 2>&1 || exit 0; cortex hook stop', timeout: 30 }] }],
};
const subcommandOf = (event: string) => ({ SessionStart: 'session-start', Stop: 'stop' })[event] ?? event;

describe('isCortexHookCommand', () => {
  it.each([
    ['cortex hook stop', 'stop', true],
    ['command -v cortex >/dev/null 2>&1 || exit 0; cortex hook stop', 'stop', true],
    ['npx cortex hook stop', 'stop', true],
    ['node "/opt/cortex/dist/cli.js" hook stop', 'stop', false],
    ['"C:\\tools\\cortex.cmd" hook stop', 'stop', true],
    ['cortex hook stop-all', 'stop', false],
    ['cortex hook session-start', 'stop', false],
    ['mycortex hook stop', 'stop', false],
    ['echo cortex', 'stop', false],
  ])('%s (%s) → %s', (command, sub, expected) => {
    expect(isCortexHookCommand(command, sub)).toBe(expected);
  });
  it('is false for non-strings', () => {
    expect(isCortexHookCommand(undefined, 'stop')).toBe(false);
    expect(isCortexHookCommand(42, 'stop')).toBe(false);
  });
});

const hookCommand = fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 30 }).filter((c) => !/cortex/.test(c)) }, { requiredKeys: ['type', 'command'] });
const group = fc.record({ matcher: fc.option(fc.constantFrom('Bash', 'startup', '*'), { nil: undefined }), hooks: fc.array(hookCommand, { maxLength: 3 }) }).map((g) =>
  g.matcher === undefined ? { hooks: g.hooks } : g,
);
const settingsArb = fc.record({
  model: fc.option(fc.string(), { nil: undefined }),
  hooks: fc.dictionary(fc.constantFrom('SessionStart', 'Stop', 'PreToolUse', 'Notification'), fc.array(group, { maxLength: 3 })),
});

describe('mergeHookSettings', () => {
  it('adds each event once and keeps the other keys and hooks in order', () => {
    const { settings, changes } = mergeHookSettings(
      { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [] }] } },
      BLOCK,
      { subcommandOf },
    );
    expect(changes).toEqual([
      { event: 'SessionStart', action: 'added' },
      { event: 'Stop', action: 'added' },
    ]);
    expect(settings).toEqual({
      model: 'opus',
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }, ...BLOCK.Stop!],
        PreToolUse: [{ matcher: 'Bash', hooks: [] }],
        SessionStart: BLOCK.SessionStart,
      },
    });
  });

  it('replaces an outdated Cortex hook where it is, keeping its group and neighbours', () => {
    const existing = { hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'say a' }, { type: 'command', command: 'cortex hook stop' }, { type: 'command', command: 'say b' }] }] } };
    const { settings, changes } = mergeHookSettings(existing, { Stop: BLOCK.Stop! }, { subcommandOf });
    expect(changes).toEqual([{ event: 'Stop', action: 'updated' }]);
    expect((settings.hooks as Record<string, unknown>).Stop).toEqual([
      { matcher: '', hooks: [{ type: 'command', command: 'say a' }, BLOCK.Stop![0]!.hooks[0], { type: 'command', command: 'say b' }] },
    ]);
    expect(existing.hooks.Stop[0]!.hooks[1]).toEqual({ type: 'command', command: 'cortex hook stop' });
  });

  it('reports settings it cannot merge into instead of replacing them', () => {
    expect(mergeHookSettings([1, 2], BLOCK, { subcommandOf }).problem).toMatch(/JSON object/);
    expect(mergeHookSettings({ hooks: 'none' }, BLOCK, { subcommandOf }).problem).toMatch(/"hooks" must be an object/);
    const bad = { hooks: { Stop: { hooks: [] } } };
    const r = mergeHookSettings(bad, BLOCK, { subcommandOf });
    expect(r.problem).toMatch(/hooks\.Stop/);
    expect(r.settings).toBe(bad);
  });

  it('property: idempotent, and every hook that was there is still there', () => {
    fc.assert(
      fc.property(settingsArb, (input) => {
        const once = mergeHookSettings(input, BLOCK, { subcommandOf });
        expect(once.problem).toBeUndefined();
        const twice = mergeHookSettings(once.settings, BLOCK, { subcommandOf });
        expect(twice.settings).toEqual(once.settings);
        expect(twice.changes.every((c) => c.action === 'unchanged')).toBe(true);
        for (const [event, groups] of Object.entries(input.hooks)) {
          const after = (once.settings.hooks as Record<string, unknown[]>)[event]!;
          expect(after.slice(0, groups.length)).toEqual(groups);
        }
        if (input.model !== undefined) expect(once.settings.model).toBe(input.model);
      }),
    );
  });
});

describe('detectIndent', () => {
  it.each([
    ['{\n  "a": 1\n}', '  '],
    ['{\n    "a": 1\n}', '    '],
    ['{\n\t"a": 1\n}', '\t'],
    ['{"a":1}', '  '],
    ['', '  '],
  ])('%j → %j', (text, indent) => expect(detectIndent(text)).toBe(indent));
});
