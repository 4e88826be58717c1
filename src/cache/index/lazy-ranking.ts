/**
 * A ranking read from the top: a query matches thousands of memories and a caller reads
 * the first ten. The best {@link LazyRanking.SELECT} are picked in one pass over a number
 * per position (cheap even before the optimizing compiler has seen the code, which is all
 * a `recall` process ever runs); a caller that reads past them gets a binary heap over the
 * rest. Either way the order is exactly that of a full sort.
 */
import { topCandidates, type KernelArena } from './score-kernel.js';

/**
 * Positions `0..count-1`, the highest `primary` first; positions with equal primaries in
 * the order `tieBefore` defines, which must be a strict total order on them (never true both
 * ways, and for a ≠ b one of them true).
 *
 * @example
 * const order = new LazyRanking(scores.length, scores, (a, b) => a < b);
 * order.at(0) // the position with the highest score (the first of them on a tie)
 */
export class LazyRanking {
  /** How many positions the first pass picks. */
  static readonly SELECT = 64;
  /** Rankings at least this long pick among the positions that can be in the first pass (see {@link select}). */
  static readonly NARROW_FROM = 4096;

  /** The positions ranked so far, best first. */
  private readonly taken: number[] = [];
  /** The rest, as a heap, once a caller reads past the first pass. */
  private heap: Int32Array | undefined;
  private heapSize = 0;

  constructor(
    readonly length: number,
    private readonly primary: ArrayLike<number>,
    private readonly tieBefore: (a: number, b: number) => boolean,
    /** The query's kernel memory: primaries in it are read there (see `topCandidates`). */
    private readonly arena?: KernelArena,
  ) {}

  private before(a: number, b: number): boolean {
    const pa = this.primary[a]!;
    const pb = this.primary[b]!;
    if (pa > pb) return true;
    if (pa < pb) return false;
    return this.tieBefore(a, b);
  }

  /** The position ranked `k`-th (0 = best); `undefined` past the end. */
  at(k: number): number | undefined {
    if (k >= this.length) return undefined;
    if (this.taken.length === 0) this.select(Math.min(this.length, LazyRanking.SELECT));
    while (this.taken.length <= k) this.takeFromHeap();
    return this.taken[k];
  }

  /**
   * The best `size` positions, in one pass with a sorted buffer; over a long ranking, a pass
   * over the positions that can be among them (WebAssembly: see score-kernel.ts), in the
   * same order, which picks the same ones.
   */
  private select(size: number): void {
    const buffer = new Int32Array(size);
    let used = 0;
    const primary = this.primary;
    const candidates = this.length >= LazyRanking.NARROW_FROM && primary instanceof Float64Array ? topCandidates(primary.subarray(0, this.length), size, this.arena) : undefined;
    const count = candidates?.length ?? this.length;
    for (let c = 0; c < count; c++) {
      const i = candidates === undefined ? c : candidates[c]!;
      if (used === size) {
        const worst = buffer[size - 1]!;
        // Not before the worst kept (the common case): no call at all.
        const pi = primary[i]!;
        const pw = primary[worst]!;
        if (pi < pw) continue;
        if (!(pi > pw) && !this.tieBefore(i, worst)) continue;
      }
      // Insert i, keeping the buffer best first (dropping the worst when full).
      let at = used < size ? used++ : size - 1;
      while (at > 0 && this.before(i, buffer[at - 1]!)) {
        buffer[at] = buffer[at - 1]!;
        at--;
      }
      buffer[at] = i;
    }
    for (let j = 0; j < used; j++) this.taken.push(buffer[j]!);
  }

  private takeFromHeap(): void {
    if (!this.heap) {
      const chosen = new Uint8Array(this.length);
      for (const i of this.taken) chosen[i] = 1;
      this.heap = new Int32Array(this.length - this.taken.length);
      let n = 0;
      for (let i = 0; i < this.length; i++) if (!chosen[i]) this.heap[n++] = i;
      this.heapSize = n;
      for (let i = (n >>> 1) - 1; i >= 0; i--) this.siftDown(i);
    }
    const heap = this.heap;
    const top = heap[0]!;
    this.heapSize--;
    if (this.heapSize > 0) {
      heap[0] = heap[this.heapSize]!;
      this.siftDown(0);
    }
    this.taken.push(top);
  }

  private siftDown(i: number): void {
    const heap = this.heap!;
    const size = this.heapSize;
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
