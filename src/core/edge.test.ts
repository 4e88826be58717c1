import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EDGE,
  RELATIONS,
  RELATION_ALIASES,
  REVERSED_RELATION_ALIASES,
  buildEdge,
  checkEdgeId,
  edgeFileName,
  edgeId,
  isEdgeOrigin,
  isEdgeStatus,
  isRelation,
  normalizeRelation,
  parseEdgeFileName,
  relationKey,
  resolveRelation,
} from './edge.js';

/** Ids shaped like generated ones: slug words joined by single dashes, base32 suffix. */
const edgeIdArb = fc
  .tuple(
    fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 }),
    fc.stringMatching(/^[a-z2-7]{6}$/),
  )
  .map(([words, suffix]) => `${words.join('-')}-${suffix}`);

describe('relationKey', () => {
  it('lower-cases, splits camelCase and joins words with one underscore', () => {
    expect(relationKey(' Relates-To ')).toBe('relates_to');
    expect(relationKey('derivedFrom')).toBe('derived_from');
    expect(relationKey('SEE  ALSO')).toBe('see_also');
    expect(relationKey('source.of')).toBe('source_of');
    expect(relationKey('--related--')).toBe('related');
  });
});

describe('normalizeRelation', () => {
  it('returns every canonical relation unchanged', () => {
    for (const relation of RELATIONS) expect(normalizeRelation(relation)).toBe(relation);
  });

  it.each([
    ['related', 'relates_to'],
    ['relates', 'relates_to'],
    ['related_to', 'relates_to'],
    ['relates-to', 'relates_to'],
    ['Relates To', 'relates_to'],
    ['derives', 'derived_from'],
    ['derived', 'derived_from'],
    ['derive_from', 'derived_from'],
    ['Derived-From', 'derived_from'],
    ['supersede', 'supersedes'],
    ['replaces', 'supersedes'],
    ['example', 'exemplifies'],
    ['exemplify', 'exemplifies'],
    ['refine', 'refines'],
    ['refinement', 'refines'],
    ['contradict', 'contradicts'],
    ['conflicts_with', 'contradicts'],
    ['CONFLICTS WITH', 'contradicts'],
    ['source', 'source_of'],
    ['described_by', 'source_of'],
  ])('maps the alias %j to %j', (alias, relation) => {
    expect(normalizeRelation(alias)).toBe(relation);
  });

  it('refuses reversed aliases, whose endpoints would have to be swapped', () => {
    for (const word of ['superseded_by', 'superseded by', 'describes', 'refined_by', 'exemplified_by']) {
      expect(normalizeRelation(word)).toBeUndefined();
    }
  });

  it('returns undefined for unknown words', () => {
    expect(normalizeRelation('banana')).toBeUndefined();
    expect(normalizeRelation('')).toBeUndefined();
    expect(normalizeRelation('constructor')).toBeUndefined();
  });

  it('maps every alias key to a canonical relation, and no alias is also a reversed alias', () => {
    for (const [alias, relation] of Object.entries(RELATION_ALIASES)) {
      expect(isRelation(relation)).toBe(true);
      expect(relationKey(alias)).toBe(alias);
      expect(Object.hasOwn(REVERSED_RELATION_ALIASES, alias)).toBe(false);
    }
  });

  it('ignores case, dashes and spaces around any alias (property)', () => {
    const aliases = Object.keys(RELATION_ALIASES);
    fc.assert(
      fc.property(fc.constantFrom(...aliases), fc.constantFrom('-', ' ', '_'), fc.boolean(), (alias, sep, upper) => {
        const written = alias.split('_').join(sep);
        const cased = upper ? written.toUpperCase() : written;
        expect(normalizeRelation(`  ${cased} `)).toBe(RELATION_ALIASES[alias]);
      }),
    );
  });
});

describe('resolveRelation', () => {
  it('marks reversed aliases so the caller can swap the endpoints', () => {
    expect(resolveRelation('superseded_by')).toEqual({ relation: 'supersedes', reversed: true });
    expect(resolveRelation('Superseded-By')).toEqual({ relation: 'supersedes', reversed: true });
    expect(resolveRelation('describes')).toEqual({ relation: 'source_of', reversed: true });
  });

  it('resolves forward aliases and canonical names as not reversed', () => {
    expect(resolveRelation('related')).toEqual({ relation: 'relates_to', reversed: false });
    expect(resolveRelation('supersedes')).toEqual({ relation: 'supersedes', reversed: false });
  });

  it('returns undefined for unknown words, including inherited object keys', () => {
    expect(resolveRelation('toString')).toBeUndefined();
    expect(resolveRelation('__proto__')).toBeUndefined();
  });
});

