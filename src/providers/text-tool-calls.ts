/**
 * Tool calls a small model wrote into its answer instead of the tool-call channel, in the two
 * shapes they commonly take: a fenced JSON object (```json {"name": …, "arguments": …} ```) and
 * Hermes/Qwen-style <tool_call>{…}</tool_call> tags. Taken only when the whole answer is such
 * calls and each names a tool that was offered; anything else stays text, because an answer that
 * merely shows an example call must not run it.
 */
import { parseNearJson } from './near-json.js';

export interface TextToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface FoundCalls {
  readonly calls: readonly TextToolCall[];
  readonly shape: 'fenced JSON' | '<tool_call> tags';
  /** Near-JSON repairs needed to read them. */
  readonly repairs: readonly string[];
}

const FENCE = /^```[\w-]*[^\S\n]*\n([\s\S]*?)\n?[^\S\n]*```/;
const TAG = /^<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/;

export function findTextToolCalls(text: string, toolNames: ReadonlySet<string>): FoundCalls | undefined {
  const answer = text.trim();
  const shape = answer.startsWith('```') ? 'fenced JSON' : answer.startsWith('<tool_call>') ? '<tool_call> tags' : undefined;
  if (!shape) return undefined;
  const pattern = shape === 'fenced JSON' ? FENCE : TAG;
  const calls: TextToolCall[] = [];
  const repairs = new Set<string>();
  let rest = answer;
  while (rest.length > 0) {
    const m = pattern.exec(rest);
    if (!m) return undefined;
    const call = readCall(m[1] ?? '', toolNames, repairs);
    if (!call) return undefined;
    calls.push(call);
    rest = rest.slice(m[0].length).trim();
  }
  return calls.length > 0 ? { calls, shape, repairs: [...repairs] } : undefined;
}

function readCall(body: string, toolNames: ReadonlySet<string>, repairs: Set<string>): TextToolCall | undefined {
  const parsed = parseNearJson(body);
  if (!parsed || !isObject(parsed.value)) return undefined;
  // Prose after the object means the answer is more than the call.
  if (parsed.repairs.includes('text after the JSON')) return undefined;
  for (const r of parsed.repairs) repairs.add(r);
  const outer = parsed.value;
  // {"name", "arguments"}, Llama's {"name", "parameters"}, or OpenAI's {"function": {…}}.
  const fn = isObject(outer['function']) ? outer['function'] : outer;
  const name = fn['name'];
  if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
  const keys = Object.keys(outer).filter((k) => !['name', 'arguments', 'parameters', 'function', 'type', 'id'].includes(k));
  if (keys.length > 0) return undefined;
  let args = fn['arguments'] ?? fn['parameters'] ?? {};
  if (typeof args === 'string') {
    const inner = parseNearJson(args);
    if (!inner || !isObject(inner.value)) return undefined;
    for (const r of inner.repairs) repairs.add(r);
    args = inner.value;
  }
  return isObject(args) ? { name, input: args } : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How the answer so far begins: like a call written as text ('call': a <tool_call> tag, or a
 * fence whose first line opens a JSON object), possibly so ('maybe': too little yet), or not.
 * The text of a possible call is held back instead of shown, so a call does not also print as text.
 */
export function callShapedStart(text: string): 'maybe' | 'call' | 'text' {
  const t = text.trimStart();
  if (t.startsWith('<tool_call>')) return 'call';
  if ('<tool_call>'.startsWith(t) || '```'.startsWith(t)) return 'maybe';
  if (!t.startsWith('```')) return 'text';
  const newline = t.indexOf('\n');
  if (newline < 0) return /^```[\w-]*[^\S\n]*$/.test(t) ? 'maybe' : 'text';
  if (!/^```[\w-]*[^\S\n]*$/.test(t.slice(0, newline))) return 'text';
  const body = t.slice(newline + 1).trimStart();
  return body === '' ? 'maybe' : body.startsWith('{') ? 'call' : 'text';
}
