/**
 * The layers of `src/` (CONTRIBUTING.md, "Where things are"), checked on every run: a walk
 * over the imports of every source file (static, `import type`, re-exports and dynamic
 * `import()`) that fails on an import cycle, on an import that points up the layers, and
 * on I/O in the pure core. A new folder must be given its layer here before it can hold code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/repo.js';

const SRC = join(REPO_ROOT, 'src');

/**
 * Each top-level folder (or file) of `src/` and its layer: a module may import its own
 * layer and the ones below, never one above.
 */
const LAYERS: Record<string, number> = {
  // Nothing of ours below them: error classes, the environment variables.
  'errors.ts': 0,
  'env.ts': 0,
  // Pure domain: data in, data out; no I/O, no clock.
  core: 1,
  // The shell: .cortex/ files and locks, the git repository, the embedding model, the
  // shipped templates, the terminal.
  store: 2,
  git: 2,
  embed: 2,
  'templates.ts': 2,
  // This package's executable, by path (git, MCP and the session-end worker run it).
  'executable.ts': 2,
  term: 2,
  // Everything under .memory/: indexes, vectors, caches, local state.
  cache: 3,
  // What several use cases share: the context, open indexes, the graph view, embeddings, signals.
  services: 4,
  // The use cases.
  api: 5,
  // Installers: init, git, Claude Code and MCP setup, doctor.
  setup: 6,
  // Entry points: the CLI, its commands, the Claude Code hooks, the MCP server, the web
  // viewer's HTTP server, the library.
  commands: 7,
  hooks: 7,
  mcp: 7,
  serve: 7,
  'cli.ts': 7,
  'main.ts': 7,
  // The cached SessionStart's own bundle.
  'start.ts': 7,
  'index.ts': 7,
};

/** Built-ins the pure core may use: loading its pure libraries lazily, nothing that does I/O. */
const CORE_BUILTINS = new Set(['node:module']);
/** Packages that do I/O or load models: never in the core. */
const CORE_FORBIDDEN_PACKAGES = /^(isomorphic-git|@huggingface\/|onnxruntime|@modelcontextprotocol\/)/;

interface Import {
  from: string;
  /** A path under src/ (`core/memory.ts`), or the specifier of a package or built-in. */
  to: string;
  local: boolean;
  typeOnly: boolean;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const from = relative(SRC, file).split('\\').join('/');
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean, node: ts.Node): void => {
    const local = spec.startsWith('.');
    const to = local ? relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))).split('\\').join('/') : spec;
    out.push({ from, to, local, typeOnly, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.name === undefined && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly, node);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function layerKey(path: string): string {
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : path;
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);
const show = (i: Import): string => `src/${i.from}:${i.line} → ${i.local ? `src/${i.to}` : i.to}${i.typeOnly ? ' (type)' : ''}`;

/** Strongly connected components of more than one module (Tarjan), over the given edges. */
function cycles(edges: Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return found;
}

describe('the layers of src/', () => {
  it('finds the imports it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.filter((i) => i.local).length).toBeGreaterThan(500);
  });

  it('places every folder and top-level file in a layer', () => {
    const unplaced = [...new Set(files.map((f) => layerKey(relative(SRC, f).split('\\').join('/'))))].filter((k) => LAYERS[k] === undefined);
    expect(unplaced, 'give each new folder its layer in LAYERS (and CONTRIBUTING.md)').toEqual([]);
  });

  it('has no import cycle, type imports included', () => {
    expect(cycles(imports.filter((i) => i.local))).toEqual([]);
  });

  it('has no import that points up the layers', () => {
    const upward = imports.filter((i) => i.local && (LAYERS[layerKey(i.to)] ?? Infinity) > (LAYERS[layerKey(i.from)] ?? -Infinity));
    expect(upward.map(show)).toEqual([]);
  });

  it('reaches the search engine through its seam only: above cache/, nothing imports src/cache/index/ but search-index.ts', () => {
    // The engine's files (packed postings, score kernel, MiniSearch state) are its own to split
    // and change; services, use cases and entry points see the SearchIndex interface
    // (docs/design.md, "The search seam"). Within cache/, the graph cache shares the score kernel.
    const above = (i: Import) => (LAYERS[layerKey(i.from)] ?? -Infinity) > LAYERS.cache!;
    const past = imports.filter((i) => i.local && above(i) && i.to.startsWith('cache/index/') && i.to !== 'cache/index/search-index.ts');
    expect(past.length + imports.filter((i) => i.local && above(i) && i.to === 'cache/index/search-index.ts').length, 'the check sees the imports of the search code').toBeGreaterThan(10);
    expect(past.map(show)).toEqual([]);
  });

  it('keeps the core pure: no I/O built-in, no I/O package, nothing of ours outside core/ but errors.ts', () => {
    const core = imports.filter((i) => i.from.startsWith('core/'));
    const bad = core.filter((i) =>
      i.local ? !(i.to.startsWith('core/') || i.to === 'errors.ts') : (i.to.startsWith('node:') && !CORE_BUILTINS.has(i.to)) || CORE_FORBIDDEN_PACKAGES.test(i.to),
    );
    expect(bad.map(show)).toEqual([]);
  });

  it('has no module-level registry: no exported register*/set* function that installs an implementation', () => {
    // A fixed implementation is a direct call; a variable one is an option (openCortex({ … })).
    const registries = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return [...text.matchAll(/^export (?:async )?function ((?:register|add|set)[A-Z]\w*(?:Provider|Extractor|Rule|Step)s?|register[A-Z]\w*)\(/gm)].map((m) => `${relative(SRC, f)}: ${m[1]}`);
    });
    expect(registries).toEqual([]);
  });

  it('gives the use cases, the caches and the store no way to print or exit', () => {
    // Only main.ts turns errors into output and exit codes (STYLE.md, "Errors").
    const below = files.filter((f) => /\/src\/(core|store|git|cache|services|api|setup)\//.test(f.split('\\').join('/')));
    const printing = below.filter((f) => /\bprocess\.exit\(|console\.log\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(printing).toEqual([]);
  });
});
