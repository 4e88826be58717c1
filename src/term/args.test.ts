import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoistGlobalOptions, parseInvocation, type CommandDef } from './args.js';

const def: CommandDef = {
  name: 'recall',
  summary: 'test',
  usage: ['recall <query>'],
  options: { limit: { type: 'string', description: 'n' } },
  run: async () => 0,
};

describe('hoistGlobalOptions', () => {
  it('moves global options written before the command to just after it', () => {
    expect(hoistGlobalOptions(['-C', 'repo', 'status'])).toEqual(['status', '-C', 'repo']);
    expect(hoistGlobalOptions(['--dir', 'x', 'recall', 'q'])).toEqual(['recall', '--dir', 'x', 'q']);
    expect(hoistGlobalOptions(['--dir=x', '--json', '-q', 'list', '--type', 'decision'])).toEqual(['list', '--dir=x', '--json', '-q', '--type', 'decision']);
    expect(hoistGlobalOptions(['-Crepo', 'status'])).toEqual(['status', '-Crepo']);
  });

  it('keeps them before a `--` the command was given', () => {
    expect(hoistGlobalOptions(['--json', 'remember', '--', '--not-a-flag'])).toEqual(['remember', '--json', '--', '--not-a-flag']);
  });

  it('leaves argv alone when it starts with the command, or holds no command', () => {
    expect(hoistGlobalOptions(['status', '-C', 'x'])).toEqual(['status', '-C', 'x']);
    expect(hoistGlobalOptions(['--help'])).toEqual(['--help']);
    expect(hoistGlobalOptions(['--frob', 'status'])).toEqual(['--frob', 'status']);
  });

  it('parses to the same invocation wherever the global options are written', () => {
    const globals = fc.array(
      fc.oneof(
        fc.constant(['--json']),
        fc.constant(['-q']),
        fc.stringMatching(/^[a-z][a-z0-9/]{0,8}$/).map((d) => ['--dir', d]),
        fc.stringMatching(/^[a-z][a-z0-9/]{0,8}$/).map((d) => ['-C', d]),
      ),
      { maxLength: 4 },
    );
    const words = fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { maxLength: 3 });
    fc.assert(
      fc.property(globals, words, (g, w) => {
        const flat = g.flat();
        const before = hoistGlobalOptions([...flat, 'recall', ...w]);
        const after = ['recall', ...flat, ...w];
        expect(before[0]).toBe('recall');
        expect(parseInvocation(def, before.slice(1), '/cwd')).toEqual(parseInvocation(def, after.slice(1), '/cwd'));
      }),
    );
  });
});
