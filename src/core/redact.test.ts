import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIND_SECRETS, DOCUMENTED_EXAMPLE_KEYS, SECRET_KINDS, findSecrets, redactDeep, redactSecrets, stringsOf } from './redact.js';
import type { SecretKind } from './redact.js';
import { REPO_ROOT, SHARED } from '../../test/helpers/repo.js';

// Every fake secret is assembled at run time from a seeded generator, so the repository
// never holds a string that a secret scanner (or GitHub push protection) would flag.
import {
  ALNUM,
  AWS_ACCESS,
  AWS_SECRET,
  BASE64,
  DIGITS,
  FAKES,
  VENDOR_CASES,
  GITHUB,
  LOOK_ALIKES,
  RSA_KEY,
  UPPER,
  URLSAFE,
  jwt,
  mimeLines,
  mixed,
  rnd,
} from '../../test/helpers/secrets-corpus.js';

describe('findSecrets', () => {
  it.each(FAKES)('finds the %s with its kind', (_label, wrap, secret, kind) => {
    const text = wrap(secret);
    const findings = findSecrets(text);
    expect(findings.map((f) => f.kind)).toEqual([kind]);
    const [finding] = findings;
    expect(text.slice(finding!.start, finding!.end)).toBe(secret);
  });

  it('finds a JSON-escaped private key in a transcript line, from header to footer', () => {
    const escaped = JSON.stringify({ content: `here:\n${RSA_KEY}\nok` });
    const [finding, ...rest] = findSecrets(escaped);
    expect(rest).toEqual([]);
    expect(escaped.slice(finding!.start, finding!.end)).toBe(JSON.stringify(RSA_KEY).slice(1, -1));
  });

  it('finds a truncated private key (no footer) and takes its body lines', () => {
    const header = '-----BEGIN ' + 'RSA PRIVATE KEY-----';
    const body = [rnd(BASE64, 64), rnd(BASE64, 64), rnd(BASE64, 30)].join('\n');
    const text = `$ head -4 id_rsa\n${header}\n${body}\n$ echo done`;
    const [finding] = findSecrets(text);
    expect(text.slice(finding!.start, finding!.end)).toBe(`${header}\n${body}`);
  });

  it('reports 1-based line and column of each finding', () => {
    const text = `first line\n  ${GITHUB}\n\nthird ${AWS_ACCESS}`;
    expect(findSecrets(text).map(({ kind, line, column }) => ({ kind, line, column }))).toEqual([
      { kind: 'github-token', line: 2, column: 3 },
      { kind: 'aws-access-key', line: 4, column: 7 },
    ]);
  });

  it('names the more specific kind when an assignment holds a recognised token', () => {
    expect(findSecrets(`GITHUB_TOKEN=${GITHUB}`).map((f) => f.kind)).toEqual(['github-token']);
    expect(findSecrets(`AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`).map((f) => f.kind)).toEqual(['aws-secret-key']);
    expect(findSecrets(`https://bot:${GITHUB}@github.com/o/r`).map((f) => f.kind)).toEqual(['github-token']);
  });

  it('finds an AWS secret however densely keywords precede it', () => {
    const noise = fc.array(fc.constantFrom('aws', 'secret', ' ', 'x', '=', '\n', 'AWS_'), { maxLength: 120 });
    fc.assert(
      fc.property(noise, (parts) => {
        const text = `${parts.join('')} aws_secret_access_key=${AWS_SECRET}`;
        const found = findSecrets(text).filter((f) => f.kind === 'aws-secret-key');
        expect(found.map((f) => text.slice(f.start, f.end))).toEqual([AWS_SECRET]);
      }),
      { numRuns: 500 },
    );
  });

  it('looks only for the kinds it is given', () => {
    const text = `${AWS_ACCESS} ${GITHUB}`;
    expect(findSecrets(text, { kinds: ['github-token'] }).map((f) => f.kind)).toEqual(['github-token']);
    expect(findSecrets(text, { kinds: [] })).toEqual([]);
  });

  it('skips values on the allowlist', () => {
    const text = `${AWS_ACCESS} ${GITHUB}`;
    expect(findSecrets(text, { allow: [AWS_ACCESS] }).map((f) => f.kind)).toEqual(['github-token']);
  });

  it('returns sorted, disjoint findings that agree with a naive line count', () => {
    fc.assert(
      fc.property(soup(), (text) => {
        const findings = findSecrets(text);
        let previousEnd = 0;
        for (const f of findings) {
          expect(f.start).toBeGreaterThanOrEqual(previousEnd);
          expect(f.end).toBeGreaterThan(f.start);
          const before = text.slice(0, f.start);
          expect(f.line).toBe(before.split('\n').length);
          expect(f.column).toBe(f.start - before.lastIndexOf('\n'));
          previousEnd = f.end;
        }
      }),
    );
  });
});

