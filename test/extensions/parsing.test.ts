/** Front matter, argument substitution and Claude Code-compatible matching, case by case. */
import { describe, expect, it } from 'vitest';
import { expandCommand, splitArguments } from '../../src/extensions/custom-commands.js';
import { parseFrontMatter } from '../../src/extensions/front-matter.js';
import { hookMatches, hookToolInput, parseHookAnswer } from '../../src/extensions/hook-payload.js';
import type { HookEntry } from '../../src/config/types.js';

describe('front matter', () => {
  it('reads key: value lines, quotes, folded and literal blocks; the body follows the fence', () => {
    const fm = parseFrontMatter('---\r\nname: pdf\r\ndescription: "Fill \\"forms\\""\r\nargument-hint: \'<a> [b]\'\r\nnotes: >\r\n  one\r\n  two\r\nkeep: |\r\n  a\r\n  b\r\n---\r\nBody line\r\n');
    expect(fm.fields).toEqual({ name: 'pdf', description: 'Fill "forms"', 'argument-hint': '<a> [b]', notes: 'one two', keep: 'a\nb' });
    expect(fm.body).toBe('Body line\n');
  });

  it('a file without front matter, or with an unclosed fence, is all body', () => {
    expect(parseFrontMatter('Just a prompt\n')).toEqual({ fields: {}, body: 'Just a prompt\n' });
    expect(parseFrontMatter('---\nname: x\nno end')).toEqual({ fields: {}, body: '---\nname: x\nno end' });
  });
});

describe('command arguments', () => {
  it('splits on whitespace and keeps quoted text together', () => {
    expect(splitArguments(`1.2 "early access" 'a b' c\\"d`)).toEqual(['1.2', 'early access', 'a b', 'c\\"d']);
  });

  it('$ARGUMENTS is the whole text, $1…$9 single ones, a missing one empty', () => {
    expect(expandCommand('Ship $1 to $2 ($3). All: $ARGUMENTS', 'v2 prod')).toBe('Ship v2 to prod (). All: v2 prod');
    expect(expandCommand('Cost: $10 and $1', 'x')).toBe('Cost: $10 and x');
  });

  it('a body without placeholders gets what was typed appended; without arguments it is sent as written', () => {
    expect(expandCommand('Review it.\n', 'carefully')).toBe('Review it.\n\nARGUMENTS: carefully');
    expect(expandCommand('Review it.\n', '')).toBe('Review it.');
  });
});

describe('hook matching and payloads', () => {
  const entry = (matcher?: string): HookEntry => ({ event: 'PreToolUse', command: 'x', timeoutMs: 1, file: 'f', ...(matcher ? { matcher } : {}) });

  it("matches lindwyrm's tool names and Claude Code's, whole names only", () => {
    expect(hookMatches(entry('Edit|Write'), 'edit_file')).toBe(true);
    expect(hookMatches(entry('Edit|Write'), 'write_file')).toBe(true);
    expect(hookMatches(entry('Edit|Write'), 'bash')).toBe(false);
    expect(hookMatches(entry('Bash'), 'bash')).toBe(true);
    expect(hookMatches(entry('bash'), 'bash')).toBe(true);
    expect(hookMatches(entry('mcp__.*'), 'mcp__github__search')).toBe(true);
    expect(hookMatches(entry('read'), 'read_file')).toBe(false);
    expect(hookMatches(entry(), 'anything')).toBe(true);
  });

  it('adds an absolute file_path beside path, as Claude Code scripts expect', () => {
    expect(hookToolInput({ path: 'src/a.ts', content: 'x' }, '/p')).toEqual({ path: 'src/a.ts', content: 'x', file_path: '/p/src/a.ts' });
    expect(hookToolInput({ path: '/abs/b.ts' }, '/p')).toEqual({ path: '/abs/b.ts', file_path: '/abs/b.ts' });
    expect(hookToolInput({ command: 'ls' }, '/p')).toEqual({ command: 'ls' });
  });

  it('reads the JSON answer fields, and plain text as no answer', () => {
    expect(parseHookAnswer('{"decision":"block","reason":"r","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"p","additionalContext":"c","updatedInput":{"a":1}}}')).toEqual({
      decision: 'block',
      reason: 'r',
      permissionDecision: 'deny',
      permissionDecisionReason: 'p',
      additionalContext: 'c',
      updatedInput: { a: 1 },
    });
    expect(parseHookAnswer('formatted 3 files')).toBeUndefined();
    expect(parseHookAnswer('{not json')).toBeUndefined();
    expect(parseHookAnswer('{"continue": false, "stopReason": "s"}')).toEqual({ continue: false, stopReason: 's' });
  });
});
