import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { presetPackage, redactionGateStamp } from './gate-stamp.js';

describe('redactionGateStamp', () => {
  it('signs the preset the resolver finds, found without asking it, and the gate and package files', () => {
    expect(presetPackage()).toBe(createRequire(import.meta.url).resolve('@secretlint/secretlint-rule-preset-recommend/package.json'));
    const parts = redactionGateStamp().split('|');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
