import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteHomePaths } from './redact-home.js';

describe('rewriteHomePaths', () => {
  it.each([
    ['ran /home/ada/proj/src/a.ts', { root: '/home/ada/proj' }, 'ran src/a.ts'],
    ['cd /home/ada/proj && ls', { root: '/home/ada/proj' }, 'cd . && ls'],
    ['config in /Users/ada/.aws/config', {}, 'config in ~/.aws/config'],
    ['log at /home/bob/logs/x.log', {}, 'log at ~/logs/x.log'],
    ['"/home/ada"', {}, '"~"'],
    ['C:\\Users\\ada\\repo\\a.ts', {}, '~\\repo\\a.ts'],
    ['key /var/lib/ci/.ssh/id_rsa', { home: '/var/lib/ci' }, 'key ~/.ssh/id_rsa'],
    ['file:///home/ada/notes.md', {}, 'file://~/notes.md'],
  ] as const)('%s', (input, paths, expected) => {
    expect(rewriteHomePaths(input, paths)).toBe(expected);
  });

  it.each([
    'https://example.com/home/docs/index.html',
    '/usr/local/bin/node and /etc/hosts',
    '/Users/Shared/build and /home/linuxbrew/.linuxbrew/bin/brew',
    'src/home/ada/component.tsx',
    'the /homepage route and /users/list endpoint',
    'C:\\Users\\Public\\Desktop',
  ])('leaves %s alone', (text) => {
    expect(rewriteHomePaths(text, { root: '/home/ada/proj', home: '/home/ada' })).toBe(text);
  });

  it('is idempotent and never grows a text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('/home/ada', '/Users/bob', '/proj', '/', 'x', ' ', '~', '.', '\\', 'C:', 'Users'), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const once = rewriteHomePaths(text, { root: '/home/ada/proj', home: '/home/ada' });
        expect(rewriteHomePaths(once, { root: '/home/ada/proj', home: '/home/ada' })).toBe(once);
        expect(once.length).toBeLessThanOrEqual(text.length);
      }),
    );
  });
});
