/**
 * Loads web-tree-sitter (WASM) and its grammars from @vscode/tree-sitter-wasm, once, on first use:
 * from dist/vendor/tree-sitter in the build (only the grammars we use are shipped), from the
 * package when run from source.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as TSW from '@vscode/tree-sitter-wasm';
import { SHIPPED_GRAMMARS, VENDORED, vendoredDir } from './vendored.js';

type Runtime = typeof TSW;

let runtime: Promise<{ api: Runtime; dir: string }> | undefined;
const languages = new Map<string, Promise<TSW.Language>>();

function loadRuntime(): Promise<{ api: Runtime; dir: string }> {
  runtime ??= (async () => {
    const require = createRequire(import.meta.url);
    const vendored = vendoredDir('tree-sitter');
    const entry = vendored ? vendored + VENDORED['tree-sitter'] : require.resolve('@vscode/tree-sitter-wasm');
    const api = require(entry) as Runtime;
    const dir = dirname(entry);
    await api.Parser.init({ locateFile: (file: string) => join(dir, file) });
    return { api, dir };
  })();
  return runtime;
}

/** A parser for `grammar` ('python' → tree-sitter-python.wasm); reuse it, parsers are not cheap. */
export async function createParser(grammar: string): Promise<{ parser: TSW.Parser; language: TSW.Language; api: Runtime }> {
  // Checked from source too, so a new language cannot pass the tests and then miss from the build.
  if (!(SHIPPED_GRAMMARS as readonly string[]).includes(grammar)) {
    throw new Error(`tree-sitter grammar "${grammar}" is not shipped: add it to SHIPPED_GRAMMARS (src/codemap/vendored.ts)`);
  }
  const { api, dir } = await loadRuntime();
  let language = languages.get(grammar);
  if (!language) {
    language = api.Language.load(join(dir, `tree-sitter-${grammar}.wasm`));
    languages.set(grammar, language);
  }
  const parser = new api.Parser();
  const lang = await language;
  parser.setLanguage(lang);
  return { parser, language: lang, api };
}
