/**
 * Journey: "is semantic recall on?" — `cortex status` answers it (docs/install.md says so):
 * the model configured, how many memories have a vector for it, and when it is off, why and
 * the command that fixes it. Real git, the built CLI, the synthetic test model.
 */
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/repo.js';
import { MODEL_DIR, TINY_MODEL, tinyEnv } from '../helpers/models.js';
import { journeyRepo, ok } from './journey.js';

describe.skipIf(!MODEL_DIR)('journey: cortex status says whether semantic recall is on', () => {
  it('off before anything is embedded, on after `cortex index --embed`, with the count; off when turned off', () => {
    const env = tinyEnv();
    const model = `${TINY_MODEL}:fp32`;
    const repo = journeyRepo();
    for (const text of ['Chose SQLite over Postgres for zero-config laptops', 'Retries use exponential backoff capped at 30 seconds', 'Feature flags are read once at startup'])
      ok(repo.cortex(['remember', text, '--type', 'decision'], { env }));

    const before = ok(repo.cortex(['status'], { env })).stdout;
    expect(before).toContain(`Semantic recall: off, keyword only (0 of 3 memories embedded with ${model})`);
    expect(before).toContain('no memory is embedded yet: run `cortex index --embed`');

    ok(repo.cortex(['index', '--embed'], { env }));
    const after = ok(repo.cortex(['status'], { env })).stdout;
    expect(after).toContain(`Semantic recall: on (3 of 3 memories embedded with ${model})`);
    expect(after).not.toContain('index --embed');

    ok(repo.cortex(['remember', 'HTTP handlers live in src/routes/, one file per resource', '--type', 'architecture'], { env }));
    const partial = json<{ semantic: Record<string, unknown> }>(ok(repo.cortex(['status', '--json'], { env })));
    expect(partial.semantic).toMatchObject({ on: true, enabled: true, model, embedded: 3, embeddable: 4, why: '1 memory is not embedded yet: run `cortex index --embed`' });

    const off = ok(repo.cortex(['status'], { env: { ...env, CORTEX_EMBED: '0' } })).stdout;
    expect(off).toContain('Semantic recall: off, keyword only (embeddings turned off)');
    expect(off).toContain('CORTEX_EMBED=0 or embed.enabled: false');
  });
});
