/**
 * `cortex init --claude` says in one line which capture mode is on and what the other choice
 * costs (issue 35, step 7). Real temporary repositories and the built CLI.
 */
import { describe, expect, it } from 'vitest';
import { tempRepo } from './helpers/repo.js';

describe('cortex init --claude: the capture-mode line', { timeout: 120_000 }, () => {
  it('names the mode in effect, once, and what reflect would cost; plain init says nothing of it', () => {
    const repo = tempRepo({ 'README.md': '# x\n' });
    const plain = repo.cortex(['init']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('Capture:');

    const off = repo.cortex(['init', '--claude']);
    expect(off.code, off.stderr).toBe(0);
    const lines = off.stdout.split('\n').filter((l) => l.startsWith('Capture:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('rules only (capture.mode off), nothing sent anywhere; --capture reflect: at most once per 5 prompts');

    const reflect = repo.cortex(['init', '--claude', '--capture', 'reflect']);
    expect(reflect.code, reflect.stderr).toBe(0);
    expect(reflect.stdout.split('\n').filter((l) => l.startsWith('Capture:'))).toEqual([
      'Capture: reflect — at most once per 5 prompts, when the rules found candidates they did not store, the assistant is asked to record them as [MEMORY: type] lines (one short extra turn of the session); --capture off keeps to the rules alone. (docs/claude-code.md, Model capture)',
    ]);
  });
});
