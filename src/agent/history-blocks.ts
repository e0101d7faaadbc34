/**
 * Rebuilds transcript blocks from a saved history, so a resumed session shows what was said
 * instead of an empty screen. Tool calls show as finished, with their result's first line.
 */
import type { Message } from '../providers/types.js';
import type { FileChange } from '../tools/types.js';
import type { TranscriptBlock } from './state.js';

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

const CHANGED = /^(Edited|Wrote) (.+) \(\+(\d+) -(\d+)\)\.$/;
const CREATED = /^Created (.+) \((\d+) lines?\)\.$/;

/** A write_file / edit_file result's counts, read back from its text (the diff itself is not in the history). */
export function changeFromResult(name: string, content: string): Omit<FileChange, 'diff'> | undefined {
  if (name !== 'edit_file' && name !== 'write_file') return undefined;
  const line = content.split('\n', 1)[0] ?? '';
  const changed = CHANGED.exec(line);
  if (changed) return { verb: changed[1] === 'Edited' ? 'edit' : 'write', path: changed[2]!, added: Number(changed[3]), removed: Number(changed[4]) };
  const created = CREATED.exec(line);
  return created ? { verb: 'create', path: created[1]!, added: Number(created[2]), removed: 0 } : undefined;
}

export function blocksFromHistory(
  history: readonly Message[],
  describe: (name: string, input: unknown) => string,
  detail?: (name: string, input: unknown) => string | undefined,
): TranscriptBlock[] {
  const blocks: TranscriptBlock[] = [];
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const m of history) {
    if (m.role !== 'user') continue;
    for (const b of m.content) if (b.type === 'tool_result') results.set(b.toolUseId, { content: b.content, isError: b.isError === true });
  }
  history.forEach((m, i) => {
    m.content.forEach((b, j) => {
      const id = `history-${i}-${j}`;
      if (b.type === 'text' && b.text.trim()) {
        blocks.push(m.role === 'user' ? { kind: 'user', id, version: 0, text: b.text } : { kind: 'assistant', id, version: 0, text: b.text, streaming: false });
      } else if (b.type === 'tool_use') {
        const r = results.get(b.id);
        const interrupted = r !== undefined && /^(Error: )?(Interrupted|Not run)/.test(r.content);
        const whole = detail?.(b.name, b.input);
        const change = r && !r.isError ? changeFromResult(b.name, r.content) : undefined;
        blocks.push({
          kind: 'tool',
          id,
          version: 0,
          callId: b.id,
          name: b.name,
          title: describe(b.name, b.input),
          ...(whole !== undefined ? { detail: whole } : {}),
          status: r === undefined ? 'interrupted' : interrupted ? 'interrupted' : r.isError ? 'error' : 'ok',
          output: '',
          resultSummary: r ? firstLine(r.content) : 'no result',
          ...(change ? { change } : {}),
        });
      }
    });
  });
  return blocks;
}
