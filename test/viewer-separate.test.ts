/**
 * The graph's overlap removal (web/viewer/src/separate.ts) as plain data: whatever boxes go
 * in, none overlap when they come out; boxes that already kept their distance stay put.
 * The browser test checks the same on the drawn graph with Cytoscape's own label boxes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { separate, type Box } from '../web/viewer/src/separate.js';

const box = fc
  .record({ x: fc.integer({ min: -300, max: 300 }), y: fc.integer({ min: -300, max: 300 }), w: fc.integer({ min: 0, max: 160 }), h: fc.integer({ min: 0, max: 50 }) })
  .map(({ x, y, w, h }): Box => ({ x1: x, y1: y, x2: x + w, y2: y + h }));

function moved(boxes: Box[], gap: number): Box[] {
  return separate(boxes, { gap }).map((d, i) => ({ x1: boxes[i]!.x1 + d.dx, x2: boxes[i]!.x2 + d.dx, y1: boxes[i]!.y1 + d.dy, y2: boxes[i]!.y2 + d.dy }));
}

/** Pairs closer than `gap` on both axes. */
function clashes(boxes: Box[], gap: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) + gap > 1e-6 && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) + gap > 1e-6) out.push([i, j]);
    }
  }
  return out;
}

describe('separate', () => {
  it('leaves no two boxes overlapping, whatever comes in (piles of identical boxes included)', () => {
    fc.assert(
      fc.property(fc.array(box, { maxLength: 60 }), fc.integer({ min: 0, max: 8 }), (boxes, gap) => {
        expect(clashes(moved(boxes, gap), gap)).toEqual([]);
      }),
      { numRuns: 150 },
    );
    const pile = Array.from({ length: 50 }, (): Box => ({ x1: 0, y1: 0, x2: 130, y2: 30 }));
    expect(clashes(moved(pile, 6), 6)).toEqual([]);
  });

  it('moves nothing when the boxes already keep the gap', () => {
    fc.assert(
      fc.property(fc.array(box, { maxLength: 30 }), (boxes) => {
        // A row of the boxes, each 10 apart: already separated.
        let x = 0;
        const row = boxes.map((b) => {
          const w = b.x2 - b.x1;
          const r = { x1: x, y1: b.y1, x2: x + w, y2: b.y2 };
          x += w + 10;
          return r;
        });
        expect(separate(row, { gap: 6 }).every((d) => d.dx === 0 && d.dy === 0)).toBe(true);
      }),
    );
  });

  it('pushes two overlapping boxes apart along the axis where they overlap least', () => {
    const [a, b] = separate([{ x1: 0, y1: 0, x2: 100, y2: 20 }, { x1: 90, y1: 0, x2: 190, y2: 20 }], { gap: 0 });
    expect(a!.dy).toBe(0);
    expect(b!.dy).toBe(0);
    expect(a!.dx).toBeLessThan(0);
    expect(b!.dx).toBeGreaterThan(0);
  });
});
