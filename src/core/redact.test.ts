import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIND_SECRETS, SECRET_KINDS, findSecrets, redactSecrets } from './redact.js';
import type { SecretKind } from './redact.js';
import { REPO_ROOT, SHARED } from '../../test/helpers/repo.js';

// Every fake secret is assembled at run time from a seeded generator, so the repository
// never holds a string that a secret scanner (or GitHub push protection) would flag.
function generator(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return (alphabet, length) => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}-_`;
const BASE64 = `${ALNUM}+/`;
const rnd = generator(20261121);
/** Random chars that always contain an upper-case letter, a lower-case letter and a digit. */
const mixed = (alphabet: string, length: number): string => `Q${rnd(alphabet, length - 3)}z7`;

const b64url = (value: string): string => Buffer.from(value).toString('base64url');
const pem = (label: string, bodyLines: number): string =>
  [
    `-----BEGIN ${label}-----`,
    ...Array.from({ length: bodyLines }, () => rnd(BASE64, 64)),
    `${rnd(BASE64, 20)}==`,
    `-----END ${label}-----`,
  ].join('\n');
const jwt = (): string =>
  [b64url('{"alg":"HS256","typ":"JWT"}'), b64url(`{"sub":"${rnd(DIGITS, 10)}","name":"Ada"}`), rnd(URLSAFE, 43)].join('.');

const AWS_ACCESS = 'AKIA' + rnd(UPPER + DIGITS, 16);
const AWS_SECRET = mixed(BASE64, 40);
const GITHUB = 'ghp_' + rnd(ALNUM, 36);
const RSA_KEY = pem('RSA ' + 'PRIVATE KEY', 6);

/** One fake per kind or variant: [label, text around it, the secret, its expected kind]. */
const FAKES: Array<[string, (secret: string) => string, string, SecretKind]> = [
  ['AWS access key id', (s) => `aws key id ${s} for deploys`, AWS_ACCESS, 'aws-access-key'],
  ['AWS temporary key id', (s) => `ASIA creds: ${s}`, 'ASIA' + rnd(UPPER + DIGITS, 16), 'aws-access-key'],
  ['AWS secret after its variable', (s) => `aws_secret_access_key = ${s}`, AWS_SECRET, 'aws-secret-key'],
  ['AWS secret in JSON', (s) => `{"AccessKeyId": "x", "SecretAccessKey": "${s}"}`, mixed(BASE64, 40), 'aws-secret-key'],
  ['AWS secret in prose', (s) => `the AWS secret: ${s}`, mixed(BASE64, 40), 'aws-secret-key'],
  ['GitHub personal token', (s) => `git push with ${s}`, GITHUB, 'github-token'],
  ['GitHub OAuth token', (s) => `(${s})`, 'gho_' + rnd(ALNUM, 36), 'github-token'],
  ['GitHub user-to-server token', (s) => s, 'ghu_' + rnd(ALNUM, 36), 'github-token'],
  ['GitHub server-to-server token', (s) => `token ${s}.`, 'ghs_' + rnd(ALNUM, 36), 'github-token'],
  ['GitHub refresh token', (s) => `'${s}'`, 'ghr_' + rnd(ALNUM, 36), 'github-token'],
  ['GitHub fine-grained token', (s) => `use ${s}`, 'github_pat_' + rnd(ALNUM, 22) + '_' + rnd(ALNUM, 59), 'github-token'],
  ['GitLab token', (s) => `glab auth ${s}`, 'glpat-' + mixed(URLSAFE, 20), 'gitlab-token'],
  ['Slack bot token', (s) => `bot: ${s}`, `xoxb-${rnd(DIGITS, 12)}-${rnd(DIGITS, 13)}-${rnd(ALNUM, 24)}`, 'slack-token'],
  ['Slack user token', (s) => s, `xoxp-${rnd(DIGITS, 12)}-${rnd(DIGITS, 12)}-${rnd(DIGITS, 13)}-${rnd(ALNUM, 32)}`, 'slack-token'],
  ['Slack app token', (s) => s, `xoxa-2-${rnd(DIGITS, 12)}-${rnd(ALNUM, 30)}`, 'slack-token'],
  ['Slack refresh token', (s) => s, `xoxr-${rnd(DIGITS, 12)}-${rnd(ALNUM, 40)}`, 'slack-token'],
  [
    'Slack webhook URL',
    (s) => `curl -X POST ${s} -d '{}'`,
    `https://hooks.slack.com/services/T${rnd(UPPER + DIGITS, 8)}/B${rnd(UPPER + DIGITS, 10)}/${rnd(ALNUM, 24)}`,
    'slack-webhook',
  ],
  ['Stripe live secret key', (s) => `stripe.api_key = ${s}`, 'sk_' + 'live_' + rnd(ALNUM, 24), 'stripe-key'],
  ['Stripe restricted key', (s) => s, 'rk_' + 'live_' + rnd(ALNUM, 99), 'stripe-key'],
  ['Stripe test key', (s) => `use ${s} locally`, 'sk_' + 'test_' + rnd(ALNUM, 24), 'stripe-key'],
  ['OpenAI legacy key', (s) => `openai ${s}`, 'sk-' + mixed(ALNUM, 48), 'openai-api-key'],
  ['OpenAI project key', (s) => `key=${s}`, 'sk-proj-' + mixed(URLSAFE, 156), 'openai-api-key'],
  ['Anthropic key', (s) => `x-api-key: ${s}`, 'sk-ant-api03-' + mixed(URLSAFE, 93) + 'AA', 'anthropic-api-key'],
  ['Google API key', (s) => `?key=${s}&q=1`, 'AIza' + rnd(URLSAFE, 35), 'google-api-key'],
  ['npm token', (s) => `//registry.npmjs.org/:_authToken=${s}`, 'npm_' + rnd(ALNUM, 36), 'npm-token'],
  ['RSA private key block', (s) => `key:\n${s}\nend`, RSA_KEY, 'private-key'],
  ['OpenSSH private key block', (s) => s, pem('OPENSSH ' + 'PRIVATE KEY', 8), 'private-key'],
  ['PKCS#8 private key block', (s) => `\`\`\`\n${s}\n\`\`\``, pem('PRIVATE ' + 'KEY', 4), 'private-key'],
  ['EC private key block', (s) => s, pem('EC ' + 'PRIVATE KEY', 2), 'private-key'],
  ['PGP private key block', (s) => s, pem('PGP ' + 'PRIVATE KEY BLOCK', 10), 'private-key'],
  ['JWT', (s) => `Cookie: session=${s}; Path=/`, jwt(), 'jwt'],
  ['JWT inside a code fence', (s) => `\`\`\`http\nGET /me\nX-Session: ${s}\n\`\`\``, jwt(), 'jwt'],
  ['key inside a code fence', (s) => `\`\`\`sh\naws configure set key ${s}\n\`\`\``, AWS_ACCESS, 'aws-access-key'],
];

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
];

