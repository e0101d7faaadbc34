/**
 * The highlighter the renderers call: synchronous, so formatting stays a pure function of its
 * input and the loaded languages. A language not loaded yet renders plain and starts loading
 * (a tree-sitter grammar; TS/JS has its own scanner, always there); when it is ready the epoch moves on and the
 * listeners hear of it, so the view lays out again with colours. Nothing loads for a session
 * that never shows code.
 */
import type { CodeLanguage } from './languages.js';
import { spansByLine, type LineSpan } from './spans.js';
import { highlightWithGrammar, loadGrammar, type GrammarParsers, type LoadedGrammar } from './tree-sitter-highlight.js';
import { scanTypeScript } from './ts-scanner.js';

/** Past this, code shows plain: a pasted log file in a fence is not worth a parse per frame. */
const MAX_CHARS = 200_000;

type Loaded = { readonly kind: 'ts' } | { readonly kind: 'grammar'; readonly grammar: LoadedGrammar };

const ready = new Map<CodeLanguage, Loaded>([['ts', { kind: 'ts' }]]);
const loading = new Map<CodeLanguage, Promise<boolean>>();
const listeners = new Set<() => void>();
let epoch = 0;
let grammarParsers: GrammarParsers | undefined;

/** Where the tree-sitter grammars come from (the engine's loader); without it only TS/JS is highlighted. */
export function setGrammarSource(parsers: GrammarParsers): void {
  grammarParsers = parsers;
}

/** Bumped each time a language becomes available: part of the layout caches' keys. */
export function highlighterEpoch(): number {
  return epoch;
}

export function onHighlighterChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Loads a language's highlighter; resolves false when it cannot be loaded (then code stays plain). */
export function loadLanguage(lang: CodeLanguage): Promise<boolean> {
  if (ready.has(lang)) return Promise.resolve(true);
  let pending = loading.get(lang);
  if (pending) return pending;
  pending = (async (): Promise<Loaded> => {
    if (!grammarParsers) throw new Error('no grammar loader was given');
    return { kind: 'grammar', grammar: await loadGrammar(lang, grammarParsers) };
  })().then(
    (loaded) => {
      ready.set(lang, loaded);
      epoch++;
      for (const listener of [...listeners]) listener();
      return true;
    },
    () => false,
  );
  loading.set(lang, pending);
  return pending;
}

/**
 * Per line of `text`, its highlighted ranges; undefined while the language is not loaded (loading
 * starts) or could not be.
 */
export function highlightCode(lang: CodeLanguage, text: string): LineSpan[][] | undefined {
  const loaded = ready.get(lang);
  if (!loaded) {
    void loadLanguage(lang);
    return undefined;
  }
  if (text.length > MAX_CHARS) return undefined;
  try {
    const spans = loaded.kind === 'ts' ? scanTypeScript(text) : highlightWithGrammar(loaded.grammar, text);
    return spansByLine(text, spans);
  } catch {
    // A highlighter bug must never cost the user the code itself.
    return undefined;
  }
}
