/**
 * Highlighting with the tree-sitter grammars @vscode/tree-sitter-wasm ships (the ones the code map
 * parses with). Two passes over one parse: generic rules for the leaves every grammar has
 * (anonymous word tokens are keywords; comments, strings, numbers, booleans by their node types),
 * then the grammar's queries (queries.ts) for what needs the tree: functions, types, constants.
 * Loading is asynchronous (WASM); highlighting a loaded grammar is synchronous. The runtime and
 * the grammars come from the engine's loader (src/codemap/tree-sitter-runtime.ts), handed to the
 * view at start, so a grammar the code map has loaded is not loaded twice.
 */
import type * as TSW from '@vscode/tree-sitter-wasm';
import type { createParser } from '../../src/codemap/tree-sitter-runtime.js';
import type { SyntaxKind } from '../theme.js';
import { HIGHLIGHT_QUERIES, NAME_RULES, type NameRules } from './queries.js';
import type { Span } from './spans.js';

/** What gives a parser for a grammar ('python'): the engine's createParser. */
export type GrammarParsers = typeof createParser;

export interface LoadedGrammar {
  readonly parser: TSW.Parser;
  readonly language: TSW.Language;
  readonly queries: readonly TSW.Query[];
  readonly names: NameRules;
  /** Per node type id, what leafKind says about it: worked out once, not per node. */
  readonly kinds: (LeafKind | null | undefined)[];
}

type LeafKind = SyntaxKind | 'reset' | 'identifier';

/** The grammar's parser and its compiled queries; patterns this grammar version rejects are left out. */
export async function loadGrammar(grammar: string, parsers: GrammarParsers): Promise<LoadedGrammar> {
  const { parser, language, api } = await parsers(grammar);
  const patterns = HIGHLIGHT_QUERIES[grammar] ?? [];
  const queries: TSW.Query[] = [];
  try {
    queries.push(new api.Query(language, patterns.join('\n')));
  } catch {
    for (const pattern of patterns) {
      try {
        queries.push(new api.Query(language, pattern));
      } catch {
        // A node or field this grammar version does not have: that pattern only is skipped.
      }
    }
  }
  return { parser, language, queries, names: NAME_RULES[grammar] ?? {}, kinds: [] };
}

const KINDS = new Set<string>(['keyword', 'string', 'number', 'comment', 'type', 'function', 'constant', 'regexp', 'tag', 'attribute', 'punctuation']);
const WORD = /^[a-z_][a-z_]*[!?]?$/;
const STRING = /(^|_)(string|char|character|rune|heredoc|nowdoc)(_|$)/;
const NUMBER = /^(\w+_)?(integer|float|number|int|real|imaginary|floating_point)(_literal)?$/;
const CONSTANT = /^(true|false|none|nil|null|null_literal|boolean|boolean_literal|escape_sequence)$/;
// Code inside a string ("${x}", f"{x}", "#{x}") is code again, not string.
const INSIDE_STRING_CODE = /interpolation|substitution|^expansion$/;

function leafKind(type: string, named: boolean): LeafKind | undefined {
  if (named && type === 'identifier') return 'identifier';
  if (!named) return type.length >= 2 && WORD.test(type) ? 'keyword' : undefined;
  if (type.includes('comment')) return 'comment';
  if (INSIDE_STRING_CODE.test(type)) return 'reset';
  if (CONSTANT.test(type)) return 'constant';
  if (STRING.test(type)) return 'string';
  if (!type.endsWith('_type') && NUMBER.test(type)) return 'number';
  if (type.startsWith('regex')) return 'regexp';
  return undefined;
}

export function highlightWithGrammar(grammar: LoadedGrammar, text: string): Span[] {
  const tree = grammar.parser.parse(text);
  if (!tree) return [];
  try {
    // Later spans paint over earlier ones: the queries' names first, then the leaf rules, so a
    // string or comment inside a decorator or attribute keeps its own colour.
    const names: Span[] = [];
    const leaves: Span[] = [];
    leafSpans(grammar, tree, text, names, leaves);
    const spans: Span[] = names;
    for (const query of grammar.queries) {
      for (const capture of query.captures(tree.rootNode)) {
        if (KINDS.has(capture.name)) spans.push({ start: capture.node.startIndex, end: capture.node.endIndex, kind: capture.name as SyntaxKind });
      }
    }
    for (const s of leaves) spans.push(s);
    return spans;
  } finally {
    tree.delete();
  }
}

const CONSTANT_NAME = /^[A-Z][A-Z0-9_]+$/;
const TYPE_NAME = /^[A-Z][a-z]/;

/** A plain identifier's kind by its spelling, under the grammar's rules. */
function nameKind(name: string, rules: NameRules): SyntaxKind | undefined {
  if (rules.keywords?.includes(name)) return 'keyword';
  if (rules.constants && CONSTANT_NAME.test(name)) return 'constant';
  if (rules.types && TYPE_NAME.test(name)) return 'type';
  return undefined;
}

/** One walk: names classed by spelling into `names` (painted first), literal and keyword leaves into `spans` (last). */
function leafSpans(grammar: LoadedGrammar, tree: TSW.Tree, text: string, names: Span[], spans: Span[]): void {
  const cursor = tree.walk();
  const rules = grammar.names;
  const byName = rules.constants || rules.types || rules.keywords;
  const { kinds, language } = grammar;
  try {
    // Pre-order: a string's span comes before the spans inside it, which paint over it.
    let stringEnd = -1;
    for (;;) {
      const id = cursor.nodeTypeId;
      let known = kinds[id];
      if (known === undefined) {
        known = leafKind(language.nodeTypeForId(id) ?? '', language.nodeTypeIsNamed(id)) ?? null;
        kinds[id] = known;
      }
      const kind = known ?? undefined;
      if (kind === 'identifier') {
        if (byName) {
          const start = cursor.startIndex;
          const end = cursor.endIndex;
          const named = nameKind(text.slice(start, end), rules);
          if (named) names.push({ start, end, kind: named });
        }
      } else if (kind === 'reset') {
        if (cursor.startIndex < stringEnd) spans.push({ start: cursor.startIndex, end: cursor.endIndex, kind: 'punctuation' });
      } else if (kind !== undefined) {
        spans.push({ start: cursor.startIndex, end: cursor.endIndex, kind });
        if (kind === 'string') stringEnd = Math.max(stringEnd, cursor.endIndex);
      }
      // Comments have nothing inside worth a colour of its own.
      if (kind !== 'comment' && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}
