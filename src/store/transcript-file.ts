/**
 * Opening a session transcript for the capture hooks. The path comes from the hook's
 * input: it may name a FIFO, a device or a directory, and a hook must never wait on one
 * (Claude Code's Stop hook would hang the session). So the path is checked with `lstat`
 * (which never blocks), opened with `O_NONBLOCK` (a FIFO swapped in after the check does
 * not block either), checked again with `fstat` on the descriptor, and the open itself is
 * given a deadline (a hung network file system), after which the hook gives up on it.
 */
import { close, closeSync, constants, fstatSync, lstatSync, open, statSync, type Stats } from 'node:fs';
import { describeFileType } from './safe-read.js';

/** How long opening a transcript may take before the hook gives up on it (ms). */
export const TRANSCRIPT_OPEN_TIMEOUT_MS = 2_000;

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** An open transcript: a descriptor for `readSync`, and its `fstat`. The caller closes it. */
export interface OpenedTranscript {
  fd: number;
  stat: Stats;
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err);
}

/**
 * Opens a transcript for reading if it is a regular file (or a link to one); otherwise,
 * or when the open takes longer than `timeoutMs`, says why not in one line.
 *
 * @example
 * const t = await openTranscriptFile('/home/me/.claude/projects/x/a9185eb7.jsonl');
 * if ('problem' in t) log(t.problem); else try { … } finally { closeSync(t.fd); }
 */
export async function openTranscriptFile(path: string, options: { timeoutMs?: number } = {}): Promise<OpenedTranscript | { problem: string }> {
  const timeoutMs = options.timeoutMs ?? TRANSCRIPT_OPEN_TIMEOUT_MS;
  try {
    const st = lstatSync(path);
    const target = st.isSymbolicLink() ? statSync(path) : st;
    if (!target.isFile()) return { problem: `the transcript ${path} is ${describeFileType(target)}, not a regular file` };
  } catch (err) {
    return { problem: `cannot open the transcript ${path}: ${codeOf(err)}` };
  }
  let timer: NodeJS.Timeout | undefined;
  // The callback form gives a plain descriptor (the capture reads it with readSync and
  // closes it with closeSync); a FileHandle would also close it when collected.
  const opening = new Promise<number>((resolve, reject) => open(path, FLAGS, (err, fd) => (err ? reject(err) : resolve(fd))));
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  let fd: number;
  try {
    const first = await Promise.race([opening, late]);
    if (first === 'late') {
      // Closed when (if ever) it opens; the hook does not wait for that.
      opening.then((late) => close(late, () => undefined), () => undefined);
      return { problem: `the transcript ${path} did not open within ${timeoutMs} ms` };
    }
    fd = first;
  } catch (err) {
    return { problem: `cannot open the transcript ${path}: ${codeOf(err)}` };
  } finally {
    clearTimeout(timer);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return { fd, stat };
    closeSync(fd);
    return { problem: `the transcript ${path} is ${describeFileType(stat)}, not a regular file` };
  } catch (err) {
    closeSync(fd);
    return { problem: `cannot stat the transcript ${path}: ${codeOf(err)}` };
  }
}