describe('isRelation / isEdgeStatus / isEdgeOrigin', () => {
  it('accept only canonical values', () => {
    expect(isRelation('refines')).toBe(true);
    expect(isRelation('related')).toBe(false);
    expect(isRelation(3)).toBe(false);
    expect(isEdgeStatus('suggested')).toBe(true);
    expect(isEdgeStatus('archived')).toBe(false);
    expect(isEdgeOrigin('wikilink')).toBe(true);
    expect(isEdgeOrigin('llm')).toBe(false);
  });
});

describe('checkEdgeId', () => {
  it('accepts memory ids and rejects the file-name separator', () => {
    expect(checkEdgeId('chose-sqlite-k3f9qa')).toBeUndefined();
    expect(checkEdgeId('a--b')).toMatch(/--/);
  });

  it('rejects what checkIdSafety rejects', () => {
    expect(checkEdgeId('../etc')).toBeDefined();
    expect(checkEdgeId('')).toBeDefined();
    expect(checkEdgeId('Upper')).toBeDefined();
  });
});

describe('edgeFileName', () => {
  it('joins source, relation and target with "--"', () => {
    expect(edgeFileName({ source: 'a-abcdef', relation: 'refines', target: 'b-ghijkl' })).toBe('a-abcdef--refines--b-ghijkl.md');
  });

  it('throws on an endpoint that could escape the directory or break the name', () => {
    expect(() => edgeFileName({ source: '../x', relation: 'refines', target: 'b' })).toThrow(RangeError);
    expect(() => edgeFileName({ source: 'a--b', relation: 'refines', target: 'c' })).toThrow(RangeError);
    expect(() => edgeFileName({ source: 'a', relation: 'related' as never, target: 'c' })).toThrow(RangeError);
  });
});

describe('parseEdgeFileName', () => {
  it('splits a name into its parts', () => {
    expect(parseEdgeFileName('a-abcdef--source_of--b-ghijkl.md')).toEqual({
      source: 'a-abcdef',
      relation: 'source_of',
      target: 'b-ghijkl',
    });
  });

  it('handles a source that ends with a dash', () => {
    expect(parseEdgeFileName('a---refines--b.md')).toEqual({ source: 'a-', relation: 'refines', target: 'b' });
  });

  it('rejects names that are not edge names', () => {
    for (const name of [
      'a--refines--b',
      'a--related--b.md',
      'a--refines.md',
      'a--refines--b--refines--c.md',
      '..--refines--b.md',
      'A--refines--b.md',
      'notes.md',
    ]) {
      expect(parseEdgeFileName(name), name).toBeUndefined();
    }
  });

  it('inverts edgeFileName (property)', () => {
    fc.assert(
      fc.property(edgeIdArb, fc.constantFrom(...RELATIONS), edgeIdArb, (source, relation, target) => {
        expect(parseEdgeFileName(edgeFileName({ source, relation, target }))).toEqual({ source, relation, target });
      }),
    );
  });
});

describe('edgeId', () => {
  it('is the file name without the extension', () => {
    const key = { source: 'a', relation: 'refines', target: 'b' } as const;
    expect(`${edgeId(key)}.md`).toBe(edgeFileName(key));
  });
});

describe('buildEdge', () => {
  it('fills the defaults', () => {
    expect(buildEdge({ source: 'a', target: 'b', relation: 'refines', created: '2026-01-01T00:00:00Z' })).toEqual({
      source: 'a',
      target: 'b',
      relation: 'refines',
      strength: DEFAULT_EDGE.strength,
      status: 'active',
      bidirectional: false,
      origin: 'manual',
      created: '2026-01-01T00:00:00Z',
      body: '',
      extra: {},
    });
  });

  it('keeps given fields and copies extra', () => {
    const extra = { reviewer: 'ana' };
    const edge = buildEdge({ source: 'a', target: 'b', relation: 'relates_to', created: 'x', strength: 0.2, status: 'suggested', extra });
    expect(edge.strength).toBe(0.2);
    expect(edge.status).toBe('suggested');
    expect(edge.extra).toEqual(extra);
    expect(edge.extra).not.toBe(extra);
  });
});
