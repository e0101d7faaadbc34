/** Session records shaped like real ones, for the session tests and the benchmark. */
import type { AssistantMessage, Message, UserMessage } from '../../../src/providers/types.js';
import { SESSION_FORMAT_VERSION, type SessionRecord } from '../../../src/sessions/types.js';

/**
 * Yesterday at 10:00 UTC: the same in every process of a test (a child writer's record must equal
 * the parent's), and recent. A fixed date became "idle for more than 30 days" once the calendar
 * passed it, and the retention sweep then removed the very session the test was about.
 */
const DAY_MS = 86_400_000;
const RECENT = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS + 10 * 3_600_000;

const PNG_1PX = 'iVBORw0KGGoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function userText(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** One turn of every block kind the history can hold. */
export function richTurn(n: number): Message[] {
  const callId = `toolu_${n.toString().padStart(4, '0')}`;
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: `Step ${n}: look at prices.py first.\nThen "quote" and \\escape\u2028.`, signature: `sig-${n}-EqQBCkYIARgC` },
      { type: 'redacted_thinking', data: `opaque-${n}==` },
      { type: 'text', text: `Reading the file — ünïcødé 🐉 and a tab\there.` },
      { type: 'tool_use', id: callId, name: 'read_file', input: { path: 'src/prices.py', offset: 1, limit: 40, nested: { a: [1, 2.5, null, true] } } },
    ],
    reasoningEcho: { field: 'reasoning_content', value: `echoed reasoning ${n}` },
  };
  const results: UserMessage = {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: callId, content: `[offloaded: off_${n} 4,096 bytes]\n1 def price():\n2     return 42`, isError: false },
      { type: 'tool_result', toolUseId: `${callId}_b`, content: 'screenshot attached', images: [{ mediaType: 'image/png', base64: PNG_1PX }] },
      { type: 'image', image: { mediaType: 'image/jpeg', base64: PNG_1PX } },
    ],
  };
  return [assistant, results];
}

export function summaryMessage(): UserMessage {
  return { role: 'user', content: [{ type: 'text', text: '[Summary of the earlier conversation]\nWe fixed the rounding bug in prices.py.' }] };
}

export function makeRecord(id: string, projectRoot: string, messages: readonly Message[], patch: Partial<SessionRecord> = {}): SessionRecord {
  const turns = messages.filter((m) => m.role === 'user' && m.content.some((b) => b.type === 'text')).length;
  return {
    formatVersion: SESSION_FORMAT_VERSION,
    id,
    projectRoot,
    preset: 'flash',
    model: 'deepseek-chat',
    createdAt: new Date(RECENT).toISOString(),
    updatedAt: new Date(RECENT + 5 * 60_000).toISOString(),
    firstPrompt: 'fix the rounding in prices.py',
    turns,
    messages,
    usage: { input: 1200, cacheRead: 34000, cacheWrite: 800, output: 950 },
    cost: 0.0123,
    offloadRefs: ['off_1'],
    ...patch,
  };
}

/** A history of roughly `bytes` of JSON: turns of prompt, tool call and a large tool result. */
export function bigHistory(bytes: number): Message[] {
  const messages: Message[] = [userText('start the big refactor')];
  const chunk = 'const value = compute(input, options); // line of source code in a tool result\n'.repeat(60);
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const callId = `call_${n}`;
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `thinking about file ${n} `.repeat(20), signature: `sig${n}` },
        { type: 'tool_use', id: callId, name: 'read_file', input: { path: `src/file-${n}.ts` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: callId, content: chunk }] });
    size += chunk.length + 600;
  }
  return messages;
}
