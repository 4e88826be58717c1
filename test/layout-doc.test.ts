/**
 * docs/design.md's "Source layout" table is the map a newcomer reads first. This keeps it
 * true: every folder and file it names exists, every folder of `src/` and every file directly
 * in `src/` is on it, the `.ts` files a folder's row names are in that folder, and each
 * top-level row's layer is the one `test/architecture.test.ts` enforces.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

interface Row {
  /** Repository-relative paths the row names (folders end in `/`). */
  paths: string[];
  layer: number | undefined;
  description: string;
  line: string;
}

/** The rows of the table: names in the first column (indented under their folder), then the layer, then what it holds. */
function layoutRows(): Row[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs/design.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Source layout'));
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/design.md: no code block under "## Source layout"');
  const lines = block[1]!.split('\n').filter((l) => l.trim() !== '');
  expect(lines[0]).toMatch(/^src\/\s+layer$/);
  const rows: Row[] = [];
  let parent = 'src/';
  for (const line of lines.slice(1)) {
    const indent = line.length - line.trimStart().length;
    const [names = '', rest = ''] = line.trim().split(/\s{2,}(.*)/s);
    const paths = names.split(', ').map((name) => {
      if (!/^[\w./-]+$/.test(name)) throw new Error(`docs/design.md, source layout: cannot read "${name}" in: ${line}`);
      return indent === 0 ? name : indent === 2 ? `src/${name}` : `${parent}${name}`;
    });
    if (indent === 2 && paths[0]!.endsWith('/')) parent = paths[0]!;
    const layer = /^(\d)\s+(.*)$/.exec(rest);
    rows.push({ paths, layer: layer ? Number(layer[1]) : undefined, description: layer ? layer[2]! : rest, line });
  }
  return rows;
}

/** `test/architecture.test.ts`'s layer of each top-level folder or file of `src/`. */
function enforcedLayers(): Map<string, number> {
  const source = readFileSync(join(REPO_ROOT, 'test/architecture.test.ts'), 'utf8');
  const table = /const LAYERS[^=]*=\s*\{([\s\S]*?)\n\};/.exec(source);
  if (!table) throw new Error('test/architecture.test.ts: no LAYERS table');
  const layers = new Map<string, number>();
  for (const m of table[1]!.matchAll(/^\s*'?([\w.-]+)'?:\s*(\d+),/gm)) layers.set(m[1]!, Number(m[2]));
  return layers;
}

function srcFolders(dir = 'src'): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${dir}/${e.name}/`, ...srcFolders(`${dir}/${e.name}`)]);
}

describe('docs/design.md source layout', () => {
  const rows = layoutRows();
  const named = new Set(rows.flatMap((r) => r.paths));

  it('names only folders and files that exist', () => {
    for (const path of named) {
      expect(existsSync(join(REPO_ROOT, path)), `docs/design.md lists ${path}, which does not exist: fix the source layout table`).toBe(true);
      expect(statSync(join(REPO_ROOT, path)).isDirectory(), `docs/design.md: ${path} is ${path.endsWith('/') ? 'not a folder' : 'a folder (write it with a trailing /)'}`).toBe(path.endsWith('/'));
    }
  });

  it('lists every folder of src/ and every file directly in it', () => {
    const files = readdirSync(join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.test.ts'))
      .map((e) => `src/${e.name}`);
    for (const path of [...srcFolders(), ...files]) {
      expect(named.has(path), `${path} is missing from the source layout table in docs/design.md: add a row for it`).toBe(true);
    }
  });

  it("has the .ts files a folder's row names in that folder", () => {
    for (const row of rows) {
      const folder = row.paths[0]!;
      if (row.paths.length !== 1 || !folder.endsWith('/')) continue;
      for (const [file] of row.description.matchAll(/[\w-]+\.ts\b/g)) {
        expect(existsSync(join(REPO_ROOT, folder, file)), `docs/design.md names ${file} for ${folder}, which has no such file`).toBe(true);
      }
    }
  });

  it('gives each top-level row the layer test/architecture.test.ts enforces', () => {
    const layers = enforcedLayers();
    for (const row of rows) {
      for (const path of row.paths) {
        const top = /^src\/([^/]+)\/?$/.exec(path)?.[1];
        if (top === undefined) continue;
        expect(row.layer, `docs/design.md: ${path} has layer ${row.layer}, test/architecture.test.ts says ${layers.get(top)}`).toBe(layers.get(top));
      }
    }
  });
});
