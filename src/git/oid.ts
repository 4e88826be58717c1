/**
 * Git object ids computed locally (no repository needed, and no isomorphic-git to load:
 * the warm `cortex project` path hashes files with this alone).
 */
import { createHash } from 'node:crypto';

/**
 * The object id git gives a blob with these bytes (`git hash-object`).
 *
 * @example
 * blobOid('') // 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'
 */
export function blobOid(content: string | Uint8Array): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
