import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SURFACE_END, SURFACE_START } from './surface.js';
import { newTargetPreamble, spliceSurface } from './surface-target.js';

const briefing = (body: string): string => `${SURFACE_START}\n\n${body}\n\n${SURFACE_END}\n`;
const ok = (r: ReturnType<typeof spliceSurface>): string => {
  if (!r.ok) throw new Error(r.reason);
  return r.text;
};

describe('spliceSurface', () => {
  it('creates the file content from the briefing alone', () => {
    expect(ok(spliceSurface(undefined, briefing('- a')))).toBe(briefing('- a'));
    expect(ok(spliceSurface('', briefing('- a')))).toBe(briefing('- a'));
  });

  it('replaces only the marked section and keeps the text around it byte for byte', () => {
    const before = '# Agents\n\nHand-written rules.\n\n';
    const after = '\n## More\n\nKept too.\n';
    const existing = `${before}${briefing('- old')}${after}`;
    expect(ok(spliceSurface(existing, briefing('- new')))).toBe(`${before}${briefing('- new')}${after}`);
  });

  it('is idempotent: writing the same briefing twice gives the same file', () => {
    const once = ok(spliceSurface('# Agents\n', briefing('- x')));
    expect(ok(spliceSurface(once, briefing('- x')))).toBe(once);
  });

  it('appends the section after a blank line when the file has no markers', () => {
    expect(ok(spliceSurface('# Agents', briefing('- x')))).toBe(`# Agents\n\n${briefing('- x')}`);
    expect(ok(spliceSurface('# Agents\n', briefing('- x')))).toBe(`# Agents\n\n${briefing('- x')}`);
    expect(ok(spliceSurface('# Agents\n\n', briefing('- x')))).toBe(`# Agents\n\n${briefing('- x')}`);
  });

  it('keeps CRLF line ends in a CRLF file', () => {
    const existing = `# Agents\r\n\r\n${SURFACE_START}\r\nold\r\n${SURFACE_END}\r\nTail\r\n`;
    expect(ok(spliceSurface(existing, briefing('- x')))).toBe(`# Agents\r\n\r\n${briefing('- x').replace(/\n/g, '\r\n')}Tail\r\n`);
  });

  it('writes the markers even for an empty briefing, so the section can be found again', () => {
    expect(ok(spliceSurface(undefined, ''))).toBe(`${SURFACE_START}\n${SURFACE_END}\n`);
  });

  it('refuses marker layouts it cannot repair without guessing', () => {
    for (const existing of [
      `a\n${SURFACE_START}\nno end\n`,
      `a\n${SURFACE_END}\nno start\n`,
      `${SURFACE_END}\nx\n${SURFACE_START}\n`,
      `${briefing('one')}${briefing('two')}`,
    ]) {
      const r = spliceSurface(existing, briefing('- x'));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/CORTEX_MEMORY/);
    }
  });

  it('never loses text outside the markers (property)', () => {
    const text = fc.string({ maxLength: 80 }).map((s) => s.replace(/\r/g, '')).filter((s) => !s.includes('CORTEX_MEMORY'));
    fc.assert(
      fc.property(text, text, text, text, (before, old, after, body) => {
        const existing = `${before}${SURFACE_START}${old}${SURFACE_END}${after}`;
        // The old END's own line break is replaced by the briefing's final one.
        const expected = `${before}${briefing(body)}${after.startsWith('\n') ? after.slice(1) : after}`;
        expect(ok(spliceSurface(existing, briefing(body)))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('newTargetPreamble', () => {
  it('gives a new Cursor rule (.mdc) the frontmatter of an always-applied rule, and nothing else any preamble', () => {
    expect(newTargetPreamble('.cursor/rules/cortex.mdc')).toMatch(/^---\ndescription: .+\nalwaysApply: true\n---\n\n$/);
    expect(newTargetPreamble('.cursor/rules/CORTEX.MDC')).toContain('alwaysApply: true');
    for (const f of ['AGENTS.md', 'GEMINI.md', '.github/copilot-instructions.md', 'notes.markdown']) expect(newTargetPreamble(f)).toBe('');
  });
});
