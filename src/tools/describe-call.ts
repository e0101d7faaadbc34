/** One short, escaped line naming a tool call for the transcript: 'edit_file prices.py'. */
import { escapeForDisplay } from '../policy/escape.js';

const MAX = 80;

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function clip(text: string): string {
  const line = text.split('\n', 1)[0] ?? text;
  const more = line.length < text.length ? ' …' : '';
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line + more;
}

export function describeToolCall(name: string, input: unknown): string {
  let detail: string | undefined;
  switch (name) {
    case 'bash':
      detail = field(input, 'command');
      break;
    case 'glob':
    case 'grep': {
      const pattern = field(input, 'pattern');
      const where = field(input, 'path');
      detail = pattern === undefined ? where : where === undefined ? pattern : `${pattern} in ${where}`;
      break;
    }
    case 'read_offloaded':
      detail = field(input, 'ref');
      break;
    case 'list_dir':
      detail = field(input, 'path') ?? '.';
      break;
    default:
      detail = field(input, 'path') ?? field(input, 'name') ?? field(input, 'file');
  }
  return escapeForDisplay(detail === undefined ? name : `${name} ${clip(detail)}`);
}
