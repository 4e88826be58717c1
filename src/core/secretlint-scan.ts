/**
 * The maintained half of the redaction gate: secretlint's recommended rule preset
 * (`@secretlint/secretlint-rule-preset-recommend`, MIT), run synchronously on a string.
 *
 * The preset's rules are plain objects with a documented interface (`create(context)`
 * returns a `file(source)` handler that calls `context.report({ range })`), so they are
 * driven here directly rather than through `@secretlint/core`: that keeps the gate
 * synchronous (the checkpoint and log writers are) and loads one 200 KB module instead of
 * the core's dozen. The sources handed to the rules have no file path and no extension,
 * so the two rules that would read a file or parse a whole file as JSON (`.p12`, `.json`)
 * never do: the scan is pure.
 *
 * Filter rules (`secretlint-disable` comments) are not run: a comment in a memory must not
 * switch the gate off.
 *
 * The preset is loaded on first use, not when this module is imported: commands that only
 * read (recall, list, the session-start briefing) import the gate's modules without ever
 * paying for the rules. The package is ESM-only; it loads synchronously through
 * require(esm), which Node has by default since 20.19 and 22.12. On an older runtime the
 * CLI awaits `loadSecretlintRules()` before running a command, and so must a library user
 * before writing; otherwise a scan throws rather than run without the rules (fail closed).
 */
import { createRequire } from 'node:module';

const PRESET = '@secretlint/secretlint-rule-preset-recommend';

/** One span a secretlint rule reported: `text.slice(start, end)`, and the rule's short name. */
export interface SecretlintSpan {
  /** The rule id without its `@secretlint/secretlint-rule-` prefix, e.g. `sendgrid`. */
  rule: string;
  start: number;
  end: number;
}

interface RuleContext {
  sharedOptions: Record<string, unknown>;
  createTranslator(messages: unknown): (id: string, data?: unknown) => { message: string; data: unknown };
  report(descriptor: { range: readonly [number, number] }): void;
  ignore(descriptor: unknown): void;
}

interface RuleCreator {
  meta: { id: string; type: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?(source: unknown): unknown };
}

const PREFIX = '@secretlint/secretlint-rule-';

interface Prepared {
  rule: string;
  handler: (source: unknown) => unknown;
  sink: { spans: SecretlintSpan[] | undefined };
}

let prepared: Prepared[] | undefined;
let loaded: RuleCreator[] | undefined;

/**
 * Loads the preset asynchronously (works on every supported Node). Idempotent.
 *
 * @example
 * await loadSecretlintRules(); // then every scan is synchronous
 */
export async function loadSecretlintRules(): Promise<void> {
  loaded ??= ((await import(PRESET)) as { rules: RuleCreator[] }).rules;
}

function presetRules(): RuleCreator[] {
  if (loaded === undefined) {
    try {
      loaded = (createRequire(import.meta.url)(PRESET) as { rules: RuleCreator[] }).rules;
    } catch (err) {
      throw new Error(
        `The secret rules (${PRESET}) cannot be loaded synchronously on Node ${process.versions.node}: await loadSecretlintRules() first, or use Node >= 20.19.`,
        { cause: err },
      );
    }
  }
  return loaded;
}

function prepare(): Prepared[] {
  const out: Prepared[] = [];
  for (const creator of presetRules()) {
    if (creator.meta.type !== 'scanner') continue;
    const rule = creator.meta.id.startsWith(PREFIX) ? creator.meta.id.slice(PREFIX.length) : creator.meta.id;
    // A preset that ships its comment filter typed as a scanner (13.x): it only ignores.
    if (rule.startsWith('filter-')) continue;
    const sink: Prepared['sink'] = { spans: undefined };
    const context: RuleContext = {
      sharedOptions: {},
      createTranslator: () => (id, data) => ({ message: id, data }),
      report: ({ range }) => {
        const [start, end] = range;
        if (sink.spans && Number.isInteger(start) && Number.isInteger(end) && end > start) sink.spans.push({ rule, start, end });
      },
      ignore: () => undefined,
    };
    const handler = creator.create(context, {}).file;
    if (handler) out.push({ rule, handler: handler.bind(undefined), sink });
  }
  return out;
}

