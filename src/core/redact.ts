/**
 * Secret detection and redaction, in the style of gitleaks: secrets are recognised by
 * the shape of their value (a vendor prefix, a fixed length, a PEM armour) or by the
 * name they are assigned to, never by where they appear.
 *
 * Code fences get no special treatment on purpose: a real key pasted into a code block
 * is still a key, and the look-alikes that live in fences (base64 images, hashes,
 * integrity strings) survive because no rule's shape fits them, not because fences are
 * skipped. Every token rule demands a boundary on both sides that a base64 or hex blob
 * cannot supply, so a match can never start or end inside one.
 *
 * Performance: every pattern is linear (no nested quantifiers over one class, greedy
 * runs followed by a class the run cannot contain), and the context-driven rules are
 * anchored on rare literals (`://`, `-----BEGIN`, a keyword), so a 5 MB transcript costs
 * one pass per rule.
 *
 * Pure: no I/O. The only state is scratch (regex `lastIndex`, a count table), reset per call.
 */
import { scanSecretlint } from './secretlint-scan.js';
import { AZURE_DEVOPS_LEGACY, LABELLED_RULES, SHAPE_RULES, VENDOR_KINDS, type LabelledRule, type ShapeRule } from './redact-rules.js';

/**
 * Every kind a finding can have; also the `<kind>` in `[REDACTED:<kind>]`.
 *
 * @example
 * SECRET_KINDS.includes('github-token') // true
 */
const BASE_KINDS = [
  'private-key',
  'aws-access-key',
  'aws-secret-key',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'stripe-webhook-secret',
  'anthropic-api-key',
  'openai-api-key',
  'google-api-key',
  'google-oauth-secret',
  'azure-storage-key',
  'azure-sas-signature',
  'twilio-api-key',
  'sendgrid-api-key',
  'mailgun-api-key',
  'huggingface-token',
  'digitalocean-token',
  'shopify-token',
  'pypi-token',
  'discord-token',
  'discord-webhook',
  'npm-token',
  'docker-auth',
  'jwt',
  'cli-password',
  'url-password',
  'env-assignment',
  'high-entropy',
  /** A password, secret or token in an XML element or a `<add key="Password" value="…"/>`. */
  'xml-secret',
  /** Found by a rule of secretlint's preset that Cortex has no name of its own for. */
  'secret',
] as const;
/**
 * One of `SECRET_KINDS`: a kind of the core rules, or the id of a vendor rule
 * (redact-rules.ts), e.g. `'doppler-token'`.
 *
 * @example
 * const kind: SecretKind = 'private-key';
 */
export type SecretKind = (typeof BASE_KINDS)[number] | (string & {});
export const SECRET_KINDS: readonly SecretKind[] = [...new Set<SecretKind>([...BASE_KINDS, ...VENDOR_KINDS])];

/**
 * One secret: `text.slice(start, end)` is what gets replaced (for assignments and URLs,
 * only the value). `line` and `column` are 1-based, in UTF-16 code units like the offsets.
 *
 * @example
 * const finding: SecretFinding = { kind: 'jwt', start: 8, end: 120, line: 1, column: 9 };
 */
export interface SecretFinding {
  kind: SecretKind;
  start: number;
  end: number;
  line: number;
  column: number;
}

/**
 * What to look for. Both functions take the same options.
 *
 * @example
 * findSecrets(text, { kinds: ['private-key'], allow: ['AKIA' + 'IOSFODNN7EXAMPLE'] });
 */
export interface FindSecretsOptions {
  /** Kinds to look for; the others are ignored. */
  kinds?: readonly SecretKind[];
  /** Exact matched values that are known not to be secrets (a gitleaks-style allowlist). */
  allow?: readonly string[];
  /**
   * Also run secretlint's preset (default true). Cortex's own rules cover every family of
   * the preset; the preset is a second opinion that costs its module load (~10–20 ms) once
   * per process: hot read paths that inject text (the prompt hooks) skip it.
   */
  preset?: boolean;
}

/**
 * Example credentials that vendors publish in their documentation, so that quoting the
 * docs is not a leak (the gitleaks and secretlint allowlists hold the same). Assembled
 * from pieces so that no scanner flags this file.
 *
 * @example
 * DOCUMENTED_EXAMPLE_KEYS.includes('AKIA' + 'IOSFODNN7EXAMPLE') // true
 */
export const DOCUMENTED_EXAMPLE_KEYS: readonly string[] = [
  // AWS IAM user guide.
  'AKIA' + 'IOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY',
  'ASIA' + 'IOSFODNN7EXAMPLE',
  // Stripe's API reference (a test-mode key of its demo account).
  'sk_' + 'test_4eC39HqLyjWDarjtT1zdp7dc',
  // The jwt.io debugger's default token.
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
    '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ' +
    '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
];

/**
 * Defaults of `FindSecretsOptions`: every kind; only the documented example keys allowed.
 *
 * @example
 * findSecrets(text, { ...DEFAULT_FIND_SECRETS, allow: [...DEFAULT_FIND_SECRETS.allow, knownFalsePositive] });
 */
export const DEFAULT_FIND_SECRETS: Required<FindSecretsOptions> = {
  kinds: SECRET_KINDS,
  allow: DOCUMENTED_EXAMPLE_KEYS,
  preset: true,
};

/**
 * What `redactSecrets` returns.
 *
 * @example
 * const { text, findings }: RedactResult = redactSecrets('TOKEN=' + value);
 */
export interface RedactResult {
  /** The input with every finding replaced; the very same string when nothing was found. */
  text: string;
  /**
   * Offsets refer to the input, not to the redacted text (except those of a later pass,
   * rare, which refer to the text as the earlier passes left it).
   */
  findings: SecretFinding[];
}

interface Candidate {
  kind: SecretKind;
  start: number;
  end: number;
}

/** Where two rules claim exactly the same span, the more specific name wins (vendor rules: 3). */
const PRIORITY: Record<string, number> = {
  'private-key': 4,
  'aws-access-key': 3,
  'github-token': 3,
  'gitlab-token': 3,
  'slack-token': 3,
  'slack-webhook': 3,
  'stripe-key': 3,
  'stripe-webhook-secret': 3,
  'anthropic-api-key': 3,
  'openai-api-key': 3,
  'google-api-key': 3,
  'google-oauth-secret': 3,
  'azure-storage-key': 3,
  'azure-sas-signature': 3,
  'twilio-api-key': 3,
  'sendgrid-api-key': 3,
  'mailgun-api-key': 3,
  'huggingface-token': 3,
  'digitalocean-token': 3,
  'shopify-token': 3,
  'pypi-token': 3,
  'discord-token': 3,
  'discord-webhook': 3,
  'npm-token': 3,
  'docker-auth': 3,
  jwt: 3,
  'aws-secret-key': 2,
  'cli-password': 2,
  'xml-secret': 2,
  secret: 2,
  'url-password': 1,
  'high-entropy': 1,
  'env-assignment': 0,
};

const MARKER_PREFIX = '[REDACTED:';

/** Below this many bits per char a "token" is a placeholder such as `ghp_xxxx…` or `0000…`. */
const TOKEN_MIN_ENTROPY = 2.5;
const ENV_MIN_LENGTH = 8;
const ENV_MIN_ENTROPY = 2.5;
/** Bounds the walk over a key name and the length of a value, so one hit stays O(1). */
const MAX_KEY_LENGTH = 100;
const MAX_VALUE_LENGTH = 1000;

const ASCII_COUNTS = new Uint32Array(128);