/** Assignment forms: [input, expected output]. Only the value goes; the key stays. */
const ENV_SECRET = mixed(ALNUM + '!#%+', 24);
const ASSIGNMENTS: Array<[string, string]> = [
  [`API_TOKEN=${ENV_SECRET}`, 'API_TOKEN=[REDACTED:env-assignment]'],
  [`DB_PASSWORD: ${ENV_SECRET}`, 'DB_PASSWORD: [REDACTED:env-assignment]'],
  [`export CLIENT_SECRET="${ENV_SECRET}"`, 'export CLIENT_SECRET="[REDACTED:env-assignment]"'],
  [`  apiKey = '${ENV_SECRET}';`, "  apiKey = '[REDACTED:env-assignment]';"],
  [`{"password":"${ENV_SECRET}","user":"ada"}`, '{"password":"[REDACTED:env-assignment]","user":"ada"}'],
  [`Authorization: Bearer ${ENV_SECRET}`, 'Authorization: Bearer [REDACTED:env-assignment]'],
  [`mysql --password=${ENV_SECRET} db`, 'mysql --password=[REDACTED:env-assignment] db'],
  [`GET /cb?access_token=${ENV_SECRET}&state=1`, 'GET /cb?access_token=[REDACTED:env-assignment]&state=1'],
  [`private_key := "${ENV_SECRET}"`, 'private_key := "[REDACTED:env-assignment]"'],
  [`AUTH_KEY=${ENV_SECRET}.`, 'AUTH_KEY=[REDACTED:env-assignment].'],
  [`passwd => ${ENV_SECRET}`, 'passwd => [REDACTED:env-assignment]'],
  [`ACCESS_KEY=${ENV_SECRET}`, 'ACCESS_KEY=[REDACTED:env-assignment]'],
  [`Secret_Key = ${ENV_SECRET}`, 'Secret_Key = [REDACTED:env-assignment]'],
  [`PASSWORD=correcthorsebatterystaple`, 'PASSWORD=[REDACTED:env-assignment]'],
  [
    JSON.stringify({ text: `cat .env\nAPI_KEY=${ENV_SECRET}\nDEBUG=1` }),
    JSON.stringify({ text: 'cat .env\nAPI_KEY=[REDACTED:env-assignment]\nDEBUG=1' }),
  ],
  [
    JSON.stringify({ cmd: `curl -H "X-Auth-Token: ${ENV_SECRET}"` }),
    JSON.stringify({ cmd: 'curl -H "X-Auth-Token: [REDACTED:env-assignment]"' }),
  ],
];

/** Passwords in URLs: the user and the host stay. */
const URL_PASSWORD = mixed(ALNUM, 16);
const URLS: Array<[string, string]> = [
  [`postgres://app:${URL_PASSWORD}@db.internal:5432/app`, 'postgres://app:[REDACTED:url-password]@db.internal:5432/app'],
  [`mongodb+srv://ada:${URL_PASSWORD}@cluster0.x.net/`, 'mongodb+srv://ada:[REDACTED:url-password]@cluster0.x.net/'],
  [`see https://deploy:${URL_PASSWORD}@example.com.`, 'see https://deploy:[REDACTED:url-password]@example.com.'],
  [`redis://default:p4ss@localhost`, 'redis://default:[REDACTED:url-password]@localhost'],
  [`redis://:${URL_PASSWORD}@cache:6379/0`, 'redis://:[REDACTED:url-password]@cache:6379/0'],
  [`amqp://app:ab#${URL_PASSWORD}@mq/vhost`, 'amqp://app:[REDACTED:url-password]@mq/vhost'],
];

