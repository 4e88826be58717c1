/**
 * Every vendor rule (enumerated from redact-rules.ts, not from a hand list) has a fake
 * that it catches and a look-alike of its family that the whole gate leaves alone.
 */
import { describe, expect, it } from 'vitest';
import { LABELLED_RULES, SHAPE_RULES } from './redact-rules.js';
import { SECRET_KINDS, findSecrets, redactSecrets } from './redact.js';
import { FAKES, ISSUE_FAKES, KIND_NEGATIVES, KIND_POSITIVES, LOOK_ALIKES, VENDOR_CASES } from '../../test/helpers/secrets-corpus.js';
import { inClear } from '../../test/helpers/in-clear.js';

describe('vendor rules', () => {
  it('each has at least one positive and one negative case', () => {
    const covered = new Set(VENDOR_CASES.map(([rule]) => rule));
    const ids = [...new Set([...SHAPE_RULES.map((r) => r.id), ...LABELLED_RULES.map((r) => r.id)])];
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
    expect(ids.length).toBeGreaterThan(100);
  });

  it('each cites its source', () => {
    for (const rule of [...SHAPE_RULES, ...LABELLED_RULES]) expect(rule.source, rule.id).toMatch(/\S{6,}/);
  });

  it.each(VENDOR_CASES.map((c, i) => [`${c[0]} #${i}`, ...c] as const))('%s: caught, named, nothing left in clear', (_, rule, wrap, secret) => {
    const text = wrap(secret);
    const r = redactSecrets(text);
    expect(r.findings.map((f) => f.kind), text).toContain(rule);
    expect(inClear(r.text, secret), r.text).toEqual([]);
  });

  it.each(VENDOR_CASES.map((c, i) => [`${c[0]} #${i}`, c[3]] as const))('%s: its look-alike is left alone', (_, negative) => {
    expect(findSecrets(negative)).toEqual([]);
  });
});

describe('look-alikes', () => {
  it('are at least 60', () => expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(60));
  it.each(LOOK_ALIKES)('%s: unchanged', (_, text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe('core rules', () => {
  const vendor = new Set([...SHAPE_RULES.map((r) => r.id), ...LABELLED_RULES.map((r) => r.id)]);
  const core = SECRET_KINDS.filter((k) => !vendor.has(k));

  it('each kind has a fake it catches and a near miss it leaves alone', () => {
    // The kinds the gate names on the corpus's secrets (not the corpus's labels).
    const positive = new Set([...FAKES, ...ISSUE_FAKES, ...KIND_POSITIVES].flatMap(([, wrap, secret]) => redactSecrets(wrap(secret)).findings.map((f) => f.kind)));
    const negative = new Set(KIND_NEGATIVES.map(([kind]) => kind));
    expect(core.filter((k) => k !== 'secret' && !positive.has(k))).toEqual([]);
    expect(core.filter((k) => !negative.has(k))).toEqual([]);
    expect(core.length).toBeGreaterThan(25);
  });

  it.each(KIND_POSITIVES)('%s: caught, named, nothing left in clear', (_, wrap, secret, kind) => {
    const r = redactSecrets(wrap(secret));
    expect(r.findings.map((f) => f.kind)).toContain(kind);
    expect(inClear(r.text, secret), r.text).toEqual([]);
  });

  it.each(KIND_NEGATIVES)('%s: its near miss is unchanged', (_, text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
