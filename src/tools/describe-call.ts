/** One short, escaped line naming a tool call for the transcript: 'edit_file prices.py'. */
import { escapeForDisplay } from '../policy/escape.js';
import { asObject, type Args } from './args.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { defaultTitle } from './define-tool.js';
import type { ToolDefinition } from './types.js';

const MAX = 80;

function clip(text: string): string {
  const line = text.split('\n', 1)[0] ?? text;
  const more = line.length < text.length ? ' …' : '';
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line + more;
}

function inputOf(input: unknown): Args {
  try {
    return asObject(input);
  } catch {
    return {}; // not an object (broken arguments): the title is the tool's name alone
  }
}

/** The call's title from the tool's own `title` (its path, name or file when it has none). */
export function titleOfCall(tool: Pick<ToolDefinition, 'title'> | undefined, name: string, input: unknown): string {
  const args = inputOf(input);
  const detail = tool?.title ? tool.title(args) : defaultTitle(args);
  return escapeForDisplay(detail === undefined ? name : `${name} ${clip(detail)}`);
}

/** The call's whole text, escaped, when the tool has one (bash's command); undefined otherwise. */
export function detailOfCall(tool: Pick<ToolDefinition, 'detail'> | undefined, input: unknown): string | undefined {
  const text = tool?.detail?.(inputOf(input));
  return text === undefined ? undefined : escapeForDisplay(text);
}

/** detailOfCall for a call by name alone (a saved history): the built-in tool's. */
export function describeToolDetail(name: string, input: unknown): string | undefined {
  return detailOfCall(builtins.get(name), input);
}

const builtins = new Map(BUILTIN_TOOLS.map((t) => [t.name, t]));

/** For a call by name alone (a saved history, a test's runner): the built-in tool's title, else the default. */
export function describeToolCall(name: string, input: unknown): string {
  return titleOfCall(builtins.get(name), name, input);
}
