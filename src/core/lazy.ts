/**
 * Lazily loaded libraries. The warm paths (recall, the cached briefing) read no memory
 * file, so they must not pay for loading a YAML parser: these load on first use.
 * Both packages ship CommonJS builds, so loading stays synchronous.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

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
