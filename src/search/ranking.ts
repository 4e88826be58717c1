/**
 * A ranking read from the top: a query matches thousands of memories and a caller reads
 * the first ten, so the order is built lazily with a binary heap (O(n) to start, O(log n)
 * per position read) instead of a full sort of every match.
 */

/**
 * Positions `0..count-1` in the order `before` defines, computed as far as they are read.
 * `before(a, b)` must be a strict total order (never true both ways, and for a ≠ b one of
 * them true): then the order is exactly that of a full sort.
 *
 * @example
 * const order = new LazyRanking(scores.length, (a, b) => scores[a] > scores[b] || (scores[a] === scores[b] && a < b));
 * order.at(0) // the position with the highest score
 */
export class LazyRanking {
  private readonly heap: Int32Array;
  private size: number;
  /** The positions taken off the heap so far, best first. */
  private readonly taken: number[] = [];

  constructor(
    count: number,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.heap = new Int32Array(count);
    for (let i = 0; i < count; i++) this.heap[i] = i;
    this.size = count;
    for (let i = (count >>> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  get length(): number {
    return this.heap.length;
  }

  /** The position ranked `k`-th (0 = best); `undefined` past the end. */
  at(k: number): number | undefined {
    while (this.taken.length <= k && this.size > 0) {
      const top = this.heap[0]!;
      this.size--;
      if (this.size > 0) {
        this.heap[0] = this.heap[this.size]!;
        this.siftDown(0);
      }
      this.taken.push(top);
    }
    return this.taken[k];
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const size = this.size;
    const item = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(heap[right]!, heap[left]!) ? right : left;
      if (!this.before(heap[child]!, item)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = item;
  }
}