/**
 * What each scanner rule of the preset (12.0.0) needs in a text before it can report
 * anything, read from the rule's own expressions (for a source without a file name, the
 * only kind the gate hands it): a literal of its pattern, or the pattern's start. A text
 * with none of them cannot be reported by any rule, so the preset is neither loaded nor
 * run on it. `gcp` reads only `.json` and `.p12` files and `filter-comments` only
 * ignores: they need nothing. A rule the preset gains in an upgrade is not here, and the
 * test that compares this table with the preset's rules fails until it is.
 *
 * @example
 * SECRETLINT_RULE_NEEDS.sendgrid.test('SG.abc') // true
 */
export const SECRETLINT_RULE_NEEDS: Readonly<Record<string, RegExp | null>> = {
  aws: /(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}|secret_?access_?key|account_?(?:id)?['"]?\s*(?::|=>|=)\s*['"]?[0-9]{4}/i,
  gcp: null,
  privatekey: /PRIVATE KEY/,
  npm: /npm_/,
  basicauth: /(?:https?|ftps?):\/\/[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@/,
  slack: /xox[bpaor]-|xapp-|hooks\.slack\.com\/services\//i,
  sendgrid: /SG\./,
  shopify: /shp(?:pa|ca|at|ss)_/,
  github: /gh[pousr]_|github_pat_/,
  gitlab: /glpat-/,
  grafana: /glc_|glsa_/,
  openai: /T3BlbkFJ/,
  anthropic: /sk-ant-api0/,
  groq: /gsk_/,
  huggingface: /hf_/,
  linear: /lin_api_/,
  notion: /ntn_/,
  '1password': /ops_ey/,
  'database-connection-string': /(?:mongodb(?:\+srv)?|mysqlx?|postgres(?:ql)?):\/\//i,
  'hashicorp-vault': /hv[sbr]\./,
  vercel: /vc[pciark]_/,
  databricks: /dapi/,
  docker: /dckr_pat_/,
  figma: /figd_/,
  'filter-comments': null,
};

const NEEDS: readonly RegExp[] = Object.values(SECRETLINT_RULE_NEEDS).filter((r): r is RegExp => r !== null);

/**
 * Whether any rule of the preset could report something in `text` (see
 * `SECRETLINT_RULE_NEEDS`). False means `scanSecretlint(text)` is empty for certain.
 *
 * @example
 * secretlintMayMatch('a plain sentence') // false
 */
export function secretlintMayMatch(text: string): boolean {
  return NEEDS.some((need) => need.test(text));
}

/**
 * Every span the preset's scanner rules report in `text`, in rule order (not sorted, may
 * overlap). A rule that throws, or returns a promise, contributes nothing: no rule of the
 * preset does either for a source without a file name.
 *
 * @example
 * scanSecretlint('key: SG.' + 'x'.repeat(22) + '.' + 'y'.repeat(43)) // [{ rule: 'sendgrid', start: 5, end: 74 }]
 */
export function scanSecretlint(text: string, options: { prefilter?: boolean } = {}): SecretlintSpan[] {
  // Most texts name nothing any rule looks for: the preset is then not even loaded.
  // (`prefilter: false` is for the test that checks the prefilter against the rules.)
  if (options.prefilter !== false && !secretlintMayMatch(text)) return [];
  prepared ??= prepare();
  const spans: SecretlintSpan[] = [];
  const source = { content: text, hasBOM: false, filePath: undefined, physicalFilePath: undefined, contentType: 'text', ext: '' };
  for (const p of prepared) {
    p.sink.spans = spans;
    try {
      const result = p.handler(source);
      // An asynchronous report would arrive after the gate has decided: such a rule is skipped.
      if (result instanceof Promise) result.catch(() => undefined);
    } catch {
      // A rule that fails on odd input must not stop the others.
    } finally {
      p.sink.spans = undefined;
    }
  }
  return spans.filter((s) => s.end <= text.length);
}
