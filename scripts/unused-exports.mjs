#!/usr/bin/env node
/**
 * Lists the exports of src/ that no other file uses: `node scripts/unused-exports.mjs`.
 *
 * Type-checks src/, test/ and bench/ (tsconfig.json) with the TypeScript compiler API and
 * resolves every identifier outside the file that declares an export (imports, re-exports,
 * `import()` results, `typeof import(...)` types); the library's exports count as used since
 * src/index.ts re-exports them. Names written in the .mjs scripts of bench/ and scripts/ (which
 * import dist/) count as used too. Prints `file: name` of each export used nowhere, not even in
 * its own file, and exits 1 when there are any; `--local` also lists those used only in their
 * own file (often types of exported signatures, which declaration emit needs exported).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const ours = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'));

/** Export symbols of src/ (non-test files), by symbol, with where they are declared. */
const exported = new Map();
for (const file of ours) {
  const rel = relative(root, file.fileName);
  if (!rel.startsWith('src/') || rel.endsWith('.test.ts') || rel === 'src/index.ts') continue;
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const original = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaredIn = original.declarations?.[0]?.getSourceFile().fileName;
    // Re-exports are counted where they are declared.
    if (declaredIn !== file.fileName) continue;
    exported.set(original, { file: rel, name: symbol.name });
  }
}

/** Exports only a bundle's loader calls (src/cli.ts types them, it imports none): name → why. */
const ENTRY_POINTS = new Map([
  ['src/main.ts: sessionStartHook', "called by start.ts through the CLI bundle's module object"],
  ['src/start.ts: startSession', "called by cli.ts from dist/start.bundle.cjs"],
]);

const used = new Set();
/** Exports their own file uses: only the `export` is unneeded. */
const usedLocally = new Set();
for (const file of ours) {
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      // `const { name } = await import('./x.js')`: the property of the module object.
      const binding = node.parent;
      if (ts.isBindingElement(binding) && ts.isObjectBindingPattern(binding.parent) && (binding.propertyName ?? binding.name) === node) {
        symbol = checker.getTypeAtLocation(binding.parent).getProperty(node.text) ?? symbol;
      }
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      // A shorthand property `{ name }` resolves to the local value; its export is the same symbol.
      if (symbol && exported.has(symbol)) {
        if (exported.get(symbol).file !== relative(root, file.fileName)) used.add(symbol);
        else if (!symbol.declarations?.some((d) => d.name === node)) usedLocally.add(symbol);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const mjsWords = new Set();
for (const dir of ['bench', 'scripts']) {
  for (const name of readdirSync(join(root, dir))) {
    if (/\.(mjs|cjs|js)$/.test(name) && name !== 'unused-exports.mjs') {
      for (const word of readFileSync(join(root, dir, name), 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []) mjsWords.add(word);
    }
  }
}

const unused = [...exported].filter(([symbol, e]) => !used.has(symbol) && !mjsWords.has(e.name) && !ENTRY_POINTS.has(`${e.file}: ${e.name}`));
const dead = unused.filter(([symbol]) => !usedLocally.has(symbol)).map(([, e]) => `${e.file}: ${e.name}`).sort();
const local = unused.filter(([symbol]) => usedLocally.has(symbol)).map(([, e]) => `${e.file}: ${e.name}`).sort();
if (process.argv.includes('--local')) {
  // Exported and used only in their own file: many are types of exported signatures (declaration
  // emit needs them exported) or constants documented as the module's settings.
  for (const line of local) console.log(line);
  console.error(`${local.length} export(s) used only in their own file`);
}
for (const line of dead) console.log(line);
if (dead.length > 0) {
  console.error(`${dead.length} export(s) used nowhere: remove them (or say why they stay)`);
  process.exitCode = 1;
}
