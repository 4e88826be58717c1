import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8 } from './utf8.js';

describe('findInvalidUtf8', () => {
  it('accepts whatever the encoder writes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(findInvalidUtf8(new TextEncoder().encode(s))).toBeUndefined();
      }),
    );
  });

  it('agrees with the fatal WHATWG decoder on any bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
        } catch {
          valid = false;
        }
        expect(findInvalidUtf8(bytes) === undefined).toBe(valid);
      }),
    );
  });

  it('names the offset and line of the first bad byte', () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode('---\nsummary: caf'), 0xe9, 0x0a]);
    expect(findInvalidUtf8(bytes)).toEqual({ offset: 16, line: 2 });
    expect(findInvalidUtf8(Uint8Array.from([0xed, 0xa0, 0x80]))).toEqual({ offset: 0, line: 1 }); // a surrogate
    expect(findInvalidUtf8(Uint8Array.from([0xe2, 0x82]))).toEqual({ offset: 0, line: 1 }); // cut short
  });
});
