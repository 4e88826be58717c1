/**
 * The WebAssembly loops of packed-search.ts (score-kernel.wat): compiled once per process,
 * instantiated per search over a memory of the search's own (its result columns stay
 * views into it for as long as the results live).
 */
import { SCORE_KERNEL_BASE64 } from './score-kernel-bytes.js';

/** The kernel's exports; arrays are byte offsets into the instance's memory. */
export interface ScoreKernel {
  scoreSection(
    post: number,
    pairs: number,
    termScore: number,
    touched: number,
    touchedLength: number,
    boostMode: number,
    boostMask: number,
    boostFactor: number,
    docBoost: number,
    live: number,
    lengths: number,
    present: number,
    fieldCount: number,
    fieldId: number,
    weight: number,
    idf: number,
    avg: number,
    k: number,
    b: number,
    d: number,
    derivedWords: number,
    derivedBit: number,
  ): number;
  liveCount(post: number, pairs: number, live: number): number;
  addTermScores(
    termTouched: number,
    termLength: number,
    termScore: number,
    score: number,
    queryWords: number,
    queryBit: number,
    quality: number,
    uncounted: number,
    seen: number,
    touched: number,
    touchedLength: number,
  ): number;
  resultColumns(kept: number, length: number, score: number, quality: number, raw: number, key: number): void;
  termCounts(kept: number, length: number, quality: number, uncounted: number, counts: number, raw: number, scores: number): void;
  mergeFeedback(
    firstLength: number,
    firstDocs: number,
    firstRaw: number,
    firstCounts: number,
    moreLength: number,
    moreDocs: number,
    moreRaw: number,
    moreCounts: number,
    score: number,
    count: number,
    firstAt: number,
    moreAt: number,
    docs: number,
    final: number,
  ): number;
  adjacency(packed: number, m: number, column: number, n: number, start: number, order: number, fill: number): void;
  nthLargest(values: number, length: number, size: number, best: number): number;
  atLeast(values: number, length: number, floor: number, out: number): number;
}

/**
 * Byte offsets of arrays in a kernel memory, each 8-byte aligned; nothing at 0 (the kernel
 * reads 0 as "no such array").
 */
export class KernelLayout {
  /** `start`: the first offset (8 for a memory of its own; where a caller's share of one begins). */
  constructor(private end = 8) {}

  /**
   * The bytes the arrays `takeAll` takes need, laid out one after the other (so that a layout
   * from any 8-byte-aligned start gives each the same place relative to it).
   *
   * @example
   * KernelLayout.bytes((take) => ({ a: take(12), b: take(8) })) // 24
   */
  static bytes(takeAll: (take: (bytes: number) => number) => unknown): number {
    const layout = new KernelLayout(0);
    takeAll((bytes) => layout.take(bytes));
    return layout.size;
  }

  take(bytes: number): number {
    const at = this.end;
    this.end += Math.ceil(bytes / 8) * 8;
    return at;
  }

  get size(): number {
    return this.end;
  }
}

/** Imports for a kernel that never asks (every length in the columns, no boost by callback). */
export const NO_IMPORTS: KernelImports = { lengthOf: () => Number.NaN, boostOf: () => 1 };

/** What the kernel asks of its caller, per search. */
export interface KernelImports {
  /** A document's length in a field when the columns do not hold it (NaN: none). */
  lengthOf(doc: number, fieldId: number): number;
  /** A document's score multiplier (boost mode 2). */
  boostOf(doc: number): number;
}

/** The part of the WebAssembly API used here (the project's TypeScript libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => KernelMemory & { grow(pages: number): number };
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/** A WebAssembly memory: its bytes. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
}

/** A kernel and its memory, lent until {@link Kernel.release}. */
export interface Kernel {
  kernel: ScoreKernel;
  memory: KernelMemory;
  /**
   * Gives the kernel back for the next search to reuse (its memory is zeroed then): after
   * this, no view into its memory may be read. Not calling it is safe (the memory is then
   * collected as garbage).
   */
  release(): void;
  /**
   * Gives the kernel back as {@link release} does, saying that only its first `bytes` were
   * written (a memory reserved larger than it was used is zeroed that far on its next loan).
   */
  releaseWritten?(bytes: number): void;
}

