/**
 * Source code → symbols, with tree-sitter (web-tree-sitter and the grammars' prebuilt WASM
 * files from `@repomix/tree-sitter-wasms`: optional dependencies, installed with Cortex
 * unless `--omit=optional`; nothing is downloaded at run time). Loaded only by
 * `cortex index-code` and `cortex diff`: never on a hook's path.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Language, Node, Parser } from 'web-tree-sitter';
import { normalizeSymbolText, type CodeGrammar, type CodeSymbol, type SymbolKind } from '../core/code-symbols.js';
import { MissingDependencyError } from '../errors.js';

const require = createRequire(import.meta.url);

/** Parses source text of the supported grammars into symbols. */
export interface CodeParser {
  symbols(grammar: CodeGrammar, text: string): CodeSymbol[];
}

/**
 * Hash of a symbol's normalised text (16 hex digits of SHA-1: a fingerprint, not a
 * security boundary).
 *
 * @example
 * symbolHash('function f() {}') // '…16 hex digits…'
 */
export function symbolHash(text: string): string {
  return createHash('sha1').update(normalizeSymbolText(text)).digest('hex').slice(0, 16);
}

let loading: Promise<CodeParser> | undefined;

/**
 * The parser, with every grammar loaded (once per process).
 *
 * @example
 * const parser = await openCodeParser();
 * parser.symbols('python', 'def f():\n  pass\n') // [{ name: 'f', kind: 'function', … }]
 */
export function openCodeParser(): Promise<CodeParser> {
  loading ??= load();
  return loading;
}

