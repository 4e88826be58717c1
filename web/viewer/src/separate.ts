/**
 * Removing overlaps between boxes (graph nodes with their labels): plain data in, how far
 * each box moves out, so it is tested without a browser (test/viewer-separate.test.ts).
 */

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface SeparateOptions {
  /** Space kept between any two boxes (default 4). */
  gap?: number;
  /** Most pair comparisons spent relaxing before the final pass (default 20 million). */
  budget?: number;
}

/**
 * How far to move each box so that no two boxes (grown by `gap`) overlap. First rounds of
 * pairwise pushes, each overlapping pair pushed apart along the axis where it overlaps least
 * (the drawing keeps its shape); then one pass that settles whatever is left by moving a box
 * below the boxes it still meets, which always ends with no overlap.
 *
 * @example
 * separate([{ x1: 0, y1: 0, x2: 10, y2: 10 }, { x1: 5, y1: 0, x2: 15, y2: 10 }], { gap: 0 })
 * // [{ dx: -2.5…, dy: 0 }, { dx: 2.5…, dy: 0 }]
 */
export function separate(boxes: readonly Box[], options: SeparateOptions = {}): { dx: number; dy: number }[] {
  const gap = options.gap ?? 4;
  const n = boxes.length;
  const b = boxes.map((x) => ({ ...x }));
  const move = (i: number, dx: number, dy: number): void => {
    b[i]!.x1 += dx;
    b[i]!.x2 += dx;
    b[i]!.y1 += dy;
    b[i]!.y2 += dy;
  };
  const overlap = (a: Box, c: Box): [number, number] => [Math.min(a.x2, c.x2) - Math.max(a.x1, c.x1) + gap, Math.min(a.y2, c.y2) - Math.max(a.y1, c.y1) + gap];
  const pairs = (n * (n - 1)) / 2;
  const rounds = pairs === 0 ? 0 : Math.min(500, Math.floor((options.budget ?? 20_000_000) / pairs));
  for (let round = 0; round < rounds; round++) {
    let any = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = b[i]!;
        const c = b[j]!;
        const [ox, oy] = overlap(a, c);
        if (ox <= 0 || oy <= 0) continue;
        any = true;
        if (ox <= oy) {
          const side = a.x1 + a.x2 < c.x1 + c.x2 || (a.x1 + a.x2 === c.x1 + c.x2 && i < j) ? -1 : 1;
          const d = ox / 2 + 0.01;
          move(i, side * d, 0);
          move(j, -side * d, 0);
        } else {
          const side = a.y1 + a.y2 < c.y1 + c.y2 || (a.y1 + a.y2 === c.y1 + c.y2 && i < j) ? -1 : 1;
          const d = oy / 2 + 0.01;
          move(i, 0, side * d);
          move(j, 0, -side * d);
        }
      }
    }
    if (!any) break;
  }
  // Whatever the rounds left: each box, in turn, goes below every placed box it still meets.
  // Its top only moves down, past one placed box at a time, so this ends.
  for (let i = 1; i < n; i++) {
    for (let moved = true; moved; ) {
      moved = false;
      for (let j = 0; j < i; j++) {
        const [ox, oy] = overlap(b[i]!, b[j]!);
        if (ox > 0 && oy > 0) {
          move(i, 0, b[j]!.y2 + gap - b[i]!.y1 + 0.01);
          moved = true;
        }
      }
    }
  }
  return b.map((x, i) => ({ dx: x.x1 - boxes[i]!.x1, dy: x.y1 - boxes[i]!.y1 }));
}
