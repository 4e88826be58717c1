#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles dist/main.js and everything it imports into
// dist/cli.bundle.cjs, which dist/cli.cjs (the `cortex` executable, src/cli.ts) compiles with
// V8's code cache; the MCP SDK and zod into dist/mcp.bundle.cjs, the cached SessionStart into
// dist/start.bundle.cjs, and the executable itself. Each bundle is one function expression,
// `(function (exports, require, module, __filename, __dirname, __cortexImport, __cortexBundle) { … })`
// with its local names shortened, in ASCII (so it
// loads as a one-byte string), with a first line naming its content hash (a cache made from
// another build is never used, whatever its size and time). Packages that load files next
// to their own code (WASM, models, native add-ons) stay outside and load from node_modules.
// Each module's `import.meta.url` stays its own file's URL in dist/ (templates, hooks and the
// viewer are found from there), not the bundle's.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import { minifySync } from 'rolldown/utils';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'cli.bundle.cjs');

/**
 * Loaded from node_modules at run time: packages that read files beside their own code or
 * are native (the embedding and tree-sitter stacks). Everything else is in
 * the bundle, the MCP SDK too (rolldown hoists a CommonJS bundle's `require` of an external
 * package to the top, so an external one would load for every command).
 */
const EXTERNAL = [/^@huggingface\/transformers(\/|$)/, /^onnxruntime-/, /^web-tree-sitter(\/|$)/, /^@repomix\/tree-sitter-wasms(\/|$)/];

/**
 * The secret rules (core/secretlint-scan.ts) load on first use, through `createRequire`,
 * which a bundler cannot follow: here that call becomes a plain `require` of the preset,
 * which the bundle resolves to the preset inside it, still evaluated on first use only
 * (a module that is required is wrapped and initialised when the call runs). Inside, the
 * rules are compiled from the code cache like the rest: loaded from node_modules, each
 * writing command compiled the preset's 200 KB anew (~10 ms, a twentieth of a `remember`).
 */
const SECRET_RULES = 'core/secretlint-scan.js';
const SECRET_RULES_LOAD = 'createRequire(import.meta.url)(PRESET)';
const bundledSecretRules = {
  name: 'cortex-bundled-secret-rules',
  transform(code, id) {
    if (relative(dist, id).split('\\').join('/') !== SECRET_RULES) return null;
    if (!code.includes(SECRET_RULES_LOAD)) this.error(`${SECRET_RULES} no longer loads the preset with ${SECRET_RULES_LOAD}: update scripts/bundle.mjs`);
    return { code: code.replaceAll(SECRET_RULES_LOAD, 'require("@secretlint/secretlint-rule-preset-recommend")'), map: null };
  },
};

const ownUrl = {
  name: 'cortex-own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta')) return null;
    const rel = relative(dist, id).split('\\').join('/');
    if (rel.startsWith('..')) this.error(`${id} uses import.meta and is not under dist/: add it to EXTERNAL in scripts/bundle.mjs`);
    return { code: code.replaceAll('import.meta.url', `__cortexUrl(${JSON.stringify(rel)})`), map: null };
  },
};

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Node's built-in modules as tiny CommonJS modules of the bundle, so that each is required
 * when the code that imports it first runs: as externals, rolldown requires them all at the
 * top, and every command would load http, zlib, readline… (~4 ms, a twentieth of the cached
 * SessionStart).
 */
const lazyBuiltins = {
  name: 'cortex-lazy-builtins',
  resolveId(source, importer) {
    if (!BUILTINS.has(source) || importer?.startsWith('\0builtin:')) return null;
    return { id: `\0builtin:${source}`, moduleSideEffects: false };
  },
  load(id) {
    if (!id.startsWith('\0builtin:')) return null;
    return { code: `module.exports = require(${JSON.stringify(id.slice('\0builtin:'.length))});`, moduleType: 'js' };
  },
};

/**
 * The MCP SDK and zod (~450 kB of the CLI's 1.8 MB, which every command reads) are used by
 * `cortex mcp` alone: the CLI's bundle leaves them to a bundle of their own
 * (`dist/mcp.bundle.cjs`, with its own code cache), loaded the first time an MCP module is
 * initialised. Each import of them becomes a tiny CommonJS module of the CLI's bundle (lazy,
 * as the built-ins are) that asks `__cortexMcpDeps` for it.
 */