/** Text made of fragments that stress boundaries: secrets, keys, separators, quotes. */
function soup(): fc.Arbitrary<string> {
  const fragments = [
    ...FAKES.map(([, , secret]) => secret),
    ENV_SECRET,
    URL_PASSWORD,
    ...LOOK_ALIKES.slice(0, 12).map(([, text]) => text),
    'TOKEN', 'api_key', 'password', 'Authorization', 'author', 'aws', 'secret', 'Bearer ', 'export ',
    '=', ': ', ':', '"', "'", '`', '\\"', '\\n', '\n', ' ', ',', ';', '&', '.', '-', '_', '/', '@', '://', '[', ']',
    'postgres://u:', '-----BEGIN ' + 'RSA PRIVATE KEY-----\n', '\n-----END ' + 'RSA PRIVATE KEY-----',
    '[REDACTED:env-assignment]', 'changeme', 'abc', 'Zz9', 'x-access-token', '"SecretAccessKey": "',
    '\\"password\\": \\"', 'Basic ', 'https://', 'hooks.slack.com/services/', 'eyJ', 'sk-', 'ghp_', 'AKIA',
    '+', ' = ', '==', '----', mixed(BASE64, 40), rnd(BASE64, 24), rnd(DIGITS, 8),
  ];
  return fc
    .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 6 })), { maxLength: 24 })
    .map((parts) => parts.join(''));
}

