/**
 * Journey: memory changes travel with a branch. A session on a feature branch captures a
 * decision, the branch is committed and pushed (a bare repository is the remote), `cortex
 * diff main...feature` lists the change for the pull request, the branch is merged, and the
 * next session on main is briefed with it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { briefing, claudeSession, journeyRepo, ok, status } from './journey.js';

const DECISION = 'Invoices are numbered per tenant, never globally, so tenants cannot infer volumes.';

describe('journey: branch → diff → merge → next session', { timeout: 240_000 }, () => {
  it('a decision captured on a pushed branch is listed by cortex diff, merged, and in the next briefing on main', async () => {
    const repo = journeyRepo();
    const remote = join(repo.home, 'origin.git');
    ok(repo.git(['init', '-q', '--bare', remote]));
    ok(repo.git(['remote', 'add', 'origin', remote]));
    ok(repo.git(['push', '-q', '-u', 'origin', 'main']));
    expect(briefing(repo, 'before')).not.toContain('Invoices are numbered per tenant');

    ok(repo.git(['checkout', '-q', '-b', 'feature']));
    await claudeSession(repo, 'on-feature', [{ type: 'decision', text: DECISION }]);
    repo.write('src/app.ts', 'export const app = "invoices";\n');
    ok(repo.git(['commit', '-q', '-am', 'Per-tenant invoice numbers']));
    expect(status(repo)).toEqual([]);
    ok(repo.git(['push', '-q', '-u', 'origin', 'feature']));

    const diff = ok(repo.cortex(['diff', 'origin/main...origin/feature']));
    expect(diff.stdout).toContain('Invoices are numbered per tenant');
    expect(diff.stdout).toMatch(/added/i);
    const json = JSON.parse(ok(repo.cortex(['diff', 'main...feature', '--json'])).stdout) as { memories?: { added?: { summary: string }[] } };
    expect(JSON.stringify(json)).toContain('Invoices are numbered per tenant');

    ok(repo.git(['checkout', '-q', 'main']));
    expect(briefing(repo, 'main-before-merge')).not.toContain('Invoices are numbered per tenant');
    ok(repo.git(['merge', '-q', '--no-ff', '--no-edit', 'feature']));
    ok(repo.git(['push', '-q', 'origin', 'main']));
    expect(status(repo)).toEqual([]);
    ok(repo.cortex(['project', '--check']));
    expect(repo.read('.cortex/decisions.md')).toContain('Invoices are numbered per tenant');
    expect(briefing(repo, 'next-on-main')).toContain('Invoices are numbered per tenant');
  });
});