async function load(): Promise<CodeParser> {
  let ts: typeof import('web-tree-sitter');
  try {
    ts = await import('web-tree-sitter');
    require.resolve('@repomix/tree-sitter-wasms/package.json');
    await ts.Parser.init();
  } catch (err) {
    throw new MissingDependencyError(`Code indexing needs tree-sitter (web-tree-sitter and @repomix/tree-sitter-wasms), which this install does not have: ${(err as Error).message.split('\n')[0]}`, {
      hint: 'They are optional dependencies (left out by `npm install --omit=optional`): reinstall without it (`npm install -g cortex-memory`), or `npm install web-tree-sitter @repomix/tree-sitter-wasms` beside Cortex.',
      cause: err,
    });
  }
  const languages = new Map<CodeGrammar, Language>();
  const parser: Parser = new ts.Parser();
  const languageOf = async (grammar: CodeGrammar): Promise<Language> => {
    let lang = languages.get(grammar);
    if (lang === undefined) {
      lang = await ts.Language.load(require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`));
      languages.set(grammar, lang);
    }
    return lang;
  };
  for (const g of ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'] as const) await languageOf(g);
  return {
    symbols(grammar, text) {
      parser.setLanguage(languages.get(grammar)!);
      const tree = parser.parse(text);
      if (tree === null) return [];
      try {
        const out: CodeSymbol[] = [];
        collect(tree.rootNode, grammar, [], out, true);
        return out;
      } finally {
        tree.delete();
      }
    },
  };
}

/** What a node declares: its kind and whether its children are members (a container). */
interface Declared {
  kind: SymbolKind;
  name: string;
  /** Its members are qualified by its name. */
  container: boolean;
  /** Record it as a symbol (an `impl` block qualifies its methods but is not one itself). */
  record: boolean;
}

function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

function nameOf(node: Node): string | undefined {
  const n = field(node, 'name');
  return n?.text;
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

function declared(node: Node, grammar: CodeGrammar, inClass: boolean, topLevel: boolean): Declared | undefined {
  const t = node.type;
  const named = (kind: SymbolKind, container = false): Declared | undefined => {
    const name = nameOf(node);
    return name ? { kind, name, container, record: true } : undefined;
  };
  switch (grammar) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      if (t === 'function_declaration' || t === 'generator_function_declaration' || t === 'function_signature') return named('function');
      if (t === 'class_declaration' || t === 'abstract_class_declaration' || t === 'class') return named('class', true);
      if (t === 'method_definition' || t === 'method_signature' || t === 'abstract_method_signature') return named('method');
      if (t === 'interface_declaration') return named('interface', true);
      if (t === 'type_alias_declaration') return named('type');
      if (t === 'enum_declaration') return named('enum');
      if (t === 'internal_module' || t === 'module') return named('module', true);
      if (t === 'public_field_definition' || t === 'field_definition') {
        const value = field(node, 'value');
        const name = field(node, 'name') ?? field(node, 'property');
        if (value && name && FUNCTION_VALUES.has(value.type)) return { kind: 'method', name: name.text, container: false, record: true };
      }
      if (t === 'variable_declarator') {
        const name = field(node, 'name');
        const value = field(node, 'value');
        if (name?.type !== 'identifier') return undefined;
        if (value && FUNCTION_VALUES.has(value.type)) return { kind: 'function', name: name.text, container: false, record: true };
        if (value?.type === 'class') return { kind: 'class', name: name.text, container: true, record: true };
        if (topLevel) return { kind: 'variable', name: name.text, container: false, record: true };
      }
      return undefined;
    case 'python':
      if (t === 'function_definition') return named(inClass ? 'method' : 'function');
      if (t === 'class_definition') return named('class', true);
      return undefined;
    case 'go':
      if (t === 'function_declaration') return named('function');
      if (t === 'method_declaration') {
        const name = nameOf(node);
        if (!name) return undefined;
        // `func (p *Pool) Acquire()` is `Pool.Acquire`.
        const receiver = field(node, 'receiver')?.descendantsOfType('type_identifier')[0]?.text;
        return { kind: 'method', name: receiver ? `${receiver}.${name}` : name, container: false, record: true };
      }
      if (t === 'type_spec' || t === 'type_alias') {
        const type = field(node, 'type')?.type;
        return named(type === 'struct_type' ? 'struct' : type === 'interface_type' ? 'interface' : 'type', type === 'interface_type');
      }
      if (t === 'method_elem' || t === 'method_spec') return named('method');
      return undefined;
    case 'rust':
      if (t === 'function_item' || t === 'function_signature_item') return named(inClass ? 'method' : 'function');
      if (t === 'struct_item') return named('struct');
      if (t === 'enum_item') return named('enum');
      if (t === 'union_item') return named('struct');
      if (t === 'trait_item') return named('trait', true);
      if (t === 'type_item') return named('type');
      if (t === 'mod_item') return named('module', true);
      if (t === 'macro_definition') return named('function');
      if ((t === 'const_item' || t === 'static_item') && topLevel) return named('variable');
      if (t === 'impl_item') {
        const type = field(node, 'type');
        const name = type?.type === 'generic_type' ? (field(type, 'type')?.text ?? type.text) : type?.text;
        return name ? { kind: 'impl', name, container: true, record: false } : undefined;
      }
      return undefined;
  }
}

/** Nodes whose children are not searched: bodies of functions (their locals are not anchors). */
function isBody(node: Node, grammar: CodeGrammar): boolean {
  const t = node.type;
  if (grammar === 'python') return t === 'function_definition';
  if (grammar === 'go') return t === 'function_declaration' || t === 'method_declaration' || t === 'func_literal';
  if (grammar === 'rust') return t === 'function_item' || t === 'closure_expression';
  return t === 'function_declaration' || t === 'generator_function_declaration' || t === 'method_definition' || FUNCTION_VALUES.has(t);
}

const MAX_DEPTH = 12;

function collect(node: Node, grammar: CodeGrammar, containers: string[], out: CodeSymbol[], topLevel: boolean, depth = 0, inClass = false): void {
  if (depth > MAX_DEPTH) return;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const d = declared(child, grammar, inClass, topLevel);
    if (d !== undefined && d.record) {
      const qualified = [...containers, d.name].join('.');
      const leaf = d.name.includes('.') ? d.name.slice(d.name.lastIndexOf('.') + 1) : d.name;
      // A variable's symbol spans its whole declaration (`const f = () => …;`, with `export`).
      const span = child.type === 'variable_declarator' && child.parent ? child.parent : child;
      out.push({
        name: leaf,
        qualified,
        kind: d.kind,
        startLine: span.startPosition.row + 1,
        endLine: span.endPosition.row + 1,
        hash: symbolHash(span.text),
      });
    }
    if (d?.container) {
      const classLike = d.kind === 'class' || d.kind === 'impl' || d.kind === 'trait' || d.kind === 'interface';
      collect(child, grammar, [...containers, d.name], out, false, depth + 1, classLike);
      continue;
    }
    if (isBody(child, grammar)) continue;
    // Into wrappers (export statements, declarations, decorated definitions, blocks of a class).
    const wrapperTopLevel = topLevel && (child.type === 'export_statement' || child.type === 'lexical_declaration' || child.type === 'variable_declaration' || child.type === 'ambient_declaration' || child.type === 'decorated_definition' || child.type === 'type_declaration' || child.type === 'const_declaration' || child.type === 'var_declaration');
    collect(child, grammar, containers, out, wrapperTopLevel, depth + 1, inClass);
  }
}
