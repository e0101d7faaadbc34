import { describe, expect, it } from 'vitest';
import { AnthropicAssembler } from '../../src/providers/anthropic-stream.js';
import { OpenAiAssembler } from '../../src/providers/openai-stream.js';
import { ProviderError } from '../../src/providers/types.js';

const assemblers = { anthropic: () => new AnthropicAssembler(), openai: () => new OpenAiAssembler() };

function failure(feed: () => void): ProviderError {
  try {
    feed();
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('expected a ProviderError');
}

describe.each(Object.entries(assemblers))('%s: error events whose data is not JSON', (_format, make) => {
  it('`event: error` with plain text is the server error it says, not an unreadable stream', () => {
    const err = failure(() => make().feed({ event: 'error', data: 'upstream connect error or disconnect/reset before headers' }));
    expect(err.kind).toBe('server');
    expect(err.message).toBe('The provider reported an error mid-answer: upstream connect error or disconnect/reset before headers');
  });

  it('non-JSON data under any other event name stays malformed', () => {
    const err = failure(() => make().feed({ event: 'message', data: '{"type": "content_block_delta", "index": 0, "delta": {' }));
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(/^The provider sent an unreadable stream event: /);
  });
});
