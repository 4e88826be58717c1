import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IO } from './args.js';
import { painter } from './color.js';
import { createProgress, formatProgressBar } from './progress.js';

function io(tty: boolean): IO & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    out: () => {},
    err: (t) => void written.push(t),
    readStdin: async () => '',
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: tty,
    paint: painter(false),
    env: {},
    cwd: '/',
  };
}

describe('formatProgressBar', () => {
  it('shows the bar, the count, the percentage, the rate and the time left', () => {
    expect(formatProgressBar({ label: 'embedding', done: 5, total: 10, rate: 2.5, width: 10 })).toBe('embedding [#####-----]   5/10   50%  2.5/s  ETA 2s');
  });

  it('has no ETA when done, and no rate before one is known', () => {
    expect(formatProgressBar({ label: 'x', done: 10, total: 10, rate: 400, width: 4 })).toBe('x [####]  10/10  100%  400/s');
    expect(formatProgressBar({ label: 'x', done: 0, total: 3, rate: undefined, width: 4 })).toBe('x [----]  0/3    0%');
  });

  it('keeps the bar width whatever the counts (property)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.integer({ min: 1, max: 60 }), (a, b, width) => {
        const line = formatProgressBar({ label: 'l', done: Math.min(a, b), total: Math.max(a, b), rate: undefined, width });
        expect(/\[([#-]*)\]/.exec(line)?.[1]).toHaveLength(width);
      }),
    );
  });
});

describe('createProgress', () => {
  it('prints a count line per tenth of the work when stderr is not a TTY', () => {
    const target = io(false);
    const progress = createProgress(target, { label: 'embedding' });
    for (let done = 0; done <= 100; done++) progress.update(done, 100);
    progress.finish();
    expect(target.written).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((n) => `embedding: ${n}/100\n`));
  });

  it('redraws one line on a TTY, throttled, and clears it at the end', () => {
    const target = io(true);
    let now = 0;
    const progress = createProgress(target, { label: 'embedding', now: () => now, redrawMs: 100 });
    for (let done = 0; done < 50; done++) {
      now += 10;
      progress.update(done, 50);
    }
    progress.update(50, 50);
    progress.finish();
    expect(target.written.length).toBeGreaterThan(3);
    expect(target.written.length).toBeLessThan(10);
    expect(target.written.every((w) => w.startsWith('\r') && !w.includes('\n'))).toBe(true);
    expect(target.written.at(-2)).toContain('50/50');
    expect(target.written.at(-1)).toBe('\r\u001b[K');
  });

  it('writes nothing when silent', () => {
    const target = io(true);
    const progress = createProgress(target, { label: 'x', silent: true });
    progress.update(1, 2);
    progress.finish();
    expect(target.written).toEqual([]);
  });
});