const MCP_DEPS = /^(@modelcontextprotocol\/sdk|zod)(\/|$)/;
const mcpDepsSeen = new Set();
const mcpDepsApart = {
  name: 'cortex-mcp-deps-apart',
  resolveId(source, importer) {
    if (!MCP_DEPS.test(source) || importer?.startsWith('\0mcpdep:')) return null;
    // Only the CLI's own imports: the SDK's imports of its own files stay inside the SDK's bundle.
    if (importer !== undefined && relative(dist, importer).startsWith('..')) return null;
    mcpDepsSeen.add(source);
    return { id: `\0mcpdep:${source}`, moduleSideEffects: false };
  },
  load(id) {
    if (!id.startsWith('\0mcpdep:')) return null;
    return { code: `module.exports = __cortexMcpDeps(${JSON.stringify(id.slice('\0mcpdep:'.length))});`, moduleType: 'js' };
  },
};

/**
 * In the CLI's bundle: a package of {@link MCP_DEPS}, from the MCP bundle (`__cortexBundle`,
 * the executable's loader) or, without it (an older executable, a missing file), from
 * node_modules.
 */
const MCP_DEPS_LOADER = `const __cortexMcpDeps = (specifier) => {
  const bundle = typeof __cortexBundle === "function" ? __cortexBundle("mcp") : undefined;
  const found = bundle && bundle.deps && bundle.deps[specifier];
  return found !== undefined ? found : require(specifier);
};`;

/**
 * Bundles `input` (a module of dist/) and everything it imports into `out`, in the form
 * described at the top; returns its size.
 */
async function bundleEntry(input, out, plugins = []) {
  const started = Date.now();
  const bundle = await rolldown({
    input,
    platform: 'node',
    external: EXTERNAL,
    plugins: [...plugins, bundledSecretRules, ownUrl, lazyBuiltins],
    logLevel: 'warn',
    onLog(level, log, handler) {
      // Direct eval and the like in dependencies' code paths we do not bundle-break: not ours to fix.
      if (log.code === 'EVAL' || log.code === 'CIRCULAR_DEPENDENCY') return;
      handler(level, log);
    },
  });
  const { output } = await bundle.generate({
    format: 'cjs',
    codeSplitting: false,
    charset: 'ascii',
    comments: false,
    // Whitespace only: the rewrites below read rolldown's names; `shortNames` shortens them after.
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
  });
  await bundle.close();
  if (output.length !== 1) throw new Error(`bundle: expected one file, got ${output.map((o) => o.fileName).join(', ')}`);
  // Rolldown's own banner and footer options drop the code between them (1.2): wrapped here.
  const wrapped = [
    '(function (exports, require, module, __filename, __dirname, __cortexImport, __cortexBundle) {',
    '"use strict";',
    'const __cortexUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;',
    // Only the CLI's bundle asks for the MCP bundle.
    plugins.includes(mcpDepsApart) ? MCP_DEPS_LOADER : '',
    BUILTIN_NAMESPACE,
    lazyBuiltinNamespaces(routeDynamicImports(output[0].code)),
    '})',
  ].join('\n');
  let code = shortNames(wrapped);
  for (let i = 0; i < code.length; i++) {
    if (code.charCodeAt(i) > 0x7f) throw new Error(`bundle: non-ASCII character at ${i}: ${JSON.stringify(code.slice(Math.max(0, i - 40), i + 40))}`);
  }
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  code = `// cortex bundle ${hash}\n${code}`;
  writeFileSync(out, code, 'latin1');
  console.error(`bundle: ${relative(root, out)} ${(code.length / 1e6).toFixed(2)} MB (${hash}) in ${Date.now() - started} ms`);
  return { bytes: code.length, wrapped };
}

