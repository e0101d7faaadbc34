import { describe, expect, it } from 'vitest';
import { findTextToolCalls } from '../../src/providers/text-tool-calls.js';

const TOOLS = new Set(['read_file', 'bash', 'edit_file']);

describe('findTextToolCalls: a call written as the answer', () => {
  it('takes a fenced JSON object with name and arguments', () => {
    const found = findTextToolCalls('```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```', TOOLS);
    expect(found).toEqual({ calls: [{ name: 'read_file', input: { path: 'src/a.ts' } }], shape: 'fenced JSON', repairs: [] });
  });

  it('takes <tool_call> tags, several of them, and a missing last closing tag', () => {
    const text = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n<tool_call>{"name": "read_file", "arguments": {"path": "b"}}';
    expect(findTextToolCalls(text, TOOLS)?.calls).toEqual([
      { name: 'bash', input: { command: 'ls' } },
      { name: 'read_file', input: { path: 'b' } },
    ]);
  });

  it('reads Llama\'s "parameters", OpenAI\'s {"function": …}, arguments as a JSON string, and near-JSON', () => {
    expect(findTextToolCalls('```\n{"name": "bash", "parameters": {"command": "pwd"}}\n```', TOOLS)?.calls).toEqual([{ name: 'bash', input: { command: 'pwd' } }]);
    expect(findTextToolCalls('<tool_call>{"type": "function", "function": {"name": "bash", "arguments": "{\\"command\\": \\"id\\"}"}}</tool_call>', TOOLS)?.calls).toEqual([
      { name: 'bash', input: { command: 'id' } },
    ]);
    const near = findTextToolCalls("<tool_call>{'name': 'bash', 'arguments': {'command': 'ls',},}</tool_call>", TOOLS);
    expect(near?.calls).toEqual([{ name: 'bash', input: { command: 'ls' } }]);
    expect(near?.repairs).toEqual(expect.arrayContaining(['single quotes', 'trailing commas']));
  });

  it.each([
    ['prose around the call', 'I will read it:\n```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```'],
    ['prose after the call', '```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```\nThen I will edit it.'],
    ['a tool that was not offered', '```json\n{"name": "delete_everything", "arguments": {}}\n```'],
    ['one real and one unknown tool', '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call><tool_call>{"name": "nope", "arguments": {}}</tool_call>'],
    ['JSON that is not a call', '```json\n{"name": "read_file", "version": 2}\n```'],
    ['arguments that are not an object', '```json\n{"name": "bash", "arguments": ["ls"]}\n```'],
    ['a bare object (not one of the shapes)', '{"name": "bash", "arguments": {"command": "ls"}}'],
    ['an example in a code block of another language', '```python\nprint("hi")\n```'],
    ['a cut-off call', '<tool_call>{"name": "bash", "arguments": {"command": "ls'],
  ])('leaves %s as text', (_what, text) => {
    expect(findTextToolCalls(text, TOOLS)).toBeUndefined();
  });
});
