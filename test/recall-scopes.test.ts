/**
 * Project and global memories ranked on one scale. Each tier is its own index, and BM25
 * weighs a word by its rarity in that index: a word that is rare in a large project weighs
 * more than the same word in a small global tier. Recall puts both on the corpus of the two
 * tiers together, then prefers the project by `recall.globalWeight` (0.9).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCortex } from '../src/api/cortex.js';
import { memoryFile } from './helpers/models.js';
import { tempRepo } from './helpers/repo.js';

const FILLER = [
  'Invoices are rendered to PDF by a worker process',
  'The API returns errors as problem+json documents',
  'Integration tests run against a real Postgres in Docker',
  'Background jobs use BullMQ on Redis',
  'Feature flags live in a table per tenant',
  'Money is stored as integer minor units',
  'Dates are stored in UTC and shown in the tenant time zone',
  'Pull requests stay under about 400 changed lines',
  'Configuration comes from environment variables validated at start',
  'Webhooks are verified against the raw request body',
  'Primary keys are UUIDv7 values generated in the application',
  'Logs are structured JSON written with pino',
];

function setup(globalSummaries: string[], projectSummaries: string[]) {
  const files = Object.fromEntries([...FILLER, ...projectSummaries].map((summary) => memoryFile({ summary, type: 'pattern' })));
  const repo = tempRepo(files, { git: false });
  const globalDir = join(repo.home, 'cortex-home');
  mkdirSync(join(globalDir, 'memories'), { recursive: true });
  for (const summary of globalSummaries) {
    const [path, text] = memoryFile({ summary, type: 'preference', scope: 'global' });
    writeFileSync(join(globalDir, 'memories', path.split('/').pop()!), text);
  }
  return openCortex({ dir: repo.dir, env: { CORTEX_HOME: globalDir } });
}

describe('recall across the project and global tiers', () => {
  it('ranks the global memory that answers the question above a project memory that shares one word', async () => {
    const cortex = setup(['Always indent with tabs, never spaces'], ['Editor tabs are grouped per package in the workspace']);
    const { results } = await cortex.recall({ query: 'indent with tabs or spaces', recordAccess: false });
    expect(results[0]?.scope).toBe('global');
    expect(results[0]?.summary).toMatch(/indent with tabs/);
  });

  it('prefers the project memory when both say the same thing', async () => {
    const cortex = setup(['Deploys happen on Tuesday mornings'], ['Deploys happen on Tuesday mornings']);
    const { results } = await cortex.recall({ query: 'when do deploys happen', recordAccess: false });
    expect(results.map((r) => r.scope)).toEqual(['project', 'global']);
    // Not exactly 0.9: the idf moves onto one scale, the length normalisation of each index stays its own.
    const ratio = results[1]!.score / results[0]!.score;
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1);
  });
});
