import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha1Hex, sha1OfText } from './sha1.js';

const native = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

describe('sha1', () => {
  it('is SHA-1: the standard test vectors', () => {
    expect(sha1OfText('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1OfText('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1OfText('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
    expect(sha1OfText('a'.repeat(1_000_000))).toBe('34aa973cd4c4daa4f61eeb2bdbad27316534016f');
  });

  it('hashes any bytes as node:crypto does, at every length around the padding boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      expect(sha1Hex(bytes)).toBe(native(bytes));
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => sha1Hex(bytes) === native(bytes)));
  });

  it("hashes a text's UTF-8 bytes as crypto.hash('sha1', text) does, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 })), (text) => sha1OfText(text) === createHash('sha1').update(text).digest('hex')),
      { numRuns: 500 },
    );
  });
});
