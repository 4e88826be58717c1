/**
 * Token counting for budgeted output (the briefing, recall injections).
 * The default is the DESIGN §4 estimate of 4 characters per token; a real tokenizer
 * can be injected as a plain function so the core never loads a model itself.
 */

/** Counts the tokens of a text. Must be pure and deterministic. */
export type Tokenizer = (text: string) => number;

export interface EstimateTokensOptions {
  /** Characters per token; values that are not positive numbers fall back to the default. */
  charsPerToken?: number;
}

export const DEFAULT_ESTIMATE_TOKENS: Required<EstimateTokensOptions> = { charsPerToken: 4 };

export interface CountTokensOptions extends EstimateTokensOptions {
  /** A real tokenizer; when absent the character estimate is used. */
  tokenizer?: Tokenizer | undefined;
}

export const DEFAULT_COUNT_TOKENS: CountTokensOptions = { ...DEFAULT_ESTIMATE_TOKENS, tokenizer: undefined };

/**
 * A usable chars-per-token ratio: a bad config value must not turn every budget into NaN.
 *
 * @example
 * sanitizeCharsPerToken(0) // 4
 */
export function sanitizeCharsPerToken(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_ESTIMATE_TOKENS.charsPerToken;
}

/**
 * Estimated token count: `ceil(chars / charsPerToken)`. Characters are UTF-16 code
 * units (`text.length`), the unit Claude Code's 10,000-character hook limit is checked in.
 *
 * @example
 * estimateTokens('abcdefghi') // 3
 * estimateTokens('abcdefghi', { charsPerToken: 3 }) // 3
 */
export function estimateTokens(text: string, options: EstimateTokensOptions = {}): number {
  const { charsPerToken } = { ...DEFAULT_ESTIMATE_TOKENS, ...options };
  return Math.ceil(text.length / sanitizeCharsPerToken(charsPerToken));
}

/**
 * Token count with the injected tokenizer when there is one, else the estimate.
 * A tokenizer that returns garbage (negative, NaN) is not trusted: the estimate is used.
 *
 * @example
 * countTokens('hello world', { tokenizer: (t) => t.split(' ').length }) // 2
 * countTokens('hello world') // 3
 */
export function countTokens(text: string, options: CountTokensOptions = {}): number {
  const { tokenizer, charsPerToken } = { ...DEFAULT_COUNT_TOKENS, ...options };
  if (tokenizer) {
    const n = tokenizer(text);
    if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  }
  return estimateTokens(text, { charsPerToken });
}