/**
 * The bundle with its local names made short (after the rewrites above, which read rolldown's
 * names): every command reads and decodes the whole file before it runs (2.3 MB took 18 ms
 * on the 2-core machine, 1.8 MB 14 ms). Function and class names are kept (stack traces,
 * and code that reads a constructor's name), nothing else changes: no compression, no
 * reordering. The minifier writes some escapes as the characters they stand for: each is
 * written back as an escape, which means the same in a string, a template or a regular
 * expression (the bundle has no tagged template that reads `.raw`).
 */
function shortNames(code) {
  const result = minifySync('bundle.cjs', code, { compress: false, mangle: { keepNames: true, toplevel: false }, codegen: { removeWhitespace: true } });
  if (result.errors?.length) throw new Error(`bundle: the minifier failed: ${result.errors.map((e) => e.message).join('; ')}`);
  const out = result.code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/;\s*$/, '');
  // Still one function expression (the executable calls what it evaluates to).
  if (!/^\(function\s*\(/.test(out) || !out.endsWith('})')) throw new Error(`bundle: the minified bundle is not one function expression: ${out.slice(0, 60)}…${out.slice(-20)}`);
  return out;
}

/**
 * `import()` of the packages left outside becomes `__cortexImport(…)`, a function of the
 * executable's: V8 does not keep what a script's `import()` needs in its code cache
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING once a cached function runs one).
 */
function routeDynamicImports(text) {
  const starts = [];
  const walk = (node) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (node.type === 'ImportExpression') starts.push(node.start);
    for (const key of Object.keys(node)) if (key !== 'parent') walk(node[key]);
  };
  walk(parseAst(text));
  let routed = text;
  for (const start of starts.sort((a, b) => b - a)) {
    if (routed.slice(start, start + 6) !== 'import') throw new Error(`bundle: no import() at ${start}`);
    routed = `${routed.slice(0, start)}__cortexImport${routed.slice(start + 6)}`;
  }
  return routed;
}

/**
 * An ES module's import of a built-in becomes `__toESM(require__builtin_x(), 1)`, run when
 * the importing module is first initialised: a copy of the built-in's namespace per
 * importing module (node:fs was copied 75 times, ~100 getters each) and the built-in
 * loaded whether the code that uses it runs or not. Here each becomes one namespace per
 * built-in that requires it on first use (`__cortexBuiltin`, below).
 */
