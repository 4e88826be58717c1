import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { presetPackage, redactionGateStamp } from './gate-stamp.js';

describe('redactionGateStamp', () => {
  it('signs the preset the resolver finds, found without asking it, and the gate and package files', () => {
    // The same file (the resolver answers with the real path; node_modules may be a link).
    expect(realpathSync(presetPackage()!)).toBe(realpathSync(createRequire(import.meta.url).resolve('@secretlint/secretlint-rule-preset-recommend/package.json')));
    const parts = redactionGateStamp().split('|');
    expect(parts).toHaveLength(5);
    for (const part of parts) expect(part).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
