import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractWikilinks } from './wikilinks.js';

describe('extractWikilinks', () => {
  it('returns [] for a body without "[["', () => {
    expect(extractWikilinks('')).toEqual([]);
    expect(extractWikilinks('A [link](https://example.com) and [ref] only.')).toEqual([]);
  });

  it('finds [[id]] and [[id|label]] in order of first appearance, once each', () => {
    const body = 'See [[wal-mode-p2x81d]], then [[chose-sqlite-k3f9qa|the SQLite choice]].\n\nAgain [[wal-mode-p2x81d]].';
    expect(extractWikilinks(body)).toEqual(['wal-mode-p2x81d', 'chose-sqlite-k3f9qa']);
  });

  it('reads the id before a #heading and trims spaces', () => {
    expect(extractWikilinks('[[ plan-q1-abcdef#risks | risks ]]')).toEqual(['plan-q1-abcdef']);
  });

  it('skips links inside fenced code, indented code and inline code', () => {
    const body = [
      'Real: [[a-abcdef]].',
      '',
      '```ts',
      "const x = '[[b-abcdef]]';",
      '```',
      '',
      '    [[c-abcdef]] in an indented block',
      '',
      'Inline `[[d-abcdef]]` is code, but [[e-abcdef]] is not.',
    ].join('\n');
    expect(extractWikilinks(body)).toEqual(['a-abcdef', 'e-abcdef']);
  });

  it('skips links inside raw HTML such as comments', () => {
    expect(extractWikilinks('<!-- [[hidden-abcdef]] -->\n\nshown [[shown-abcdef]]')).toEqual(['shown-abcdef']);
  });

  it('finds links in lists, headings, quotes and emphasis', () => {
    const body = '# About [[h-abcdef]]\n\n- item [[l-abcdef]]\n\n> quoted [[q-abcdef]]\n\n*see [[e-abcdef]]*';
    expect(extractWikilinks(body)).toEqual(['h-abcdef', 'l-abcdef', 'q-abcdef', 'e-abcdef']);
  });

  it('still finds a link whose id matches a reference definition', () => {
    expect(extractWikilinks('Use [[ref-abcdef]].\n\n[ref-abcdef]: https://example.com')).toEqual(['ref-abcdef']);
  });

  it('ignores link texts that cannot be memory ids', () => {
    expect(extractWikilinks('[[Some Page]] [[../etc/passwd]] [[]] [[ok-abcdef]] [[a\nb]]')).toEqual(['ok-abcdef']);
  });

  it('ignores escaped brackets', () => {
    expect(extractWikilinks('\\[\\[not-a-link]] and [[yes-abcdef]]')).toEqual(['yes-abcdef']);
  });

  it('finds every link placed in plain prose (property)', () => {
    const idArb = fc.stringMatching(/^[a-z][a-z0-9]{0,6}-[a-z2-7]{6}$/);
    fc.assert(
      fc.property(fc.array(idArb, { maxLength: 6 }), fc.array(fc.constantFrom('word', 'and', 'the', 'x.'), { minLength: 1, maxLength: 4 }), (ids, filler) => {
        const body = ids.map((id) => `${filler.join(' ')} [[${id}]]`).join('\n\n');
        expect(extractWikilinks(body)).toEqual([...new Set(ids)]);
      }),
    );
  });

  it('answers the same without the markdown parse when the body holds no code or HTML marker (property)', () => {
    const fragment = fc.constantFrom(
      'word',
      '[[a-abcdef]]',
      '[[b-abcdef|label]]',
      '[[Not An Id]]',
      '\\[[c-abcdef]]',
      '*[[d-abcdef]]*',
      '[text](https://example.com/[[e-abcdef]])',
      '[ref]: https://example.com',
      '[[',
      ']]',
      '\n',
      '\n\n',
      '\n# ',
      '\n- ',
      '\n> ',
      '\n1. ',
      '\n  ',
      '\n   ',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 14 }), (parts) => {
        const body = parts.join('');
        // A trailing HTML comment forces the parse without changing what comes before it.
        expect(extractWikilinks(body)).toEqual(extractWikilinks(`${body}\n\n<!-- forced parse -->`));
      }),
      { numRuns: 300 },
    );
  });

  it('answers the same without the parse when code sits only in paragraphs without a link (property)', () => {
    const fragment = fc.constantFrom('word', '[[a-abcdef]]', '[[b-abcdef]]', '`', '`code`', '`[[c-abcdef]]`', '    ', '\t', '\n', '\n\n', '\n    ', '\n- ', '\n> ', ' ');
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 16 }), (parts) => {
        const body = parts.join('');
        expect(extractWikilinks(body)).toEqual(extractWikilinks(`${body}\n\n<!-- forced parse -->`));
      }),
      { numRuns: 500 },
    );
    // A code span never crosses a blank line; a link in the next paragraph is read without a parse.
    expect(extractWikilinks('See `x` here.\n\nThen [[a-abcdef]].')).toEqual(['a-abcdef']);
    expect(extractWikilinks('`a\n[[a-abcdef]]\nb`')).toEqual([]);
  });
});
