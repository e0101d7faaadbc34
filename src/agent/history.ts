/** Keeps a history valid for both wire formats: every tool call answered by a result. */
import type { ContentBlock, Message } from '../providers/types.js';

export const MISSING_RESULT = 'Interrupted: this call was cut short and has no result.';

/**
 * Adds an error result for every tool call that has none (a crash, or a session saved mid-turn),
 * right after the assistant message that made the call. Returns a new array; the input is kept.
 */
export function repairHistory(history: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    out.push(message);
    if (message.role !== 'assistant') continue;
    const calls = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (!calls.length) continue;
    const next = history[i + 1];
    const answered = new Set(
      next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])) : [],
    );
    const missing: ContentBlock[] = calls
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: 'tool_result', toolUseId: id, content: MISSING_RESULT, isError: true }));
    if (!missing.length) continue;
    if (next?.role === 'user') {
      out.push({ role: 'user', content: [...missing, ...next.content] });
      i++;
    } else {
      out.push({ role: 'user', content: missing });
    }
  }
  return out;
}