function shannonEntropy(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  // A reused table for ASCII keeps this allocation-free on the hot path; other chars
  // (rare in secrets) fall back to a Map.
  let other: Map<number, number> | undefined;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) ASCII_COUNTS[c]!++;
    else (other ??= new Map()).set(c, (other.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const count = c < 128 ? ASCII_COUNTS[c]! : 0;
    if (count === 0) continue; // not ASCII, or already counted
    ASCII_COUNTS[c] = 0;
    bits -= (count / n) * Math.log2(count / n);
  }
  if (other) for (const count of other.values()) bits -= (count / n) * Math.log2(count / n);
  return bits;
}

function hasMixedCaseAndDigit(s: string): boolean {
  return /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
}

interface TokenRule {
  kind: SecretKind;
  pattern: RegExp;
  /** Part of the match that must look random; the prefix is cut off before the check. */
  bodyFrom: number;
  check?: (body: string) => boolean;
  /**
   * Lower-case literals one of which every match contains: the rule runs only when one
   * occurs in the text (see `presentKeywords`). Absent: the shape has no literal, it always runs.
   */
  keywords?: readonly string[];
}

// Token boundaries. A token must not touch a word char or `-` on either side, so it can
// never start or end inside a longer run (a hash, a slug, base64url). A `-` that is part of
// PEM armour (`-----`) is a boundary, though: a key block may be glued to a token, and
// once the block is redacted the token would otherwise appear on a second pass.
// A char after a backslash is an escape (`\n` in JSON: a line break in the text it
// escapes), so it is no neighbour: a secret at the start of a body line in a JSON export.
const BEFORE = String.raw`(?<!(?<!\\)\w)(?<!(?<!----)-)`;
const AFTER = String.raw`(?!\w)(?!-(?!----))`;
// Purely alphanumeric shapes also refuse `+`, `/` (and `=` after), which surround an
// alphanumeric stretch inside standard base64.
const BEFORE_B64 = String.raw`(?<!(?<!\\)[\w+/])(?<!(?<!----)-)`;
const AFTER_B64 = String.raw`(?![\w+/=])(?!-(?!----))`;
const token = (body: string, before = BEFORE, after = AFTER): RegExp => new RegExp(before + body + after, 'g');

