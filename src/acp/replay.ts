/**
 * session/load: a saved conversation told again as the updates that built it — the user's
 * messages, the replies and their reasoning, every tool call with its result — so the editor
 * shows the session as it was before the next prompt.
 */
import type { Message } from '../providers/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import { acpKind, locationsOf } from './tool-view.js';

type Update = Record<string, unknown> & { sessionUpdate: string };

const NOT_COMPLETED = /^(Error: )?(Interrupted|Not run)/;

export function replayUpdates(history: readonly Message[], projectRoot: string, describe: (name: string, input: unknown) => string): Update[] {
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const m of history) {
    if (m.role !== 'user') continue;
    for (const b of m.content) if (b.type === 'tool_result') results.set(b.toolUseId, { content: b.content, isError: b.isError === true });
  }
  const updates: Update[] = [];
  for (const m of history) {
    for (const b of m.content) {
      if (b.type === 'text' && b.text.trim()) {
        updates.push({ sessionUpdate: m.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: b.text } });
      } else if (b.type === 'image' && m.role === 'user') {
        updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'image', data: b.image.base64, mimeType: b.image.mediaType } });
      } else if (b.type === 'thinking' && b.thinking.trim()) {
        updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: b.thinking } });
      } else if (b.type === 'tool_use') {
        const r = results.get(b.id);
        const cancelled = r === undefined || NOT_COMPLETED.test(r.content);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: b.id,
          title: describe(b.name, b.input),
          kind: acpKind(b.name),
          status: !cancelled && r && !r.isError ? 'completed' : 'failed',
          rawInput: b.input,
          locations: locationsOf(b.name, b.input, projectRoot),
          content: [{ type: 'content', content: { type: 'text', text: escapeForDisplay(r?.content ?? 'No result: the session stopped before this call finished.') } }],
          ...(cancelled ? { rawOutput: { status: 'cancelled' } } : {}),
        });
      }
    }
  }
  return updates;
}
