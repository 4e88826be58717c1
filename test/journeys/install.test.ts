/**
 * Journey: install as documented (issue 37). `npm install` in a fresh clone must leave the
 * committed package-lock.json unchanged: npm rewrites it whenever the lock's root entry
 * disagrees with package.json (it did: `bin` had moved to dist/cli.cjs). The install route
 * the README and docs/install.md give must work before the package is published.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/repo.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { name: string; version: string; packages: Record<string, Record<string, unknown>> };

describe('journey: install as documented', () => {
  it('the lock file\'s root entry says what package.json says (else `npm install` rewrites the lock)', () => {
    const root = lock.packages['']!;
    expect(lock.name).toBe(pkg.name);
    expect(lock.version).toBe(pkg.version);
    for (const key of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'optionalDependencies', 'devDependencies'] as const) {
      expect(root[key], key).toEqual(pkg[key]);
    }
  });

  it('README and docs/install.md give an install route that works today (from a clone, build included) and keep the registry command as "once published"', () => {
    for (const file of ['README.md', 'docs/install.md']) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      expect(text, file).toContain('npm install && npm run build && npm install -g .');
      expect(text, file).toMatch(/once (it is )?published/i);
      // The registry command never appears without the caveat on the same line.
      for (const line of text.split('\n').filter((l) => /npm install -g cortex-memory/.test(l))) expect(line, `${file}: ${line}`).toMatch(/once (it is )?published|not yet published|\(published\)/i);
    }
  });
});