const TOKEN_RULES: readonly TokenRule[] = [
  // A `/` may precede a key id (`s3://bucket/AKIA….csv`): sixteen upper-case chars in a
  // row are too rare in base64 for a blob to pass as a key. (gitleaks:aws-access-token)
  {
    kind: 'aws-access-key',
    pattern: token('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}', String.raw`(?<!(?<!\\)[A-Za-z0-9+])(?<!(?<!----)-)`, String.raw`(?![A-Za-z0-9+=])(?!-(?!----))`),
    bodyFrom: 4,
    keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'],
  },
  { kind: 'github-token', pattern: token(String.raw`(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{50,})`), bodyFrom: 4, keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'] },
  {
    kind: 'gitlab-token',
    pattern: token(String.raw`glpat-[\w-]{20,}`),
    bodyFrom: 6,
    keywords: ['glpat-'],
    check: (body) => /[A-Z0-9]/.test(body), // not a kebab-case slug
  },
  {
    kind: 'slack-token',
    pattern: token('xox[abposre]-[A-Za-z0-9-]{10,}'),
    bodyFrom: 5,
    keywords: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-'],
    check: (body) => /[0-9]/.test(body),
  },
  {
    kind: 'slack-webhook',
    pattern: token(String.raw`(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[\w/+-]{20,}`),
    bodyFrom: 0,
    keywords: ['hooks.slack.com/'],
  },
  { kind: 'stripe-key', pattern: token('(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}'), bodyFrom: 8, keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'] },
  { kind: 'anthropic-api-key', pattern: token(String.raw`sk-ant-[\w-]{20,}`), bodyFrom: 7, check: hasMixedCaseAndDigit, keywords: ['sk-ant-'] },
  {
    // Kebab-case slugs that happen to start with `sk-` are all lower case: the mixed-case
    // check is what keeps them out.
    kind: 'openai-api-key',
    pattern: token(String.raw`sk-(?!ant-)[\w-]{20,}`),
    bodyFrom: 3,
    keywords: ['sk-'],
    check: hasMixedCaseAndDigit,
  },
  { kind: 'google-api-key', pattern: token(String.raw`AIza[\w-]{35}`, BEFORE_B64, AFTER_B64), bodyFrom: 4, keywords: ['aiza'] },
  { kind: 'npm-token', pattern: token('npm_[A-Za-z0-9]{36}'), bodyFrom: 4, keywords: ['npm_'] },
  { kind: 'jwt', pattern: token(String.raw`eyJ[\w-]{10,}\.ey[\w-]{10,}\.[\w-]{10,}`), bodyFrom: 0, keywords: ['eyj'] },
  // Vendor formats as each vendor documents them (the prefix is the vendor's, the length
  // and alphabet its token's). Most are also in secretlint's preset or gitleaks' rules.
  { kind: 'stripe-webhook-secret', pattern: token('whsec_[A-Za-z0-9+/=]{24,}', BEFORE, AFTER_B64), bodyFrom: 6, keywords: ['whsec_'] },
  { kind: 'google-oauth-secret', pattern: token(String.raw`GOCSPX-[\w-]{24,40}`), bodyFrom: 7, keywords: ['gocspx-'] },
  { kind: 'twilio-api-key', pattern: token('SK[0-9a-f]{32}', BEFORE_B64, AFTER_B64), bodyFrom: 2 },
  { kind: 'sendgrid-api-key', pattern: token(String.raw`SG\.[\w-]{16,32}\.[\w-]{32,64}`), bodyFrom: 3, keywords: ['sg.'] },
  { kind: 'mailgun-api-key', pattern: token('key-[0-9a-zA-Z]{32}'), bodyFrom: 4, check: (body) => /[0-9]/.test(body), keywords: ['key-'] },
  { kind: 'mailgun-api-key', pattern: token('[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}'), bodyFrom: 0 },
  { kind: 'huggingface-token', pattern: token('hf_[A-Za-z0-9]{30,40}'), bodyFrom: 3, check: (body) => /[A-Z]/.test(body) && /[a-z]/.test(body), keywords: ['hf_'] },
  { kind: 'digitalocean-token', pattern: token('do[opr]_v1_[a-f0-9]{64}'), bodyFrom: 7, keywords: ['doo_v1_', 'dop_v1_', 'dor_v1_'] },
  { kind: 'shopify-token', pattern: token('shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'), bodyFrom: 6, keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'] },
  { kind: 'pypi-token', pattern: token(String.raw`pypi-AgEIcHlwaS5vcmc[\w-]{50,}`), bodyFrom: 5, keywords: ['pypi-ageichlwas5vcmc'] },
  {
    // Bot tokens: base64 of the numeric user id, a timestamp, an HMAC.
    kind: 'discord-token',
    pattern: token(String.raw`[MNO][A-Za-z0-9_-]{23,27}\.[\w-]{6}\.[\w-]{27,40}`),
    bodyFrom: 0,
    check: hasMixedCaseAndDigit,
  },
  {
    kind: 'discord-webhook',
    pattern: token(String.raw`https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/[\w-]{60,70}`),
    bodyFrom: 0,
    keywords: ['/api/webhooks/'],
  },
];

function findTokens(text: string, kinds: ReadonlySet<SecretKind>, has: (keyword: string) => boolean, out: Candidate[]): void {
  for (const rule of TOKEN_RULES) {
    if (!kinds.has(rule.kind) || (rule.keywords !== undefined && !rule.keywords.some(has))) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      const body = m[0].slice(rule.bodyFrom);
      if (shannonEntropy(body) < TOKEN_MIN_ENTROPY) continue;
      if (rule.check && !rule.check(body)) continue;
      out.push({ kind: rule.kind, start: m.index, end: m.index + m[0].length });
    }
  }
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** gitleaks' assignment operators between a key and its value. */
const ASSIGN = String.raw`(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`;
/** Where a labelled value ends: a quote, a blank, a separator, a JSON escape, the end. */
const VALUE_END = String.raw`(?=[\x60'"\s;,)}\]<&]|\\[nrt]|$)`;

/*
 * Each vendor rule's expression is built the first time its keyword occurs, not when the
 * gate loads: V8 compiles an expression on its first use and again, to machine code, on
 * its second, so a text that names no vendor costs no compilation at all.
 */
const shapeKeywords = (rule: ShapeRule): readonly string[] => (typeof rule.keyword === 'string' ? [rule.keyword] : rule.keyword);
const shapePatterns: Array<RegExp | undefined> = [];
const labelledPatterns: Array<RegExp | undefined> = [];

function shapePattern(i: number): RegExp {
  let pattern = shapePatterns[i];
  if (pattern === undefined) {
    const rule = SHAPE_RULES[i]!;
    const [before, after] =
      rule.boundary === 'none' ? ['', ''] : rule.boundary === 'b64' ? [BEFORE_B64, AFTER_B64] : [BEFORE, AFTER];
    pattern = shapePatterns[i] = new RegExp(before + rule.body + after, rule.ignoreCase === true ? 'gi' : 'g');
  }
  return pattern;
}

function labelledPattern(i: number): RegExp {
  let pattern = labelledPatterns[i];
  if (pattern === undefined) {
    const rule = LABELLED_RULES[i]!;
    // The vendor's name, at most 20 more name chars, quotes, the operator, quotes or
    // blanks, then the value (group 1) and its end. Linear: every run is bounded.
    pattern = labelledPatterns[i] = new RegExp(
      String.raw`(?:${rule.names.map(escapeRegex).join('|')})[ \t\w.-]{0,20}[\s'"]{0,3}${ASSIGN}[\x60'"\s=]{0,5}(${rule.value})${VALUE_END}`,
      'gid',
    );
  }
  return pattern;
}

/** Keywords too short or too common to be worth looking for: their rules always run. */
const ALWAYS = (k: string): boolean => k.length < 3;

/**
 * Every keyword of every rule (token, shape and labelled rules), lower case, longest
 * first, those `ALWAYS` runs left out.
 *
 * @example
 * RULE_KEYWORDS.includes('glpat-') // true
 */
export const RULE_KEYWORDS: readonly string[] = [
  ...new Set([
    ...TOKEN_RULES.flatMap((r) => r.keywords ?? []),
    ...SHAPE_RULES.flatMap(shapeKeywords),
    ...LABELLED_RULES.flatMap((r) => r.names),
  ]),
]
  .filter((k) => !ALWAYS(k))
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

/**
 * Texts up to this long are searched with one `includes` per keyword on the lower-cased
 * text (≈0.1 ms for a memory, nothing to compile); longer ones with one expression of
 * all keywords, whose compilation (≈5–30 ms) pays for itself on a long text.
 */
const SMALL_TEXT = 16 * 1024;
let keywordPattern: RegExp | undefined;
/** For each keyword, the shorter keywords it starts with: found wherever it is. */
let keywordPrefixes: Map<string, readonly string[]> | undefined;

/**
 * The rules' keywords that occur in `text`, case-insensitively. Exact for any text: the
 * long-text expression resumes one char after each hit (so a keyword that starts inside
 * another is still seen) and adds the shorter keywords a hit starts with.
 *
 * @example
 * presentKeywords('GLPAT-…') // Set { 'glpat-' }
 */
export function presentKeywords(text: string): Set<string> {
  const found = new Set<string>();
  if (text.length <= SMALL_TEXT) {
    const lower = text.toLowerCase();
    for (const k of RULE_KEYWORDS) if (lower.includes(k)) found.add(k);
    return found;
  }
  if (keywordPattern === undefined || keywordPrefixes === undefined) {
    // Grouped by first char (`a(?:ge-secret-key-1|irtable|…)|b(?:…)`): V8 then tries one
    // group per position instead of every keyword; longest first, so a hit is the longest
    // keyword that starts there.
    const groups = new Map<string, string[]>();
    for (const k of RULE_KEYWORDS) {
      const rest = groups.get(k[0]!) ?? [];
      rest.push(k.slice(1));
      groups.set(k[0]!, rest);
    }
    keywordPattern = new RegExp([...groups].map(([c, rest]) => `${escapeRegex(c)}(?:${rest.map(escapeRegex).join('|')})`).join('|'), 'gi');
    keywordPrefixes = new Map(RULE_KEYWORDS.map((k) => [k, RULE_KEYWORDS.filter((p) => p !== k && k.startsWith(p))]));
  }
  keywordPattern.lastIndex = 0;
  for (let m = keywordPattern.exec(text); m !== null; m = keywordPattern.exec(text)) {
    const k = m[0].toLowerCase();
    found.add(k);
    for (const p of keywordPrefixes.get(k) ?? []) found.add(p);
    keywordPattern.lastIndex = m.index + 1;
  }
  return found;
}

/** Vendor rules (redact-rules.ts), each run only when its keyword is in the text. */
function findVendorTokens(text: string, wanted: ReadonlySet<SecretKind>, has: (keyword: string) => boolean, out: Candidate[]): void {
  for (let i = 0; i < SHAPE_RULES.length; i++) {
    const rule = SHAPE_RULES[i]!;
    if (!wanted.has(rule.id) || !shapeKeywords(rule).some(has)) continue;
    const pattern = shapePattern(i);
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (rule.left && !rule.left.test(text.slice(Math.max(0, m.index - (rule.extendLeft ?? 0) - 8), m.index))) continue;
      const value = text.slice(m.index - (rule.extendLeft ?? 0), m.index + m[0].length);
      if (rule.entropy !== undefined && shannonEntropy(value) < rule.entropy) continue;
      if (rule.check && !rule.check(value)) continue;
      if (isPlaceholder(value)) continue;
      out.push({ kind: rule.id, start: m.index - (rule.extendLeft ?? 0), end: m.index + m[0].length });
    }
  }
  for (let i = 0; i < LABELLED_RULES.length; i++) {
    const rule = LABELLED_RULES[i]!;
    if (!wanted.has(rule.id) || !rule.names.some(has)) continue;
    const pattern = labelledPattern(i);
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const span = m.indices?.[1];
      const value = m[1];
      if (span === undefined || value === undefined) continue;
      if (shannonEntropy(value) < (rule.entropy ?? 2) || isPlaceholder(value) || /^[a-z]+$/i.test(value)) continue;
      out.push({ kind: rule.id, start: span[0], end: span[1] });
      pattern.lastIndex = span[1];
    }
  }
}

/** Azure DevOps PATs of the older format, unlabelled: random enough, with a digit. */
function isAzureDevopsPat(run: string): boolean {
  // Words run together have no digits; 52 random base32 chars have about ten.
  return AZURE_DEVOPS_LEGACY.test(run) && (run.match(/[2-7]/g)?.length ?? 0) >= 4 && shannonEntropy(run) >= 4.2;
}

/**
 * Secrets in XML: `<password>…</password>` (any element whose name holds a secret word)
 * and `<add key="Password" value="…"/>` (NuGet, .NET appSettings; gitleaks:nuget-config-password).
 */
const XML_ELEMENT = /<((?:[\w.-]*:)?[\w.-]*(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential)[\w.-]*)(?:\s[^<>]{0,200})?>([^<\n]{1,1000})<\/\1\s*>/gi;
const XML_KEY_VALUE = /<add\s+key\s*=\s*"([^"]{0,100}(?:passw(?:or)?d|secret|token|api[_-]?key|apikey|connectionstring)[^"]{0,100})"\s+value\s*=\s*"([^"\n]{1,1000})"/gi;

