/**
 * Reading all of stdin. Node built-ins only: the cached SessionStart (src/start.ts) reads
 * its hook input with it.
 */
import { read } from 'node:fs';
import { isTerminal } from './fd.js';

/** The rest of stdin through `process.stdin`, after `chunks` were read from its descriptor. */
async function streamStdin(chunks: Buffer[]): Promise<string> {
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * All of stdin ('' for a terminal), read from its descriptor: `process.stdin` is a stream that
 * Node builds on first use (for a pipe, a socket: `net` and its stream machinery, ~5 ms of a
 * hook reading a few hundred bytes). A descriptor another program left non-blocking answers
 * EAGAIN: the stream (which waits for it) reads the rest.
 *
 * @example
 * const text = await readAllStdin(); // '{"session_id":"s1",…}'
 */
export function readAllStdin(): Promise<string> {
  if (isTerminal(0)) return Promise.resolve('');
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const step = (): void =>
      read(0, Buffer.allocUnsafe(65_536), 0, 65_536, null, (err, n, buffer) => {
        if (err?.code === 'EAGAIN') return void streamStdin(chunks).then(resolve, reject);
        // Windows reports the end of a pipe as an error.
        if (err && err.code !== 'EOF') return reject(err);
        if (err || n === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
        chunks.push(buffer.subarray(0, n));
        step();
      });
    step();
  });
}

/** Claude Code always closes a hook's stdin; this only guards against a caller that never does. */
export const HOOK_STDIN_TIMEOUT_MS = 5_000;

/**
 * What `read` gives within `ms` milliseconds, '' after that or when it fails (a hook's input:
 * a hook never fails).
 *
 * @example
 * const input = await readWithin(readAllStdin, HOOK_STDIN_TIMEOUT_MS);
 */
export function readWithin(read: () => Promise<string>, ms: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(''), ms);
    timer.unref?.();
    read().then(
      (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      () => {
        clearTimeout(timer);
        resolve('');
      },
    );
  });
}
