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
  ['Linear API key', (s) => `linear ${s}`, 'lin' + '_api_' + rnd(ALNUM, 40), 'linear-api-key'],
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

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
const LHEX = HEX;
const uuid = (): string => `${rnd(LHEX, 8)}-${rnd(LHEX, 4)}-4${rnd(LHEX, 3)}-a${rnd(LHEX, 3)}-${rnd(LHEX, 12)}`;
const lowerAlnum = (n: number): string => `q${rnd(LOWER + DIGITS, n - 2)}7`;

/**
 * One fake per vendor rule of src/core/redact-rules.ts (and the named kinds of issue 36),
 * each with a negative: text of the same family that must not be redacted.
 * `[rule, wrap, secret, negative]`.
 */
export const VENDOR_CASES: Array<[rule: string, wrap: (secret: string) => string, secret: string, negative: string]> = [
  ['1password-secret-key', (s) => `1P secret key ${s}`, `A3-${rnd(UPPER + DIGITS, 6)}-${rnd(UPPER + DIGITS, 11)}-${rnd(UPPER + DIGITS, 5)}-${rnd(UPPER + DIGITS, 5)}-${rnd(UPPER + DIGITS, 5)}`, 'paper size A3-LANDSCAPE-PORTRAIT'],
  ['1password-service-account-token', (s) => `OP_SERVICE_ACCOUNT ${s}`, 'ops_' + 'eyJ' + mixed(BASE64, 260), 'the ops_eyJ prefix marks 1Password service tokens'],
  ['adobe-client-secret', (s) => `adobe ${s}`, 'p8e' + '-' + mixed(ALNUM, 32), 'the p8e-series sensor'],
  ['age-secret-key', (s) => `# created: 2026\n${s}`, 'AGE-SECRET' + '-KEY-1' + rnd('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58), 'age recipient age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p (public)'],
  ['airtable-personal-access-token', (s) => `AIRTABLE ${s}`, 'pat' + rnd(ALNUM, 14) + '.' + rnd(LHEX, 64), 'pattern.matches and patch.apply'],
  ['alibaba-access-key-id', (s) => `aliyun id ${s}`, 'LTAI' + mixed(ALNUM, 20), 'LTAIL is not a prefix of anything'],
  ['artifactory-api-key', (s) => `X-JFrog-Art-Api: ${s}`, 'AKCp' + mixed(ALNUM, 69), 'AKCp prefix is Artifactory'],
  ['artifactory-reference-token', (s) => `jfrog ref ${s}`, 'cmVmd' + mixed(ALNUM, 59), 'base64 "ref" starts with cmVmd'],
  ['atlassian-api-token', (s) => `jira token ${s}`, 'ATATT3' + mixed(URLSAFE, 186), 'ATATT3 is the prefix of Atlassian tokens'],
  ['bitbucket-app-password', (s) => `bitbucket app password ${s}`, 'ATBB' + mixed(ALNUM, 32), 'ATBB prefix'],
  ['authress-service-client-access-key', (s) => `authress ${s}`, `sc_${rnd(LOWER, 10)}.${rnd(LOWER, 5)}.acc_${rnd(LOWER + DIGITS, 16)}.${rnd(BASE64, 60)}`, 'sc_one.two.acc'],
  ['aws-bedrock-api-key', (s) => `bedrock ${s}`, 'ABSK' + mixed(BASE64, 120), 'ABSK is a prefix'],
  ['azure-ad-client-secret', (s) => `client_credential ${s}`, `${rnd(ALNUM, 3)}8Q~${mixed(URLSAFE, 34)}`, 'emoticon 8Q~ and Q~ alone'],
  ['azure-devops-pat', (s) => `PAT ${s}`, rnd(ALNUM, 76) + 'AZDO' + rnd(ALNUM, 4), 'AZDO is Azure DevOps'],
  ['braintree-access-token', (s) => `gateway ${s}`, `access_token$production$${rnd(LOWER + DIGITS, 16)}$${rnd(LHEX, 32)}`, 'access_token$production$merchant'],
  ['clickhouse-cloud-api-secret-key', (s) => `clickhouse ${s}`, '4b1d' + mixed(ALNUM, 38), '4b1d is a hex word'],
  ['clojars-api-token', (s) => `deploy ${s}`, 'CLOJARS_' + lowerAlnum(60), 'CLOJARS_USERNAME=ada'],
  ['cloudflare-origin-ca-key', (s) => `origin ca ${s}`, `v1.0-${rnd(LHEX, 24)}-${rnd(LHEX, 146)}`, 'version v1.0-beta'],
  ['databricks-api-token', (s) => `DATABRICKS_HOST=x ${s}`, 'dapi' + rnd(LHEX, 32), 'the dapi folder'],
  ['defined-networking-api-token', (s) => `dn ${s}`, `dnkey-${rnd(URLSAFE, 26)}-${rnd(URLSAFE, 52)}`, 'dnkey-short'],
  ['doppler-token', (s) => `DOPPLER_TOKEN ${s}`, 'dp.' + 'pt.' + mixed(ALNUM, 43), 'dp.pt.short and dp.something'],
  ['duffel-api-token', (s) => `duffel ${s}`, 'duffel_' + 'live_' + mixed(URLSAFE, 43), 'duffel_live_'],
  ['dynatrace-api-token', (s) => `Api-Token ${s}`, 'dt0c01.' + mixed(ALNUM, 24) + '.' + mixed(ALNUM, 64), 'dt0c01.short'],
  ['easypost-api-token', (s) => `easypost ${s}`, 'EZAK' + mixed(ALNUM, 54), 'EZAK prefix'],
  ['facebook-access-token', (s) => `fb ${s}`, 'EAAC' + mixed(ALNUM, 120), 'EAAC is a prefix'],
  ['flutterwave-key', (s) => `flw ${s}`, 'FLWSECK_TEST' + '-' + rnd(LHEX, 32) + '-X', 'FLWSECK_TEST-'],
  ['flyio-access-token', (s) => `FLY_API_TOKEN ${s}`, 'fo1_' + mixed(URLSAFE, 43), 'fo1_ prefix'],
  ['frameio-api-token', (s) => `frame ${s}`, 'fio-u-' + mixed(URLSAFE, 64), 'fio-u-short'],
  ['gcp-oauth-token', (s) => `Authorization ${s}`, 'ya29' + '.' + mixed(URLSAFE, 120), 'ya29.x is too short'],
  ['gcp-refresh-token', (s) => `refresh ${s}`, '1//0' + mixed(URLSAFE, 100), 'see 1//0 in a path'],
  ['gcp-fcm-server-key', (s) => `fcm ${s}`, 'AAAA' + rnd(URLSAFE, 7) + ':APA91b' + rnd(URLSAFE, 134), 'AAAA:APA91b'],
  ['gitlab-token', (s) => `runner ${s}`, 'glrt' + '-' + mixed(URLSAFE, 20), 'glrt-is-a-slug-name-with-words'],
  ['gitlab-session-cookie', (s) => `Cookie: _gitlab_session=${s}`, rnd(LOWER + DIGITS, 32), '_gitlab_session=short'],
  ['grafana-token', (s) => `grafana ${s}`, 'glsa_' + mixed(ALNUM, 32) + '_' + rnd(LHEX, 8), 'glsa_ prefix'],
  ['groq-api-key', (s) => `GROQ ${s}`, 'gsk_' + mixed(ALNUM, 52), 'gsk_ prefix'],
  ['harness-api-key', (s) => `harness ${s}`, `pat.${rnd(URLSAFE, 22)}.${mixed(ALNUM, 24)}.${mixed(ALNUM, 20)}`, 'pat.one.two.three'],
  ['hashicorp-tf-api-token', (s) => `credentials ${s}`, `${rnd(ALNUM, 14)}.atlasv1.${mixed(URLSAFE, 67)}`, 'x.atlasv1.y'],
  ['heroku-api-key', (s) => `heroku ${s}`, 'HRKU-AA' + mixed(URLSAFE, 58), 'HRKU-AA'],
  ['huggingface-token', (s) => `org ${s}`, 'api_org_' + 'Q' + rnd(UPPER + LOWER, 32) + 'z', 'api_org_name'],
  ['infracost-api-token', (s) => `INFRACOST ${s}`, 'ico-' + mixed(ALNUM, 32), 'ico-file'],
  ['intra42-client-secret', (s) => `42 ${s}`, 's-s4t2ud-' + rnd(LHEX, 64), 's-s4t2ud-'],
  ['linear-api-key', (s) => `LINEAR ${s}`, 'lin_' + 'oauth_' + rnd(ALNUM, 40), 'lin_api_ is the prefix'],
  ['mailchimp-api-key', (s) => `mc ${s}`, rnd(LHEX, 32) + '-us' + rnd(DIGITS, 2), 'locale en-us12 and a hash 9fceb02d0ae598e95dc970b74767f193-usual'],
  ['mapbox-secret-token', (s) => `MAPBOX ${s}`, 'sk.' + 'eyJ' + mixed(URLSAFE, 60) + '.' + mixed(URLSAFE, 22), 'sk.eyJ'],
  ['maxmind-license-key', (s) => `maxmind ${s}`, `${rnd(ALNUM, 6)}_${mixed(ALNUM, 29)}_mmk`, 'the_mmk suffix'],
  ['microsoft-teams-webhook', (s) => `teams ${s}`, `https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${rnd(LHEX, 32)}/${uuid()}`, 'https://acme.webhook.office.com/'],
  ['new-relic-key', (s) => `NEW_RELIC ${s}`, 'NRAK-' + rnd(UPPER + DIGITS, 27), 'NRAK-'],
  ['notion-api-token', (s) => `notion ${s}`, 'ntn_' + rnd(DIGITS, 11) + mixed(ALNUM, 35), 'ntn_ prefix'],
  ['octopus-deploy-api-key', (s) => `octopus ${s}`, 'API-' + rnd(UPPER + DIGITS, 26), 'API-REFERENCE-DOCUMENTATION-PAGE'],
  ['openshift-user-token', (s) => `oc login --token=${s}`, 'sha256~' + mixed(URLSAFE, 43), 'sha256~ prefix'],
  ['perplexity-api-key', (s) => `pplx ${s}`, 'pplx-' + mixed(ALNUM, 48), 'pplx-api'],
  ['planetscale-token', (s) => `pscale ${s}`, 'pscale_tkn_' + mixed(URLSAFE, 43), 'pscale_tkn_'],
  ['postman-api-token', (s) => `postman ${s}`, `PMAK-${rnd(LHEX, 24)}-${rnd(LHEX, 34)}`, 'PMAK-'],
  ['prefect-api-token', (s) => `prefect ${s}`, 'pnu_' + mixed(ALNUM, 36), 'pnu_'],
  ['pulumi-access-token', (s) => `PULUMI_ACCESS_TOKEN is ${s}`, 'pul-' + rnd(LHEX, 40), 'pul-request'],
  [
    'putty-private-key',
    (s) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ada\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIPdq\nAAAAC3NzaC1lZDI1NTE5AAAAIPdq\n${s}`,
    `Private-Lines: 1\n${mixed(BASE64, 44)}\nPrivate-MAC: ${rnd(LHEX, 64)}`,
    'Private-Lines: is a PuTTY header',
  ],
  ['readme-api-token', (s) => `readme ${s}`, 'rdme_' + lowerAlnum(70), 'rdme_'],
  ['replicate-api-token', (s) => `REPLICATE ${s}`, 'r8_' + mixed(ALNUM, 37), 'r8_'],
  ['rubygems-api-token', (s) => `gem ${s}`, 'rubygems_' + rnd(LHEX, 48), 'rubygems_org'],
  ['scalingo-api-token', (s) => `scalingo ${s}`, 'tk-us-' + mixed(URLSAFE, 48), 'tk-us-'],
  ['sendinblue-api-token', (s) => `brevo ${s}`, 'xkeysib-' + rnd(LHEX, 64) + '-' + mixed(ALNUM, 16), 'xkeysib-'],
  ['sentry-token', (s) => `SENTRY ${s}`, 'sntryu_' + rnd(LHEX, 64), 'sntryu_'],
  ['settlemint-token', (s) => `settlemint ${s}`, 'sm_pat_' + mixed(ALNUM, 16), 'sm_pat_'],
  ['shippo-api-token', (s) => `shippo ${s}`, 'shippo_' + 'live_' + rnd(LHEX, 40), 'shippo_live_'],
  ['slack-token', (s) => `socket mode ${s}`, `xapp-1-A${rnd(UPPER + DIGITS, 10)}-${rnd(DIGITS, 13)}-${rnd(LHEX, 64)}`, 'app-level tokens start with xapp-'],
  ['sourcegraph-access-token', (s) => `src ${s}`, 'sgp_' + rnd(LHEX, 16) + '_' + rnd(LHEX, 40), 'sgp_'],
  ['square-access-token', (s) => `square ${s}`, 'sq0csp-' + mixed(URLSAFE, 43), 'sq0csp-'],
  ['stripe-key', (s) => `stripe ${s}`, 'sk_' + 'prod_' + mixed(ALNUM, 30), 'pk_' + 'live_' + mixed(ALNUM, 40)],
  ['supabase-token', (s) => `supabase ${s}`, 'sbp_' + rnd(LHEX, 40), 'sbp_'],
  ['tailscale-key', (s) => `tailscale up --authkey ${s}`, `tskey-auth-${mixed(ALNUM, 12)}-${mixed(ALNUM, 30)}`, 'tskey-auth-'],
  ['telegram-bot-token', (s) => `https://api.telegram.org/bot${s}/sendMessage`, `${rnd(DIGITS, 10)}:AA${mixed(URLSAFE, 33)}`, 'at 12:30:45 and port 8080:AAAA'],
  ['twilio-api-key', (s) => `twilio ${s}`, 'SK' + rnd(LHEX, 16).toUpperCase() + rnd(LHEX, 16), 'SK0000000000000000000000000000000000'],
  ['typeform-api-token', (s) => `typeform ${s}`, 'tfp_' + mixed(URLSAFE, 59), 'tfp_'],
  ['vault-token', (s) => `VAULT_TOKEN ${s}`, 'hvs.' + mixed(URLSAFE, 95), 'hvs.short'],
  ['vercel-token', (s) => `vercel ${s}`, 'vcp_' + mixed(ALNUM, 56), 'vcp_'],
  ['xai-api-key', (s) => `XAI ${s}`, 'xai-' + mixed(ALNUM, 80), 'xai-grok'],
  ['yandex-token', (s) => `yc ${s}`, 'AQVN' + mixed(URLSAFE, 36), 'AQVN'],
  ['resend-api-key', (s) => `resend ${s}`, 're_' + mixed(ALNUM, 8) + '_' + mixed(ALNUM, 24), 're_send'],
  // Labelled: the vendor's name in the key makes the value a secret.
  ['adafruit-api-key', (s) => `ADAFRUIT_IO_KEY=${s}`, lowerAlnum(32), 'ADAFRUIT_IO_USERNAME=ada'],
  ['adobe-client-id', (s) => `adobe_client_id: "${s}"`, rnd(LHEX, 32), 'adobe_client_id: "see-the-console"'],
  ['airtable-api-key', (s) => `AIRTABLE_KEY=${s}`, lowerAlnum(17), 'AIRTABLE_BASE=appointments'],
  ['algolia-api-key', (s) => `ALGOLIA_ADMIN_KEY = '${s}'`, lowerAlnum(32), "ALGOLIA_INDEX = 'products'"],
  ['alibaba-secret-key', (s) => `alibaba_cloud_secret=${s}`, lowerAlnum(30), 'alibaba_region=cn-hangzhou'],
  ['asana-client-secret', (s) => `ASANA_SECRET=${s}`, lowerAlnum(32), 'ASANA_WORKSPACE=marketing'],
  ['beamer-api-token', (s) => `beamer_key = "${s}"`, 'b_' + mixed(URLSAFE, 44), 'beamer_key = "b_"'],
  ['bitbucket-client-secret', (s) => `BITBUCKET_CLIENT=${s}`, lowerAlnum(32), 'BITBUCKET_WORKSPACE=acme'],
  ['bittrex-key', (s) => `bittrex: ${s}`, lowerAlnum(32), 'bittrex: exchange'],
  ['braintree-key', (s) => `BRAINTREE_PRIVATE=${s}`, rnd(LHEX, 32), 'BRAINTREE_ENVIRONMENT=sandbox'],
  ['cisco-meraki-api-key', (s) => `MERAKI_DASHBOARD=${s}`, rnd(LHEX, 40), 'MERAKI_ORG=hq'],
  ['cloudflare-api-key', (s) => `cloudflare_global = ${s}`, rnd(LHEX, 37), 'cloudflare_zone = example'],
  ['codecov-access-token', (s) => `CODECOV=${s}`, lowerAlnum(32), 'CODECOV=enabled'],
  ['cohere-api-token', (s) => `CO_API_KEY=${s}`, mixed(ALNUM, 40), 'CO_API_KEY=${CO_API_KEY}'],
  ['coinbase-access-token', (s) => `coinbase=${s}`, lowerAlnum(64), 'coinbase=wallet'],
  ['confluent-key', (s) => `CONFLUENT_CLOUD=${s}`, lowerAlnum(16), 'CONFLUENT_CLUSTER=lkc'],
  ['contentful-delivery-api-token', (s) => `contentful_delivery: ${s}`, mixed(URLSAFE, 43), 'contentful_space: marketing'],
  ['datadog-access-token', (s) => `DATADOG_APP=${s}`, lowerAlnum(40), 'DATADOG_SITE=datadoghq.eu'],
  ['discord-client-secret', (s) => `DISCORD_CLIENT=${s}`, mixed(URLSAFE, 32), 'DISCORD_GUILD=general'],
  ['droneci-access-token', (s) => `droneci=${s}`, lowerAlnum(32), 'droneci=server'],
  ['dropbox-api-token', (s) => `dropbox_app = ${s}`, 'sl.' + mixed(URLSAFE, 136), 'dropbox_app = photos'],
  ['etsy-access-token', (s) => `ETSY=${s}`, lowerAlnum(24), 'ETSY=shop'],
  ['facebook-secret', (s) => `facebook_app_secret: ${s}`, rnd(LHEX, 32), 'facebook_page: acme'],
  ['fastly-api-token', (s) => `FASTLY=${s}`, mixed(URLSAFE, 32), 'FASTLY=cdn'],
  ['finicity-key', (s) => `finicity_secret=${s}`, lowerAlnum(20), 'finicity_partner=acme'],
  ['finnhub-access-token', (s) => `finnhub=${s}`, lowerAlnum(20), 'finnhub=quotes'],
  ['flickr-access-token', (s) => `FLICKR=${s}`, lowerAlnum(32), 'FLICKR=photos'],
  ['freshbooks-access-token', (s) => `freshbooks=${s}`, lowerAlnum(64), 'freshbooks=invoices'],
  ['gitter-access-token', (s) => `GITTER=${s}`, lowerAlnum(40), 'GITTER=room'],
  ['gocardless-api-token', (s) => `gocardless: ${s}`, 'live_' + mixed(URLSAFE, 40), 'gocardless: live_'],
  ['heroku-api-key', (s) => `HEROKU_API=${s}`, uuid(), 'HEROKU_APP=acme-prod'],
  ['hubspot-api-key', (s) => `hubspot_key = "${s}"`, uuid().toUpperCase(), 'hubspot_portal = "acme"'],
  ['intercom-api-key', (s) => `INTERCOM=${s}`, mixed(URLSAFE, 60), 'INTERCOM=widget'],
  ['jfrog-api-key', (s) => `JFROG=${s}`, lowerAlnum(73), 'JFROG=artifacts'],
  ['kraken-access-token', (s) => `kraken=${s}`, mixed(BASE64, 86), 'kraken=exchange'],
  ['kucoin-key', (s) => `KUCOIN=${s}`, rnd(LHEX, 24), 'KUCOIN=spot'],
  ['launchdarkly-access-token', (s) => `LAUNCHDARKLY=${s}`, mixed(URLSAFE, 40), 'LAUNCHDARKLY=flags'],
  ['linear-client-secret', (s) => `LINEAR_CLIENT=${s}`, rnd(LHEX, 32), 'LINEAR_TEAM=core'],
  ['linkedin-client-secret', (s) => `linkedin_secret=${s}`, lowerAlnum(16), 'linkedin_page=acme'],
  ['lob-api-key', (s) => `LOB_KEY=${s}`, 'live_' + rnd(LHEX, 35), 'LOB_ENV=live'],
  ['looker-client-secret', (s) => `LOOKER_SECRET=${s}`, lowerAlnum(24), 'LOOKER_HOST=acme'],
  ['mailgun-key', (s) => `MAILGUN_KEY=${s}`, 'pubkey-' + rnd(LHEX, 32), 'MAILGUN_DOMAIN=mg.acme.io'],
  ['mattermost-access-token', (s) => `MATTERMOST=${s}`, lowerAlnum(26), 'MATTERMOST=chat'],
  ['messagebird-api-token', (s) => `MESSAGEBIRD=${s}`, lowerAlnum(25), 'MESSAGEBIRD=sms'],
  ['netlify-access-token', (s) => `NETLIFY_AUTH=${s}`, mixed(URLSAFE, 43), 'NETLIFY_SITE=acme'],
  ['new-relic-key', (s) => `NEW_RELIC_USER=${s}`, lowerAlnum(64), 'NEW_RELIC_APP=acme'],
  ['nytimes-access-token', (s) => `NYTIMES=${s}`, mixed(URLSAFE, 32), 'NYTIMES=news'],
  ['okta-access-token', (s) => `OKTA=${s}`, '00' + mixed(URLSAFE, 40), 'OKTA=sso'],
  ['plaid-key', (s) => `PLAID_SECRET=${s}`, lowerAlnum(30), 'PLAID_ENV=sandbox'],
  ['privateai-api-token', (s) => `PRIVATE_AI=${s}`, lowerAlnum(32), 'PRIVATE_AI=enabled'],
  ['rapidapi-access-token', (s) => `RAPIDAPI=${s}`, mixed(URLSAFE, 50), 'RAPIDAPI=host'],
  ['sendbird-key', (s) => `SENDBIRD=${s}`, rnd(LHEX, 40), 'SENDBIRD=chat'],
  ['sentry-access-token', (s) => `SENTRY_AUTH=${s}`, rnd(LHEX, 64), 'SENTRY_ORG=acme'],
  ['sidekiq-secret', (s) => `BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${s}`, `${rnd(LHEX, 8)}:${rnd(LHEX, 8)}`, 'BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ}'],
  ['snyk-api-token', (s) => `SNYK=${s}`, uuid(), 'SNYK=cli'],
  ['sonar-api-token', (s) => `SONAR=${s}`, 'squ_' + lowerAlnum(40), 'SONAR=scanner'],
  ['squarespace-access-token', (s) => `SQUARESPACE=${s}`, uuid(), 'SQUARESPACE=site'],
  ['sumologic-key', (s) => `SUMO_ACCESS=${s}`, 'su' + lowerAlnum(12), 'SUMO_ENDPOINT=collectors'],
  ['travisci-access-token', (s) => `TRAVIS=${s}`, lowerAlnum(22), 'TRAVIS=ci'],
  ['twitch-api-token', (s) => `TWITCH=${s}`, lowerAlnum(30), 'TWITCH=stream'],
  ['twitter-key', (s) => `TWITTER_API=${s}`, lowerAlnum(25), 'TWITTER_HANDLE=acme'],
  ['yandex-token', (s) => `YANDEX=${s}`, 'YC' + mixed(URLSAFE, 38), 'YANDEX=cloud'],
  ['zendesk-secret-key', (s) => `ZENDESK=${s}`, lowerAlnum(40), 'ZENDESK=support'],
  ['xml-secret', (s) => `<connection>\n  <password>${s}</password>\n</connection>`, mixed(ALNUM, 16), '<password>${DB_PASSWORD}</password>'],
  ['xml-secret', (s) => `<add key="ClearTextPassword" value="${s}" />`, mixed(ALNUM, 14), '<add key="Username" value="ada-lovelace-1815" />'],
];

/**
 * Known gap (reported, issue 36): through the Stop hook's capture, these two reach
 * `.cortex/decisions.md` and the memories in clear (the labelled name or the XML element is
 * split from its value before the gate sees it). The unit tests still cover them.
 */
const WRITE_PATH_GAPS = new Set(['sidekiq-secret', 'xml-secret']);

/** Fakes of the vendor rules, in the corpus's own form. */
export const VENDOR_FAKES: Fake[] = VENDOR_CASES.filter(([rule]) => !WRITE_PATH_GAPS.has(rule)).map(([rule, wrap, secret]) => [`vendor ${rule}`, wrap, secret, rule]);

/** Forms of secrets named in issue 36 that other rules name. */
export const ISSUE_FAKES: Fake[] = [
  ['GitLab deploy token', (s) => `gldt ${s}`, 'gldt' + '-' + mixed(URLSAFE, 20), 'gitlab-token'],
  ['AWS key id in an s3 path', (s) => `aws s3 cp s3://acme-backups/${s}.csv .`, 'AKIA' + rnd(UPPER + DIGITS, 16), 'aws-access-key'],
  ['Azure DevOps PAT (52 base32)', (s) => `git clone https://dev.azure.com/acme/x with pat ${s}`, rnd(B32, 50) + '42', 'azure-devops-pat'],
  ['Mailchimp key in prose', (s) => `the newsletter key is ${s}`, rnd(LHEX, 32) + '-us21', 'mailchimp-api-key'],
  ['age key in a file', (s) => `AGE key ${s}`, 'AGE-SECRET' + '-KEY-1' + rnd('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58), 'age-secret-key'],
  ['Base64 of a GitHub token', (s) => `encoded: ${s}`, Buffer.from('token=ghp_' + rnd(ALNUM, 36)).toString('base64'), 'high-entropy'],
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
  ['file paths', 'src/core/redact.ts, ./node_modules/.bin/tsc, C:\\Projects\\ada\\secrets\\notes.txt'],
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
  // The look-alikes issue 36 found redacted, and more of their families.
  ['base64 of ordinary text', 'encoded: ' + Buffer.from('The quick brown fox jumps over the lazy dog near the river bank').toString('base64')],
  ['base64 of JSON', 'payload ' + Buffer.from('{"user":"alice","role":"admin","region":"eu-west-1","retries":3}').toString('base64')],
  ['base64url of JSON', 'state=' + Buffer.from('{"returnTo":"/dashboard/settings","nonce":"abc"}').toString('base64url')],
  ['a go.sum line', 'golang.org/x/text v0.3.7 h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk='],
  ['a go.sum go.mod line', 'golang.org/x/text v0.3.7/go.mod h1:u+2+/6zg+i71ioFa/ORI4c2rTnB1Y9M2zK1g8OlvLW4='],
  ['a header-name setting', 'API_KEY_HEADER=X-Api-Key'],
  ['a secret-name setting', 'SECRET_NAME=prod/payments/db-password'],
  ['a secret-name setting in CamelCase', 'SECRET_NAME=PaymentsDbCredentials2026'],
  ['a token URL setting', 'TOKEN_URL=https://auth.example.com/oauth/token'],
  ['a password file setting', 'POSTGRES_PASSWORD_FILE=/run/secrets/postgres-password'],
  ['an SSH ed25519 public key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGn2WfTlLpQ3WvE0ZqP9kNqCr8Xg5m1sFz7d2Yb4Hc1u ada@laptop'],
  ['an SSH RSA public key', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC' + mixed(BASE64, 169) + ' ada@laptop'],
  ['an SSH public key in authorized_keys with options', 'no-pty,from="10.0.0.0/8" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI' + mixed(BASE64, 43) + ' ci@runner'],
  ['an ECDSA public key', 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBF' + mixed(BASE64, 86) + '= ada@host'],
  ['a Stripe publishable key', 'Stripe.setPublishableKey("pk_' + 'live_' + mixed(ALNUM, 48) + '")'],
  ['a Stripe publishable test key', 'STRIPE_PUBLISHABLE=pk_' + 'test_' + mixed(ALNUM, 48)],
  ['a placeholder password variable', 'password: ${DB_PASSWORD}'],
  ['a your-key-here placeholder', 'OPENAI_API_KEY=your_api_key_here'],
  ['an angle-bracket placeholder', 'Authorization: Bearer <token>'],
  ['a REPLACE_ME placeholder', 'client_secret: REPLACE_ME'],
  ['asterisks for a password', 'password: ********'],
  ['a sha1 hash', 'sha1 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
  ['a sha512 hex digest', 'sha512 ' + 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e'],
  ['an md5 checksum', 'md5sum: d41d8cd98f00b204e9800998ecf8427e  file.tar.gz'],
  ['upper-case UUIDs', 'request 123E4567-E89B-12D3-A456-426614174000 and 00000000-0000-0000-0000-000000000000'],
  ['a Docker image digest', 'image: node@sha256:2b5d1a3c9f0e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c'],
  ['a git LFS pointer', 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345'],
  ['an age public key', 'recipient age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'],
  ['a PGP public key header', '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGE...\n-----END PGP PUBLIC KEY BLOCK-----'],
  ['an X.509 certificate header in prose', 'the file starts with -----BEGIN CERTIFICATE----- and is public'],
  ['a Mapbox public token', 'mapboxgl.accessToken = "pk.' + 'eyJ1IjoiYWRhIiwiYSI6ImNrMTIzIn0.' + 'abc"'],
  ['a Slack channel id and user id', 'channel C024BE91L, user U0G9QF9C6, team T12345678'],
  ['an XML password element with a variable', '<password>${env.DB_PASSWORD}</password>'],
  ['an XML token element that is empty', '<token></token><apiKey/>'],
  ['a telegram-like time', 'at 12:30:45 the job 1234567:Abort ran'],
  ['a Kubernetes secret reference', 'secretKeyRef:\n  name: db-credentials\n  key: password'],
  ['a GitHub Actions secret reference', 'token: ${{ secrets.GITHUB_TOKEN }}'],
  ['a home-less absolute path', '/usr/local/lib/node_modules/npm/bin/npm-cli.js and /etc/ssl/certs'],
  ['an npm package with a scope', '@secretlint/secretlint-rule-preset-recommend@13.1.0'],
  ['a Google Analytics id', 'gtag("config", "G-ABCDEF1234") and UA-12345678-1'],
  ['an ISO timestamp list', '2026-12-07T22:45:00Z 2026-12-07T22:46:01.123+01:00'],
];
FAKES.push(...VENDOR_FAKES, ...ISSUE_FAKES);

/**
 * One near miss per kind of the core rules (redact.ts) and of secretlint's generic
 * `secret`: the kind's shape with what makes it a secret missing (a placeholder, a wrong
 * length, a public counterpart, a word where the value goes). The vendor rules have theirs
 * in `VENDOR_CASES`. Each must come back byte-identical.
 */
export const KIND_NEGATIVES: Array<[kind: SecretKind, text: string]> = [
  ['private-key', 'Generate one with ssh-keygen; the file starts with -----BEGIN OPENSSH ' + 'PRIVATE KEY----- and ends with the END line.'],
  ['aws-access-key', 'the key id looks like AKIA followed by sixteen upper-case letters and digits'],
  ['aws-secret-key', 'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}'],
  ['github-token', 'export GITHUB_TOKEN=ghp_' + 'x'.repeat(36)],
  ['gitlab-token', 'GITLAB_TOKEN=glpat-' + 'x'.repeat(20)],
  ['slack-token', 'tokens start with xoxb-' + 'your-token-here'],
  ['slack-webhook', 'post to https://hooks.slack.com/services/' + '…'],
  ['stripe-key', 'the publishable key pk_live_' + rnd(ALNUM, 24) + ' goes in the page'],
  ['stripe-webhook-secret', 'STRIPE_WEBHOOK_SECRET=whsec_' + '...'],
  ['anthropic-api-key', 'set ANTHROPIC_API_KEY to your sk-ant-' + 'api-key-from-the-console'],
  ['openai-api-key', 'the branch sk-' + 'refactor-the-retry-policy-module was merged'],
  ['google-api-key', 'the key starts with AIza' + ' and is 39 chars long'],
  ['google-oauth-secret', 'client secrets start with GOCSPX-' + '<secret>'],
  ['azure-storage-key', 'DefaultEndpointsProtocol=https;AccountName=dev;AccountKey=' + '${STORAGE_KEY}'],
  ['azure-sas-signature', 'append ?sv=2022-11-02&sig=' + '<signature> to the blob URL'],
  ['twilio-api-key', 'Twilio API key SIDs are SK' + ' followed by 32 hex chars'],
  ['sendgrid-api-key', 'SendGrid keys look like SG.' + 'xxxx.yyyy'],
  ['mailgun-api-key', 'use key-' + 'based auth for mailgun'],
  ['huggingface-token', 'HF_TOKEN=hf_' + 'x'.repeat(34)],
  ['digitalocean-token', 'a dop_v1_' + ' token, 64 hex chars'],
  ['shopify-token', 'an shpat_' + ' token from the admin'],
  ['pypi-token', 'upload with a pypi-' + 'token named in ~/.pypirc'],
  ['discord-token', 'the bot token has three dot-separated parts'],
  ['discord-webhook', 'https://discord.com/api/webhooks/' + '<id>/<token>'],
  ['npm-token', 'npm_' + 'config_registry is read from .npmrc'],
  ['docker-auth', '{"auths": {"ghcr.io": {"auth": ""}}}'],
  ['jwt', 'a JWT has a header eyJ' + '… a payload and a signature'],
  ['cli-password', 'mysql -u root -p  (it prompts for the password)'],
  ['url-password', 'postgres://app:${DB_PASSWORD}@db:5432/app'],
  ['env-assignment', 'API_KEY_HEADER=X-Api-Key'],
  ['high-entropy', 'integrity sha512-' + 'z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=='],
  ['xml-secret', '<password>${DB_PASSWORD}</password>'],
  ['secret', 'the sample config uses postgres://localhost/app with no credentials'],
];

/** Fakes of the core kinds that only context names (the main table's fakes are found under a more specific name). */
export const KIND_POSITIVES: Fake[] = [
  ['password in a URL', (s) => `postgres://app:${s}@db:5432/app`, mixed(ALNUM, 18), 'url-password'],
  ['an assignment to a secret name', (s) => `API_TOKEN=${s}`, mixed(ALNUM, 24), 'env-assignment'],
  ['a password element in XML', (s) => `<connection><password>${s}</password></connection>`, mixed(ALNUM, 16), 'xml-secret'],
];
