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

/**
 * Every kind a finding can have; also the `<kind>` in `[REDACTED:<kind>]`.
 *
 * @example
 * SECRET_KINDS.includes('github-token') // true
 */
export const SECRET_KINDS = [
  'private-key',
  'aws-access-key',
  'aws-secret-key',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'anthropic-api-key',
  'openai-api-key',
  'google-api-key',
  'npm-token',
  'jwt',
  'url-password',
  'env-assignment',
] as const;
/**
 * One of `SECRET_KINDS`.
 *
 * @example
 * const kind: SecretKind = 'private-key';
 */
export type SecretKind = (typeof SECRET_KINDS)[number];

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
}

/**
 * Defaults of `FindSecretsOptions`: every kind, nothing allowed.
 *
 * @example
 * findSecrets(text, { ...DEFAULT_FIND_SECRETS, allow: knownFalsePositives });
 */
export const DEFAULT_FIND_SECRETS: Required<FindSecretsOptions> = {
  kinds: SECRET_KINDS,
  allow: [],
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
  /** Offsets refer to the input, not to the redacted text. */
  findings: SecretFinding[];
}

interface Candidate {
  kind: SecretKind;
  start: number;
  end: number;
}

/** Where two rules claim exactly the same span, the more specific name wins. */
const PRIORITY: Record<SecretKind, number> = {
  'private-key': 4,
  'aws-access-key': 3,
  'github-token': 3,
  'gitlab-token': 3,
  'slack-token': 3,
  'slack-webhook': 3,
  'stripe-key': 3,
  'anthropic-api-key': 3,
  'openai-api-key': 3,
  'google-api-key': 3,
  'npm-token': 3,
  jwt: 3,
  'aws-secret-key': 2,
  'url-password': 1,
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
}

// Token boundaries. A token must not touch a word char or `-` on either side, so it can
// never start or end inside a longer run (a hash, a slug, base64url). A `-` that is part of
// PEM armour (`-----`) is a boundary, though: a key block may be glued to a token, and
// once the block is redacted the token would otherwise appear on a second pass.
const BEFORE = String.raw`(?<!\w)(?<!(?<!----)-)`;
const AFTER = String.raw`(?!\w)(?!-(?!----))`;
// Purely alphanumeric shapes also refuse `+`, `/` (and `=` after), which surround an
// alphanumeric stretch inside standard base64.
const BEFORE_B64 = String.raw`(?<![\w+/])(?<!(?<!----)-)`;
const AFTER_B64 = String.raw`(?![\w+/=])(?!-(?!----))`;
const token = (body: string, before = BEFORE, after = AFTER): RegExp => new RegExp(before + body + after, 'g');

const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'aws-access-key', pattern: token('(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}', BEFORE_B64, AFTER_B64), bodyFrom: 4 },
  { kind: 'github-token', pattern: token(String.raw`(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{50,})`), bodyFrom: 4 },
  {
    kind: 'gitlab-token',
    pattern: token(String.raw`glpat-[\w-]{20,}`),
    bodyFrom: 6,
    check: (body) => /[A-Z0-9]/.test(body), // not a kebab-case slug
  },
  {
    kind: 'slack-token',
    pattern: token('xox[abposr]-[A-Za-z0-9-]{10,}'),
    bodyFrom: 5,
    check: (body) => /[0-9]/.test(body),
  },
  {
    kind: 'slack-webhook',
    pattern: token(String.raw`(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[\w/+-]{20,}`),
    bodyFrom: 0,
  },
  { kind: 'stripe-key', pattern: token('(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}'), bodyFrom: 8 },
  { kind: 'anthropic-api-key', pattern: token(String.raw`sk-ant-[\w-]{20,}`), bodyFrom: 7, check: hasMixedCaseAndDigit },
  {
    // Kebab-case slugs that happen to start with `sk-` are all lower case: the mixed-case
    // check is what keeps them out.
    kind: 'openai-api-key',
    pattern: token(String.raw`sk-(?!ant-)[\w-]{20,}`),
    bodyFrom: 3,
    check: hasMixedCaseAndDigit,
  },
  { kind: 'google-api-key', pattern: token(String.raw`AIza[\w-]{35}`, BEFORE_B64, AFTER_B64), bodyFrom: 4 },
  { kind: 'npm-token', pattern: token('npm_[A-Za-z0-9]{36}'), bodyFrom: 4 },
  { kind: 'jwt', pattern: token(String.raw`eyJ[\w-]{10,}\.ey[\w-]{10,}\.[\w-]{10,}`), bodyFrom: 0 },
];

