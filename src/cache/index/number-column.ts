/**
 * A column of numbers (32-bit unsigned or 64-bit float) that may still be in its file: a
 * value is read by position when asked for, and the whole column once as many have been
 * asked for as it has 2 kB (at least 4, at most {@link WHOLE_AFTER}), as the doc table's
 * texts are (docs-file.ts). Values set while the column is in its file are kept aside. A
 * `recall` at 100,000 memories looks at the rows of a few dozen memories; reading each
 * column it touched whole (the file stats and the record spans alone are 1.6 MB each) and
 * copying it to grow it by a row (a `remember`'s journal entry) cost more of its time than
 * the query: every page of those arrays is faulted in by the kernel.
 */
import { readInto, type OpenFile } from '../../store/safe-read.js';

export type NumberArray = Uint32Array | Float64Array;

/** Values read one by one, at most, before the column is read whole. */
export const WHOLE_AFTER = 2048;

/** Where a file-backed column's values are: the open file, the byte position and the number of values. */
export interface NumberSource {
  file: OpenFile;
  position: number;
  count: number;
}

/**
 * Numbers by index, from an array in memory or a file (see the module comment). Past the
 * values held it reads as `fill` (NaN for unknown stats, 0 otherwise), as an array grown with
 * that value would.
 *
 * @example
 * const stats = NumberColumn.of(new Float64Array([10, 5]), Number.NaN);
 * stats.get(1) // 5
 * stats.get(7) // NaN
 * stats.set(7, 3); stats.whole().length // 8 or more
 */
export class NumberColumn<T extends NumberArray> {
  /** The values in memory (once read whole, or from the start); may be longer than the values set. */
  #array: T | undefined;
  #source: NumberSource | undefined;
  /** Values set while the column is in its file. */
  readonly #set = new Map<number, number>();
  #reads = 0;
  /** One value read by position. */
  #scratch: T | undefined;
  readonly #width: number;

  private constructor(
    private readonly make: (length: number) => T,
    private readonly fill: number,
  ) {
    this.#width = make(0).BYTES_PER_ELEMENT;
  }

  /** A column over `array` (kept, not copied; grown into a new array when set past its end). */
  static of<T extends NumberArray>(array: T, fill = 0): NumberColumn<T> {
    const column = new NumberColumn<T>(maker(array), fill);
    column.#array = array;
    return column;
  }

  /** A column of `source.count` values of `kind` in a file, read as they are asked for. */
  static file<K extends 'u32' | 'f64'>(kind: K, source: NumberSource, fill = 0): NumberColumn<K extends 'u32' ? Uint32Array : Float64Array> {
    type A = K extends 'u32' ? Uint32Array : Float64Array;
    const make = (kind === 'u32' ? (n: number) => new Uint32Array(n) : (n: number) => new Float64Array(n)) as (n: number) => A;
    const column = new NumberColumn<A>(make, fill);
    column.#source = source;
    return column;
  }

  /** True once the values are in memory (nothing more is read from the file). */
  get inMemory(): boolean {
    return this.#array !== undefined;
  }

  get(index: number): number {
    const array = this.#array;
    if (array !== undefined) return index < array.length ? array[index]! : this.fill;
    if (this.#set.size > 0) {
      const v = this.#set.get(index);
      if (v !== undefined) return v;
    }
    const source = this.#source!;
    if (!(index >= 0 && index < source.count)) return this.fill;
    const width = this.#width;
    if (++this.#reads > Math.min(WHOLE_AFTER, Math.max(4, (source.count * width) >>> 11))) return this.whole()[index]!;
    const scratch = (this.#scratch ??= this.make(1));
    if (readInto(source.file.fd, scratch, source.position + index * width) !== width) throw new RangeError('a column file is shorter than its header says');
    return scratch[0]!;
  }

  /**
   * Values `start` to `start + count - 1`, as {@link get} gives them, into `into`: while the
   * column is in its file, one read for the run (a row of a document's field lengths was a
   * read per field), counted as one.
   */
  getRun(start: number, count: number, into: number[]): void {
    const source = this.#source;
    const width = this.#width;
    if (this.#array !== undefined || source === undefined || count <= 1 || !(start >= 0 && start + count <= source.count) || ++this.#reads > Math.min(WHOLE_AFTER, Math.max(4, (source.count * width) >>> 11))) {
      for (let k = 0; k < count; k++) into[k] = this.get(start + k);
      return;
    }
    const run = this.make(count);
    if (readInto(source.file.fd, run, source.position + start * width) !== count * width) throw new RangeError('a column file is shorter than its header says');
    for (let k = 0; k < count; k++) into[k] = this.#set.get(start + k) ?? run[k]!;
  }

  set(index: number, value: number): void {
    const array = this.#array;
    if (array === undefined) {
      this.#set.set(index, value);
      return;
    }
    if (index >= array.length) this.grow(index + 1)[index] = value;
    else array[index] = value;
  }

  /**
   * Copies the first `target.length` values into `target` (a view of memory that is not the
   * column's, a WebAssembly kernel's): straight from the file while the column is in it, so
   * that the values are not first copied into an array of their own.
   */
  copyInto(target: T): void {
    const array = this.#array;
    if (array !== undefined) {
      if (array.length >= target.length) target.set(array.subarray(0, target.length));
      else {
        target.set(array);
        target.fill(this.fill, array.length);
      }
      return;
    }
    const source = this.#source!;
    const loaded = Math.min(target.length, source.count);
    const width = this.#width;
    if (readInto(source.file.fd, target.subarray(0, loaded), source.position) !== loaded * width) throw new RangeError('a column file is shorter than its header says');
    if (target.length > loaded) target.fill(this.fill, loaded);
    for (const [index, value] of this.#set) if (index < target.length) target[index] = value;
  }

  /** The values as an array (read whole once, with the values set meanwhile), at least `length` long. */
  whole(length = 0): T {
    let array = this.#array;
    if (array === undefined) {
      const source = this.#source!;
      let size = source.count;
      for (const index of this.#set.keys()) size = Math.max(size, index + 1);
      array = this.make(Math.max(size, length));
      const width = array.BYTES_PER_ELEMENT;
      const loaded = array.subarray(0, source.count) as T;
      if (readInto(source.file.fd, loaded, source.position) !== source.count * width) throw new RangeError('a column file is shorter than its header says');
      if (array.length > source.count && this.fill !== 0) array.fill(this.fill, source.count);
      for (const [index, value] of this.#set) array[index] = value;
      this.#set.clear();
      this.#array = array;
      this.#source = undefined;
      this.#scratch = undefined;
    }
    return array.length >= length ? array : this.grow(length);
  }

  /** The array, grown to at least `length` (doubling), the new entries `fill`. */
  private grow(length: number): T {
    const array = this.#array!;
    const grown = this.make(Math.max(32, length, array.length * 2));
    grown.set(array);
    if (this.fill !== 0) grown.fill(this.fill, array.length);
    this.#array = grown;
    return grown;
  }
}

function maker<T extends NumberArray>(array: T): (length: number) => T {
  return (array instanceof Float64Array ? (n: number) => new Float64Array(n) : (n: number) => new Uint32Array(n)) as (length: number) => T;
}
