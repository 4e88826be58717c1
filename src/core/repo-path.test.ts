import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toRepoPath } from './repo-path.js';

describe('toRepoPath', () => {
  const roots = ['/home/me/app', '/private/home/me/app'];

  it('makes an absolute path inside the repository relative, also under the real path of the root', () => {
    expect(toRepoPath('/home/me/app/src/db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('/private/home/me/app/src/db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('/home/me/app/docs/', roots)).toEqual({ ok: true, path: 'docs' });
  });

  it('normalises relative paths', () => {
    expect(toRepoPath('src/db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('./src//db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('src\\db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('src/x/../db.ts', roots)).toEqual({ ok: true, path: 'src/db.ts' });
  });

  it('refuses what is not a file of the repository', () => {
    for (const p of ['/etc/passwd', '../x', 'src/../../x', '/home/me/application/x', '/home/me/app', '.', './']) {
      expect(toRepoPath(p, roots), p).toEqual({ ok: false, reason: 'outside' });
    }
    expect(toRepoPath('  ', roots)).toEqual({ ok: false, reason: 'empty' });
  });

  it('handles Windows paths', () => {
    expect(toRepoPath('C:\\Users\\me\\app\\src\\db.ts', ['C:\\Users\\me\\app'])).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('D:\\other\\x.ts', ['C:\\Users\\me\\app'])).toEqual({ ok: false, reason: 'outside' });
    // Windows compares names without case; a root with a trailing separator is the same root.
    expect(toRepoPath('c:\\users\\ME\\app\\src\\db.ts', ['C:\\Users\\me\\app\\'])).toEqual({ ok: true, path: 'src/db.ts' });
    expect(toRepoPath('C:\\Users\\me\\app2\\x.ts', ['C:\\Users\\me\\app'])).toEqual({ ok: false, reason: 'outside' });
    expect(toRepoPath('\\\\server\\share\\app\\a.ts', ['\\\\server\\share\\app'])).toEqual({ ok: true, path: 'a.ts' });
  });

  it('resolves . and .. in an absolute path before comparing it with the root', () => {
    expect(toRepoPath('/home/me/app/../app/src/./x.ts', roots)).toEqual({ ok: true, path: 'src/x.ts' });
    expect(toRepoPath('/home/me/app/src/../../other/x.ts', roots)).toEqual({ ok: false, reason: 'outside' });
    expect(toRepoPath('/../home/me/app/x.ts', roots)).toEqual({ ok: true, path: 'x.ts' });
  });

  it('agrees with node:path on POSIX paths (oracle)', () => {
    const seg = fc.constantFrom('src', 'a.ts', '..', '.', '', 'home', 'me', 'app', 'private');
    fc.assert(
      fc.property(fc.boolean(), fc.array(seg, { maxLength: 7 }), (abs, parts) => {
        const given = `${abs ? '/' : ''}${parts.join('/')}`;
        if (given.trim() === '') return;
        let expected: string | undefined;
        if (given.startsWith('/')) {
          for (const root of roots) {
            const r = posix.relative(root, given);
            if (r !== '' && r !== '..' && !r.startsWith('../')) {
              expected = r;
              break;
            }
          }
        } else {
          const n = posix.normalize(given).replace(/\/+$/, '');
          if (n !== '.' && n !== '..' && !n.startsWith('../')) expected = n;
        }
        expect(toRepoPath(given, roots), given).toEqual(expected === undefined ? { ok: false, reason: 'outside' } : { ok: true, path: expected });
      }),
      { numRuns: 2000 },
    );
  });

  it('never returns a path that leaves the root or is absolute (property)', () => {
    const seg = fc.constantFrom('src', 'a.ts', '..', '.', '', 'home', 'me', 'app');
    fc.assert(
      fc.property(fc.boolean(), fc.array(seg, { maxLength: 6 }), (abs, parts) => {
        const r = toRepoPath(`${abs ? '/' : ''}${parts.join('/')}`, roots);
        if (r.ok) {
          expect(r.path.startsWith('/')).toBe(false);
          expect(r.path === '..' || r.path.startsWith('../')).toBe(false);
          expect(r.path.split('/')).not.toContain('..');
        }
      }),
    );
  });
});
