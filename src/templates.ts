/**
 * Access to `templates/`: every generated text that is not code.
 */
import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();

/** Reads `templates/<name>` (shipped beside `dist/` and `src/`). */
export function readTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`../templates/${name}`, import.meta.url), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Reads `hooks/<name>`: the git hook scripts `cortex init` installs. */
export function readHookTemplate(name: string): string {
  const key = `hooks/${name}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = readFileSync(new URL(`../hooks/${name}`, import.meta.url), 'utf8');
    cache.set(key, text);
  }
  return text;
}
