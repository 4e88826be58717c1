/**
 * The vendor half of the redaction gate: one rule per credential format, written here
 * from each vendor's documented token shape, with gitleaks' default configuration
 * (https://github.com/gitleaks/gitleaks, `config/gitleaks.toml`, MIT) as the checklist of
 * what to cover. Each rule names its source: `gitleaks:<rule id>` where gitleaks has the
 * rule (the shape below is ours, checked against the vendor's documentation), or the
 * vendor's page where gitleaks has none.
 *
 * Two families:
 * - `SHAPE_RULES`: a token recognisable by itself (a vendor prefix, a fixed length, an
 *   alphabet). Each demands a boundary on both sides, so a match never starts or ends
 *   inside a longer run (a hash, base64).
 * - `LABELLED_RULES`: a value with no shape of its own, recognised because the name it
 *   is assigned to holds the vendor's name (`ALGOLIA_ADMIN_KEY = …`, `"datadog": "…"`),
 *   in the assignment forms gitleaks recognises (`=`, `:`, `:=`, `=>`, `,` …).
 *
 * Every rule carries a lower-case `keyword` that any match contains; the gate runs a
 * rule only when its keyword occurs in the lower-cased text (gitleaks' own prefilter), so
 * the ~200 rules cost one `includes` each on text that names none of them.
 *
 * Pure: no I/O.
 */

/** A token recognisable by its own shape. */
export interface ShapeRule {
  /** Rule id, also the `<kind>` of `[REDACTED:<kind>]` unless `kind` says otherwise. */
  readonly id: string;
  /** Where the format comes from. */
  readonly source: string;
  /** Lower-case literal every match contains (the prefilter). */
  readonly keyword: string | readonly string[];
  /** The token, without boundaries (they are added: see `shapeRegex`). */
  readonly body: string;
  /** Case-insensitive body. */
  readonly ignoreCase?: boolean;
  /** Minimum Shannon entropy (bits per char) of the match. */
  readonly entropy?: number;
  /** Boundaries: `word` (default) refuses a word char or `-` either side; `b64` also `+`, `/`, `=`; `none` adds none. */
  readonly boundary?: 'word' | 'b64' | 'none';
  /** More that the match must satisfy. */
  readonly check?: (match: string) => boolean;
  /**
   * What the text before the match must end with (tested on the `extendLeft` + 8 chars
   * before it): boundaries and leading parts a lookbehind would make slow to find.
   */
  readonly left?: RegExp;
  /**
   * The secret starts this many chars before the match: the body starts at a literal
   * (fast to find) and checks what precedes it in a lookbehind of exactly this length.
   */
  readonly extendLeft?: number;
}

/** A value recognised by the vendor name in the key it is assigned to. */
export interface LabelledRule {
  readonly id: string;
  readonly source: string;
  /** Lower-case literals; the key name must contain one (also the prefilter). */
  readonly names: readonly string[];
  /** The value's shape (matched case-insensitively, whole: boundaries are added). */
  readonly value: string;
  readonly entropy?: number;
}

const hasDigit = (s: string): boolean => /[0-9]/.test(s);
const hasUpperLowerDigit = (s: string): boolean => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Tokens with a shape of their own. Vendors whose older rules live in redact.ts
 * (GitHub, Stripe secret keys, OpenAI, Anthropic, Google API keys, npm, Slack bot/user
 * tokens, SendGrid, Shopify, PyPI, DigitalOcean, Discord, Hugging Face, Twilio, Mailgun,
 * JWT, private keys) are not repeated here.
 */
