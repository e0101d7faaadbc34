import { describe, expect, it } from 'vitest';
import { buildAnthropicBody } from '../../src/providers/anthropic-request.js';
import { buildOpenAiBody } from '../../src/providers/openai-request.js';
import { generateToolId } from '../../src/providers/tool-input.js';

describe('request shapes that depend on the model or host', () => {
  it('uses adaptive thinking for Claude 4.6+ and a token budget elsewhere', () => {
    const req = { system: '', tools: [], messages: [], maxTokens: 16000, thinking: true, thinkingEffort: 'high' as const };
    expect(buildAnthropicBody('claude-opus-4-6', req)).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    expect(buildAnthropicBody('claude-sonnet-4-5-20250929', req)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 12000 } });
    expect(buildAnthropicBody('deepseek-v4-pro', req)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 12000 } });
  });

  it('sends max_completion_tokens to api.openai.com and max_tokens to compatible servers', () => {
    const req = { system: '', tools: [], messages: [], maxTokens: 1234, thinking: false };
    const openai = buildOpenAiBody({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-5', echoReasoning: 'auto' }, req);
    expect(openai['max_completion_tokens']).toBe(1234);
    expect(openai['max_tokens']).toBeUndefined();
    expect(buildOpenAiBody({ baseUrl: 'http://localhost:11434/v1', model: 'qwen3', echoReasoning: 'auto' }, req)['max_tokens']).toBe(1234);
  });
});

describe('generated tool call ids', () => {
  it('are letters and digits after call_, and distinct', () => {
    const ids = Array.from({ length: 500 }, generateToolId);
    for (const id of ids) expect(id).toMatch(/^call_[A-Za-z0-9]{16,}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