function findTokens(text: string, kinds: ReadonlySet<SecretKind>, out: Candidate[]): void {
  for (const rule of TOKEN_RULES) {
    if (!kinds.has(rule.kind)) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      const body = m[0].slice(rule.bodyFrom);
      if (shannonEntropy(body) < TOKEN_MIN_ENTROPY) continue;
      if (rule.check && !rule.check(body)) continue;
      out.push({ kind: rule.kind, start: m.index, end: m.index + m[0].length });
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
// that a redaction marker can never complete a URL on a second pass.
const URL_USERINFO = /:\/\/([^\s:/@?#[\]]{1,256}):([^\s@/?#]{1,256})@(?=\w|\[[0-9A-Fa-f:])/g;

function isPlaceholder(value: string): boolean {
  if (value.includes(MARKER_PREFIX)) return true;
  // `${VAR}`, `$VAR`, `$(cmd)`, `%s`, `%(name)s`, `{{ var }}`, `<your-token>`.
  if (/^(?:\$[{(\w]|%(?:[sd]$|[({])|\{\{|<)/.test(value)) return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\.|ENV\[)/.test(value)) return true;
  if (/^(.)\1*$/i.test(value)) return true; // `xxx`, `***`, `0000`
  // Templates anywhere (`ghp_${rest}`, `{{ vault.token }}`) are filled in elsewhere.
  return /your|change_?-?me|example|placeholder|dummy|sample|redacted|xxxx|\*\*\*|\.\.\.|<[^>]*>|\$\{|\{\{/i.test(value);
}

function findUrlPasswords(text: string, out: Candidate[]): void {
  URL_USERINFO.lastIndex = 0;
  for (let m = URL_USERINFO.exec(text); m !== null; m = URL_USERINFO.exec(text)) {
    const password = m[2] ?? '';
    if (isPlaceholder(password) || /^(?:password|passwd|pass|pwd|secret|token)$/i.test(password)) continue;
    const end = m.index + m[0].length - 1; // the `@`
    out.push({ kind: 'url-password', start: end - password.length, end });
  }
}

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
  if (/^[a-z]+(?:[-_.][a-z]+)+$/.test(value) || /^(?:[A-Z]|[a-z]+[A-Z])[a-z]+(?:[A-Z][a-z]+)*$/.test(value)) return false;
  if (/^[A-Z]+(?:_[A-Z]+)*$/.test(value) || (/^[a-z]+$/.test(value) && value.length < 20)) return false;
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

/**
 * Sorts candidates and makes them disjoint: for one span the most specific kind wins, a
 * span inside another disappears into it, and partly overlapping spans are joined (so no
 * fragment of either survives redaction).
 */
function mergeCandidates(candidates: Candidate[]): Candidate[] {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || PRIORITY[b.kind] - PRIORITY[a.kind]);
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
  const { kinds, allow } = { ...DEFAULT_FIND_SECRETS, ...options };
  const wanted = new Set(kinds);
  const allowed = new Set(allow);
  const keep = (found: Candidate[]): Candidate[] =>
    allowed.size === 0 ? found : found.filter((c) => !allowed.has(text.slice(c.start, c.end)));

  const shaped: Candidate[] = [];
  if (wanted.has('private-key') && text.includes('-----BEGIN')) findPrivateKeys(text, shaped);
  findTokens(text, wanted, shaped);
  if (wanted.has('aws-secret-key')) findAwsSecrets(text, shaped);
  if (wanted.has('url-password') && text.includes('://')) findUrlPasswords(text, shaped);
  let kept = mergeCandidates(keep(shaped));
  if (wanted.has('env-assignment')) {
    const assigned: Candidate[] = [];
    findEnvAssignments(text, kept, assigned);
    kept = mergeCandidates([...kept, ...keep(assigned)]);
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
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += `${text.slice(at, f.start)}${MARKER_PREFIX}${f.kind}]`;
    at = f.end;
  }
  return { text: out + text.slice(at), findings };
}