export const SHAPE_RULES: readonly ShapeRule[] = [
  { id: '1password-secret-key', source: 'gitleaks:1password-secret-key', keyword: 'a3-', body: 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}', entropy: 3.8 },
  { id: '1password-service-account-token', source: 'gitleaks:1password-service-account-token', keyword: 'ops_eyj', body: 'ops_eyJ[A-Za-z0-9+/]{250,}={0,3}', boundary: 'b64', entropy: 4 },
  { id: 'adobe-client-secret', source: 'gitleaks:adobe-client-secret', keyword: 'p8e-', body: 'p8e-[A-Za-z0-9]{32}', entropy: 2, check: hasDigit },
  { id: 'age-secret-key', source: 'gitleaks:age-secret-key; age spec (Bech32 "AGE-SECRET-KEY-1")', keyword: 'age-secret-key-1', body: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', ignoreCase: true },
  { id: 'airtable-personal-access-token', source: 'gitleaks:airtable-personnal-access-token', keyword: 'pat', body: String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}` },
  { id: 'alibaba-access-key-id', source: 'gitleaks:alibaba-access-key-id; Alibaba Cloud AccessKey docs (LTAI prefix)', keyword: 'ltai', body: 'LTAI[A-Za-z0-9]{12,20}', boundary: 'b64', entropy: 2.5, check: hasDigit },
  { id: 'artifactory-api-key', source: 'gitleaks:artifactory-api-key', keyword: 'akcp', body: 'AKCp[A-Za-z0-9]{69}', entropy: 4.5 },
  { id: 'artifactory-reference-token', source: 'gitleaks:artifactory-reference-token', keyword: 'cmvmd', body: 'cmVmd[A-Za-z0-9]{59}', boundary: 'b64', entropy: 4.5 },
  { id: 'atlassian-api-token', source: 'gitleaks:atlassian-api-token; Atlassian API token docs (ATATT3 prefix)', keyword: ['atatt3', 'atctt3'], body: 'AT[AC]TT3[A-Za-z0-9_=-]{150,200}', entropy: 3.5 },
  { id: 'bitbucket-app-password', source: 'Atlassian Bitbucket app passwords (ATBB prefix)', keyword: 'atbb', body: 'ATBB[A-Za-z0-9_=.-]{28,40}', entropy: 3.5, check: hasDigit },
  { id: 'authress-service-client-access-key', source: 'gitleaks:authress-service-client-access-key', keyword: '.acc', body: String.raw`(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}` },
  { id: 'aws-bedrock-api-key', source: 'gitleaks:aws-amazon-bedrock-api-key-long-lived', keyword: 'absk', body: 'ABSK[A-Za-z0-9+/]{109,269}={0,2}', boundary: 'b64', entropy: 3 },
  { id: 'aws-bedrock-api-key', source: 'gitleaks:aws-amazon-bedrock-api-key-short-lived', keyword: 'bedrock-api-key-', body: 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]*', boundary: 'none' },
  { id: 'azure-ad-client-secret', source: 'gitleaks:azure-ad-client-secret; Microsoft Entra client secret format (…Q~…)', keyword: 'q~', body: String.raw`Q~[a-zA-Z0-9_~.-]{31,34}(?=$|[\\'"\x60\s<),;])`, boundary: 'none', extendLeft: 4, left: /(?:^|[\\'"\x60\s>=:(,)])[a-zA-Z0-9_~.]{3}\d$/, entropy: 3 },
  { id: 'azure-devops-pat', source: 'Azure DevOps PAT formats (52 base32 chars; 84 chars with AZDO signature)', keyword: 'azdo', body: '[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}', boundary: 'b64', entropy: 4 },
  { id: 'braintree-access-token', source: 'Braintree/PayPal access token format (access_token$env$merchant$hex)', keyword: 'access_token$', body: String.raw`access_token\$(?:production|sandbox|development)\$[0-9a-z]{16}\$[0-9a-f]{32}` },
  { id: 'clickhouse-cloud-api-secret-key', source: 'gitleaks:clickhouse-cloud-api-secret-key', keyword: '4b1d', body: '4b1d[A-Za-z0-9]{38}', entropy: 3, check: hasUpperLowerDigit },
  { id: 'clojars-api-token', source: 'gitleaks:clojars-api-token', keyword: 'clojars_', body: 'CLOJARS_[a-z0-9]{60}', ignoreCase: true, entropy: 2 },
  { id: 'cloudflare-origin-ca-key', source: 'gitleaks:cloudflare-origin-ca-key', keyword: 'v1.0-', body: String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}` },
  { id: 'databricks-api-token', source: 'gitleaks:databricks-api-token; Databricks PAT docs (dapi prefix)', keyword: 'dapi', body: 'dapi[a-f0-9]{32}(?:-[0-9])?', entropy: 3 },
  { id: 'defined-networking-api-token', source: 'gitleaks:defined-networking-api-token', keyword: 'dnkey-', body: 'dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}', ignoreCase: true },
  { id: 'doppler-token', source: 'gitleaks:doppler-api-token; Doppler token formats (dp.pt/st/ct/sa/scim/audit)', keyword: 'dp.', body: String.raw`dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9_]{40,48}`, entropy: 3 },
  { id: 'duffel-api-token', source: 'gitleaks:duffel-api-token', keyword: 'duffel_', body: 'duffel_(?:test|live)_[A-Za-z0-9_=-]{43}' },
  { id: 'dynatrace-api-token', source: 'gitleaks:dynatrace-api-token', keyword: 'dt0c01.', body: String.raw`dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`, entropy: 4 },
  { id: 'easypost-api-token', source: 'gitleaks:easypost-api-token, easypost-test-api-token', keyword: ['ezak', 'eztk'], body: 'EZ[AT]K[A-Za-z0-9]{54}', entropy: 3 },
  { id: 'facebook-access-token', source: 'gitleaks:facebook-page-access-token', keyword: 'eaa', body: 'EAA[MC][A-Za-z0-9]{100,}', entropy: 4 },
  { id: 'facebook-access-token', source: 'gitleaks:facebook-access-token (app id | app secret)', keyword: ['|', '%7c'], body: String.raw`[0-9]{15,16}(?:\||%7[Cc])[0-9A-Za-z_-]{27,40}`, entropy: 3, check: hasUpperLowerDigit },
  { id: 'flutterwave-key', source: 'gitleaks:flutterwave-secret-key, flutterwave-public-key, flutterwave-encryption-key', keyword: 'flw', body: 'FLW(?:SECK|PUBK)_TEST(?:-[a-hA-H0-9]{32}-X|[a-hA-H0-9]{12})' },
  { id: 'flyio-access-token', source: 'gitleaks:flyio-access-token', keyword: ['fo1_', 'fm1', 'fm2_'], body: '(?:fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})', entropy: 4 },
  { id: 'frameio-api-token', source: 'gitleaks:frameio-api-token', keyword: 'fio-u-', body: 'fio-u-[A-Za-z0-9_=-]{64}' },
  { id: 'gcp-oauth-token', source: 'Google OAuth 2.0 access tokens (ya29. prefix), developers.google.com/identity', keyword: 'ya29.', body: String.raw`ya29\.[A-Za-z0-9_-]{20,}`, entropy: 3.5 },
  { id: 'gcp-refresh-token', source: 'Google OAuth 2.0 refresh tokens (1//0 prefix)', keyword: '1//0', body: '1//0[A-Za-z0-9_-]{40,}', boundary: 'none', entropy: 4, check: hasUpperLowerDigit },
  { id: 'gcp-fcm-server-key', source: 'Firebase Cloud Messaging legacy server key (AAAA…:APA91b…)', keyword: ':apa91b', body: 'AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{134}' },
  {
    id: 'gitlab-token',
    source: 'gitleaks:gitlab-pat, gitlab-deploy-token, gitlab-runner-authentication-token(-routable), gitlab-ptt, gitlab-feed-token, gitlab-incoming-mail-token, gitlab-kubernetes-agent-token, gitlab-oauth-app-secret, gitlab-scim-token, gitlab-feature-flag-client-token; GitLab token prefixes docs',
    keyword: 'gl',
    body: String.raw`(?:gldt|glrt|glptt|glft|glimt|glagent|gloas|glsoat|glffct|glpat)-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{9})?`,
    check: (m) => /[A-Z0-9]/.test(m.slice(m.indexOf('-') + 1)),
  },
  { id: 'gitlab-token', source: 'gitleaks:gitlab-cicd-job-token', keyword: 'glcbt-', body: 'glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}' },
  { id: 'gitlab-token', source: 'gitleaks:gitlab-rrt (runner registration token)', keyword: 'gr1348941', body: 'GR1348941[A-Za-z0-9_-]{20}' },
  { id: 'gitlab-session-cookie', source: 'gitleaks:gitlab-session-cookie', keyword: '_gitlab_session=', body: '(?<=_gitlab_session=)[0-9a-z]{32}', boundary: 'none' },
  { id: 'grafana-token', source: 'gitleaks:grafana-api-key, grafana-cloud-api-token, grafana-service-account-token', keyword: ['eyjrijoi', 'glc_', 'glsa_'], body: '(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})', boundary: 'b64' },
  { id: 'groq-api-key', source: 'secretlint:groq; Groq console keys (gsk_)', keyword: 'gsk_', body: 'gsk_[A-Za-z0-9]{52}' },
  { id: 'harness-api-key', source: 'gitleaks:harness-api-key', keyword: ['pat.', 'sat.'], body: String.raw`(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}` },
  { id: 'hashicorp-tf-api-token', source: 'gitleaks:hashicorp-tf-api-token', keyword: '.atlasv1.', body: String.raw`[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`, entropy: 3.5 },
  { id: 'heroku-api-key', source: 'gitleaks:heroku-api-key-v2', keyword: 'hrku-aa', body: 'HRKU-AA[0-9a-zA-Z_-]{58}', entropy: 4 },
  { id: 'huggingface-token', source: 'gitleaks:huggingface-organization-api-token', keyword: 'api_org_', body: 'api_org_[A-Za-z]{34}', check: (m) => /[A-Z]/.test(m.slice(8)) && /[a-z]/.test(m.slice(8)) },
  { id: 'infracost-api-token', source: 'gitleaks:infracost-api-token', keyword: 'ico-', body: 'ico-[A-Za-z0-9]{32}', entropy: 3, check: hasDigit },
  { id: 'intra42-client-secret', source: 'gitleaks:intra42-client-secret', keyword: 's-s4t2', body: 's-s4t2(?:ud|af)-[a-fA-F0-9]{64}' },
  { id: 'linear-api-key', source: 'gitleaks:linear-api-key; secretlint:linear', keyword: 'lin_', body: 'lin_(?:api|oauth)_[A-Za-z0-9]{40}', entropy: 2 },
  { id: 'mailchimp-api-key', source: 'gitleaks:mailchimp-api-key; Mailchimp API key format (hex-usNN data centre)', keyword: '-us', body: String.raw`-us[0-9]{1,2}(?![\w-])`, boundary: 'none', extendLeft: 32, left: /(?:^|[^\w-])[a-f0-9]{32}$/ },
  { id: 'mapbox-secret-token', source: 'Mapbox secret access tokens (sk.eyJ…)', keyword: 'sk.eyj', body: String.raw`sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}` },
  { id: 'maxmind-license-key', source: 'gitleaks:maxmind-license-key', keyword: '_mmk', body: '[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk', entropy: 4 },
  { id: 'microsoft-teams-webhook', source: 'gitleaks:microsoft-teams-webhook', keyword: '.webhook.office.com/', body: String.raw`https:\/\/[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@/-]{60,}`, ignoreCase: true },
  { id: 'new-relic-key', source: 'gitleaks:new-relic-user-api-key, new-relic-insert-key, new-relic-browser-api-token', keyword: ['nrak-', 'nrii-', 'nrjs-'], body: '(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})', check: hasDigit },
  { id: 'notion-api-token', source: 'gitleaks:notion-api-token; secretlint:notion', keyword: 'ntn_', body: 'ntn_[0-9]{11}[A-Za-z0-9]{35}', entropy: 4 },
  { id: 'octopus-deploy-api-key', source: 'gitleaks:octopus-deploy-api-key', keyword: 'api-', body: 'API-[A-Z0-9]{26}', entropy: 3, check: (m) => /[0-9]/.test(m.slice(4)) && /[A-Z]/.test(m.slice(4)) },
  { id: 'openshift-user-token', source: 'gitleaks:openshift-user-token', keyword: 'sha256~', body: 'sha256~[A-Za-z0-9_-]{43}', entropy: 3.5 },
  { id: 'perplexity-api-key', source: 'gitleaks:perplexity-api-key', keyword: 'pplx-', body: 'pplx-[A-Za-z0-9]{48}', entropy: 4 },
  { id: 'planetscale-token', source: 'gitleaks:planetscale-api-token, planetscale-oauth-token, planetscale-password', keyword: 'pscale_', body: String.raw`pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}`, entropy: 3 },
  { id: 'postman-api-token', source: 'gitleaks:postman-api-token; Postman API key format (PMAK-)', keyword: 'pmak-', body: 'PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}', entropy: 3 },
  { id: 'prefect-api-token', source: 'gitleaks:prefect-api-token', keyword: 'pnu_', body: 'pnu_[A-Za-z0-9]{36}', entropy: 2 },
  { id: 'pulumi-access-token', source: 'gitleaks:pulumi-api-token; Pulumi access tokens (pul-)', keyword: 'pul-', body: 'pul-[a-f0-9]{40}', entropy: 2 },
  {
    id: 'putty-private-key',
    source: 'PuTTY PPK v2/v3 format (PuTTY manual, appendix C): the Private-Lines block and its MAC',
    keyword: 'private-lines:',
    body: String.raw`Private-Lines:[ \t]*[0-9]+(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z0-9+/=]{1,128}(?![A-Za-z0-9+/=-]))*(?:(?:\r?\n|\\r\\n|\\n)Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]+)?`,
    boundary: 'none',
  },
  { id: 'readme-api-token', source: 'gitleaks:readme-api-token', keyword: 'rdme_', body: 'rdme_[a-z0-9]{70}' },
  { id: 'replicate-api-token', source: 'Replicate API tokens (r8_ prefix)', keyword: 'r8_', body: 'r8_[A-Za-z0-9]{37}', check: hasUpperLowerDigit },
  { id: 'rubygems-api-token', source: 'gitleaks:rubygems-api-token', keyword: 'rubygems_', body: 'rubygems_[a-f0-9]{48}' },
  { id: 'scalingo-api-token', source: 'gitleaks:scalingo-api-token', keyword: 'tk-us-', body: 'tk-us-[A-Za-z0-9_-]{48}' },
  { id: 'sendinblue-api-token', source: 'gitleaks:sendinblue-api-token; Brevo API/SMTP keys', keyword: ['xkeysib-', 'xsmtpsib-'], body: 'x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}' },
  { id: 'sentry-token', source: 'gitleaks:sentry-user-token, sentry-org-token', keyword: ['sntryu_', 'sntrys_'], body: '(?:sntryu_[a-f0-9]{64}|sntrys_eyJpYXQiO[A-Za-z0-9+/=_]{50,500})', boundary: 'b64' },
  { id: 'settlemint-token', source: 'gitleaks:settlemint-application-access-token, settlemint-personal-access-token, settlemint-service-access-token', keyword: 'sm_', body: 'sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}', entropy: 3 },
  { id: 'shippo-api-token', source: 'gitleaks:shippo-api-token', keyword: 'shippo_', body: 'shippo_(?:live|test)_[a-fA-F0-9]{40}' },
  { id: 'slack-token', source: 'gitleaks:slack-app-token; Slack app-level tokens (xapp-)', keyword: 'xapp-', body: 'xapp-[0-9]+-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+', check: (m) => m.length >= 30 },
  { id: 'slack-token', source: 'gitleaks:slack-config-access-token, slack-config-refresh-token', keyword: 'xoxe', body: String.raw`xoxe(?:\.xox[bp])?-[0-9]-[A-Za-z0-9]{140,170}` },
  { id: 'sourcegraph-access-token', source: 'gitleaks:sourcegraph-access-token', keyword: 'sgp_', body: 'sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}' },
  { id: 'square-access-token', source: 'gitleaks:square-access-token; Square OAuth secrets (sq0csp-)', keyword: ['eaaa', 'sq0atp-', 'sq0csp-'], body: '(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,60}', boundary: 'b64', entropy: 3.5, check: hasDigit },
  { id: 'stripe-key', source: 'gitleaks:stripe-access-token (prod_ and short keys)', keyword: ['sk_', 'rk_'], body: '(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}', entropy: 3 },
  { id: 'supabase-token', source: 'Supabase access tokens (sbp_ prefix)', keyword: 'sbp_', body: 'sbp_[a-f0-9]{40}' },
  { id: 'tailscale-key', source: 'secretlint:tailscale; Tailscale auth/API keys (tskey-)', keyword: 'tskey-', body: 'tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}' },
  {
    id: 'telegram-bot-token',
    source: 'gitleaks:telegram-bot-api-token; Telegram Bot API docs (<bot id>:<35 chars>, also in /bot<token>/ URLs)',
    keyword: ':a',
    body: String.raw`[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![\w-])`,
    boundary: 'none',
    left: /(?:^|[^\w:/-]|(?:^|[^\w])bot|\\[nrt])$/,
    entropy: 3.5,
  },
  { id: 'twilio-api-key', source: 'gitleaks:twilio-api-key (either case)', keyword: 'sk', body: 'SK[0-9a-fA-F]{32}', boundary: 'b64', check: (m) => /[0-9]/.test(m) && !/^SK[0-9]+$/.test(m) },
  { id: 'typeform-api-token', source: 'gitleaks:typeform-api-token', keyword: 'tfp_', body: String.raw`tfp_[A-Za-z0-9_.=-]{59}` },
  { id: 'vault-token', source: 'gitleaks:vault-service-token, vault-batch-token; secretlint:hashicorp-vault', keyword: ['hvs.', 'hvb.', 'hvr.'], body: String.raw`hv[sbr]\.[A-Za-z0-9_-]{90,300}`, entropy: 3.5 },
  { id: 'vault-token', source: 'gitleaks:vault-service-token (legacy s. tokens)', keyword: 's.', body: String.raw`s\.[A-Za-z0-9]{24}`, entropy: 3.5, check: (m) => hasUpperLowerDigit(m.slice(2)) },
  { id: 'vercel-token', source: 'secretlint:vercel; Vercel token prefixes', keyword: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], body: 'vc[pirak]_[A-Za-z0-9]{24,80}', check: hasUpperLowerDigit },
  { id: 'xai-api-key', source: 'xAI API keys (xai- prefix)', keyword: 'xai-', body: 'xai-[A-Za-z0-9]{70,90}', check: hasUpperLowerDigit },
  { id: 'yandex-token', source: 'gitleaks:yandex-api-key, yandex-aws-access-token, yandex-access-token', keyword: ['aqvn', 't1.'], body: String.raw`(?:AQVN[A-Za-z0-9_-]{35,38}|t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2})`, entropy: 3.5 },
  { id: 'resend-api-key', source: 'Resend API keys (re_ prefix)', keyword: 're_', body: 're_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}', check: hasUpperLowerDigit },
];

/**
 * Azure DevOps PATs of the older format: 52 chars of lower-case base32, nothing else marks
 * them (Azure DevOps docs, "Use personal access tokens"). Tested on the runs the gate's
 * entropy pass already walks.
 */
export const AZURE_DEVOPS_LEGACY = /^[a-z2-7]{52}$/;

/**
 * Values known by the vendor named in their key (gitleaks' "keyword = value" rules).
 * The value shape is gitleaks' (case-insensitive), checked against the vendor's docs.
 */
export const LABELLED_RULES: readonly LabelledRule[] = [
  { id: 'adafruit-api-key', source: 'gitleaks:adafruit-api-key', names: ['adafruit'], value: '[a-z0-9_-]{32}' },
  { id: 'adobe-client-id', source: 'gitleaks:adobe-client-id', names: ['adobe'], value: '[a-f0-9]{32}', entropy: 2 },
  { id: 'airtable-api-key', source: 'gitleaks:airtable-api-key', names: ['airtable'], value: '[a-z0-9]{17}' },
  { id: 'algolia-api-key', source: 'gitleaks:algolia-api-key', names: ['algolia'], value: '[a-z0-9]{32}' },
  { id: 'alibaba-secret-key', source: 'gitleaks:alibaba-secret-key', names: ['alibaba', 'aliyun', 'accesskeysecret', 'access_key_secret'], value: '[a-z0-9]{30}', entropy: 2 },
  { id: 'asana-client-secret', source: 'gitleaks:asana-client-id, asana-client-secret', names: ['asana'], value: '(?:[0-9]{16}|[a-z0-9]{32})' },
  { id: 'atlassian-api-token', source: 'gitleaks:atlassian-api-token', names: ['atlassian', 'confluence', 'jira'], value: '[a-z0-9]{20}[a-f0-9]{4}', entropy: 3.5 },
  { id: 'azure-devops-pat', source: 'Azure DevOps personal access tokens (52 base32 chars)', names: ['azure', 'ado_', 'devops', 'azdo', 'vsts'], value: '[a-z2-7]{52}' },
  { id: 'beamer-api-token', source: 'gitleaks:beamer-api-token', names: ['beamer'], value: 'b_[a-z0-9=_-]{44}' },
  { id: 'bitbucket-client-secret', source: 'gitleaks:bitbucket-client-id, bitbucket-client-secret', names: ['bitbucket'], value: '(?:[a-z0-9]{32}|[a-z0-9=_-]{64})' },
  { id: 'bittrex-key', source: 'gitleaks:bittrex-access-key, bittrex-secret-key', names: ['bittrex'], value: '[a-z0-9]{32}' },
  { id: 'braintree-key', source: 'Braintree private keys (32 hex) labelled braintree', names: ['braintree'], value: '[a-f0-9]{32}' },
  { id: 'cisco-meraki-api-key', source: 'gitleaks:cisco-meraki-api-key', names: ['meraki'], value: '[0-9a-f]{40}', entropy: 3 },
  { id: 'cloudflare-api-key', source: 'gitleaks:cloudflare-api-key, cloudflare-global-api-key', names: ['cloudflare', 'cf_api'], value: '(?:[a-z0-9_-]{40}|[a-f0-9]{37})', entropy: 2 },
  { id: 'codecov-access-token', source: 'gitleaks:codecov-access-token', names: ['codecov'], value: '[a-z0-9]{32}' },
  { id: 'cohere-api-token', source: 'gitleaks:cohere-api-token', names: ['cohere', 'co_api_key'], value: '[a-z0-9]{40}', entropy: 4 },
  { id: 'coinbase-access-token', source: 'gitleaks:coinbase-access-token', names: ['coinbase'], value: '[a-z0-9_-]{64}' },
  { id: 'confluent-key', source: 'gitleaks:confluent-access-token, confluent-secret-key', names: ['confluent'], value: '(?:[a-z0-9]{16}|[a-z0-9]{64})' },
  { id: 'contentful-delivery-api-token', source: 'gitleaks:contentful-delivery-api-token', names: ['contentful'], value: '[a-z0-9=_-]{43}' },
  { id: 'datadog-access-token', source: 'gitleaks:datadog-access-token', names: ['datadog', 'dd_api', 'dd_app'], value: '(?:[a-z0-9]{40}|[a-f0-9]{32})' },
  { id: 'discord-client-secret', source: 'gitleaks:discord-api-token, discord-client-secret', names: ['discord'], value: '(?:[a-f0-9]{64}|[a-z0-9=_-]{32})', entropy: 2 },
  { id: 'droneci-access-token', source: 'gitleaks:droneci-access-token', names: ['droneci', 'drone_'], value: '[a-z0-9]{32}' },
  { id: 'dropbox-api-token', source: 'gitleaks:dropbox-api-token, dropbox-long-lived-api-token, dropbox-short-lived-api-token', names: ['dropbox'], value: String.raw`(?:[a-z0-9]{15}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}|sl\.[a-z0-9_=-]{130,150})` },
  { id: 'etsy-access-token', source: 'gitleaks:etsy-access-token', names: ['etsy'], value: '[a-z0-9]{24}', entropy: 3 },
  { id: 'facebook-secret', source: 'gitleaks:facebook-secret', names: ['facebook', 'fb_app_secret'], value: '[a-f0-9]{32}', entropy: 3 },
  { id: 'fastly-api-token', source: 'gitleaks:fastly-api-token', names: ['fastly'], value: '[a-z0-9=_-]{32}' },
  { id: 'finicity-key', source: 'gitleaks:finicity-api-token, finicity-client-secret', names: ['finicity'], value: '(?:[a-f0-9]{32}|[a-z0-9]{20})' },
  { id: 'finnhub-access-token', source: 'gitleaks:finnhub-access-token', names: ['finnhub'], value: '[a-z0-9]{20}' },
  { id: 'flickr-access-token', source: 'gitleaks:flickr-access-token', names: ['flickr'], value: '[a-z0-9]{32}' },
  { id: 'freshbooks-access-token', source: 'gitleaks:freshbooks-access-token', names: ['freshbooks'], value: '[a-z0-9]{64}' },
  { id: 'gitter-access-token', source: 'gitleaks:gitter-access-token', names: ['gitter'], value: '[a-z0-9_-]{40}' },
  { id: 'gocardless-api-token', source: 'gitleaks:gocardless-api-token', names: ['gocardless'], value: 'live_[a-z0-9_=-]{40}' },
  { id: 'heroku-api-key', source: 'gitleaks:heroku-api-key', names: ['heroku'], value: UUID },
  { id: 'hubspot-api-key', source: 'gitleaks:hubspot-api-key', names: ['hubspot'], value: UUID },
  { id: 'intercom-api-key', source: 'gitleaks:intercom-api-key', names: ['intercom'], value: '[a-z0-9=_-]{60}' },
  { id: 'jfrog-api-key', source: 'gitleaks:jfrog-api-key, jfrog-identity-token', names: ['jfrog', 'artifactory', 'bintray', 'xray'], value: '(?:[a-z0-9]{73}|[a-z0-9]{64})' },
  { id: 'kraken-access-token', source: 'gitleaks:kraken-access-token', names: ['kraken'], value: '[a-z0-9/=_+-]{80,90}' },
  { id: 'kucoin-key', source: 'gitleaks:kucoin-access-token, kucoin-secret-key', names: ['kucoin'], value: `(?:[a-f0-9]{24}|${UUID})` },
  { id: 'launchdarkly-access-token', source: 'gitleaks:launchdarkly-access-token', names: ['launchdarkly'], value: '[a-z0-9=_-]{40}' },
  { id: 'linear-client-secret', source: 'gitleaks:linear-client-secret', names: ['linear'], value: '[a-f0-9]{32}', entropy: 2 },
  { id: 'linkedin-client-secret', source: 'gitleaks:linkedin-client-id, linkedin-client-secret', names: ['linkedin', 'linked_in', 'linked-in'], value: '(?:[a-z0-9]{14}|[a-z0-9]{16})', entropy: 2 },
  { id: 'lob-api-key', source: 'gitleaks:lob-api-key, lob-pub-api-key', names: ['lob_', 'lob-', 'lob '], value: '(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})' },
  { id: 'looker-client-secret', source: 'gitleaks:looker-client-id, looker-client-secret', names: ['looker'], value: '(?:[a-z0-9]{20}|[a-z0-9]{24})' },
  { id: 'mailgun-key', source: 'gitleaks:mailgun-private-api-token, mailgun-pub-key, mailgun-signing-key', names: ['mailgun'], value: '(?:key-[a-f0-9]{32}|pubkey-[a-f0-9]{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})' },
  { id: 'mattermost-access-token', source: 'gitleaks:mattermost-access-token', names: ['mattermost'], value: '[a-z0-9]{26}' },
  { id: 'messagebird-api-token', source: 'gitleaks:messagebird-api-token, messagebird-client-id', names: ['messagebird', 'message_bird', 'message-bird'], value: `(?:[a-z0-9]{25}|${UUID})` },
  { id: 'netlify-access-token', source: 'gitleaks:netlify-access-token', names: ['netlify'], value: '[a-z0-9=_-]{40,46}' },
  { id: 'new-relic-key', source: 'gitleaks:new-relic-user-api-id', names: ['new-relic', 'newrelic', 'new_relic'], value: '[a-z0-9]{64}' },
  { id: 'nytimes-access-token', source: 'gitleaks:nytimes-access-token', names: ['nytimes', 'new-york-times', 'newyorktimes'], value: '[a-z0-9=_-]{32}' },
  { id: 'okta-access-token', source: 'gitleaks:okta-access-token', names: ['okta'], value: '00[a-z0-9_=-]{40}', entropy: 4 },
  { id: 'plaid-key', source: 'gitleaks:plaid-api-token, plaid-client-id, plaid-secret-key', names: ['plaid'], value: `(?:access-(?:sandbox|development|production)-${UUID}|[a-z0-9]{24}|[a-z0-9]{30})`, entropy: 3 },
  { id: 'privateai-api-token', source: 'gitleaks:privateai-api-token', names: ['privateai', 'private_ai', 'private-ai'], value: '[a-z0-9]{32}', entropy: 3 },
  { id: 'rapidapi-access-token', source: 'gitleaks:rapidapi-access-token', names: ['rapidapi'], value: '[a-z0-9_-]{50}' },
  { id: 'sendbird-key', source: 'gitleaks:sendbird-access-id, sendbird-access-token', names: ['sendbird'], value: `(?:[a-f0-9]{40}|${UUID})` },
  { id: 'sentry-access-token', source: 'gitleaks:sentry-access-token', names: ['sentry'], value: '[a-f0-9]{64}', entropy: 3 },
  { id: 'sidekiq-secret', source: 'gitleaks:sidekiq-secret', names: ['contribsys__com'], value: '[a-f0-9]{8}:[a-f0-9]{8}' },
  { id: 'snyk-api-token', source: 'gitleaks:snyk-api-token', names: ['snyk'], value: UUID },
  { id: 'sonar-api-token', source: 'gitleaks:sonar-api-token', names: ['sonar'], value: '(?:squ_|sqp_|sqa_)?[a-z0-9=_-]{40}' },
  { id: 'squarespace-access-token', source: 'gitleaks:squarespace-access-token', names: ['squarespace'], value: UUID },
  { id: 'sumologic-key', source: 'gitleaks:sumologic-access-id, sumologic-access-token', names: ['sumo'], value: '(?:su[a-z0-9]{12}|[a-z0-9]{64})', entropy: 3 },
  { id: 'travisci-access-token', source: 'gitleaks:travisci-access-token', names: ['travis'], value: '[a-z0-9]{22}' },
  { id: 'twitch-api-token', source: 'gitleaks:twitch-api-token', names: ['twitch'], value: '[a-z0-9]{30}' },
  { id: 'twitter-key', source: 'gitleaks:twitter-access-secret, twitter-access-token, twitter-api-key, twitter-api-secret, twitter-bearer-token', names: ['twitter'], value: '(?:[a-z0-9]{45}|[0-9]{15,25}-[a-z0-9]{20,40}|[a-z0-9]{25}|[a-z0-9]{50}|A{22}[a-z0-9%]{80,100})' },
  { id: 'yandex-token', source: 'gitleaks:yandex-aws-access-token', names: ['yandex'], value: 'YC[a-z0-9_-]{38}' },
  { id: 'zendesk-secret-key', source: 'gitleaks:zendesk-secret-key', names: ['zendesk'], value: '[a-z0-9]{40}' },
];

/** Every kind a vendor rule can give a finding. */
export const VENDOR_KINDS: readonly string[] = [...new Set([...SHAPE_RULES.map((r) => r.id), ...LABELLED_RULES.map((r) => r.id)])];
