/**
 * fast-check generators shared by tests.
 */
import fc from 'fast-check';
import { MEMORY_STATUSES, MEMORY_TYPES, SCOPES, SOURCE_KINDS, SOURCE_CONFIRMERS, SOURCE_LAYERS, type Memory } from '../../src/core/memory.js';
import { normalizeBody } from '../../src/core/memory-format.js';

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);
const isoDate = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) })
  .map((ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
const line = fc.string({ minLength: 1, maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ').trim()).filter((s) => s !== '');
const body = fc.array(fc.string({ maxLength: 80 }), { maxLength: 6 }).map((lines) => normalizeBody(lines.join('\n').replace(/\r/g, '')));

/** Any valid memory in canonical form. */
export const arbitraryMemory: fc.Arbitrary<Memory> = fc.record({
  id: fc.tuple(word, fc.stringMatching(/^[a-z2-7]{6}$/)).map(([w, s]) => `${w}-${s}`),
  type: fc.constantFrom(...MEMORY_TYPES),
  summary: line,
  scope: fc.constantFrom(...SCOPES),
  priority: fc.integer({ min: 1, max: 10 }),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  pinned: fc.boolean(),
  status: fc.constantFrom(...MEMORY_STATUSES),
  tags: fc.uniqueArray(word, { maxLength: 4 }),
  topic: fc.option(fc.tuple(word, word).map(([a, b]) => `${a}/${b}`), { nil: undefined }),
  created: isoDate,
  updated: isoDate,
  source: fc.record(
    {
      kind: fc.constantFrom(...SOURCE_KINDS),
      layer: fc.constantFrom(...SOURCE_LAYERS),
      session: fc.stringMatching(/^[0-9a-f]{8}$/),
      branch: fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8})?$/),
      commit: fc.stringMatching(/^[0-9a-f]{7,12}$/),
      files: fc.array(fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}\.ts$/), { maxLength: 3 }),
      confirmed: fc.constantFrom(...SOURCE_CONFIRMERS),
    },
    { requiredKeys: ['kind'] },
  ),
  body,
  extra: fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.oneof(fc.integer(), word, fc.boolean()), { maxKeys: 2 }),
}).map((m) => {
  const { topic, ...rest } = m;
  return (topic === undefined ? rest : { ...rest, topic }) as Memory;
});

/**
 * A valid memory with plain defaults (a decision of 2026-01-01, priority 5, confidence 1),
 * for tests that build memories as data.
 *
 * @example
 * testMemory('a-aaaaaa', { type: 'gotcha' })
 */
export function testMemory(id: string, patch: Partial<Memory> = {}): Memory {
  return {
    id,
    type: 'decision',
    summary: `Summary of ${id}`,
    scope: 'project',
    priority: 5,
    confidence: 1,
    pinned: false,
    status: 'active',
    tags: [],
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    source: { kind: 'manual' },
    body: '',
    extra: {},
    ...patch,
  };
}
