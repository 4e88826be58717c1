import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detachString } from './detach-string.js';

describe('detachString', () => {
  it('returns the same characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.nat(), fc.nat(), (text, a, b) => {
      const cut = text.slice(Math.min(a, b) % (text.length + 1), Math.max(a, b) % (text.length + 1));
      expect(detachString(cut)).toBe(cut);
    }));
  });

  it('keeps nothing of the text a substring was cut from', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    // 100 texts of 1 MB each; the ids cut from them are kept.
    const ids = Array.from({ length: 100 }, (_, i) => detachString(`id-${i}-of-a-memory ${'x'.repeat(1 << 20)}`.slice(0, 20)));
    expect(heap() - before).toBeLessThan(10 << 20);
    expect(ids[7]).toBe('id-7-of-a-memory xxx');
  });
});
