/**
 * The front matter of a command or skill file: the `---` block at its top, read as the flat
 * `key: value` subset of YAML these files use (Claude Code's and the Agent Skills format). Quoted
 * values, `>` / `|` blocks and indented continuation lines are understood; lists and nesting are
 * kept as their text. No YAML library: these few shapes are all the files carry.
 */

export interface FrontMatter {
  /** Keys in lower case, values trimmed. */
  readonly fields: Readonly<Record<string, string>>;
  /** The text after the block (the whole file when it has none). */
  readonly body: string;
}

const KEY_LINE = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/;

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!source.startsWith('---\n') && source !== '---') return { fields: {}, body: source };
  const end = source.indexOf('\n---', 3);
  if (end < 0) return { fields: {}, body: source };
  const afterFence = source.indexOf('\n', end + 4);
  const body = afterFence < 0 ? '' : source.slice(afterFence + 1);
  const fields: Record<string, string> = {};
  const lines = source.slice(4, end + 1).split('\n');
  let current: { key: string; parts: string[]; block: '' | '>' | '|' } | undefined;
  const close = (): void => {
    if (!current) return;
    const joined = current.block === '|' ? current.parts.join('\n') : current.parts.join(' ');
    fields[current.key] = unquote(joined.trim());
    current = undefined;
  };
  for (const line of lines) {
    const match = /^\s/.test(line) ? null : KEY_LINE.exec(line);
    if (match) {
      close();
      const key = (match[1] ?? '').toLowerCase();
      const value = (match[2] ?? '').trim();
      const block = /^[>|][+-]?$/.test(value) ? (value[0] as '>' | '|') : '';
      current = { key, parts: block ? [] : [value], block };
    } else if (current && line.trim() !== '') {
      current.parts.push(line.trim());
    } else if (current?.block === '|') {
      current.parts.push('');
    }
  }
  close();
  return { fields, body };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1); // not JSON-escaped after all: the text between the quotes
    }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replaceAll("''", "'");
  return value;
}
