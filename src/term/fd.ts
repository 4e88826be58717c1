/**
 * The process's standard descriptors without Node's stream machinery. `process.stdout` (and
 * `node:tty`'s `isatty`) load `tty`, `net` and the stream modules the first time they are
 * touched: ~8 ms of every command, for a few lines written. A command writes to the
 * descriptor itself and asks whether it is a terminal with a `fstat` first. Node built-ins
 * only: the cached SessionStart (src/start.ts) uses it too.
 */
import { fstatSync, statSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * True when descriptor `fd` is a terminal. Only a character device can be one, and a `fstat`
 * says so without loading `node:tty` (a pipe, a file or /dev/null are answered by it alone).
 *
 * @example
 * isTerminal(0) // false under `echo x | cortex remember`
 */
export function isTerminal(fd: number): boolean {
  if (process.platform !== 'win32') {
    try {
      const stat = fstatSync(fd);
      // /dev/null (what a script or a test runner often gives) is a character device too.
      if (!stat.isCharacterDevice() || stat.rdev === devNull()) return false;
    } catch {
      return false; // closed
    }
  }
  return isatty(fd);
}

let devNullRdev: number | undefined;

/** The device number of /dev/null (-1 where there is none). */
function devNull(): number {
  if (devNullRdev === undefined) {
    try {
      devNullRdev = statSync('/dev/null').rdev;
    } catch {
      devNullRdev = -1;
    }
  }
  return devNullRdev;
}

let throughStreams = false;

/**
 * True once a {@link descriptorWriter} went on through its stream: its last writes may still
 * be queued (where a pipe's stream writes asynchronously), and the process must not end
 * before they are written.
 */
export function wroteThroughStreams(): boolean {
  return throughStreams;
}

/**
 * A writer of text to descriptor `fd` (1 or 2), written whole before it returns. A descriptor
 * another program left non-blocking can answer EAGAIN when its pipe is full: from then on the
 * text goes through the stream (`stream()`, which waits for the reader), so the order stays.
 * A reader that closed the pipe early (`cortex list | head`) ends the process quietly, with
 * its exit code, as `onClosed` does.
 *
 * @example
 * const out = descriptorWriter(1, () => process.stdout, () => process.exit(0));
 * out('hello\n');
 */
export function descriptorWriter(fd: 1 | 2, stream: () => NodeJS.WriteStream, onClosed: () => void): (text: string) => void {
  let streamed: NodeJS.WriteStream | undefined;
  const toStream = (text: string | Uint8Array): void => {
    if (streamed === undefined) {
      throughStreams = true;
      streamed = stream();
      streamed.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err;
        onClosed();
      });
    }
    streamed.write(text);
  };
  return (text) => {
    if (streamed !== undefined) return toStream(text);
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return onClosed();
      if (code !== 'EAGAIN') throw error;
      toStream(bytes.subarray(done));
    }
  };
}
