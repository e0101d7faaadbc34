/**
 * Checks a request body as each API would: the histories the context manager produces are encoded
 * with the real provider encoders and then held to the wire format's own rules.
 */
import { buildAnthropicBody } from '../../src/providers/anthropic-request.js';
import { buildOpenAiBody } from '../../src/providers/openai-request.js';
import type { Message } from '../../src/providers/types.js';

type Json = Record<string, unknown>;

const request = (messages: readonly Message[]) => ({ system: 'system', tools: [], messages, maxTokens: 1024, thinking: false });

/** Anthropic: user first, strict alternation, every tool_use answered first thing in the next user message. */
export function anthropicWireProblems(messages: readonly Message[]): string[] {
  const body = buildAnthropicBody('fake-model', request(messages));
  const wire = body['messages'] as Json[];
  const problems: string[] = [];
  if (wire.length > 0 && wire[0]!['role'] !== 'user') problems.push('anthropic: first message is not user');
  wire.forEach((m, i) => {
    const content = m['content'] as Json[];
    if (content.length === 0) problems.push(`anthropic: message ${i} empty`);
    if (i > 0 && wire[i - 1]!['role'] === m['role']) problems.push(`anthropic: ${String(m['role'])} twice at ${i}`);
    if (m['role'] !== 'assistant') return;
    const ids = content.filter((b) => b['type'] === 'tool_use').map((b) => b['id']);
    if (ids.length === 0) return;
    const next = (wire[i + 1]?.['content'] as Json[] | undefined) ?? [];
    const answered = next.slice(0, ids.length).map((b) => (b['type'] === 'tool_result' ? b['tool_use_id'] : undefined));
    if (JSON.stringify([...answered].sort()) !== JSON.stringify([...ids].sort())) problems.push(`anthropic: calls at ${i} not answered first in ${i + 1}`);
  });
  return problems;
}

/** OpenAI: user first after system, each tool_calls message followed at once by one tool message per call. */
export function openaiWireProblems(messages: readonly Message[]): string[] {
  const body = buildOpenAiBody({ baseUrl: 'http://localhost', model: 'fake-model', echoReasoning: 'auto' }, request(messages));
  const wire = (body['messages'] as Json[]).filter((m) => m['role'] !== 'system');
  const problems: string[] = [];
  if (wire.length > 0 && wire[0]!['role'] !== 'user') problems.push('openai: first message is not user');
  for (let i = 0; i < wire.length; i++) {
    const m = wire[i]!;
    const calls = (m['tool_calls'] as Json[] | undefined) ?? [];
    if (m['role'] === 'tool') {
      const prev = wire[i - 1];
      if (!prev || (prev['role'] !== 'tool' && !prev['tool_calls'])) problems.push(`openai: tool message ${i} answers nothing`);
    }
    if (calls.length === 0) continue;
    const ids = calls.map((c) => c['id']);
    const answered = wire.slice(i + 1, i + 1 + ids.length).map((t) => (t['role'] === 'tool' ? t['tool_call_id'] : undefined));
    if (JSON.stringify([...answered].sort()) !== JSON.stringify([...ids].sort())) problems.push(`openai: calls at ${i} not answered right after`);
  }
  return problems;
}
