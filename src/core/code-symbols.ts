/**
 * The symbol table of source code, as data: which languages `cortex index-code` parses,
 * the symbols it records (name, container, kind, lines, content hash), and how an anchor
 * finds its symbol again after the code moved. The parsing itself (tree-sitter) is in
 * services/code-parser.ts. Pure.
 */
import { symbolNameMatches, type Anchor } from './anchor.js';

/** Grammar names, as the WASM files are called (`tree-sitter-<grammar>.wasm`). */
export const CODE_GRAMMARS = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'] as const;
export type CodeGrammar = (typeof CODE_GRAMMARS)[number];

/** File extension → grammar. */
export const CODE_EXTENSIONS: Readonly<Record<string, CodeGrammar>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.go': 'go',
  '.rs': 'rust',
};

/**
 * The grammar for a path, or `undefined` for a language Cortex does not parse.
 * Declaration files (`.d.ts`) count as TypeScript.
 *
 * @example
 * grammarOf('src/db.ts') // 'typescript'
 * grammarOf('README.md') // undefined
 */
export function grammarOf(path: string): CodeGrammar | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return CODE_EXTENSIONS[path.slice(dot).toLowerCase()];
}

export const SYMBOL_KINDS = ['function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'impl', 'module', 'variable'] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** One symbol of a file. */
export interface CodeSymbol {
  /** Its own name (`acquire`). */
  name: string;
  /** With its containers (`Pool.acquire`); equal to `name` at the top level. */
  qualified: string;
  kind: SymbolKind;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Hash of its text with each line's indentation and trailing blanks removed (a move does not change it). */
  hash: string;
}

/**
 * The text a symbol's hash is computed from: each line trimmed, blank lines dropped, so a
 * function moved within its file, re-indented or with blank lines around it keeps its
 * hash, while any change to a token of its body changes it.
 *
 * @example
 * normalizeSymbolText('  function f() {\n\n    return 1;\n  }\n') // 'function f() {\nreturn 1;\n}'
 */
export function normalizeSymbolText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * The symbol an anchor points at, among a file's symbols: the one whose qualified name
 * equals the anchor's symbol; else the only one whose name matches it (`acquire` for
 * `Pool.acquire`), preferring `kind` when several do; for a line range, the smallest
 * symbol that contains it. `undefined` when there is none or the name is ambiguous.
 *
 * @example
 * findSymbol(symbols, { path: 'src/db.ts', symbol: 'acquire' })
 */
export function findSymbol(symbols: readonly CodeSymbol[], anchor: Anchor, kind?: SymbolKind): CodeSymbol | undefined {
  if (anchor.symbol !== undefined) {
    const wanted = anchor.symbol;
    const exact = symbols.filter((s) => s.qualified === wanted);
    const pick = (list: CodeSymbol[]): CodeSymbol | undefined => {
      if (list.length === 1) return list[0];
      if (list.length > 1 && kind !== undefined) {
        const ofKind = list.filter((s) => s.kind === kind);
        if (ofKind.length >= 1) return ofKind[0];
      }
      // Overloads and declaration merging (TypeScript): the first is the one people read.
      if (list.length > 1 && list.every((s) => s.qualified === list[0]!.qualified)) return list[0];
      return undefined;
    };
    return pick(exact) ?? pick(symbols.filter((s) => s.name === wanted || symbolNameMatches(s.qualified, wanted)));
  }
  if (anchor.lines !== undefined) {
    const [a, b] = anchor.lines;
    let best: CodeSymbol | undefined;
    for (const s of symbols) {
      if (s.startLine <= a && s.endLine >= b && (best === undefined || s.endLine - s.startLine < best.endLine - best.startLine)) best = s;
    }
    return best;
  }
  return undefined;
}

/**
 * The symbols whose lines overlap any of `ranges` (1-based, inclusive), innermost first
 * then outer ones (a changed method also changes its class).
 *
 * @example
 * symbolsTouching(symbols, [[12, 14]]).map((s) => s.qualified) // ['Pool.acquire', 'Pool']
 */
export function symbolsTouching(symbols: readonly CodeSymbol[], ranges: readonly (readonly [number, number])[]): CodeSymbol[] {
  const hit = symbols.filter((s) => ranges.some(([a, b]) => s.startLine <= b && s.endLine >= a));
  return hit.sort((x, y) => x.endLine - x.startLine - (y.endLine - y.startLine));
}
