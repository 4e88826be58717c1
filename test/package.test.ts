/**
 * The package as a library user gets it: the built entry point (`dist/index.js`, what
 * `import … from 'cortex-memory'` loads). Its exports are pinned, and its `init()` sets
 * up exactly what `cortex init` does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { json, REPO_ROOT, tempRepo } from './helpers/repo.js';

type Entry = typeof import('../src/index.js');
const entry = async (): Promise<Entry> => (await import(pathToFileURL(join(REPO_ROOT, 'dist', 'index.js')).href)) as Entry;

describe('the package entry', () => {
  it('exports exactly the public API', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: { '.': { import: string } } };
    expect(pkg.exports['.'].import).toBe('./dist/index.js');
    expect(Object.keys(await entry()).sort()).toEqual([
      'ConflictError',
      'CortexError',
      'DEFAULT_CONFIG',
      'DOCUMENTED_EXAMPLE_KEYS',
      'EmbedUnavailableError',
      'GitError',
      'HOOK_EVENTS',
      'InternalError',
      'LockError',
      'MEMORY_STATUSES',
      'MEMORY_TYPES',
      'MemoryNotFoundError',
      'NotInitializedError',
      'ParseError',
      'RELATIONS',
      'SCOPES',
      'SECRET_KINDS',
      'UsageError',
      'createTestEmbedder',
      'findSecrets',
      'init',
      'loadSecretlintRules',
      'openCortex',
      'parseMemory',
      'readCachedSurface',
      'redactSecrets',
      'renderMemory',
      'runHook',
      'setupClaude',
    ]);
  });

  it('init() performs the same steps as `cortex init`: merge driver, attributes, hooks, projections', async () => {
    const repo = tempRepo({ 'README.md': '# demo\n' });
    const { init } = await entry();
    const out = await init({ dir: repo.dir, env: repo.env });
    expect(out.steps.map((s) => s.target)).toEqual([
      '.cortex/memories/',
      '.cortex/edges/',
      '.gitignore',
      '.gitattributes',
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/hooks/post-merge',
      '.git/hooks/post-checkout',
      '.git/hooks/post-rewrite',
      '.cortex/decisions.md',
      '.cortex/plan.md',
      '.cortex/decisions-archive.md',
    ]);
    expect(repo.read('.gitattributes')).toContain('.cortex/memories/*.md merge=cortex');
    const driver = repo.git(['config', '--get', 'merge.cortex.driver']).stdout.trim();
    expect(driver).toMatch(/dist\/cli\.cjs merge-driver %O %A %B %P %L$/);
    expect(repo.read('.git/hooks/pre-commit')).toContain('cortex-hook: pre-commit');
    // The CLI finds nothing left to do, and the doctor nothing wrong.
    const again = json<{ steps: { target: string; action: string }[] }>(repo.cortex(['init', '--json']));
    expect(again.steps.filter((s) => s.action !== 'unchanged')).toEqual([]);
    const doctor = json<{ ok: boolean; checks: { id: string; severity: string }[] }>(repo.cortex(['doctor', '--json']));
    expect(doctor.checks.filter((c) => c.severity === 'error')).toEqual([]);

    // With claude: the Claude Code files too, as `cortex init --claude`.
    const withClaude = await init({ dir: repo.dir, env: repo.env, claude: true });
    expect(withClaude.steps.map((s) => s.target)).toEqual(expect.arrayContaining(['.claude/settings.json', '.claude/rules/cortex-memory.md', '.mcp.json']));
    expect(repo.read('.claude/settings.json')).toContain('cortex hook session-start');
  });
});