function findXmlSecrets(text: string, out: Candidate[]): void {
  if (!text.includes('<')) return;
  for (const pattern of [XML_ELEMENT, XML_KEY_VALUE]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const value = m[2] ?? '';
      const trimmed = value.trim();
      if (trimmed.length < 4 || isPlaceholder(trimmed) || /^(?:true|false|null|none)$/i.test(trimmed)) continue;
      // The value ends where the closing tag (or the closing quote) starts.
      const start = m.index + (pattern === XML_ELEMENT ? m[0].lastIndexOf('</') : m[0].length - 1) - value.length;
      const lead = value.length - value.trimStart().length;
      out.push({ kind: 'xml-secret', start: start + lead, end: start + lead + trimmed.length });
    }
  }
}

// A bare 40-char base64 run is too common to flag (hashes, blobs), so the value must
// follow a keyword within a few name characters: `aws_secret_access_key = …`,
// `"SecretAccessKey": "…"`, `AWS secret: …`. Only the stretch just after each keyword is
// searched for a value, and the keyword is then confirmed behind the value: both stay
// linear where keywords are dense (`aws aws aws …`).
const AWS_KEYWORD = /aws|secret/gi;
const AWS_SECRET_VALUE = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g;
/** The keyword, then at most 30 name characters up to the end of the slice. */
const AWS_SECRET_NAME = /(?:aws|secret)[\w. -]{0,30}$/i;
/** Farthest a value can end after its keyword: name, quote, blanks, `:=`, blanks, quote, value. */
const AWS_SECRET_REACH = 30 + 1 + 4 + 2 + 4 + 1 + 40;

/**
 * Whether an AWS keyword names the value at `start`. The punctuation between name and
 * value is peeled off by hand, right to left, because one regex with optional quotes,
 * spaces and separator around a name that may hold spaces backtracks through every
 * way of splitting the spaces between them.
 */
function hasAwsSecretName(text: string, start: number): boolean {
  let i = start;
  const quote = (): void => {
    if (text[i - 1] === '"' || text[i - 1] === "'") i--;
  };
  const blanks = (): void => {
    for (let k = 0; k < 4 && (text[i - 1] === ' ' || text[i - 1] === '\t'); k++) i--;
  };
  quote();
  blanks();
  if (text.startsWith(':=', i - 2) || text.startsWith('=>', i - 2)) i -= 2;
  else if (text[i - 1] === ':' || text[i - 1] === '=') i--;
  blanks();
  quote();
  return AWS_SECRET_NAME.test(text.slice(Math.max(0, i - 36), i));
}

function findAwsSecrets(text: string, out: Candidate[]): void {
  let searchedTo = 0;
  AWS_KEYWORD.lastIndex = 0;
  for (let k = AWS_KEYWORD.exec(text); k !== null; k = AWS_KEYWORD.exec(text)) {
    // Windows overlap by one value length, so a value straddling the previous window's
    // end is still seen; values that ended inside it were judged already.
    const judgedTo = searchedTo;
    const from = Math.max(k.index + k[0].length, searchedTo - 40);
    const to = Math.min(text.length, k.index + k[0].length + AWS_SECRET_REACH);
    if (to <= judgedTo) continue;
    searchedTo = to;
    // The window keeps one char either side so the value's boundary checks see the real
    // neighbours. A value past `to` is out of this keyword's reach.
    const offset = Math.max(0, from - 1);
    const window = text.slice(offset, Math.min(text.length, to + 1));
    AWS_SECRET_VALUE.lastIndex = from - offset;
    for (let m = AWS_SECRET_VALUE.exec(window); m !== null; m = AWS_SECRET_VALUE.exec(window)) {
      const start = offset + m.index;
      const end = start + m[0].length;
      if (end > to) break;
      if (end <= judgedTo) continue;
      // Hex digests (commit SHAs) are 40 chars too, but never mixed case.
      if (!/[A-Z]/.test(m[0]) || !/[a-z]/.test(m[0]) || shannonEntropy(m[0]) < 3) continue;
      if (!hasAwsSecretName(text, start)) continue;
      out.push({ kind: 'aws-secret-key', start, end });
    }
  }
}

const PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/g;
/** Base64 body lines after a header with no footer, raw or JSON-escaped (`\n`). */
const PEM_BODY_LINES = /(?:(?:\r?\n|\\r\\n|\\n)[ \t]*[A-Za-z0-9+/=]{8,})+/y;
/** A header and footer around nothing like key material (`…`, prose) are documentation. */
const PEM_MATERIAL = /[A-Za-z0-9+/=]{20}/;

function findPrivateKeys(text: string, out: Candidate[]): void {
  const armour: Array<{ begin: boolean; start: number; end: number }> = [];
  for (const [pattern, begin] of [[PEM_BEGIN, true], [PEM_END, false]] as const) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      armour.push({ begin, start: m.index, end: m.index + m[0].length });
    }
  }
  armour.sort((x, y) => x.start - y.start);
  // Footers close the nearest open header, like brackets: a stray header inside a block
  // is then inside the redacted span, and redacting cannot pair leftovers differently on
  // a second pass. One walk, so unmatched headers cannot make the scan quadratic.
  const open: Array<{ start: number; end: number }> = [];
  for (const mark of armour) {
    if (mark.begin) {
      open.push(mark);
      continue;
    }
    const begin = open.pop();
    if (begin !== undefined && PEM_MATERIAL.test(text.slice(begin.end, mark.start))) {
      out.push({ kind: 'private-key', start: begin.start, end: mark.end });
    }
  }
  // A truncated key (`head id_rsa`, a cut-off transcript) still leaks its material.
  for (const begin of open) {
    PEM_BODY_LINES.lastIndex = begin.end;
    const body = PEM_BODY_LINES.exec(text);
    if (body !== null) out.push({ kind: 'private-key', start: begin.start, end: begin.end + body[0].length });
  }
}