describe('redactSecrets', () => {
  it.each(FAKES)('replaces the %s with its marker', (_label, wrap, secret, kind) => {
    const text = wrap(secret);
    const result = redactSecrets(text);
    expect(result.text).toBe(text.replace(secret, `[REDACTED:${kind}]`));
  });

  it.each(ASSIGNMENTS)('keeps the key and redacts the value of %j', (input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it.each(URLS)('keeps user and host and redacts the password of %j', (input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it.each(LOOK_ALIKES)('leaves %s byte-identical', (_label, text) => {
    const result = redactSecrets(text);
    expect(result.findings).toEqual([]);
    expect(result.text).toBe(text);
  });

  it('redacts a whole multi-line private key block and nothing around it', () => {
    expect(redactSecrets(`before\n${RSA_KEY}\nafter`).text).toBe('before\n[REDACTED:private-key]\nafter');
  });

  it('redacts secrets inside code fences but not the base64 image beside them', () => {
    const image = 'data:image/png;base64,' + Buffer.from(rnd(ALNUM, 300)).toString('base64');
    const text = `\`\`\`js\nconst img = "${image}";\nconst key = "${GITHUB}";\n\`\`\``;
    expect(redactSecrets(text).text).toBe(`\`\`\`js\nconst img = "${image}";\nconst key = "[REDACTED:github-token]";\n\`\`\``);
  });

  it('reports findings with offsets into the input', () => {
    const text = `a ${AWS_ACCESS} b`;
    const { findings } = redactSecrets(text);
    expect(findings).toEqual([{ kind: 'aws-access-key', start: 2, end: 22, line: 1, column: 3 }]);
  });

  it('is idempotent on the fixed tables', () => {
    const inputs = [...FAKES.map(([, wrap, secret]) => wrap(secret)), ...ASSIGNMENTS, ...URLS].map((x) =>
      typeof x === 'string' ? x : x[0],
    );
    for (const text of inputs) {
      const once = redactSecrets(text).text;
      expect(redactSecrets(once)).toEqual({ text: once, findings: [] });
    }
  });

  // Each of these once redacted differently on a second pass: a secret glued to PEM armour,
  // a token glued to a webhook, a marker read as a URL host, nested headers, a keyword
  // inside another finding.
  const WEBHOOK = FAKES.find(([label]) => label === 'Slack webhook URL')![2];
  it.each([
    ['a key block glued to a JWT', `${RSA_KEY}${jwt()}`],
    ['a token glued to a key block', `${GITHUB}${RSA_KEY}`],
    ['a key id glued to a webhook', `${AWS_ACCESS}${WEBHOOK}`],
    ['a URL whose host is a key block', `postgres://u:$%@${RSA_KEY}`],
    ['a header inside a block', `-----BEGIN ${'RSA PRIVATE KEY'}-----\n${RSA_KEY}/${AWS_ACCESS}\n-----END ${'RSA PRIVATE KEY'}-----`],
    ['a keyword inside a webhook path', `${WEBHOOK}x-access-token=api_key=0${AWS_ACCESS}`],
  ])('is idempotent on %s', (_label, text) => {
    const once = redactSecrets(text).text;
    expect(once).not.toBe(text);
    expect(redactSecrets(once).findings).toEqual([]);
  });

  it('is idempotent on any mixture of secrets, keys and separators', () => {
    fc.assert(
      fc.property(soup(), (text) => {
        const once = redactSecrets(text).text;
        expect(redactSecrets(once).text).toBe(once);
      }),
      { numRuns: Number(process.env.SOUP_RUNS ?? 2000) },
    );
  });

  it('returns text of lower-case words unchanged', () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,24}$/), { maxLength: 40 });
    const separators = fc.array(fc.constantFrom(' ', '\n', ', ', '. ', '-', '/', '_'), { minLength: 40, maxLength: 40 });
    fc.assert(
      fc.property(words, separators, (ws, seps) => {
        const text = ws.map((w, i) => w + seps[i]).join('');
        expect(redactSecrets(text)).toEqual({ text, findings: [] });
      }),
    );
  });

  // One lone line of base64 is as likely a credential as data, and is redacted as a
  // high-entropy token; a block of several lines, or a data URI, is data.
  it('returns base64 data in a code fence unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 120, maxLength: 2000 }), fc.boolean(), (bytes, wrapLines) => {
        const data = Buffer.from(bytes).toString('base64');
        const body = wrapLines ? mimeLines(data) : `![](data:image/png;base64,${data})`;
        const text = `\`\`\`\n${body}\n\`\`\``;
        expect(redactSecrets(text).text).toBe(text);
      }),
    );
  });

  it('never lets a generated secret through, and names its kind', () => {
    const chars = (alphabet: string, length: number): fc.Arbitrary<string> =>
      fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length });
    const random = (s: string): boolean => new Set(s).size >= 10 && /[A-Z]/.test(s) && /[a-z]/.test(s) && /\d/.test(s);
    const as = (kind: SecretKind, prefix: string) => (s: string): [string, SecretKind] => [prefix + s, kind];
    const secrets = fc.oneof(
      chars(UPPER + DIGITS, 16).filter((s) => new Set(s).size >= 8).map(as('aws-access-key', 'AKIA')),
      chars(ALNUM, 36).filter(random).map(as('github-token', 'ghp_')),
      chars(ALNUM, 36).filter(random).map(as('npm-token', 'npm_')),
      chars(URLSAFE, 35).filter(random).map(as('google-api-key', 'AIza')),
      chars(ALNUM, 48).filter(random).map(as('openai-api-key', 'sk-')),
      chars(URLSAFE, 95).filter(random).map(as('anthropic-api-key', 'sk-ant-api03-')),
      chars(ALNUM, 24).filter(random).map(as('stripe-key', 'sk_' + 'live_')),
    );
    const word = fc.stringMatching(/^[a-z]{0,12}$/);
    fc.assert(
      fc.property(word, secrets, word, (before, [secret, kind], after) => {
        const text = `${before} ${secret} ${after}`;
        const result = redactSecrets(text);
        expect(result.text).not.toContain(secret);
        expect(result.text).toBe(`${before} [REDACTED:${kind}] ${after}`);
      }),
    );
  });

  it('never lets a generated assignment value through', () => {
    const key = fc.constantFrom('API_TOKEN', 'DB_PASSWORD', 'client_secret', 'apiKey', 'AUTH', 'STRIPE_PRIVATE_KEY');
    const value = fc
      .string({ unit: fc.constantFrom(...ALNUM, '!', '#', '%', '+', '@'), minLength: 12, maxLength: 64 })
      .filter((v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && new Set(v).size >= 8)
      .filter((v) => !/your|example|placeholder|dummy|sample|redacted|change_?-?me|token|secret|passw|api_?key/i.test(v));
    const form = fc.constantFrom(
      (k: string, v: string) => `${k}=${v}`,
      (k: string, v: string) => `export ${k}="${v}"`,
      (k: string, v: string) => `${k}: ${v}`,
    );
    fc.assert(
      fc.property(key, value, form, (k, v, render) => {
        const result = redactSecrets(render(k, v));
        expect(result.text).not.toContain(v);
        expect(result.text).toBe(render(k, '[REDACTED:env-assignment]'));
      }),
    );
  });

  // The repository's own transcripts always; the shared real sessions when they are beside
  // the checkout (found as the other tests find them: CORTEX_SHARED, ../shared, ../../shared).
  const fixtures = join(REPO_ROOT, 'test', 'fixtures', 'transcripts');
  const transcripts = [
    ...readdirSync(fixtures).map((d) => join(fixtures, d, 'transcript.jsonl')).filter((p) => existsSync(p)),
    ...(existsSync(join(SHARED, 'transcripts')) ? readdirSync(join(SHARED, 'transcripts')).filter((f) => f.endsWith('.jsonl')).map((f) => join(SHARED, 'transcripts', f)) : []),
  ];
  it('is idempotent on real transcripts', () => {
    expect(transcripts.length).toBeGreaterThan(0);
    for (const path of transcripts) {
      const once = redactSecrets(readFileSync(path, 'utf8')).text;
      expect(redactSecrets(once).findings, path).toEqual([]);
    }
  }, 240_000);
});

