#!/usr/bin/env node
/**
 * File and function sizes of src/: `node scripts/size-check.mjs` (add `--all` to print every
 * file over 400 lines and every function over 80, `--json` for the raw measurements).
 *
 * Parses each non-test `.ts` file of src/ with the TypeScript compiler API (syntax only, no
 * type-check: about a second) and measures the lines of each file and of each function:
 * declarations, methods, constructors, accessors, function expressions and arrow functions,
 * from the first line of the function (after its leading comments) to its last. A nested
 * function counts in its own right and inside the function around it.
 *
 * The limits are LIMITS below: no file over 800 lines, no function over 150. Files and
 * functions over them today are in scripts/size-allowlist.json with their size now; that list
 * only shrinks: a listed file or function that grows past its number, an unlisted one over a
 * limit, and a listed one now within the limit (take it off the list) all fail. The search
 * code (SEARCH_CODE) is held to the same limits; its entries are the ones issue 38 removes.
 * Exits 1 and names each problem when there is one; test/size-limits.test.ts runs it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LIMITS = { fileLines: 800, functionLines: 150 };

/** Path prefixes (relative to the repository) of the search code issue 38 splits. */
export const SEARCH_CODE = ['src/cache/index/', 'src/api/recall/', 'src/core/recall-rank.ts', 'src/core/fusion.ts'];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The name a function is known by: `Class.method`, `outer.inner`, `name` of the variable or property it is assigned to, else `<anonymous>@line`. */
function functionName(node, file) {
  const own = (n) => {
    if (n.name && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name) || ts.isPrivateIdentifier(n.name))) return n.name.text;
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const p = n.parent;
    if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
    if (p && (ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
    return undefined;
  };
  const parts = [own(node) ?? `<anonymous>@${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`];
  for (let p = node.parent; p; p = p.parent) {
    if (isFunction(p)) {
      const name = own(p);
      parts.unshift(name ?? '<anonymous>');
    } else if ((ts.isClassDeclaration(p) || ts.isClassExpression(p)) && p.name) {
      parts.unshift(p.name.text);
    }
  }
  return parts.join('.');
}

function isFunction(node) {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node);
}

/** Lines of one source text and of each function with a body in it. */
export function measureSource(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line;
  const functions = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      functions.push({ name: functionName(node, file), line: lineOf(node.getStart(file)) + 1, lines: lineOf(node.getEnd()) - lineOf(node.getStart(file)) + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { path, lines, functions };
}

/** Every non-test `.ts` file under src/, measured; paths relative to the repository. */
export function measureTree(dir = root) {
  const out = [];
  const walk = (abs) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const full = join(abs, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        out.push(measureSource(relative(dir, full).split('\\').join('/'), readFileSync(full, 'utf8')));
      }
    }
  };
  walk(join(dir, 'src'));
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export const isSearchCode = (path) => SEARCH_CODE.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)));

/**
 * Problems of the measurements against the limits and the allow-list
 * (`{ files: { path: lines }, functions: { "path#name": lines } }`): one sentence each.
 */
export function check(measured, allow, limits = LIMITS) {
  const problems = [];
  const seenFiles = new Set();
  const seenFunctions = new Set();
  for (const file of measured) {
    const allowed = allow.files[file.path];
    if (allowed !== undefined) seenFiles.add(file.path);
    if (file.lines > limits.fileLines) {
      if (allowed === undefined) problems.push(`${file.path}: ${file.lines} lines, over the limit of ${limits.fileLines}: split it by concept`);
      else if (file.lines > allowed) problems.push(`${file.path}: ${file.lines} lines, grew past its allowed ${allowed} (limit ${limits.fileLines}): split it rather than raise the number in scripts/size-allowlist.json`);
    } else if (allowed !== undefined) {
      problems.push(`${file.path}: ${file.lines} lines, now within the limit of ${limits.fileLines}: take it off scripts/size-allowlist.json`);
    }
    // Several anonymous functions may share a key: the longest one counts.
    const longest = new Map();
    for (const fn of file.functions) {
      const key = `${file.path}#${fn.name}`;
      if (!longest.has(key) || longest.get(key).lines < fn.lines) longest.set(key, fn);
    }
    for (const [key, fn] of longest) {
      const allowedFn = allow.functions[key];
      if (allowedFn !== undefined) seenFunctions.add(key);
      if (fn.lines > limits.functionLines) {
        if (allowedFn === undefined) problems.push(`${key} (line ${fn.line}): ${fn.lines} lines, over the limit of ${limits.functionLines}: split it`);
        else if (fn.lines > allowedFn) problems.push(`${key} (line ${fn.line}): ${fn.lines} lines, grew past its allowed ${allowedFn} (limit ${limits.functionLines}): split it rather than raise the number in scripts/size-allowlist.json`);
      } else if (allowedFn !== undefined) {
        problems.push(`${key}: ${fn.lines} lines, now within the limit of ${limits.functionLines}: take it off scripts/size-allowlist.json`);
      }
    }
  }
  for (const path of Object.keys(allow.files)) if (!seenFiles.has(path)) problems.push(`${path}: on scripts/size-allowlist.json but not in src/: take it off`);
  for (const key of Object.keys(allow.functions)) if (!seenFunctions.has(key)) problems.push(`${key}: on scripts/size-allowlist.json but no such function: take it off`);
  return problems;
}

export function readAllowList(dir = root) {
  const raw = JSON.parse(readFileSync(join(dir, 'scripts/size-allowlist.json'), 'utf8'));
  return { files: raw.files ?? {}, functions: raw.functions ?? {} };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const measured = measureTree();
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(measured)}\n`);
  } else {
    const bigFiles = args.includes('--all') ? 400 : LIMITS.fileLines;
    const bigFunctions = args.includes('--all') ? 80 : LIMITS.functionLines;
    const rows = [];
    for (const f of measured) {
      if (f.lines > bigFiles) rows.push([f.lines, f.path, isSearchCode(f.path)]);
      for (const fn of f.functions) if (fn.lines > bigFunctions) rows.push([fn.lines, `${f.path}#${fn.name} (line ${fn.line})`, isSearchCode(f.path)]);
    }
    rows.sort((a, b) => b[0] - a[0]);
    for (const [n, what, search] of rows) process.stdout.write(`${String(n).padStart(5)}  ${what}${search ? '  [search code]' : ''}\n`);
    const total = measured.reduce((s, f) => s + f.lines, 0);
    const search = measured.filter((f) => isSearchCode(f.path)).reduce((s, f) => s + f.lines, 0);
    process.stdout.write(`src/: ${measured.length} files, ${total} lines; search code ${search} lines (${(100 * search / total).toFixed(1)} %)\n`);
    const problems = check(measured, readAllowList());
    for (const p of problems) process.stderr.write(`${p}\n`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  }
}