// The user stops at `[`/`]` and the host may start with `[` only as an IPv6 address, so
// that a redaction marker can never complete a URL on a second pass. The user may be
// empty (`redis://:pw@host`), and a password may hold a `#` (people paste them unencoded).
const URL_USERINFO = /:\/\/([^\s:/@?#[\]]{0,256}):([^\s@/?]{1,256})@(?=\w|\[[0-9A-Fa-f:])/g;

const URL_TOKEN_USER = /:\/\/([A-Za-z0-9_~.%+-]{16,256})@(?=\w|\[[0-9A-Fa-f:])/g;

function isPlaceholder(value: string): boolean {
  if (value.includes(MARKER_PREFIX)) return true;
  // `${VAR}`, `$VAR`, `$(cmd)`, `%s`, `%(name)s`, `{{ var }}`, `<your-token>`.
  if (/^(?:\$[{(\w]|%(?:[sd]$|[({])|\{\{|<)/.test(value)) return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\.|ENV\[)/.test(value)) return true;
  if (/^(.)\1*$/i.test(value)) return true; // `xxx`, `***`, `0000`
  // Templates anywhere (`ghp_${rest}`, `{{ vault.token }}`) are filled in elsewhere.
  return /your|change_?-?me|example|placeholder|dummy|sample|redacted|xxxx|\*\*\*|\.\.\.|<[^>]*>|\$\{|\{\{/i.test(value);
}

/** Words people write where a value goes: `--password password`, `https://user:pass@host`. */
const VALUE_WORDS = /^(?:password|passwd|pass|pwd|secret|token)$/i;

/**
 * `judged` collects every userinfo the rule looked at, redacted or not: a wider finding of
 * the same URL from secretlint defers to that judgement (see `CONTEXT_RULES`).
 */
function findUrlPasswords(text: string, out: Candidate[], judged: Candidate[]): void {
  // A token as the whole userinfo (`https://<token>@github.com/…`): random enough to be one.
  URL_TOKEN_USER.lastIndex = 0;
  for (let m = URL_TOKEN_USER.exec(text); m !== null; m = URL_TOKEN_USER.exec(text)) {
    const user = m[1] ?? '';
    const start = m.index + 3;
    if (isPlaceholder(user) || shannonEntropy(user) < 3.5) continue;
    if (!hasMixedCaseAndDigit(user) && !/^[a-f0-9]{32,}$/i.test(user)) continue;
    out.push({ kind: 'url-password', start, end: start + user.length });
  }
  URL_USERINFO.lastIndex = 0;
  for (let m = URL_USERINFO.exec(text); m !== null; m = URL_USERINFO.exec(text)) {
    const password = m[2] ?? '';
    const end = m.index + m[0].length - 1; // the `@`
    judged.push({ kind: 'url-password', start: m.index, end: end + 1 });
    if (isPlaceholder(password) || VALUE_WORDS.test(password)) continue;
    out.push({ kind: 'url-password', start: end - password.length, end });
  }
}

/**
 * Passwords on command lines: `sshpass -p …`, `mysql -p…` (glued, as the client wants
 * it), `curl -u user:…`, and `--password …` / `--token …` with a space (the `=` forms are
 * assignments). The option names are the anchors; the value is the next word.
 */
const CLI_PASSWORD = new RegExp(
  [
    String.raw`\bsshpass(?:[ \t]+-[a-oq-zA-Z]\S*)*[ \t]+-p[ \t]*`,
    String.raw`\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p(?=[^\s-])`,
    String.raw`\bcurl\b[^\n|;&]{0,200}?[ \t](?:-u|--user)[ \t]+['"]?[^\s:'"]{1,64}:`,
    String.raw`(?<![\w-])--(?:password|passwd|token|api-key|apikey|secret|client-secret|auth-token)[ \t]+(?=[^\s-])`,
  ].join('|'),
  'g',
);

function findCliPasswords(text: string, out: Candidate[]): void {
  CLI_PASSWORD.lastIndex = 0;
  for (let m = CLI_PASSWORD.exec(text); m !== null; m = CLI_PASSWORD.exec(text)) {
    const at = m.index + m[0].length;
    const span = readValue(text, at);
    const value = text.slice(span.start, span.end);
    if (value.length >= 3 && !isPlaceholder(value) && !VALUE_WORDS.test(value) && !value.startsWith('-')) {
      out.push({ kind: 'cli-password', start: span.start, end: span.end });
    }
    CLI_PASSWORD.lastIndex = Math.max(at, span.scanned);
  }
}

/**
 * Values whose label says what they are, though the value has no shape of its own:
 * Azure storage keys and shared access signatures, Docker's `auths` credentials.
 * Only the value goes.
 */
const LABELLED_VALUES: ReadonlyArray<{ kind: SecretKind; label: RegExp; value: RegExp }> = [
  { kind: 'azure-storage-key', label: /\b(?:AccountKey|SharedAccessKey)=/g, value: /[A-Za-z0-9+/%]{20,}={0,2}/y },
  { kind: 'azure-sas-signature', label: /[?&;]sig=/g, value: /[A-Za-z0-9%+/]{20,}(?:=|%3[dD]){0,2}/y },
  { kind: 'docker-auth', label: /"(?:auth|identitytoken)"[ 	]*:[ 	]*"/g, value: /[A-Za-z0-9+/_.-]{12,}={0,2}(?=")/y },
];

function findLabelledValues(text: string, kinds: ReadonlySet<SecretKind>, out: Candidate[]): void {
  for (const rule of LABELLED_VALUES) {
    if (!kinds.has(rule.kind)) continue;
    rule.label.lastIndex = 0;
    for (let m = rule.label.exec(text); m !== null; m = rule.label.exec(text)) {
      rule.value.lastIndex = m.index + m[0].length;
      const v = rule.value.exec(text);
      if (v === null || isPlaceholder(v[0]) || shannonEntropy(v[0]) < ENV_MIN_ENTROPY) continue;
      out.push({ kind: rule.kind, start: v.index, end: v.index + v[0].length });
    }
  }
}

/**
 * Unlabelled high-entropy tokens: a run of base64/base64url characters, 32 to 512 long,
 * with upper case, lower case and digits, and at least `HIGH_ENTROPY_BITS` bits per char
 * (random base62 of 32 chars has about 4.6). Runs that are data, not credentials, are left:
 * inside a URL (document ids), after `sha512-` (integrity) or `base64,` (data URIs), a
 * line of a multi-line base64 block, and paths whose parts are words.
 */
// A run ends before a `.` that ends a sentence, but not one that continues a name (`x.md`).
const ENTROPY_RUN = /(?<![A-Za-z0-9+/_\-.%\\])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/=_-]|[.%][A-Za-z0-9])/g;
const HIGH_ENTROPY_BITS = 4.2;
const MAX_ENTROPY_RUN = 512;
/** Integrity strings, data URIs, go.sum (`h1:`) and `sha256:`-style digests. */
const DATA_PREFIX = /(?:sha(?:1|256|384|512)[-:]|base64,|\bh1:)$/i;
const DATA_RUN = /^sha(?:1|256|384|512)-/i;
const BLOCK_LINE = /^[ \t]*[A-Za-z0-9+/=]{40,}[ \t]*$/;
/** The last line of a block may be short; it is still only base64. */
const LAST_BLOCK_LINE = /^[ \t]*[A-Za-z0-9+/=]+[ \t]*$/;

function lineAround(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return { start, end: nl === -1 ? text.length : nl };
}

function isBlockLine(text: string, start: number, end: number, pattern = BLOCK_LINE): boolean {
  return end - start <= 200 && pattern.test(text.slice(start, end).replace(/\r$/, ''));
}

/** Whether the run at [start, end) is one line of several lines of base64 (MIME, a dump). */
function isInDataBlock(text: string, start: number, end: number): boolean {
  const line = lineAround(text, start);
  if (line.end < end || !isBlockLine(text, line.start, line.end, LAST_BLOCK_LINE)) return false;
  if (line.start > 0) {
    const prev = lineAround(text, line.start - 1);
    if (isBlockLine(text, prev.start, prev.end)) return true;
  }
  if (line.end < text.length) {
    const next = lineAround(text, line.end + 1);
    if (isBlockLine(text, next.start, next.end)) return true;
  }
  return false;
}

/** Whether a `://` precedes `at` on its line with no blank in between: a URL's path or query. */
function isInUrl(text: string, at: number): boolean {
  for (let i = at - 1, seen = 0; i >= 0 && seen < 2048; i--, seen++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 60 || c === 40) return false;
    if (c === 47 && text[i - 1] === '/' && text[i - 2] === ':') return true;
  }
  return false;
}

function isWordyPath(run: string): boolean {
  if (!run.includes('/')) return false;
  const parts = run.split('/').filter((p) => p !== '');
  return parts.length >= 2 && parts.every((p) => /^[A-Za-z][a-z]*(?:[A-Z][a-z]*)*[0-9]{0,4}$/.test(p) || /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(p));
}

/**
 * Whether most of a run is words (`useCallbackWithDependencyTracking2`): identifiers have
 * long lower-case stretches, random strings rarely more than two lower-case chars in a row.
 */
function isMostlyWords(run: string): boolean {
  let covered = 0;
  for (const m of run.matchAll(/[A-Z]?[a-z]{3,}/g)) covered += m[0].length;
  return covered * 2 >= run.length;
}

const SSH_KEY_TYPE = /(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+$/;

/** How deep base64 is decoded and scanned again (base64 of base64 of a secret). */
const MAX_DECODE_DEPTH = 2;
let decodeDepth = 0;

/** The bytes a base64 (or base64url) run decodes to, as a binary string; undefined when it is not base64. */
function decodeBase64(run: string): string | undefined {
  const std = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (std.length % 4 === 1 || !/^[A-Za-z0-9+/]+$/.test(std)) return undefined;
  try {
    return atob(std + '='.repeat((4 - (std.length % 4)) % 4));
  } catch {
    return undefined;
  }
}

/** Whether decoded bytes are text: printable ASCII or UTF-8 (at most 1 in 20 bytes otherwise). */
function isText(bytes: string): boolean {
  let odd = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) odd++;
  }
  if (odd * 20 > bytes.length) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes, (ch) => ch.charCodeAt(0)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a high-entropy run that may be base64 is a secret. Base64 of text (prose, JSON,
 * a config) is a secret only if the text holds one: it is decoded and scanned again. Base64
 * of an SSH public key (`AAAA…` wire format naming its algorithm) is public. Anything
 * else (random bytes, or no base64 at all) is a secret.
 */
function isSecretBase64(run: string): boolean {
  const bytes = decodeBase64(run);
  if (bytes === undefined) return true;
  if (/^\0\0\0[\x01-\x40](?:ssh-|ecdsa-|sk-)/.test(bytes)) return false;
  if (!isText(bytes)) return true;
  if (decodeDepth >= MAX_DECODE_DEPTH) return true;
  decodeDepth++;
  try {
    const decoded = new TextDecoder().decode(Uint8Array.from(bytes, (ch) => ch.charCodeAt(0)));
    // One random-looking word (a password, `user:pass`) is a secret as it stands.
    if (!/\s/.test(decoded) && decoded.length >= 12 && shannonEntropy(decoded) >= 3.3 && !isMostlyWords(decoded)) return true;
    return findSecrets(decoded, { preset: false }).length > 0;
  } finally {
    decodeDepth--;
  }
}

function findHighEntropy(text: string, out: Candidate[], wantEntropy = true, wantAzure = true): void {
  ENTROPY_RUN.lastIndex = 0;
  for (let m = ENTROPY_RUN.exec(text); m !== null; m = ENTROPY_RUN.exec(text)) {
    const run = m[0];
    if (run.length === 52 && wantAzure && isAzureDevopsPat(run) && !isInUrl(text, m.index)) {
      out.push({ kind: 'azure-devops-pat', start: m.index, end: m.index + run.length });
      continue;
    }
    if (!wantEntropy || run.length > MAX_ENTROPY_RUN || !hasMixedCaseAndDigit(run)) continue;
    if (shannonEntropy(run) < HIGH_ENTROPY_BITS || isPlaceholder(run) || isWordyPath(run) || isMostlyWords(run)) continue;
    const start = m.index;
    const end = start + run.length;
    if (DATA_RUN.test(run) || DATA_PREFIX.test(text.slice(Math.max(0, start - 8), start))) continue;
    if (isInUrl(text, start) || isInDataBlock(text, start, end)) continue;
    // Publishable keys are meant to be public (Stripe's `pk_live_`, `pk_test_`).
    if (/^pk_(?:live|test)_/.test(run)) continue;
    // SSH public keys (`ssh-ed25519 AAAA… comment`) are public.
    if (SSH_KEY_TYPE.test(text.slice(Math.max(0, start - 48), start))) continue;
    // Decoding scans the decoded text with the same (global) patterns: this scan resumes after the run.
    const secret = isSecretBase64(run);
    ENTROPY_RUN.lastIndex = end;
    if (!secret) continue;
    out.push({ kind: 'high-entropy', start, end });
  }
}

const NOT_A_SECRET_NAME =
  /[-_.](?:header|name|names|file|path|dir|env|var|field|param|length|len|size|ttl|type|url|uri|endpoint|prefix|suffix|format|mode|enabled|version|count|timeout|expiry|expires|expiration|provider|algorithm|algo|kind|location|region|arn|ref|id|label|policy|scope|scopes|method|strategy|store|backend|source|rotation|hint|description)$/i;
const ENV_KEYWORD = /secret|token|passw(?:or)?d|api[_-]?key|private[_-]?key|access[_-]?key|auth/gi;
/** `author` is not a credential; `authorization` and `oauth` are. */
const SECRET_KEY_NAME = /secret|token|passw(?:or)?d|apikey|privatekey|accesskey|auth(?!or(?!iz))/i;
/** `Authorization: Bearer <token>`: the scheme word stays, the credential goes. */
const AUTH_SCHEME = /(?:Bearer|Basic|Token|Bot)[ \t]+/iy;

/** Length of an auth scheme word and its spaces at `at`, or 0. */
function authSchemeLength(text: string, at: number): number {
  AUTH_SCHEME.lastIndex = at;
  return AUTH_SCHEME.exec(text)?.[0].length ?? 0;
}

function isKeyChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46
  );
}

/**
 * Unquoted values end at whitespace, quotes, a backslash (JSON-escaped `\n` in transcripts)
 * and the separators of lists and query strings (`,` `;` `&`), so that
 * `?token=…&secret=…` is two values, not one.
 */
function isValueStop(c: number): boolean {
  return (
    c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 96 || c === 92 || c === 44 ||
    c === 59 || c === 38
  );
}

/** End of the unquoted run at `from`, at most `MAX_VALUE_LENGTH` chars on. */
function unquotedEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_VALUE_LENGTH);
  let end = from;
  while (end < limit && !isValueStop(text.charCodeAt(end))) end++;
  return end;
}

/** Whether an assigned value looks like a credential rather than a word, a number or code. */
function isSecretValue(value: string): boolean {
  if (value.length < ENV_MIN_LENGTH) return false;
  if (isPlaceholder(value)) return false;
  if (/^(?:\/|\.\.?\/|~\/|[A-Za-z]:\\)/.test(value) || value.includes('://')) return false; // paths, URLs
  if (/^[\d.,:_+-]+$/.test(value) || /^v?\d+(?:\.\d+){1,3}(?:[-+][\w.-]*)?$/.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || /^[\w$.]+\(/.test(value)) return false; // code
  // Words: `string`, `HashiCorpVault`, `DEFAULT_TOKEN`, `bert-base-uncased`. One long
  // lower-case run is left to the entropy check (`correcthorsebatterystaple`).
  // Words with a version digit count too: `oauth2_pkce_flow`, `http2-only`.
  if (/^[a-z]+\d?(?:[-_.][a-z]+\d?)+$/.test(value) || /^(?:[A-Z]|[a-z]+[A-Z])[a-z]+(?:[A-Z][a-z]+)*$/.test(value)) return false;
  if (/^[A-Z]+(?:_[A-Z]+)*$/.test(value) || (/^[a-z]+$/.test(value) && value.length < 20)) return false;
  // Header names and other capitalised words joined by hyphens: `X-Api-Key`, `X-Auth-Token`.
  if (/^[A-Za-z][a-z]*(?:-[A-Za-z][a-z]*)+$/.test(value)) return false;
  if (/^(?:true|false|null|none|undefined|nil)$/i.test(value)) return false;
  if (/token|secret|passw|api_?key/i.test(value)) return false; // `getToken`, `secretName2`
  return shannonEntropy(value) >= ENV_MIN_ENTROPY;
}

/**
 * `spans` are the other rules' findings, sorted and disjoint. They are opaque here: a
 * keyword inside one is no key, and a key name stops at their edges. Otherwise a keyword
 * inside, say, a webhook URL could decide this pass and then vanish with the URL, and a
 * second pass would decide differently.
 */
function findEnvAssignments(text: string, spans: readonly Candidate[], out: Candidate[]): void {
  const n = text.length;
  let next = 0; // first span that ends after the current keyword
  ENV_KEYWORD.lastIndex = 0;
  for (let m = ENV_KEYWORD.exec(text); m !== null; m = ENV_KEYWORD.exec(text)) {
    while (next < spans.length && spans[next]!.end <= m.index) next++;
    const inside = spans[next];
    if (inside !== undefined && inside.start <= m.index) {
      ENV_KEYWORD.lastIndex = inside.end;
      continue;
    }
    const leftLimit = Math.max(0, spans[next - 1]?.end ?? 0, m.index - MAX_KEY_LENGTH);
    const rightLimit = Math.min(n, inside?.start ?? n, m.index + MAX_KEY_LENGTH);
    let keyStart = m.index;
    let keyEnd = m.index + m[0].length;
    while (keyStart > leftLimit && isKeyChar(text.charCodeAt(keyStart - 1))) keyStart--;
    while (keyEnd < rightLimit && isKeyChar(text.charCodeAt(keyEnd))) keyEnd++;
    ENV_KEYWORD.lastIndex = keyEnd; // one key, one look, however many keywords it holds
    // Only `auth…` can be a false keyword (`author`); then the whole name decides.
    const maybeAuthor = m[0].length === 4 && /^or(?!iz)/i.test(text.slice(m.index + 4, m.index + 8));
    if (maybeAuthor && !SECRET_KEY_NAME.test(text.slice(keyStart, keyEnd).replace(/[-_.]/g, ''))) continue;
    // A name that says its value is about the secret, not the secret: `API_KEY_HEADER`,
    // `SECRET_NAME`, `TOKEN_URL`, `PASSWORD_FILE`, `AUTH_TYPE` …
    if (NOT_A_SECRET_NAME.test(text.slice(keyStart, keyEnd))) continue;

    let i = keyEnd;
    let quotedKey = false;
    if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === "'")) {
      i += 2;
      quotedKey = true;
    } else if (text[i] === '"' || text[i] === "'") {
      i += 1;
      quotedKey = true;
    }
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text.startsWith(':=', i) || text.startsWith('=>', i)) i += 2;
    else if (text[i] === '=') {
      if (text[i + 1] === '=') continue; // a comparison, not an assignment
      i += 1;
    } else if (text[i] === ':') {
      i += 1;
      // YAML needs a space after `:`; without one (`x-access-token:…@`, `a:b`) only JSON's
      // quoted keys count.
      if (!quotedKey && text[i] !== ' ' && text[i] !== '\t') continue;
    } else continue;
    while (text[i] === ' ' || text[i] === '\t') i++;

    const span = readValue(text, i);
    // Keywords inside a value already read are not keys: skipping them keeps the scan
    // linear however densely keywords repeat (`token=token=token…`).
    ENV_KEYWORD.lastIndex = Math.max(keyEnd, span.scanned);
    if (span.end > span.start && isSecretValue(text.slice(span.start, span.end))) {
      out.push({ kind: 'env-assignment', start: span.start, end: span.end });
    }
  }
}

/** The value that starts at `i`: quoted (also JSON-escaped `\"…\"`) or a bare run. */
function readValue(text: string, i: number): { start: number; end: number; scanned: number } {
  let quote = text[i];
  let open = 1;
  if (quote === '\\' && (text[i + 1] === '"' || text[i + 1] === "'")) {
    quote = text[i + 1];
    open = 2;
  }
  if (quote === '"' || quote === "'" || quote === '`') {
    let start = i + open;
    const limit = Math.min(text.length, start + MAX_VALUE_LENGTH);
    let close = start;
    while (close < limit && text[close] !== quote && text[close] !== '\n') close++;
    if (text[close] !== quote) return { start, end: start, scanned: close };
    let end = close;
    if (open === 2 && text[end - 1] === '\\') end--;
    start = Math.min(end, start + authSchemeLength(text, start));
    return { start, end, scanned: close + 1 };
  }
  let start = i;
  let end = unquotedEnd(text, start);
  const scheme = authSchemeLength(text, start);
  if (scheme > 0) {
    start += scheme;
    end = unquotedEnd(text, start);
  }
  const scanned = end;
  // A sentence may end right after a value: `… set TOKEN=abc123.`
  while (end > start && text[end - 1] === '.') end--;
  return { start, end, scanned };
}

/** secretlint's rules by the kind Cortex names their findings; the others are `secret`. */
const SECRETLINT_KINDS: Readonly<Record<string, SecretKind>> = {
  aws: 'aws-secret-key',
  privatekey: 'private-key',
  npm: 'npm-token',
  basicauth: 'url-password',
  'database-connection-string': 'url-password',
  slack: 'slack-token',
  sendgrid: 'sendgrid-api-key',
  shopify: 'shopify-token',
  github: 'github-token',
  gitlab: 'gitlab-token',
  openai: 'openai-api-key',
  anthropic: 'anthropic-api-key',
  huggingface: 'huggingface-token',
  docker: 'docker-auth',
};

/**
 * Rules that report more than the secret (a whole connection string; the key name with
 * the value). Where Cortex's own rules judged the same place, their narrower span (or
 * their verdict that a `${VAR}` is no password) stands; elsewhere the wide span is
 * redacted whole.
 */
const CONTEXT_RULES = new Set(['aws', 'basicauth', 'database-connection-string']);

function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

const SECRETLINT_KIND_SET: ReadonlySet<SecretKind> = new Set([...Object.values(SECRETLINT_KINDS), 'secret']);

function fromSecretlint(text: string, wanted: ReadonlySet<SecretKind>, ours: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  if (![...wanted].some((k) => SECRETLINT_KIND_SET.has(k))) return out;
  for (const span of scanSecretlint(text)) {
    const kind = SECRETLINT_KINDS[span.rule] ?? 'secret';
    if (!wanted.has(kind)) continue;
    if (CONTEXT_RULES.has(span.rule)) {
      if (!ours.some((c) => c.start < span.end && span.start < c.end)) out.push({ kind, start: span.start, end: span.end });
      continue;
    }
    // Placeholders such as `ghp_xxxx…` have the shape but none of the randomness, and
    // `xoxb-your-token-here` says what it is, as our own rules' placeholders do.
    const value = text.slice(span.start, span.end);
    if (shannonEntropy(value) < TOKEN_MIN_ENTROPY || /^(.{1,12}?)(.)\2{15,}$/.test(value) || isPlaceholder(value)) continue;
    // secretlint's patterns do not all demand a boundary: a token glued to a word is taken
    // with that word, so that redacting it cannot leave a fragment that reads differently.
    let start = span.start;
    let end = span.end;
    for (let n = 0; start > 0 && n < MAX_VALUE_LENGTH && isWordCode(text.charCodeAt(start - 1)); n++) start--;
    for (let n = 0; end < text.length && n < MAX_VALUE_LENGTH && isWordCode(text.charCodeAt(end)); n++) end++;
    out.push({ kind, start, end });
  }
  return out;
}

/** `text` with each span's characters replaced by spaces (offsets unchanged). */
function blankSpans(text: string, spans: readonly Candidate[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const c of spans) {
    out += text.slice(at, c.start) + ' '.repeat(c.end - c.start);
    at = c.end;
  }
  return out + text.slice(at);
}

/**
 * Sorts candidates and makes them disjoint: for one span the most specific kind wins, a
 * span inside another disappears into it, and partly overlapping spans are joined (so no
 * fragment of either survives redaction).
 */
function mergeCandidates(candidates: Candidate[]): Candidate[] {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || (PRIORITY[b.kind] ?? 3) - (PRIORITY[a.kind] ?? 3));
  const merged: Candidate[] = [];
  for (const c of candidates) {
    const last = merged[merged.length - 1];
    if (last !== undefined && c.start < last.end) {
      if (c.end > last.end) last.end = c.end;
      continue;
    }
    merged.push({ ...c });
  }
  return merged;
}

