/**
 * What a long-lived process (the MCP server) made from a cache file, kept while the file is
 * unchanged: the file's `stat` signature (mtime, size, inode) and a key of what it was made
 * for must both match. A one-shot command never hits it; the server saves a read per call.
 * Node built-ins only.
 */
import { statSync } from 'node:fs';

/**
 * The file's signature now, or undefined when it is missing. Taken before the file is read:
 * a change during the read then makes the next lookup miss.
 *
 * @example
 * fileSignature('/repo/.memory/graph.v8') // '1764032400123.456.12345678'
 */
export function fileSignature(path: string): string | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.mtimeMs}.${st.size}.${st.ino}` : undefined;
}

/**
 * Values by file path, each kept with the signature and key it was made for.
 *
 * @example
 * const memo = new FileMemo<string, Lookup>((a, b) => a === b);
 * const signature = fileSignature(path);
 * const hit = memo.get(path, signature, header) ?? memo.set(path, signature, header, make());
 */
export class FileMemo<K, V> {
  private readonly kept = new Map<string, { signature: string; key: K; value: V }>();

  constructor(private readonly sameKey: (a: K, b: K) => boolean) {}

  get(path: string, signature: string | undefined, key: K): V | undefined {
    const kept = this.kept.get(path);
    return kept !== undefined && signature !== undefined && kept.signature === signature && this.sameKey(kept.key, key) ? kept.value : undefined;
  }

  /** Keeps `value` (when the file exists) and returns it. */
  set(path: string, signature: string | undefined, key: K, value: V): V {
    if (signature !== undefined) this.kept.set(path, { signature, key, value });
    else this.kept.delete(path);
    return value;
  }
}
