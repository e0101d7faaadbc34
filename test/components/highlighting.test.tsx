/**
 * Syntax highlighting in fenced code, through the real app at explicit sizes: our own scanner
 * for TS/JS, the shipped tree-sitter grammars (with this renderer's own queries) for the other
 * languages the code map parses; code shows plain until its highlighter has loaded and is laid out
 * again once it has; under NO_COLOR nothing is coloured but keywords stay bold and comments italic.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadLanguage, setGrammarSource } from '../../components/highlight/highlighter.js';
import { createParser } from '../../src/codemap/tree-sitter-runtime.js';
import { codeSegments } from '../../components/highlight/code-segments.js';
import type { CodeLanguage } from '../../components/highlight/languages.js';
import { syntaxTheme } from '../../components/theme.js';
import { KEYS, renderApp, settle } from './render-app.js';
import { hasColour, styleOf } from './support/sgr.js';

// The grammars come from the engine's loader, as the CLI hands them to the view.
setGrammarSource(createParser);

const FG = { red: 31, green: 32, blue: 34, magenta: 35, cyan: 36 } as const;
const fgOf = (name: string | undefined): number | undefined => (name === undefined ? undefined : FG[name as keyof typeof FG]);

async function answer(text: string, columns = 80, rows = 30) {
  const r = renderApp({ columns, rows });
  r.engine.emit(
    { type: 'turn.start', blockId: 'u1', text: 'show me' },
    { type: 'assistant.delta', blockId: 'a1', text },
    { type: 'turn.end', blockId: 'e1', status: 'finished' },
  );
  await settle();
  return r;
}

const PYTHON = '```python\n@cache\ndef total(items):\n    """Sum them."""\n    return sum(i["price"] for i in items)  # all of them\n```';

afterEach(() => {
  delete process.env['NO_COLOR'];
});

describe('highlighting', () => {
  it('lays code out plain first, then in colour once the grammar has loaded', async () => {
    const r = await answer(PYTHON);
    await loadLanguage('python');
    await settle();
    const frame = r.app.lastFrame() ?? '';
    expect(styleOf(frame, 'def')).toMatchObject({ fg: fgOf(syntaxTheme.keyword.color), bold: true });
    expect(styleOf(frame, 'total')?.fg).toBe(fgOf(syntaxTheme.function.color));
    expect(styleOf(frame, '"price"')?.fg).toBe(fgOf(syntaxTheme.string.color));
    expect(styleOf(frame, '"""Sum')?.fg).toBe(fgOf(syntaxTheme.string.color));
    expect(styleOf(frame, '# all of them')).toMatchObject({ italic: true, dim: true });
    expect(styleOf(frame, 'items)')?.fg).toBeUndefined();
    expect(r.frame()).toContain('│ def total(items):');
  });

  it('uses its own scanner for TS and JS: keywords, strings, templates, regexes, numbers', async () => {
    await loadLanguage('ts');
    const code = '```ts\nconst re = /a+b/g;\nexport function add(x: number): string { return `${x + 1} items`; } // done\n```';
    const frame = (await answer(code)).app.lastFrame() ?? '';
    expect(styleOf(frame, 'const')).toMatchObject({ fg: fgOf(syntaxTheme.keyword.color), bold: true });
    expect(styleOf(frame, '/a+b/g')?.fg).toBe(fgOf(syntaxTheme.regexp.color));
    expect(styleOf(frame, 'add(')?.fg).toBe(fgOf(syntaxTheme.function.color));
    expect(styleOf(frame, '`${')?.fg).toBe(fgOf(syntaxTheme.string.color));
    expect(styleOf(frame, '1}')?.fg).toBe(fgOf(syntaxTheme.number.color));
    expect(styleOf(frame, '// done')).toMatchObject({ italic: true });
  });

  it.each<[CodeLanguage, string, string, string]>([
    ['go', 'func main() {\n\tfmt.Println("hi", 42)\n}', 'func', '"hi"'],
    ['rust', 'fn main() {\n    let s: &str = "x";\n    println!("{}", s);\n}', 'let', '"x"'],
    ['java', 'class A { void m() { String s = "q"; } }', 'class', '"q"'],
    ['c-sharp', 'class A { void M() { var s = "q"; } }', 'class', '"q"'],
    ['cpp', 'int main() { return printf("q"); }', 'return', '"q"'],
    ['ruby', 'def greet(name)\n  puts "hi"\nend', 'def', '"hi"'],
    ['php', '<?php function f($x) { return "q"; }', 'function', '"q"'],
    ['bash', 'if [ -f x ]; then\n  echo "q"\nfi', 'if', '"q"'],
  ])('highlights %s with its tree-sitter grammar', async (lang, code, keyword, string) => {
    expect(await loadLanguage(lang)).toBe(true);
    const segs = codeSegments(code.replaceAll('\t', '    ').split('\n'), lang).flat();
    expect(segs.find((s) => s.text === keyword)?.style).toEqual(syntaxTheme.keyword);
    expect(segs.find((s) => s.text === string)?.style).toEqual(syntaxTheme.string);
  });

  it('under NO_COLOR uses no colour at all, and keeps keywords bold and comments italic', async () => {
    await loadLanguage('python');
    process.env['NO_COLOR'] = '1';
    const r = await answer(`# Title\n\nSome \`code\` and a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n${PYTHON}`);
    const frame = r.app.lastFrame() ?? '';
    expect(hasColour(frame)).toBe(false);
    expect(styleOf(frame, 'def')).toMatchObject({ bold: true });
    expect(styleOf(frame, '# all of them')).toMatchObject({ italic: true });
    expect(r.frame()).toContain('│ def total(items):');
    // The same screen with colour allowed does have colour (the check above can fail).
    delete process.env['NO_COLOR'];
    const coloured = (await answer(PYTHON)).app.lastFrame() ?? '';
    expect(hasColour(coloured)).toBe(true);
  });

  it('highlights the code in diffs too, by the file\'s language', async () => {
    await loadLanguage('python');
    const { unifiedDiff } = await import('../../src/tools/apply-change.js');
    const diff = unifiedDiff('prices.py', 'def a():\n    return 1\n', 'def a():\n    return 2  # two\n').text;
    const r = renderApp({ columns: 80, rows: 24 });
    r.engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'two' },
      { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'edit_file', title: 'edit_file prices.py' },
      { type: 'tool.end', blockId: 't1', status: 'ok', summary: 'Edited prices.py', change: { verb: 'edit', path: 'prices.py', added: 1, removed: 1, diff } },
    );
    await settle();
    await r.type(KEYS.ctrlO);
    const frame = r.app.lastFrame() ?? '';
    expect(r.frame()).toMatch(/ {2}2 \+ {4}return 2 {2}# two/);
    expect(styleOf(frame, 'return 2')).toMatchObject({ fg: fgOf(syntaxTheme.keyword.color), bold: true });
    expect(styleOf(frame, '# two')).toMatchObject({ italic: true });
  });

  it('keeps the answer readable when the language is unknown', async () => {
    const r = await answer('```brainfuck\n++>-<.\n```');
    expect(r.frame()).toContain('╭─ brainfuck');
    expect(r.frame()).toContain('│ ++>-<.');
  });
});