/**
 * Finds the secrets in a text: sorted by offset, never overlapping.
 *
 * @example
 * findSecrets(`export GITHUB_TOKEN="ghp_${thirtySixChars}"`)
 * // [{ kind: 'github-token', start: 21, end: 61, line: 1, column: 22 }]
 */
export function findSecrets(text: string, options: FindSecretsOptions = {}): SecretFinding[] {
  const { kinds, allow, preset } = { ...DEFAULT_FIND_SECRETS, ...options };
  const wanted = new Set(kinds);
  const allowed = new Set(allow);
  const keep = (found: Candidate[]): Candidate[] =>
    allowed.size === 0 ? found : found.filter((c) => !allowed.has(text.slice(c.start, c.end)));

  const shaped: Candidate[] = [];
  const judged: Candidate[] = [];
  if (wanted.has('private-key') && text.includes('-----BEGIN')) findPrivateKeys(text, shaped);
  const present = presentKeywords(text);
  const has = (k: string): boolean => ALWAYS(k) || present.has(k);
  findTokens(text, wanted, has, shaped);
  findVendorTokens(text, wanted, has, shaped);
  if (wanted.has('xml-secret')) findXmlSecrets(text, shaped);
  if (wanted.has('aws-secret-key')) findAwsSecrets(text, shaped);
  if (wanted.has('url-password') && text.includes('://')) findUrlPasswords(text, shaped, judged);
  if (wanted.has('cli-password')) findCliPasswords(text, shaped);
  findLabelledValues(text, wanted, shaped);
  if (preset) shaped.push(...fromSecretlint(text, wanted, [...shaped, ...judged]));
  let kept = mergeCandidates(keep(shaped));
  if (wanted.has('env-assignment')) {
    const assigned: Candidate[] = [];
    findEnvAssignments(text, kept, assigned);
    kept = mergeCandidates([...kept, ...keep(assigned)]);
  }
  // Last, so a labelled value keeps its label's kind; the spans found so far are blanked
  // out, so a run next to one is judged as it will be once that one is a marker.
  if (wanted.has('high-entropy') || wanted.has('azure-devops-pat')) {
    const unlabelled: Candidate[] = [];
    findHighEntropy(blankSpans(text, kept), unlabelled, wanted.has('high-entropy'), wanted.has('azure-devops-pat'));
    kept = mergeCandidates([...kept, ...keep(unlabelled)]);
  }

  const findings: SecretFinding[] = [];
  let line = 1;
  let lineStart = 0;
  // The next newline is remembered, not searched again per finding: a long text with no
  // newline left would otherwise be rescanned to its end for each one.
  let nextNewline = text.indexOf('\n');
  for (const c of kept) {
    while (nextNewline !== -1 && nextNewline < c.start) {
      line++;
      lineStart = nextNewline + 1;
      nextNewline = text.indexOf('\n', lineStart);
    }
    findings.push({ kind: c.kind, start: c.start, end: c.end, line, column: c.start - lineStart + 1 });
  }
  return findings;
}

