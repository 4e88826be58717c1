import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ID_PATTERN, buildId, checkIdSafety, normalizeTags, slugify } from './memory.js';

describe('slugify', () => {
  it('makes lower-case dashed words', () => {
    expect(slugify('Chose SQLite over PostgreSQL!')).toBe('chose-sqlite-over-postgresql');
    expect(slugify('Café: naïve façade')).toBe('cafe-naive-facade');
    expect(slugify('!!!')).toBe('memory');
  });

  it('stays within 48 characters, cutting at a word boundary', () => {
    const s = slugify('Chose SQLite over PostgreSQL because zero configuration matters most for laptops');
    expect(s.length).toBeLessThanOrEqual(48);
    expect(s).toBe('chose-sqlite-over-postgresql-because-zero');
  });
});

describe('buildId', () => {
  it('is a slug, a dash and six base32 characters (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ minLength: 6, maxLength: 6 }), (summary, bytes) => {
        const id = buildId(summary, () => bytes);
        expect(id).toMatch(ID_PATTERN);
        expect(checkIdSafety(id)).toBeUndefined();
      }),
    );
  });
});

describe('checkIdSafety', () => {
  it.each([
    ['../../etc/passwd', 'contains a path separator'],
    ['..', 'contains ".."'],
    ['a\\b', 'contains a path separator'],
    ['a\0b', 'contains a NUL byte'],
    ['C:evil', 'looks like an absolute path'],
    ['con', 'is a reserved device name'],
    ['Upper-case', 'may only contain lower-case letters, digits, "-" and "_" (at most 100)'],
    ['', 'is empty'],
  ])('rejects %j', (id, why) => {
    expect(checkIdSafety(id)).toBe(why);
  });

  it('accepts generated and simple hand-written ids', () => {
    expect(checkIdSafety('chose-sqlite-k3f9qa')).toBeUndefined();
    expect(checkIdSafety('my_note')).toBeUndefined();
  });
});

describe('normalizeTags', () => {
  it('lower-cases, trims, dashes spaces and dedupes in order', () => {
    expect(normalizeTags([' Storage', 'storage', 'Big Data', ''])).toEqual(['storage', 'big-data']);
  });
});
