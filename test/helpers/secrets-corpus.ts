/**
 * The secrets corpus: fake credentials of every kind the redaction gate names, and
 * look-alikes that must pass through untouched. Every fake is assembled at run time from
 * a seeded generator and split prefixes, so the repository never holds a string that a
 * secret scanner (GitHub push protection, our own pre-commit hook) would flag.
 *
 * Used by the gate's unit tests (src/core/redact.test.ts) and by the write-path test
 * (test/security-secrets.test.ts), which pushes the same corpus through every writer.
 */
import type { SecretKind } from '../../src/core/redact.js';

/** A deterministic generator of random strings over an alphabet (mulberry32). */
export function generator(seed: number): (alphabet: string, length: number) => string {
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

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const HEX = '0123456789abcdef';
export const ALNUM = UPPER + LOWER + DIGITS;
export const URLSAFE = `${ALNUM}-_`;
export const BASE64 = `${ALNUM}+/`;
export const rnd = generator(20261121);
/** Random chars that always contain an upper-case letter, a lower-case letter and a digit. */
export const mixed = (alphabet: string, length: number): string => `Q${rnd(alphabet, length - 3)}z7`;

export const b64url = (value: string): string => Buffer.from(value).toString('base64url');
export const pem = (label: string, bodyLines: number): string =>
  [
    `-----BEGIN ${label}-----`,
    ...Array.from({ length: bodyLines }, () => rnd(BASE64, 64)),
    `${rnd(BASE64, 20)}==`,
    `-----END ${label}-----`,
  ].join('\n');
export const jwt = (): string =>
  [b64url('{"alg":"HS256","typ":"JWT"}'), b64url(`{"sub":"${rnd(DIGITS, 10)}","name":"Ada"}`), rnd(URLSAFE, 43)].join('.');

export const AWS_ACCESS = 'AKIA' + rnd(UPPER + DIGITS, 16);
export const AWS_SECRET = mixed(BASE64, 40);
export const GITHUB = 'ghp_' + rnd(ALNUM, 36);
export const RSA_KEY = pem('RSA ' + 'PRIVATE KEY', 6);

/** One fake: a label, the text around it, the secret itself, the kind the gate names it. */
export type Fake = [label: string, wrap: (secret: string) => string, secret: string, kind: SecretKind];

/** One fake per kind or variant. `text.slice(finding)` is exactly the secret for each. */
export const FAKES: Fake[] = [
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
  ['Stripe webhook signing secret', (s) => `endpoint secret ${s}`, 'whsec' + '_' + rnd(ALNUM, 32), 'stripe-webhook-secret'],
  ['OpenAI legacy key', (s) => `openai ${s}`, 'sk-' + mixed(ALNUM, 48), 'openai-api-key'],
  ['OpenAI project key', (s) => `key=${s}`, 'sk-proj-' + mixed(URLSAFE, 156), 'openai-api-key'],
  ['Anthropic key', (s) => `x-api-key: ${s}`, 'sk-ant-api03-' + mixed(URLSAFE, 93) + 'AA', 'anthropic-api-key'],
  ['Google API key', (s) => `?key=${s}&q=1`, 'AIza' + rnd(URLSAFE, 35), 'google-api-key'],
  ['Google OAuth client secret', (s) => `client secret is ${s}`, 'GOCSPX' + '-' + mixed(URLSAFE, 28), 'google-oauth-secret'],
  [
    'Azure storage account key',
    (s) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net`,
    rnd(BASE64, 86) + '==',
    'azure-storage-key',
  ],
  [
    'Azure shared access signature',
    (s) => `https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2026-01-01T00:00:00Z&sig=${s}`,
    rnd(ALNUM, 43) + '%3D',
    'azure-sas-signature',
  ],
  ['Twilio API key', (s) => `twilio key ${s}`, 'SK' + rnd(HEX, 32), 'twilio-api-key'],
  ['SendGrid API key', (s) => `SENDGRID ${s}`, 'SG' + '.' + rnd(URLSAFE, 22) + '.' + rnd(URLSAFE, 43), 'sendgrid-api-key'],
  ['Mailgun API key', (s) => `mailgun: ${s}`, 'key' + '-' + rnd(HEX, 32), 'mailgun-api-key'],
  ['Mailgun private key', (s) => `MG ${s}`, `${rnd(HEX, 32)}-${rnd(HEX, 8)}-${rnd(HEX, 8)}`, 'mailgun-api-key'],
  ['Hugging Face token', (s) => `huggingface-cli login --token ${s}`, 'hf' + '_' + 'Q' + rnd(UPPER + LOWER, 32) + 'z', 'huggingface-token'],
  ['DigitalOcean token', (s) => `doctl auth init -t ${s}`, 'dop' + '_v1_' + rnd(HEX, 64), 'digitalocean-token'],
  ['Shopify access token', (s) => `X-Shopify-Access-Token ${s}`, 'shpat' + '_' + rnd(HEX, 32), 'shopify-token'],
  ['PyPI upload token', (s) => `twine upload -p ${s}`, 'pypi' + '-AgEIcHlwaS5vcmc' + rnd(URLSAFE, 70), 'pypi-token'],
  ['Discord bot token', (s) => `DISCORD ${s}`, 'M' + rnd(ALNUM, 23) + '.' + rnd(URLSAFE, 6) + '.' + mixed(URLSAFE, 27), 'discord-token'],
  [
    'Discord webhook URL',
    (s) => `post to ${s}`,
    `https://discord.com/api/webhooks/${rnd(DIGITS, 18)}/${rnd(URLSAFE, 68)}`,
    'discord-webhook',
  ],
  ['npm token', (s) => `//registry.npmjs.org/:_authToken=${s}`, 'npm_' + rnd(ALNUM, 36), 'npm-token'],
  ['Docker config auth', (s) => `{"auths":{"ghcr.io":{"auth":"${s}"}}}`, Buffer.from(`ada:${mixed(ALNUM, 20)}`).toString('base64'), 'docker-auth'],
  ['Linear API key', (s) => `linear ${s}`, 'lin' + '_api_' + rnd(ALNUM, 40), 'secret'],
  ['sshpass password', (s) => `sshpass -p ${s} ssh deploy@web1`, mixed(ALNUM, 14), 'cli-password'],
  ['mysql password', (s) => `mysql -u root -p${s} app < dump.sql`, mixed(ALNUM, 12), 'cli-password'],
  ['curl basic credentials', (s) => `curl -u admin:${s} https://ci.internal/api`, mixed(ALNUM, 16), 'cli-password'],
  ['docker login password', (s) => `docker login --password ${s} ghcr.io`, mixed(ALNUM, 18), 'cli-password'],
  ['unlabelled high-entropy token', (s) => `the value is ${s} for now`, mixed(ALNUM, 40), 'high-entropy'],
  ['RSA private key block', (s) => `key:\n${s}\nend`, RSA_KEY, 'private-key'],
  ['OpenSSH private key block', (s) => s, pem('OPENSSH ' + 'PRIVATE KEY', 8), 'private-key'],
  ['PKCS#8 private key block', (s) => `\`\`\`\n${s}\n\`\`\``, pem('PRIVATE ' + 'KEY', 4), 'private-key'],
  ['EC private key block', (s) => s, pem('EC ' + 'PRIVATE KEY', 2), 'private-key'],
  ['PGP private key block', (s) => s, pem('PGP ' + 'PRIVATE KEY BLOCK', 10), 'private-key'],
  ['JWT', (s) => `Cookie: session=${s}; Path=/`, jwt(), 'jwt'],
  ['JWT inside a code fence', (s) => `\`\`\`http\nGET /me\nX-Session: ${s}\n\`\`\``, jwt(), 'jwt'],
  ['key inside a code fence', (s) => `\`\`\`sh\naws configure set key ${s}\n\`\`\``, AWS_ACCESS, 'aws-access-key'],
];

/** Base64 wrapped at 76 chars, as MIME and `base64` print it. */
export function mimeLines(data: string): string {
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

/** Look-alikes: each must come back byte-identical. */
export const LOOK_ALIKES: Array<[label: string, text: string]> = [
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
  ['an auth method name', 'auth_method=oauth2_pkce_flow'],
  ['a Google Docs link', `https://docs.google.com/document/d/${mixed(URLSAFE, 44)}/edit`],
  ['a long camelCase identifier', 'useCallbackWithDependencyTrackingForComponents2 and MAX_RETRIES_BEFORE_GIVING_UP_2'],
  ['a deep file path', 'node_modules/@huggingface/transformers/dist/ortWasmSimdThreaded/jsepLoader2/index.js'],
  ['a mysql prompt for the password', 'mysql -u root -p app and mysqldump -p --all-databases'],
  ['command-line passwords from variables', 'sshpass -p "$SSHPASS" ssh web1; curl -u "$USER:$TOKEN" https://x; docker login --password-stdin'],
  ['an Azure SAS URL without a signature', 'https://acme.blob.core.windows.net/c?sv=2022-11-02&sp=r&se=2026-01-01'],
  ['an Azure connection string with a placeholder', 'AccountName=acme;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net'],
  ['a Docker auth placeholder', '{"auths": {"ghcr.io": {"auth": "<base64 of user:token>"}}}'],
  ['the documented AWS example key', 'aws_access_key_id = ' + 'AKIA' + 'IOSFODNN7EXAMPLE'],
  ['a Twilio account SID', 'account AC' + 'b'.repeat(4) + '0123456789abcdef0123456789ab'],
  ['a semver range list', 'peerDependencies: react@^18.2.0 || ^19.0.0, node>=20.19.0'],
  ['a hex colour palette', '#1f2937 #111827 #f9fafb #e5e7eb #3b82f6 #2563eb'],
];