/**
 * Replaces every secret with `[REDACTED:<kind>]`. For assignments and URLs only the value
 * goes: `API_TOKEN=[REDACTED:env-assignment]`, `postgres://app:[REDACTED:url-password]@db`.
 * Idempotent, and text without secrets comes back unchanged.
 *
 * @example
 * redactSecrets('key: AKIA' + 'IOSFODNN7EXAMPLE').text // 'key: [REDACTED:aws-access-key]'
 */
export function redactSecrets(text: string, options: FindSecretsOptions = {}): RedactResult {
  const findings = findSecrets(text, options);
  if (findings.length === 0) return { text, findings };
  let out = replaceFindings(text, findings);
  // Redacting can change what borders a fragment (a glued token now has a marker beside
  // it). The rules are written so that it does not, but the gate must not depend on that:
  // the output is scanned again until nothing is left (each pass only shrinks the text's
  // secret material; three passes have never been needed).
  for (let pass = 0; pass < 3; pass++) {
    const again = findSecrets(out, options);
    if (again.length === 0) break;
    findings.push(...again);
    out = replaceFindings(out, again);
  }
  return { text: out, findings };
}

function replaceFindings(text: string, findings: readonly SecretFinding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += `${text.slice(at, f.start)}${MARKER_PREFIX}${f.kind}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

/**
 * What `redactParts` returns: the parts, each redacted, and every finding (offsets refer
 * to the parts joined with `\n`, except those found in one part alone afterwards).
 *
 * @example
 * const { parts: [summary, body] }: RedactPartsResult = redactParts([summary, body]);
 */
export interface RedactPartsResult {
  parts: string[];
  findings: SecretFinding[];
}

/**
 * Redacts texts that belong together — a memory's summary and body — as one text joined by
 * newlines, so that a secret split across them (a key block whose header became the
 * summary) is found whole; each part then loses exactly its share of it.
 *
 * @example
 * redactParts(['-----BEGIN RSA ' + 'PRIVATE KEY-----', keyLines + '\n-----END RSA ' + 'PRIVATE KEY-----']).parts
 * // ['[REDACTED:private-key]', '[REDACTED:private-key]']
 */
export function redactParts(parts: readonly string[], options: FindSecretsOptions = {}): RedactPartsResult {
  const joined = parts.join('\n');
  const whole = findSecrets(joined, options);
  const findings = [...whole];
  const out: string[] = [];
  let partStart = 0;
  for (const part of parts) {
    const partEnd = partStart + part.length;
    let text = '';
    let at = partStart;
    for (const f of whole) {
      if (f.end <= partStart || f.start >= partEnd) continue;
      const from = Math.max(f.start, partStart);
      text += `${joined.slice(at, from)}${MARKER_PREFIX}${f.kind}]`;
      at = Math.min(f.end, partEnd);
    }
    text += joined.slice(at, partEnd);
    // Each part alone once more: what the joined scan could not see as a part's own.
    const alone = redactSecrets(text, options);
    findings.push(...alone.findings);
    out.push(alone.text);
    partStart = partEnd + 1;
  }
  return { parts: out, findings };
}

/**
 * What `redactDeep` returns: the value with every string redacted, and the kinds found.
 *
 * @example
 * const { value, kinds }: RedactDeepResult<{ cmd: string }> = redactDeep({ cmd });
 */
export interface RedactDeepResult<T> {
  value: T;
  kinds: SecretKind[];
}

/** Strings shorter than this cannot hold a credential any rule would name. */
const MIN_SECRET_STRING = 6;

/**
 * Redacts every string in a JSON-like value — array items, object values and object keys —
 * at any depth, for state that is written as a whole (checkpoints, the review queue).
 * Returns the same object when nothing changed; never mutates its input.
 *
 * `clean` names strings that need no scan because this same gate produced them: the
 * strings of a file it wrote (see `stringsOf`). Redaction is idempotent, so skipping them
 * changes nothing but the time: state rewritten after every turn is scanned only for
 * what the turn added.
 *
 * @example
 * redactDeep({ recentCommands: ['export API_TOKEN=' + value] }).value
 * // { recentCommands: ['export API_TOKEN=[REDACTED:env-assignment]'] }
 */
export function redactDeep<T>(value: T, options: FindSecretsOptions = {}, clean?: ReadonlySet<string>): RedactDeepResult<T> {
  const kinds = new Set<SecretKind>();
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length < MIN_SECRET_STRING || clean?.has(v) === true) return v;
      const r = redactSecrets(v, options);
      for (const f of r.findings) kinds.add(f.kind);
      return r.text;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) return v;
    seen.add(v);
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((item) => {
        const next = walk(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : v;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      const k = walk(key) as string;
      const next = walk(item);
      if (k !== key || next !== item) changed = true;
      out[k] = next;
    }
    return changed ? out : v;
  };
  return { value: walk(value) as T, kinds: [...kinds] };
}

/**
 * Every string in a JSON-like value (array items, object keys and values), for
 * `redactDeep`'s `clean` set.
 *
 * @example
 * stringsOf({ a: ['x', { b: 'y' }] }) // Set { 'a', 'x', 'b', 'y' }
 */
export function stringsOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      into.add(v);
      return;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const item of v) walk(item);
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      into.add(key);
      walk(item);
    }
  };
  walk(value);
  return into;
}
