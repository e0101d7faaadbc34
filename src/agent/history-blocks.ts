/**
 * Rebuilds transcript blocks from a saved history, so a resumed session shows what was said
 * instead of an empty screen. Tool calls show as finished, with their result's first line.
 */
import type { Message } from '../providers/types.js';
import type { TranscriptBlock } from './state.js';

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
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
        });
      }
    });
  });
  return blocks;
}
