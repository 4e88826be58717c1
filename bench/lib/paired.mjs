/**
 * Whole-process timing of one command against `node -e 0`, run alternately so both see the
 * same load: wall time, and with GNU time the child's CPU (user + system), which load on a
 * shared machine does not inflate as much. Used by the hook and code-index benchmarks.
 */
import { spawnSync as spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** GNU time, when installed, gives each child's CPU time. */
const GNU_TIME = existsSync('/usr/bin/time') && spawn('/usr/bin/time', ['-f', '%U %S', 'true']).status === 0 ? '/usr/bin/time' : undefined;

const BASELINE = [process.execPath, '-e', '0'];

const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.floor(0.9 * s.length))], min: s[0] };
};

/**
 * A timer bound to an environment and a default number of runs.
 *
 * @example
 * const { time, measure, measureGroup } = pairedTimer({ env, runs: 15 });
 * rows.push(measure('hook stop', [process.execPath, CLI, 'hook', 'stop'], { cwd, input, before: turn }));
 * rows.push(...measureGroup([{ label: 'stop [A]', args: [process.execPath, A, 'hook', 'stop'], options }, { label: 'stop [B]', args: […], options: … }]));
 */
export function pairedTimer({ env, runs: defaultRuns }) {
  /** Wall time (and CPU time, with GNU time) of one process, in ms; `input` may be a function (a fresh stdin per run). */
  function time(args, { cwd, input = '', before } = {}) {
    const stdin = typeof input === 'function' ? input() : input;
    before?.();
    const argv = GNU_TIME ? [GNU_TIME, '-f', '%U %S', ...args] : args;
    const start = process.hrtime.bigint();
    const r = spawn(argv[0], argv.slice(1), { cwd, env, input: stdin, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    let cpu;
    if (GNU_TIME) {
      const [user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
      cpu = (user + sys) * 1000;
    }
    return { ms, cpu, stdout: r.stdout };
  }

  /** Runs the case and `node -e 0` alternately; returns the case's row with its own baseline. */
  function measure(label, args, options = {}) {
    for (let i = 0; i < (options.warmup ?? 2); i++) time(args, options);
    const samples = [];
    const base = [];
    const cpu = [];
    const baseCpu = [];
    let last;
    for (let i = 0; i < (options.runs ?? defaultRuns); i++) {
      const b = time(BASELINE);
      base.push(b.ms);
      if (b.cpu !== undefined) baseCpu.push(b.cpu);
      last = time(args, options);
      options.check?.(last.stdout);
      samples.push(last.ms);
      if (last.cpu !== undefined) cpu.push(last.cpu);
    }
    const c = med(samples);
    const b = med(base);
    const cpuMedian = cpu.length > 0 ? med(cpu).median : undefined;
    const baseCpuMedian = baseCpu.length > 0 ? med(baseCpu).median : undefined;
    const row = {
      label,
      runs: samples.length,
      ...c,
      baseline: b.median,
      ratio: c.median / b.median,
      cpu: cpuMedian,
      baselineCpu: baseCpuMedian,
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
      stdoutChars: last?.stdout.length ?? 0,
    };
    console.error(
      `${label}: median ${c.median.toFixed(0)} ms, node -e 0 ${b.median.toFixed(0)} ms (${row.ratio.toFixed(2)}×)${cpuMedian !== undefined ? `, cpu ${cpuMedian.toFixed(0)} ms vs ${baseCpuMedian.toFixed(0)} ms` : ''}`,
    );
    return row;
  }

  /**
   * Several cases measured in the same rounds: each round runs `node -e 0`, then every case
   * once, in order. Builds compared this way (`--cli A --cli B`) see the same load; the rows
   * are those of `measure`, each with the round's baseline.
   */
  function measureGroup(cases, options = {}) {
    for (const c of cases) for (let i = 0; i < (c.options?.warmup ?? 2); i++) time(c.args, c.options);
    const base = [];
    const baseCpu = [];
    const samples = cases.map(() => ({ ms: [], cpu: [], last: undefined }));
    for (let i = 0; i < (options.runs ?? defaultRuns); i++) {
      const b = time(BASELINE);
      base.push(b.ms);
      if (b.cpu !== undefined) baseCpu.push(b.cpu);
      cases.forEach((c, k) => {
        const r = time(c.args, c.options);
        c.options?.check?.(r.stdout);
        samples[k].ms.push(r.ms);
        if (r.cpu !== undefined) samples[k].cpu.push(r.cpu);
        samples[k].last = r;
      });
    }
    const b = med(base);
    const baseCpuMedian = baseCpu.length > 0 ? med(baseCpu).median : undefined;
    return cases.map((c, k) => {
      const s = samples[k];
      const m = med(s.ms);
      const cpuMedian = s.cpu.length > 0 ? med(s.cpu).median : undefined;
      const row = { label: c.label, runs: s.ms.length, ...m, baseline: b.median, ratio: m.median / b.median, cpu: cpuMedian, baselineCpu: baseCpuMedian, stdoutChars: s.last?.stdout.length ?? 0 };
      console.error(
        `${c.label}: median ${m.median.toFixed(0)} ms, node -e 0 ${b.median.toFixed(0)} ms (${row.ratio.toFixed(2)}×)${cpuMedian !== undefined ? `, cpu ${cpuMedian.toFixed(0)} ms vs ${baseCpuMedian.toFixed(0)} ms` : ''}`,
      );
      return row;
    });
  }

  return { time, measure, measureGroup };
}
