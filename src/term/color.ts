/**
 * Colour, decided once: only for a TTY with NO_COLOR unset; FORCE_COLOR overrides.
 */
export interface Painter {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

/**
 * Pure decision of whether to colour a stream.
 *
 * @example
 * shouldColor({ isTTY: true }, {}) // true
 * shouldColor({ isTTY: true }, { NO_COLOR: '1' }) // false
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

export function painter(enabled: boolean): Painter {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}