describe('SECRET_KINDS', () => {
  it('lists every kind a fake in the table produces, each once', () => {
    expect(new Set(SECRET_KINDS).size).toBe(SECRET_KINDS.length);
    // `secret`: what secretlint's preset finds under a name Cortex has no rule of its own for.
    const produced = new Set([...FAKES.map(([, , , kind]) => kind), ...VENDOR_CASES.map(([rule]) => rule), 'env-assignment', 'url-password', 'secret']);
    expect([...produced].sort()).toEqual([...SECRET_KINDS].sort());
  });
});

describe('DEFAULT_FIND_SECRETS', () => {
  it('looks for every kind and allows only the documented example keys', () => {
    expect(DEFAULT_FIND_SECRETS).toEqual({ kinds: SECRET_KINDS, allow: DOCUMENTED_EXAMPLE_KEYS, preset: true });
  });
});

describe('DOCUMENTED_EXAMPLE_KEYS', () => {
  it('are keys the rules would otherwise flag, and pass only by the allow-list', () => {
    for (const key of DOCUMENTED_EXAMPLE_KEYS) {
      const text = `from the AWS docs, secret: ${key} .`;
      expect(findSecrets(text, { allow: [] }).length).toBeGreaterThan(0);
      expect(findSecrets(text)).toEqual([]);
    }
  });
});

describe('redactDeep', () => {
  it('redacts strings, keys and nested values, and skips only the strings named clean', () => {
    const [, wrap, secret] = FAKES[0]!;
    const said = wrap(secret);
    const value = { commands: [said, 'npm test'], nested: { [said]: { note: said } } };
    const all = redactDeep(value);
    expect(JSON.stringify(all.value)).not.toContain(secret);
    expect(all.kinds.length).toBeGreaterThan(0);
    // A clean set holding other strings changes nothing; one holding the string spares it.
    expect(redactDeep(value, {}, new Set(['npm test', 'commands'])).value).toEqual(all.value);
    expect(JSON.stringify(redactDeep(value, {}, new Set([said])).value)).toContain(secret);
  });

  it('returns its input when every string is clean, and stringsOf names every string and key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const strings = stringsOf(value);
        expect(redactDeep(value, {}, strings).value).toBe(value);
        for (const s of strings) expect(JSON.stringify(value)).toContain(JSON.stringify(s).slice(1, -1));
      }),
      { numRuns: 200 },
    );
    expect([...stringsOf({ a: ['x', { b: 'y' }], n: 1 })].sort()).toEqual(['a', 'b', 'n', 'x', 'y']);
  });
});
