import { describe, expect, it } from 'vitest';
import { conflictMarkers } from './graph-lint.js';

describe('conflictMarkers', () => {
  it('reports the line of an unresolved conflict', () => {
    const text = '---\nid: a\n---\nBody\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n';
    expect(conflictMarkers(text, 'a.md')).toMatchObject({ file: 'a.md', line: 5, ruleId: 'conflict-markers', severity: 'error' });
  });

  it('ignores marker-like text that is not a conflict', () => {
    expect(conflictMarkers('no markers at all', 'a.md')).toBeUndefined();
    expect(conflictMarkers('only a start\n<<<<<<< HEAD\nbut no end', 'a.md')).toBeUndefined();
    expect(conflictMarkers('inline <<<<<<< HEAD and >>>>>>> x in a line', 'a.md')).toBeUndefined();
    expect(conflictMarkers('>>>>>>> end first\n<<<<<<< then start', 'a.md')).toBeUndefined();
  });
});
