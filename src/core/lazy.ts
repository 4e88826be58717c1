/**
 * Lazily loaded libraries. The warm paths (recall, the cached briefing) read no memory
 * file, so they must not pay for loading a YAML parser: these load on first use.
 * Both packages ship CommonJS builds, so loading stays synchronous.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

import type { Root } from 'mdast';

type Yaml = typeof import('yaml');
type Matter = typeof import('gray-matter');

let yaml: Yaml | undefined;
let matter: Matter | undefined;

/** The `yaml` package, loaded on first call. */
export function loadYaml(): Yaml {
  return (yaml ??= require('yaml') as Yaml);
}

/** The `gray-matter` package, loaded on first call. */
export function loadMatter(): Matter {
  return (matter ??= require('gray-matter') as Matter);
}

/** A markdown parser: text to mdast. */
export interface MarkdownParser {
  parse(text: string): Root;
}

let markdown: MarkdownParser | null | undefined;

/**
 * unified + remark-parse, loaded on first call (about 40 ms of module loading that the
 * warm paths must not pay). Both are ESM-only: they load synchronously through
 * require(esm), which Node has by default since 20.19 and 22.12. Returns `undefined`
 * on an older runtime, and callers degrade instead of failing.
 */
export function loadMarkdownParser(): MarkdownParser | undefined {
  if (markdown === undefined) {
    try {
      const { unified } = require('unified') as typeof import('unified');
      const remarkParse = (require('remark-parse') as typeof import('remark-parse')).default;
      markdown = unified().use(remarkParse) as unknown as MarkdownParser;
    } catch {
      markdown = null;
    }
  }
  return markdown ?? undefined;
}
