import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens, estimateTokens, sanitizeCharsPerToken } from './tokens.js';

describe('estimateTokens', () => {
  it('is the character count over 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('uses the given characters per token', () => {
    expect(estimateTokens('abcdefghi', { charsPerToken: 3 })).toBe(3);
    expect(estimateTokens('abcdefghij', { charsPerToken: 2.5 })).toBe(4);
  });

  it('falls back to 4 characters per token when the ratio is not a positive number', () => {
    for (const bad of [0, -2, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(estimateTokens('abcdefgh', { charsPerToken: bad })).toBe(2);
    }
  });

  it('never under-counts: tokens × ratio covers every character, with less than one token to spare (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.double({ min: 1, max: 10, noNaN: true }), (text, ratio) => {
        const tokens = estimateTokens(text, { charsPerToken: ratio });
        expect(tokens * ratio).toBeGreaterThanOrEqual(text.length);
        // …and over-counts by less than one token (float slack aside).
        expect((tokens - 1) * ratio).toBeLessThanOrEqual(text.length + 1e-9);
      }),
    );
  });
});

describe('countTokens', () => {
  it('uses the injected tokenizer when there is one', () => {
    expect(countTokens('one two three', { tokenizer: (t) => t.split(' ').length })).toBe(3);
  });

  it('rounds a fractional tokenizer count up', () => {
    expect(countTokens('x', { tokenizer: () => 2.2 })).toBe(3);
  });

  it('falls back to the estimate when the tokenizer returns garbage', () => {
    expect(countTokens('abcdefgh', { tokenizer: () => Number.NaN })).toBe(2);
    expect(countTokens('abcdefgh', { tokenizer: () => -1 })).toBe(2);
  });

  it('is the estimate without a tokenizer', () => {
    expect(countTokens('abcdefgh', { charsPerToken: 2 })).toBe(4);
  });
});

describe('sanitizeCharsPerToken', () => {
  it('keeps positive finite ratios and replaces the rest with 4', () => {
    expect(sanitizeCharsPerToken(3.5)).toBe(3.5);
    expect(sanitizeCharsPerToken(undefined)).toBe(4);
    expect(sanitizeCharsPerToken(0)).toBe(4);
  });
});