interface Pooled {
  kernel: ScoreKernel;
  memory: KernelMemory & { grow(pages: number): number };
  imports: KernelImports;
  /** How many bytes from the start lenders may have written (the rest is still as mapped: zero). */
  used: number;
}

let compiled: object | null | undefined;

/**
 * Kernels given back, for reuse: a long-lived process (the MCP server) then neither maps
 * nor faults in fresh pages for every search (about 9 MB each at 100,000 memories).
 */
const pool: Pooled[] = [];
/** Kernels kept for reuse, at most (a query holds up to three at once). */
const POOL_SIZE = 4;
const PAGE = 65536;

/** The compiled module, or null where WebAssembly cannot run (V8's --jitless, for one). */
function kernelModule(): object | null {
  if (compiled === undefined) {
    try {
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
      compiled = wasm ? new wasm.Module(Buffer.from(SCORE_KERNEL_BASE64, 'base64')) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/**
 * A kernel over a memory of at least `bytes`, those zeroed (a fresh one, or one given back
 * by an earlier search), or `undefined` where WebAssembly cannot run.
 *
 * @example
 * const k = instantiateKernel(1 << 20, { lengthOf: () => NaN, boostOf: () => 1 });
 * k && new Float64Array(k.memory.buffer, 8, 4);
 * k?.release();
 */
export function instantiateKernel(bytes: number, imports: KernelImports): Kernel | undefined {
  const module = kernelModule();
  if (module === null) return undefined;
  let entry = pool.pop();
  // Bytes past `bytes` an earlier lender wrote (not zeroed by this loan), or 0.
  let dirtyPast = 0;
  if (entry === undefined) {
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    const current = { ...imports };
    const instance = new wasm.Instance(module, {
      env: { memory, lengthOf: (doc: number, fieldId: number) => current.lengthOf(doc, fieldId), boostOf: (doc: number) => current.boostOf(doc) },
    });
    entry = { kernel: instance.exports as unknown as ScoreKernel, memory, imports: current, used: bytes };
  } else {
    entry.imports.lengthOf = imports.lengthOf;
    entry.imports.boostOf = imports.boostOf;
    const have = entry.memory.buffer.byteLength;
    if (have < bytes) entry.memory.grow(Math.ceil((bytes - have) / PAGE));
    // Only what an earlier lender may have written: pages never touched are not faulted in.
    new Uint8Array(entry.memory.buffer, 0, Math.min(bytes, entry.used)).fill(0);
    if (entry.used > bytes) dirtyPast = entry.used;
    entry.used = Math.max(entry.used, bytes);
  }
  const lent = entry;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    if (pool.length < POOL_SIZE) pool.push(lent);
  };
  return {
    kernel: lent.kernel,
    memory: lent.memory,
    release,
    releaseWritten: (written: number) => {
      if (!released) lent.used = Math.max(Math.min(written, bytes), dirtyPast);
      release();
    },
  };
}

/**
 * One kernel memory shared by the searches of one query and what combines them (see
 * packed-search.ts): the second search reuses the first's copy of the field lengths and its
 * scratch arrays, and the merge reads both searches' columns where they are. The memory is
 * reserved larger than the first search needs; pages no one writes cost nothing (they are
 * not faulted in), and a search that does not fit in what is left gets a kernel of its own.
 *
 * @example
 * const arena = new KernelArena();
 * arena.open(2 << 20, 8 << 20, NO_IMPORTS); // the first 2 MB are the caller's
 * const at = arena.take(4096);             // a later user's 4 kB, or undefined
 * arena.release();
 */
export class KernelArena {
  kernel: Kernel | undefined;
  private end = 0;
  private capacity = 0;
  /** What the first user left for the others to share (its own description of it). */
  shared: unknown;

  /**
   * A kernel of at least `reserve` bytes whose first `used` bytes the caller takes (a
   * {@link KernelLayout} from 8), or `undefined` where WebAssembly cannot run.
   */
  open(used: number, reserve: number, imports: KernelImports): Kernel | undefined {
    if (this.kernel !== undefined) throw new Error('a kernel arena opens once');
    const kernel = instantiateKernel(Math.max(used, reserve), imports);
    if (kernel === undefined) return undefined;
    this.kernel = kernel;
    this.end = Math.ceil(used / 8) * 8;
    // Only what this loan zeroed (a pooled memory may be larger, and written past it).
    this.capacity = Math.max(used, reserve);
    return kernel;
  }

  /** The offset of `bytes` more, 8-byte aligned, or `undefined` when they do not fit. */
  take(bytes: number): number | undefined {
    const next = this.end + Math.ceil(bytes / 8) * 8;
    if (this.kernel === undefined || next > this.capacity) return undefined;
    const at = this.end;
    this.end = next;
    return at;
  }

  /** True when `view` lies in this arena's memory. */
  holds(view: ArrayBufferView): boolean {
    return this.kernel !== undefined && view.buffer === this.kernel.memory.buffer;
  }

  release(): void {
    const kernel = this.kernel;
    if (kernel === undefined) return;
    if (kernel.releaseWritten) kernel.releaseWritten(this.end);
    else kernel.release();
  }
}

/**
 * A copy of a view into a kernel's memory, in memory of its own. (`slice` took 6 ms for
 * 46,000 counts where this takes well under one: V8's `slice` of a typed array goes the
 * slow way.)
 */
export function copyOut(view: Int32Array): Int32Array {
  const out = new Int32Array(view.length);
  out.set(view);
  return out;
}

/**
 * The positions of `values` that can be among its `size` largest (ties included: every
 * position whose value is at least the `size`-th largest), ascending; `undefined` where
 * WebAssembly cannot run or a value is NaN. Values in the memory of `arena` are read where
 * they are, and the answer is in it too (valid until the arena is given back).
 *
 * @example
 * topCandidates(Float64Array.of(3, 1, 2, 5), 2) // Int32Array [0, 3]
 */
export function topCandidates(values: Float64Array, size: number, arena?: KernelArena): Int32Array | undefined {
  if (arena?.holds(values)) {
    const best = arena.take(8 * size);
    const out = best === undefined ? undefined : arena.take(4 * values.length);
    if (out !== undefined) {
      const { kernel, memory } = arena.kernel!;
      const floor = kernel.nthLargest(values.byteOffset, values.length, size, best!);
      return Number.isNaN(floor) ? undefined : new Int32Array(memory.buffer, out, kernel.atLeast(values.byteOffset, values.length, floor, out));
    }
  }
  const layout = new KernelLayout();
  const at = { values: layout.take(8 * values.length), best: layout.take(8 * size), out: layout.take(4 * values.length) };
  const instance = instantiateKernel(layout.size, NO_IMPORTS);
  if (instance === undefined) return undefined;
  const { kernel, memory } = instance;
  new Float64Array(memory.buffer).set(values, at.values >>> 3);
  const floor = kernel.nthLargest(at.values, values.length, size, at.best);
  const out = Number.isNaN(floor) ? undefined : copyOut(new Int32Array(memory.buffer, at.out, kernel.atLeast(at.values, values.length, floor, at.out)));
  instance.release();
  return out;
}

/**
 * Compressed adjacency of edges packed four numbers each, by the node (below `n`) in word
 * `column` of each: `start[v]` to `start[v + 1]` in `order` are node `v`'s edge numbers, in
 * packed order. `undefined` where WebAssembly cannot run.
 *
 * @example
 * adjacencyOf(Uint32Array.of(0, 1, 0, 0, 1, 0, 0, 0), 0, 2) // { start: [0, 1, 2], order: [0, 1] }
 */
export function adjacencyOf(packed: ArrayLike<number>, column: 0 | 1, n: number): { start: Int32Array; order: Int32Array } | undefined {
  const m = Math.floor(packed.length / 4);
  const layout = new KernelLayout();
  const at = { packed: layout.take(16 * m), start: layout.take(4 * (n + 1)), order: layout.take(4 * m), fill: layout.take(4 * n) };
  const instance = instantiateKernel(layout.size, NO_IMPORTS);
  if (instance === undefined) return undefined;
  const { kernel, memory } = instance;
  new Uint32Array(memory.buffer).set(packed, at.packed >>> 2);
  kernel.adjacency(at.packed, m, column, n, at.start, at.order, at.fill);
  const out = { start: copyOut(new Int32Array(memory.buffer, at.start, n + 1)), order: copyOut(new Int32Array(memory.buffer, at.order, m)) };
  instance.release();
  return out;
}
