/**
 * Quoting for the POSIX shell lines Cortex prints or installs (undo commands, git hook and
 * merge-driver commands, `claude mcp add`): pure, so every caller quotes the same way.
 */

/**
 * A word as the shell must see it: as is when it holds only characters the shell reads
 * literally, else in single quotes.
 *
 * @example
 * shellQuote('.cortex/memories/a.md') // '.cortex/memories/a.md'
 * shellQuote("it's here") // "'it'\\''s here'"
 */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
