/**
 * Preparing memory files in a worker thread (see read-worker.ts) while the index takes in
 * those prepared before: reading, parsing, hashing and analysing a file is most of what a
 * fresh build costs, and no file's preparation depends on another's. The index still takes
 * every file in here, in name order, so the build is the one a single thread makes.
 *
 * The calls are synchronous (the index's refresh is): results are polled from the worker's
 * port, and the thread sleeps on a shared counter the worker bumps after each batch.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { MemoryFileEntry } from '../../store/memory-store.js';
import type { PreparedFile } from './prepare-file.js';
import type { AnalyzedDoc } from './search-state.js';

type WorkerThreads = typeof import('node:worker_threads');
let workerThreads: WorkerThreads | undefined;

/**
 * `node:worker_threads`, loaded when a worker is first started: loading it costs 3–7 ms,
 * and most processes that open an index (recall, remember, the hooks) never start one.
 */
function threads(): WorkerThreads {
  return (workerThreads ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads);
}

/** What the worker is started with. */
export interface PrepareWorkerData {
  port: MessagePort;
  /** [batches posted, failed]. */
  signal: Int32Array;
  base: string;
  /** Extract `[[links]]` (core/wikilinks.ts), or none. */
  wikilinks: boolean;
}

/** A batch of files to prepare, and what comes back. */
export interface PrepareJob {
  id: number;
  entries: MemoryFileEntry[];
}
export type PrepareReply = { id: number; files: PackedFile[] } | { id: number; error: string };

/** A prepared file as posted: each field's terms joined by spaces (one string, not a hundred). */
export type PackedFile = Omit<PreparedFile, 'analyzed'> & { analyzed?: { id: string; fields: ({ unique: number; terms: string | string[] } | null)[] } };

const WORKER_URL = new URL('./read-worker.js', import.meta.url);

/**
 * The worker's young generation in MB: semi-spaces of 8 MB (V8's default on 64 bits: 16 MB,
 * 32 MB in use once grown), ~16 MB less of the worker's heap at 100,000 files. Not smaller:
 * the batch being prepared lives through every scavenge until it is posted, so scavenges
 * copy it again and again: at 100,000 files they took 1.3 s of the worker with semi-spaces
 * of 4 MB, 0.7 s with 8 MB, 0.4 s with 16. Its old generation is not capped: a batch of
 * large files needs what it needs.
 */
const WORKER_YOUNG_GENERATION_MB = 24;

/** A batch not back after this long means the worker is gone: the files are prepared here. */
const WORKER_TIMEOUT_MS = 20_000;

/** A file prepared in a worker, as posted (a field whose terms hold a space, which no word does, as they are). */
export function packPrepared(file: PreparedFile): PackedFile {
  const { analyzed, ...rest } = file;
  if (!analyzed) return rest;
  const fields = analyzed.fields.map((f) => (f === null ? null : { unique: f.unique, terms: f.terms.some((t) => t.includes(' ')) ? f.terms : f.terms.join(' ') }));
  return { ...rest, analyzed: { id: analyzed.id, fields } };
}

/** The file {@link packPrepared} posted. */
export function unpackPrepared(file: PackedFile): PreparedFile {
  const { analyzed: packed, ...rest } = file;
  if (!packed) return rest;
  const fields = packed.fields.map((f) => (f === null ? null : { unique: f.unique, terms: typeof f.terms !== 'string' ? f.terms : f.terms === '' ? [] : f.terms.split(' ') }));
  const analyzed: AnalyzedDoc = { id: packed.id, fields };
  return { ...rest, analyzed };
}

/**
 * A worker preparing batches of memory files, in the order they are sent.
 *
 * @example
 * const worker = FilePreparer.start({ base: root, wikilinks: true });
 * worker?.send(0, entries); const back = worker?.poll(); worker?.close();
 */
export class FilePreparer {
  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
  ) {}

  /** A worker, or undefined where there is no second core or no built worker (running from sources). */
  static start(options: { base: string; wikilinks: boolean }): FilePreparer | undefined {
    if (availableParallelism() < 2) return undefined;
    try {
      if (WORKER_URL.protocol !== 'file:' || !existsSync(fileURLToPath(WORKER_URL))) return undefined;
      const { MessageChannel, Worker } = threads();
      const { port1, port2 } = new MessageChannel();
      const signal = new Int32Array(new SharedArrayBuffer(8));
      const workerData: PrepareWorkerData = { port: port2, signal, ...options };
      const worker = new Worker(WORKER_URL, { workerData, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
      worker.unref();
      // Seen only if this thread waits for events; `take` gives up after a timeout otherwise.
      worker.on('error', () => {
        Atomics.store(signal, 1, 1);
        Atomics.notify(signal, 0);
      });
      return new FilePreparer(worker, port1, signal);
    } catch {
      return undefined;
    }
  }

  send(id: number, entries: MemoryFileEntry[]): void {
    const job: PrepareJob = { id, entries };
    this.port.postMessage(job);
  }

  /** A count of the batches the worker posted: what {@link waitAfter} waits to move. */
  posted(): number {
    return Atomics.load(this.signal, 0);
  }

  /**
   * The next batch back from the worker, if one is there (without waiting): its id and
   * files as posted (see {@link unpackPrepared}), or no files when the worker failed it.
   */
  poll(): { id: number; files: PackedFile[] | undefined } | undefined {
    const received = threads().receiveMessageOnPort(this.port);
    if (!received) return undefined;
    const reply = received.message as PrepareReply;
    return { id: reply.id, files: 'error' in reply ? undefined : reply.files };
  }

  /** Waits until the worker posts past `posted` (see {@link posted}); false when it failed or went quiet. */
  waitAfter(posted: number): boolean {
    if (Atomics.load(this.signal, 1) !== 0) return false;
    return Atomics.wait(this.signal, 0, posted, WORKER_TIMEOUT_MS) !== 'timed-out' && Atomics.load(this.signal, 1) === 0;
  }

  /** Stops the worker (whatever it still had to do). */
  close(): void {
    this.port.close();
    void this.worker.terminate().catch(() => undefined);
  }
}
