/**
 * Shape checks for JSON read back from `.memory/`. A cache is validated by its shape, not
 * only by its version: a file with the right version and a wrong-shaped entry (a crash, a
 * hand edit, another tool, a `.memory/` committed into a pull request) is rebuilt rather
 * than trusted, so it cannot crash a command. Pure.
 */

/**
 * A plain object (not an array, not null).
 *
 * @example
 * isPlainObject({ a: 1 }) // true
 * isPlainObject([1]) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object whose every value passes `item`.
 *
 * @example
 * isRecordOf({ a: ['x'] }, isStringArray) // true
 * isRecordOf({ a: 'x' }, isStringArray) // false
 */
export function isRecordOf<T>(value: unknown, item: (v: unknown) => v is T): value is Record<string, T> {
  if (!isPlainObject(value)) return false;
  for (const key in value) if (!item(value[key])) return false;
  return true;
}

/**
 * An array of strings.
 *
 * @example
 * isStringArray(['a', 'b']) // true
 */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * A string.
 *
 * @example
 * isString('a') // true
 */
export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/**
 * A finite number.
 *
 * @example
 * isNumber(1.5) // true
 * isNumber(NaN) // false
 */
export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
