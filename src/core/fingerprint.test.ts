import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addLine, combineFingerprints, emptyFingerprint, fingerprintText, lineHash, memoryLine } from './fingerprint.js';

const of = (lines: string[]) => {
  const parts = emptyFingerprint();
  for (const line of lines) addLine(parts, line);
  return parts;
};

describe('fingerprints', () => {
  it('do not depend on the order of the lines, and removing a line undoes adding it', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.string(), (lines, extra) => {
        const parts = of(lines);
        expect(fingerprintText(of([...lines].reverse()))).toBe(fingerprintText(parts));
        addLine(parts, extra);
        addLine(parts, extra, -1);
        expect(fingerprintText(parts)).toBe(fingerprintText(of(lines)));
      }),
    );
  });

  it('add up across sets', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.array(fc.string()), (x, y) => {
        expect(fingerprintText(combineFingerprints(of(x), of(y)))).toBe(fingerprintText(of([...x, ...y])));
      }),
    );
  });

  it('tell apart sets that differ in one line', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => memoryLine('project', `memory-${i}-abcdef`, i % 7 === 0 ? `memory-${i + 1}-abcdef` : ''));
    const base = fingerprintText(of(ids));
    const seen = new Set([base]);
    for (let i = 0; i < ids.length; i++) seen.add(fingerprintText(of(ids.filter((_, j) => j !== i))));
    expect(seen.size).toBe(ids.length + 1);
    // One link more, one character changed, another tier: each a different key.
    expect(fingerprintText(of([...ids.slice(1), memoryLine('project', 'memory-0-abcdef', 'memory-5-abcdef')]))).not.toBe(base);
    expect(fingerprintText(of([...ids.slice(1), memoryLine('global', 'memory-0-abcdef', 'memory-1-abcdef')]))).not.toBe(base);
    expect(lineHash('ab')).not.toEqual(lineHash('ba'));
  });
});
