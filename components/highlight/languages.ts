/**
 * Which highlighter a fence's info string or a file name means. The languages are those the code
 * map parses: TypeScript/JavaScript (a scanner of its own, components/highlight/ts-scanner.ts) and the tree-sitter grammars that
 * @vscode/tree-sitter-wasm ships. Pure.
 */

/** 'ts' is the TS/JS scanner; the others name a tree-sitter grammar (tree-sitter-NAME.wasm). */
export type CodeLanguage = 'ts' | 'python' | 'go' | 'rust' | 'java' | 'c-sharp' | 'cpp' | 'ruby' | 'php' | 'bash';

const BY_NAME: Readonly<Record<string, CodeLanguage>> = {
  ts: 'ts', typescript: 'ts', tsx: 'ts', mts: 'ts', cts: 'ts',
  js: 'ts', javascript: 'ts', jsx: 'ts', mjs: 'ts', cjs: 'ts', node: 'ts', json: 'ts', jsonc: 'ts', json5: 'ts',
  py: 'python', python: 'python', python3: 'python', py3: 'python', pyi: 'python',
  go: 'go', golang: 'go',
  rs: 'rust', rust: 'rust',
  java: 'java',
  cs: 'c-sharp', csharp: 'c-sharp', 'c#': 'c-sharp',
  c: 'cpp', h: 'cpp', cpp: 'cpp', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  rb: 'ruby', ruby: 'ruby',
  php: 'php',
  sh: 'bash', bash: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellscript: 'bash', ksh: 'bash',
};

/** The language of a fence's info string ("```python title=x.py" → python); undefined when unknown. */
export function languageOfFence(info: string): CodeLanguage | undefined {
  const word = info.trim().split(/[\s{,]/, 1)[0]?.toLowerCase() ?? '';
  return BY_NAME[word.replace(/^\./, '')] ?? languageOfPath(word);
}

/** The language of a file by its extension (or a few well-known names); undefined when unknown. */
export function languageOfPath(path: string): CodeLanguage | undefined {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  if (name === 'makefile' || name === 'dockerfile') return undefined;
  if (name === '.bashrc' || name === '.zshrc' || name === '.profile') return 'bash';
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  return BY_NAME[name.slice(dot + 1)];
}