function lazyBuiltinNamespaces(text) {
  const names = new Map();
  for (const m of text.matchAll(/var (require__builtin_\w+)\s*=\s*__commonJSMin\(\(\(exports,\s*module\)\s*=>\s*\{\s*module\.exports\s*=\s*require\(("[^"]+")\)/g)) names.set(m[1], m[2]);
  let replaced = 0;
  const lazy = (id) => {
    if (!names.has(id)) throw new Error(`bundle: no built-in behind ${id}`);
    replaced++;
    return `__cortexBuiltin(${names.get(id)})`;
  };
  // An import of named bindings only is `import__builtin_x = require__builtin_x()` (read
  // through, never assigned: ES module bindings are read-only); a CommonJS package's own
  // require of a built-in is left as it is (it may patch the module).
  const out = text
    .replace(/__toESM\((require__builtin_\w+)\(\),\s*1\)/g, (all, id) => lazy(id))
    .replace(/(\bimport__builtin_\w+(?:\$\d+)?\s*=\s*)(require__builtin_\w+)\(\)/g, (all, binding, id) => binding + lazy(id));
  // The output's shape is rolldown's: fail the build rather than ship the slow form silently.
  if (names.size === 0 || replaced === 0 || /__toESM\(require__builtin_/.test(out)) throw new Error('bundle: the built-in imports were not found in the shape expected');
  return out;
}

/** The namespace of a built-in, loaded on first use; what `__toESM(mod, 1)` gives once it is. */
const BUILTIN_NAMESPACE = `const __cortexBuiltins = Object.create(null);
const __cortexBuiltin = (name) => {
  let ns = __cortexBuiltins[name];
  if (ns !== undefined) return ns;
  let mod;
  const load = () => (mod ??= require(name));
  const has = (key) => key === "default" || Object.prototype.hasOwnProperty.call(load(), key);
  const value = (key) => (key === "default" ? load() : load()[key]);
  return (__cortexBuiltins[name] = new Proxy(Object.create(null), {
    get: (_, key) => value(key),
    has: (_, key) => key === "default" || key in load(),
    ownKeys: () => [...new Set([...Reflect.ownKeys(load()), "default"])],
    getOwnPropertyDescriptor: (_, key) => (has(key) ? { value: value(key), writable: false, enumerable: true, configurable: true } : undefined),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }));
};`;

await bundleEntry(join(dist, 'main.js'), out, [mcpDepsApart]);
// The MCP bundle: every package the CLI's bundle left to it, by the specifier it imports.
const mcpEntry = join(dist, 'mcp-deps.js');
const specifiers = [...mcpDepsSeen].sort();
if (specifiers.length === 0) throw new Error('bundle: no MCP SDK or zod import was found: update MCP_DEPS in scripts/bundle.mjs');
writeFileSync(
  mcpEntry,
  `${specifiers.map((s, i) => `import * as d${i} from ${JSON.stringify(s)};`).join('\n')}\nexport const deps = { ${specifiers.map((s, i) => `${JSON.stringify(s)}: d${i}`).join(', ')} };\n`,
);
await bundleEntry(mcpEntry, join(dist, 'mcp.bundle.cjs'));
/**
 * The cached SessionStart (src/start.ts) alone: a few modules of node built-ins, which the
 * executable runs for `cortex hook session-start` instead of the CLI's 1.3 MB. The hook log
 * (and the redaction rules it writes through, ~100 KB) is imported from dist/ the rare time
 * something is logged. Anything heavy reaching the bundle would undo it: the build fails instead.
 */
const START_MAX_BYTES = 100_000;
const hookLogOutside = {
  name: 'cortex-hook-log-outside',
  resolveId(source, importer) {
    if (source !== './log.js' || importer === undefined || relative(dist, importer).split('\\').join('/') !== 'hooks/run-hook.js') return null;
    // Relative to the bundle (in dist/), as its import() is resolved by the executable (also in dist/).
    return { id: './hooks/log.js', external: true };
  },
};
const { bytes: startBytes, wrapped: startCode } = await bundleEntry(join(dist, 'start.js'), join(dist, 'start.bundle.cjs'), [hookLogOutside]);
if (!/__cortexImport\([`"]\.\/hooks\/log\.js[`"]\)/.test(startCode)) throw new Error('bundle: dist/start.bundle.cjs should import the hook log from dist/');
if (startBytes > START_MAX_BYTES) throw new Error(`bundle: dist/start.bundle.cjs is ${startBytes} bytes, more than ${START_MAX_BYTES}: something heavy is imported by src/start.ts`);

/**
 * The `cortex` executable as CommonJS (dist/cli.cjs, package.json's `bin`): the same module as
 * dist/cli.js (src/cli.ts, node built-ins only), which stays for the commands `cortex init`
 * wrote before. Started as an ES module, Node first sets up its ES module loader, which loads
 * node:fs/promises, readline, the file watchers and streams: 12-15 ms of every command, as
 * much as a cached SessionStart's own work (bench/README.md, "Start-up").
 */
const launcherIn = join(dist, 'cli.js');
const launcherOut = join(dist, 'cli.cjs');
const launcher = await rolldown({
  input: launcherIn,
  platform: 'node',
  // Node's built-ins only; main.js (the fallback without a bundle) is loaded from dist/.
  external: (id, importer) => importer !== undefined && id !== launcherIn,
  logLevel: 'warn',
});
const launched = (await launcher.generate({ format: 'cjs', codeSplitting: false, comments: false })).output;
await launcher.close();
if (launched.length !== 1 || !launched[0].code.startsWith('#!/usr/bin/env node\n')) throw new Error('bundle: the executable dist/cli.cjs was not made as expected');
const externals = [...launched[0].code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]).filter((id) => !BUILTINS.has(id));
if (externals.length > 0 || !launched[0].code.includes('import("./main.js")')) throw new Error(`bundle: dist/cli.cjs should require built-ins only and import ./main.js, requires ${externals.join(', ')}`);
writeFileSync(launcherOut, launched[0].code, { mode: 0o755 });
