import { describe, expect, it } from 'vitest';
import { parseNearJson } from '../../src/providers/near-json.js';
import { parseToolInput } from '../../src/providers/tool-input.js';

describe('parseNearJson: what small models write for tool arguments', () => {
  it.each([
    ['trailing commas', '{"path": "a.ts", "lines": [1, 2,],}', { path: 'a.ts', lines: [1, 2] }],
    ['single quotes', "{'path': 'it\\'s.ts', 'q': \"say \\\"hi\\\"\"}", { path: "it's.ts", q: 'say "hi"' }],
    ['unquoted keys', '{path: "a.ts", old_string: "x", $n: 1}', { path: 'a.ts', old_string: 'x', $n: 1 }],
    ['comments', '{\n  // the file\n  "path": "a.ts", /* the line */ "offset": 3\n}', { path: 'a.ts', offset: 3 }],
    ['code fence', '```json\n{"command": "ls -la"}\n```', { command: 'ls -la' }],
    ['text after the JSON', '{"command": "npm test"} I will run the tests now.', { command: 'npm test' }],
    ['raw line breaks or tabs in strings', '{"path": "a.py", "content": "def f():\n\treturn 1\n"}', { path: 'a.py', content: 'def f():\n\treturn 1\n' }],
    ['Python literals (True/False/None)', '{"replace_all": True, "x": None, "y": False}', { replace_all: true, x: null, y: false }],
  ])('repairs %s', (repair, text, value) => {
    const got = parseNearJson(text);
    expect(got?.value).toEqual(value);
    expect(got?.repairs).toContain(repair);
  });

  it('names every repair a reply needed at once', () => {
    const got = parseNearJson("```\n{path: 'a.ts', // why\n 'limit': 5,}\n```\nDone.");
    expect(got?.value).toEqual({ path: 'a.ts', limit: 5 });
    expect(new Set(got?.repairs)).toEqual(new Set(['code fence', 'unquoted keys', 'single quotes', 'comments', 'trailing commas', 'text after the JSON']));
  });

  it('keeps plain JSON as it is, with no repairs', () => {
    expect(parseNearJson('{"a": [1, {"b": "\\u00e9\\n"}], "c": -1.5e3}')).toEqual({ value: { a: [1, { b: 'é\n' }], c: -1500 }, repairs: [] });
  });

  it.each([
    ['an object cut off at max_tokens', '{"path": "a.ts", "content": "half'],
    ['an unclosed object after a trailing comma', '{"path": "a.ts", '],
    ['an unclosed fence', '```json\n{"a": 1}'],
    ['bare words', '{"path": a.ts}'],
    ['prose before the object', 'Sure: {"path": "a.ts"}'],
    ['an unclosed comment', '{"a": 1 /* oops }'],
  ])('never guesses: %s stays unreadable', (_what, text) => {
    expect(parseNearJson(text)).toBeUndefined();
  });
});

describe('parseToolInput', () => {
  it('takes repaired arguments and says what was repaired', () => {
    expect(parseToolInput("{'path': 'src/a.ts',}")).toEqual({ input: { path: 'src/a.ts' }, repairs: ['single quotes', 'trailing commas'] });
  });

  it('still reports arguments it cannot read as an error the model can fix', () => {
    const parsed = parseToolInput('{"path": "a.ts", "content": "cut');
    expect(parsed.input).toEqual({});
    expect(parsed.inputError).toMatch(/not valid JSON/);
    expect(parsed.repairs).toBeUndefined();
  });

  it('refuses a repaired value that is not an object', () => {
    expect(parseToolInput("['a',]").inputError).toMatch(/not valid JSON/);
  });
});
