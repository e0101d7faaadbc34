/** Builders for test conversations, a seeded random generator, and the wire-validity check. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentBlock, Message } from '../../src/providers/types.js';

export const MARKER = 'lw-test0marker';

export const prompt = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
export const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
export const call = (id: string, name: string, input: Record<string, unknown>, text = ''): Message => ({
  role: 'assistant',
  content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use', id, name, input }],
});
export const result = (id: string, content: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', toolUseId: id, content }],
});

/** n lines of distinct text, about `width` characters each. */
export function lines(n: number, width = 40, tag = 'line'): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(`${tag} ${i} `.padEnd(width, 'x'));
  return out.join('\n');
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'lw-context-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The rules both wire formats impose on a history, as a list of violations (empty when valid):
 * it starts with a user message, roles alternate, no message is empty, every tool call is answered
 * in the very next message (results first, as the OpenAI format needs them right after the call),
 * and no result answers a call that is not in the message before it.
 */
export function wireViolations(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  if (messages.length === 0) return problems;
  if (messages[0]!.role !== 'user') problems.push('first message is not a user message');
  messages.forEach((m, i) => {
    if (m.content.length === 0) problems.push(`message ${i} is empty`);
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`messages ${i - 1} and ${i} are both ${m.role}`);
    const calls = m.role === 'assistant' ? m.content.filter(isToolUse).map((b) => b.id) : [];
    if (calls.length > 0) {
      const next = messages[i + 1];
      const answered = next?.role === 'user' ? next.content.filter(isToolResult).map((b) => b.toolUseId) : [];
      for (const id of calls) if (!answered.includes(id)) problems.push(`tool call ${id} (message ${i}) has no result right after`);
      if (next) {
        const firstOther = next.content.findIndex((b) => b.type !== 'tool_result');
        const lastResult = next.content.map((b) => b.type).lastIndexOf('tool_result');
        if (firstOther !== -1 && firstOther < lastResult) problems.push(`message ${i + 1} puts text before tool results`);
      }
    }
    if (m.role === 'user') {
      const prev = messages[i - 1];
      const asked = prev?.role === 'assistant' ? prev.content.filter(isToolUse).map((b) => b.id) : [];
      for (const b of m.content.filter(isToolResult)) {
        if (!asked.includes(b.toolUseId)) problems.push(`result ${b.toolUseId} (message ${i}) answers no call before it`);
      }
    }
  });
  return problems;
}

const isToolUse = (b: ContentBlock): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use';
const isToolResult = (b: ContentBlock): b is Extract<ContentBlock, { type: 'tool_result' }> => b.type === 'tool_result';
