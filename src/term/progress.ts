/**
 * Progress on stderr for long work (embedding): a redrawn bar on a TTY, a few count
 * lines otherwise (logs, CI), nothing at all when the command is silenced (`--json`,
 * `--quiet`). Commands feed it the api's `onProgress({ done, total })` calls.
 */
import type { IO } from './args.js';

export interface ProgressBarInput {
  label: string;
  done: number;
  total: number;
  /** Items per second so far, when known. */
  rate: number | undefined;
  /** Width of the bar itself, in characters. */
  width: number;
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m < 60 ? `${m}m${String(s).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * One line of a progress bar. Pure.
 *
 * @example
 * formatProgressBar({ label: 'embedding', done: 5, total: 10, rate: 2.5, width: 10 })
 * // 'embedding [#####-----]  5/10  50%  2.5/s  ETA 2s'
 */
export function formatProgressBar(input: ProgressBarInput): string {
  const { label, done, total, rate, width } = input;
  const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(fraction * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const count = `${String(done).padStart(String(total).length)}/${total}`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const parts = [`${label} ${bar}`, count, percent];
  if (rate !== undefined && rate > 0) {
    parts.push(`${rate >= 100 ? Math.round(rate) : rate.toFixed(1)}/s`);
    if (done < total) parts.push(`ETA ${formatSeconds((total - done) / rate)}`);
  }
  return parts.join('  ');
}

export interface ProgressOptions {
  label: string;
  /** Draw nothing (`--json`, `--quiet`). */
  silent: boolean;
  /** Minimum time between TTY redraws. */
  redrawMs: number;
  /** Count lines when not on a TTY: one per this fraction of the work. */
  lineEvery: number;
  now: () => number;
}

export const DEFAULT_PROGRESS: ProgressOptions = { label: 'working', silent: false, redrawMs: 100, lineEvery: 0.1, now: () => Date.now() };

export interface Progress {
  update(done: number, total: number): void;
  /** Removes the bar (TTY) so the summary that follows starts on a clean line. */
  finish(): void;
}

/**
 * A progress reporter writing to `io.err`.
 *
 * @example
 * const progress = createProgress(io, { label: 'embedding', silent: inv.json })
 * await embedIndex(ctx, { onProgress: ({ done, total }) => progress.update(done, total) })
 * progress.finish()
 */
export function createProgress(io: IO, options: Partial<ProgressOptions> = {}): Progress {
  const { label, silent, redrawMs, lineEvery, now } = { ...DEFAULT_PROGRESS, ...options };
  if (silent) return { update: () => {}, finish: () => {} };
  const started = now();
  let lastDraw = -Infinity;
  let drawn = false;
  const steps = Math.max(1, Math.round(1 / lineEvery));
  let nextStep = 0;
  const rateAt = (done: number): number | undefined => {
    const seconds = (now() - started) / 1000;
    return seconds > 0.2 && done > 0 ? done / seconds : undefined;
  };
  return {
    update(done, total) {
      if (io.stderrIsTTY) {
        const t = now();
        if (done < total && t - lastDraw < redrawMs) return;
        lastDraw = t;
        const columns = process.stderr.columns ?? 80;
        const width = Math.max(10, Math.min(30, columns - label.length - 50));
        io.err(`\r${formatProgressBar({ label, done, total, rate: rateAt(done), width })}\u001b[K`);
        drawn = true;
        return;
      }
      if (total <= 0) return;
      // Integer steps: fractions such as 0.3 / 0.1 would skip a line to rounding.
      const step = done >= total ? steps + 1 : Math.floor((done * steps) / total);
      if (step < nextStep) return;
      io.err(`${label}: ${done}/${total}\n`);
      nextStep = step + 1;
    },
    finish() {
      if (drawn) io.err('\r\u001b[K');
      drawn = false;
    },
  };
}
