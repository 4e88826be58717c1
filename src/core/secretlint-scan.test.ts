/**
 * The prefilter in front of secretlint's preset: a text it turns away must be one the
 * preset reports nothing in. Checked rule by rule against the pinned preset itself, on
 * the gate's corpus and on generated texts built from the rules' own prefixes.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRETLINT_RULE_NEEDS, scanSecretlint, secretlintMayMatch } from './secretlint-scan.js';
import { ALNUM, BASE64, FAKES, ISSUE_FAKES, LOOK_ALIKES, VENDOR_CASES } from '../../test/helpers/secrets-corpus.js';

const PRESET = '@secretlint/secretlint-rule-preset-recommend';
const require = createRequire(import.meta.url);

/** Every text whose spans, per rule, must each be admitted by that rule's need. */
function expectNeedsCover(text: string): number {
  const spans = scanSecretlint(text, { prefilter: false });
  for (const span of spans) {
    const need = SECRETLINT_RULE_NEEDS[span.rule];
    expect(need, `rule ${span.rule} reported in ${JSON.stringify(text)} but needs nothing`).not.toBeNull();
    expect(need!.test(text), `rule ${span.rule}: ${JSON.stringify(text)}`).toBe(true);
    expect(secretlintMayMatch(text)).toBe(true);
  }
  return spans.length;
}

describe('secretlint prefilter', () => {
  it('knows every scanner rule of the pinned preset, and no other', () => {
    const pkg = require(`${PRESET}/package.json`) as { version: string };
    expect(pkg.version).toBe('12.0.0');
    const { rules } = require(PRESET) as { rules: Array<{ meta: { id: string; type: string } }> };
    const ids = rules.filter((r) => r.meta.type === 'scanner').map((r) => r.meta.id.replace('@secretlint/secretlint-rule-', ''));
    expect(Object.keys(SECRETLINT_RULE_NEEDS).sort()).toEqual(ids.sort());
  });

  it('admits every text of the corpus that a rule reports in', () => {
    const texts = [
      ...FAKES.map(([, wrap, secret]) => wrap(secret)),
      ...ISSUE_FAKES.map(([, wrap, secret]) => wrap(secret)),
      ...VENDOR_CASES.flatMap(([, wrap, secret, negative]) => [wrap(secret), negative]),
      ...LOOK_ALIKES.map(([, text]) => text),
    ];
    let reported = 0;
    for (const text of texts) {
      if (scanSecretlint(text, { prefilter: false }).length > 0) reported++;
      expectNeedsCover(text);
    }
    // The check means something only if the preset reports in many of them.
    expect(reported).toBeGreaterThan(20);
  });

  it('admits every generated text that a rule reports in', () => {
    // The rules' own prefixes and separators, glued to random runs: texts where the
    // preset's patterns do match, and near misses.
    const prefixes = [
      'AKIA', 'ASIA', 'aws_secret_access_key = ', 'AWS_ACCOUNT_ID: ', '-----BEGIN RSA PRIVATE KEY-----\nMI', '\n-----END RSA PRIVATE KEY-----',
      'npm_', 'https://', 'ftp://', ':', '@', 'example.com', 'xoxb-', 'xapp-1-', 'https://hooks.slack.com/services/T', '/B', 'SG.', '.',
      'shpat_', 'ghp_', 'github_pat_', 'glpat-', 'glc_', 'glsa_', '_', 'sk-proj-', 'T3BlbkFJ', 'sk-ant-api03-', 'AA', 'gsk_', 'hf_',
      'lin_api_', 'ntn_', 'ops_ey', 'fQ==', 'mongodb+srv://', 'mysql://', 'postgresql://', 'hvs.', 'vcp_', 'dapi', 'dckr_pat_', 'figd_', ' ', '"',
    ];
    const piece = fc.oneof(
      fc.constantFrom(...prefixes),
      fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 1, maxLength: 140 }),
      fc.string({ unit: fc.constantFrom(...BASE64), minLength: 1, maxLength: 140 }),
      fc.integer({ min: 0, max: 9999 }).map(String),
    );
    const rules = new Set<string>();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        if (expectNeedsCover(text) > 0) for (const s of scanSecretlint(text)) rules.add(s.rule);
      }),
      { numRuns: 3000, seed: 36 },
    );
    // Generated texts that some rule reports in, from several rules.
    expect(rules.size, [...rules].join(' ')).toBeGreaterThanOrEqual(4);
  });

  it('turns away plain prose, and then the preset reports nothing', () => {
    const prose = 'We use exponential backoff with jitter for the retry policy because the API rate-limits bursts.';
    expect(secretlintMayMatch(prose)).toBe(false);
    expect(scanSecretlint(prose)).toEqual([]);
  });
});
