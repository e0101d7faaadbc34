/**
 * `delta.content` sent as an array of parts instead of a string. Mistral's reasoning models do
 * this: `[{"type":"thinking","thinking":[{"type":"text","text":"…"}]}, {"type":"text","text":"3"}]`
 * — one chunk can carry the end of the reasoning and the start of the answer, and a reader that
 * expects a string loses those characters of the answer.
 */

type Obj = Record<string, unknown>;

export interface ContentPart {
  readonly kind: 'text' | 'reasoning';
  readonly text: string;
}

const TEXT_TYPES = new Set(['text', 'output_text']);
const REASONING_TYPES = new Set(['thinking', 'reasoning', 'reasoning_text', 'reasoning_content']);

/** The text of each part, in order, as answer or reasoning; parts of other types are skipped. */
export function contentParts(parts: readonly unknown[]): ContentPart[] {
  const out: ContentPart[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      if (p) out.push({ kind: 'text', text: p });
      continue;
    }
    if (typeof p !== 'object' || p === null) continue;
    const part = p as Obj;
    const type = String(part['type'] ?? '');
    if (TEXT_TYPES.has(type)) {
      const text = textOf(part['text']);
      if (text) out.push({ kind: 'text', text });
    } else if (REASONING_TYPES.has(type)) {
      const text = textOf(part['thinking'] ?? part['reasoning'] ?? part['text'] ?? part['summary']);
      if (text) out.push({ kind: 'reasoning', text });
    }
  }
  return out;
}

/** A string, or the joined text of nested text parts (Mistral nests the thinking text one level). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? textOf((v as Obj)['text']) : '')).join('');
}
