import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRevision, splitRevisionRange, type RevisionStep } from './revision.js';

describe('parseRevision', () => {
  it('reads names, ancestry steps and upstreams', () => {
    expect(parseRevision('HEAD~1')).toEqual({ ok: true, revision: { base: 'HEAD', upstream: false, steps: [{ op: '~', n: 1 }] } });
    expect(parseRevision('main^')).toEqual({ ok: true, revision: { base: 'main', upstream: false, steps: [{ op: '^', n: 1 }] } });
    expect(parseRevision('feat/x~3^2')).toEqual({ ok: true, revision: { base: 'feat/x', upstream: false, steps: [{ op: '~', n: 3 }, { op: '^', n: 2 }] } });
    expect(parseRevision('@')).toEqual({ ok: true, revision: { base: 'HEAD', upstream: false, steps: [] } });
    expect(parseRevision('@{u}')).toEqual({ ok: true, revision: { base: 'HEAD', upstream: true, steps: [] } });
    expect(parseRevision('main@{upstream}~1')).toEqual({ ok: true, revision: { base: 'main', upstream: true, steps: [{ op: '~', n: 1 }] } });
    expect(parseRevision('v1.2^{commit}')).toEqual({ ok: true, revision: { base: 'v1.2', upstream: false, steps: [{ op: '^', n: 0 }] } });
    expect(parseRevision('3f2a9c1')).toEqual({ ok: true, revision: { base: '3f2a9c1', upstream: false, steps: [] } });
  });

  it('names what it does not understand', () => {
    expect(parseRevision('main@{yesterday}')).toMatchObject({ ok: false, reason: expect.stringContaining('@{yesterday}') });
    expect(parseRevision('main~x')).toMatchObject({ ok: false, reason: expect.stringContaining('"x" in "main~x"') });
    expect(parseRevision('--output=x')).toMatchObject({ ok: false, reason: expect.stringContaining('option') });
    expect(parseRevision('a..b')).toMatchObject({ ok: false, reason: expect.stringContaining('range') });
    expect(parseRevision('')).toMatchObject({ ok: false });
    expect(parseRevision('~1')).toMatchObject({ ok: false });
  });

  it('reads back the steps it is given', () => {
    const step = fc.oneof(
      fc.nat({ max: 50 }).map((n): RevisionStep => ({ op: '~', n })),
      fc.nat({ max: 9 }).map((n): RevisionStep => ({ op: '^', n })),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9/_-]{0,12}[a-z0-9]$/), fc.array(step, { maxLength: 5 }), (base, steps) => {
        const text = base + steps.map((s) => `${s.op}${s.n}`).join('');
        expect(parseRevision(text)).toEqual({ ok: true, revision: { base, upstream: false, steps } });
      }),
    );
  });
});

describe('splitRevisionRange', () => {
  it('splits two- and three-dot ranges, empty sides meaning HEAD', () => {
    expect(splitRevisionRange('HEAD~1..HEAD')).toEqual({ from: 'HEAD~1', to: 'HEAD', dots: '..' });
    expect(splitRevisionRange('main^..main')).toEqual({ from: 'main^', to: 'main', dots: '..' });
    expect(splitRevisionRange('main...feature')).toEqual({ from: 'main', to: 'feature', dots: '...' });
    expect(splitRevisionRange('..feature')).toEqual({ from: 'HEAD', to: 'feature', dots: '..' });
    expect(splitRevisionRange('v1.2')).toEqual({ from: 'v1.2', to: 'HEAD', dots: '' });
  });
});
