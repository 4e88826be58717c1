/**
 * bench:continuity's pure parts (bench/lib/continuity.mjs): arguments, the agreed TUNE/HELD
 * split, the tables' sums, and the copy of the shared scorer's match rule, on plain data.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

// A computed specifier: a plain JavaScript module of the benchmarks, typed loosely here.
const lib = await import(pathToFileURL(join(REPO_ROOT, 'bench/lib/continuity.mjs')).href);

describe('arguments', () => {
  it('defaults to one session per transcript over every transcript', () => {
    const o = lib.parseArgs([]);
    expect(o).toMatchObject({ mode: 'one-session', split: 'all', wait: 60 });
    expect(lib.onlyFor(o)).toBeUndefined();
  });

  it('turns a split into the scorer --only list, and takes --only as given', () => {
    expect(lib.onlyFor(lib.parseArgs(['--split', 'tune']))).toBe('01,04,07,10,11,12,13');
    expect(lib.onlyFor(lib.parseArgs(['--split=held']))).toBe('14,15,16,17,18,19,20,21');
    expect(lib.onlyFor(lib.parseArgs(['--only', '07,12']))).toBe('07,12');
  });

  it('reads the modes and refuses what it does not know, with a message naming it', () => {
    expect(lib.parseArgs(['--long-lived', '--controls', 'c.json']).mode).toBe('long-lived');
    expect(lib.parseArgs(['--reflect-cost']).mode).toBe('reflect-cost');
    expect(() => lib.parseArgs(['--long-lived', '--reflect-cost'])).toThrow(/one of --long-lived and --reflect-cost/);
    expect(() => lib.parseArgs(['--split', 'half'])).toThrow(/--split takes tune, held or all/);
    expect(() => lib.parseArgs(['--split', 'tune', '--only', '07'])).toThrow(/give one/);
    expect(() => lib.parseArgs(['--controls'])).toThrow(/--controls needs a value/);
    expect(() => lib.parseArgs(['--wait', '0'])).toThrow(/positive number/);
    expect(() => lib.parseArgs(['--bogus'])).toThrow(/unknown argument "--bogus"/);
  });
});

describe('the split', () => {
  it('puts the 15 development transcripts in TUNE or HELD, none in both', () => {
    const names = ['01', '04', '07', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21'].map((n) => `${n}-x.jsonl`);
    const tune = names.filter((f) => lib.splitOf(f) === 'tune');
    const held = names.filter((f) => lib.splitOf(f) === 'held');
    expect(tune).toHaveLength(7);
    expect(held).toHaveLength(8);
    expect(lib.splitOf('02-other.jsonl')).toBeUndefined();
  });
});

describe('the sums behind the tables', () => {
  const t = (file: string, over: Record<string, unknown> = {}) => ({
    file,
    goldItems: 4,
    memoryCount: 3,
    knowledgeMemories: 2,
    reviewItems: 5,
    captured: 2,
    capturedSummary: 1,
    briefing: 1,
    prompt: 1,
    continuity: 2,
    recall3: 3,
    reasons: { 'not captured': 2 },
    ...over,
  });
  const doc = { transcripts: [t('01-a.jsonl'), t('14-b.jsonl', { continuity: 1, reasons: { 'not captured': 1, 'captured, not surfaced': 2 } }), { file: '15-c.jsonl', error: 'boom' }] };

  it('sums per group, leaving out transcripts that failed', () => {
    expect(lib.totals(doc.transcripts)).toMatchObject({ transcripts: 2, goldItems: 8, continuity: 3, reviewItems: 10, reasons: { 'not captured': 3, 'captured, not surfaced': 2 } });
    expect(lib.totals(doc.transcripts, (f: string) => lib.splitOf(f) === 'held')).toMatchObject({ transcripts: 1, continuity: 1 });
  });

  it('prints all / TUNE / HELD rows, the miss reasons per group and the failed transcript', () => {
    const text = lib.oneSessionTables(doc).join('\n');
    expect(text).toContain('| all | 2 | 8 |');
    expect(text).toContain('| TUNE | 1 | 4 |');
    expect(text).toContain('| HELD | 1 | 4 |');
    expect(text).toContain('| not captured | 3 | 2 | 1 |');
    expect(text).toContain('| captured, not surfaced | 2 | 0 | 2 |');
    expect(text).toContain('| 15-c | held | error: boom |');
    expect(text).not.toContain('false injections');
  });
});

describe('the scorer match rule (copied from continuity-eval.mjs)', () => {
  const item = { match: [['vitest'], ['runner', 'test tool']] };

  it('needs a string of every group, case-insensitively', () => {
    expect(lib.matches(item, 'We settled on Vitest as the test RUNNER')).toBe(true);
    expect(lib.matches(item, 'We settled on vitest')).toBe(false);
  });

  it('matches one block at a time, never words of two memories together, and ignores Cortex tags', () => {
    const text = ['# Project memory', '- Vitest is fast [s1a2b]', '- The runner is chosen per package', '- Tests: vitest is the test tool [vitest-runner-abc123, 2026-11-01]', '  indented preview'].join('\n');
    expect(lib.matchingBlocks(item, text, [])).toEqual(['vitest-runner-abc123']);
    expect(lib.matchingBlocks(item, '- Vitest is fast\n- The runner is chosen per package', [])).toEqual([]);
    // An indented line belongs to the block above it.
    expect(lib.matchingBlocks(item, '- Vitest is fast\n  and it is the runner', [{ id: 'v-1', summary: 'Vitest is fast' }])).toEqual(['v-1']);
  });
});