/** Look-alikes: each must come back byte-identical. */
const LOOK_ALIKES: Array<[string, string]> = [
  ['a git commit SHA', 'fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8 and 3f2a9c1'],
  ['a SHA next to the word aws', 'aws deploy at commit 9fceb02d0ae598e95dc970b74767f19372d61af8'],
  ['an upper-case SHA next to the word secret', 'the secret fix landed in 9FCEB02D0AE598E95DC970B74767F19372D61AF8'],
  ['a sha256 digest', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['a UUID', 'session 550e8400-e29b-41d4-a716-446655440000 started'],
  [
    'a base64 image in a code fence',
    '```md\n![logo](data:image/png;base64,' + Buffer.from(rnd(ALNUM, 600)).toString('base64') + ')\n```',
  ],
  ['base64 data lines in a code fence', '```\n' + mimeLines(Buffer.from(rnd(ALNUM, 900)).toString('base64')) + '\n```'],
  ['an npm integrity string', `"integrity": "sha512-${Buffer.from(rnd(ALNUM, 64)).toString('base64')}"`],
  ['a memory id', 'see [[chose-sqlite-over-postgres-k3f9qa]] and wal-mode-for-concurrent-hooks-p2x81d'],
  ['long ordinary words', 'antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis'],
  ['CSS colours', 'color: #ff00aa; background: rgb(12, 34, 56); border-color: #FFF'],
  ['semantic versions', 'vitest ^4.1.12, typescript ~5.9.3, v1.2.3-beta.4+build.5'],
  ['file paths', 'src/core/redact.ts, ./node_modules/.bin/tsc, C:\\Users\\ada\\secrets\\notes.txt'],
  ['a kebab slug starting with sk-', 'sk-learn-style-pipeline-for-tokenizing-words'],
  ['a placeholder token', 'ghp_' + 'x'.repeat(36)],
  ['a URL without userinfo', 'postgres://localhost:5432/app and https://example.com:8080/a@b'],
  ['a URL with a variable for its password', 'postgres://app:${DB_PASSWORD}@db/app'],
  ['an scp-style git remote', 'git@github.com:org/repo.git and ssh://git@github.com:22/org/repo'],
  ['a PEM header mentioned in prose', 'files starting with -----BEGIN OPENSSH ' + 'PRIVATE KEY----- are refused'],
  ['a PEM header and footer around an ellipsis', '-----BEGIN ' + 'PRIVATE KEY-----\n...\n-----END ' + 'PRIVATE KEY-----'],
  ['a two-segment base64url string', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0'],
  ['placeholder assignments', 'API_TOKEN=<your-token>\nPASSWORD=changeme\nSECRET=xxx\nTOKEN=${GITHUB_TOKEN}'],
  ['template assignments', 'GITHUB_TOKEN="ghp_${rest}"\ndb_password: "{{ vault.db_password }}"'],
  ['assignments from the environment', 'const apiKey = process.env.API_KEY;\ntoken = os.environ["TOKEN"]'],
  ['empty assignments', 'PASSWORD=\nSECRET=""\nexport TOKEN='],
  ['type annotations', 'password: string;\ntoken?: Token | undefined;\napiKey: options.apiKey,'],
  ['word and number values', 'max_tokens: 4096\ntokenizer: bert-base-uncased\nauth: required\nAUTH_MODE=oauth2'],
  ['a CamelCase value', 'SECRET_BACKEND=HashiCorpVault'],
  ['an author field', 'author: Ada Lovelace\nAUTHOR=ada-lovelace-1815'],
  ['a comparison', 'if (token == "abc123XYZ789") return'],
  ['a call', 'const token = getToken(user);\nsecret = load_secret("db")'],
  ['keywords in prose', 'Rotated the API token after the leak; the password policy needs 12 chars.'],
  ['the example memory file', readmeMemory()],
];

/** Base64 wrapped at 76 chars, as MIME and `base64` print it. */
function mimeLines(data: string): string {
  return (data.match(/.{1,76}/g) ?? []).join('\n');
}

function readmeMemory(): string {
  return [
    '---',
    'id: chose-sqlite-over-postgres-k3f9qa',
    'type: decision',
    'summary: Chose SQLite over PostgreSQL because zero-config matters most',
    'confidence: 0.95',
    'tags: [storage, sqlite, auth]',
    'created: 2026-11-21T10:00:00Z',
    'source:',
    '  session: 4b2c8e1a',
    '  commit: 3f2a9c1',
    '  files: [src/db.ts]',
    '---',
    'We need a store that works with no server. See [[wal-mode-for-concurrent-hooks-p2x81d]].',
    '',
  ].join('\n');
}

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

  it('returns base64 data in a code fence unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 48, maxLength: 2000 }), fc.boolean(), (bytes, wrapLines) => {
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
  });
});

describe('SECRET_KINDS', () => {
  it('lists every kind a fake in the table produces, each once', () => {
    expect(new Set(SECRET_KINDS).size).toBe(SECRET_KINDS.length);
    const produced = new Set([...FAKES.map(([, , , kind]) => kind), 'env-assignment', 'url-password']);
    expect([...produced].sort()).toEqual([...SECRET_KINDS].sort());
  });
});

describe('DEFAULT_FIND_SECRETS', () => {
  it('looks for every kind and allows nothing', () => {
    expect(DEFAULT_FIND_SECRETS).toEqual({ kinds: SECRET_KINDS, allow: [] });
  });
});
