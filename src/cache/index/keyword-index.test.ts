import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INDEX_OPTIONS, OPTIONS_HASH } from './keyword-index.js';

describe('OPTIONS_HASH', () => {
  it('is the SHA-1 of the index options, written out (no node:crypto when an index is opened)', () => {
    expect(OPTIONS_HASH).toBe(createHash('sha1').update(JSON.stringify(INDEX_OPTIONS)).digest('hex').slice(0, 12));
  });
});
