/**
 * The Summarizer the context manager calls: asks the session's own model, with the session's own
 * system prompt and tools, so the request shares the cached prefix of the conversation.
 */
import type { Summarizer } from '../context/types.js';
import type { Message, ModelClient, ThinkingEffort, ToolSchema, Usage } from '../providers/types.js';
import { appendUserText } from './turn-loop.js';

export interface SummarizerSource {
  readonly client: ModelClient;
  readonly system: string;
  readonly toolSchemas: readonly ToolSchema[];
  readonly maxTokens: number;
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  /** Aborts the summary request (an interrupt during a reclaim mid-turn). */
  readonly signal?: AbortSignal;
  /** The summary request is billed like any other: counted in the session's totals. */
  readonly onUsage?: (usage: Usage) => void;
}

const REQUEST =
  'Summarize the conversation so far for your own later use: it will replace the messages above. ' +
  'Keep what was asked, what was decided and why, which files were read or changed and how, what ' +
  'was tried and ruled out, and what is still to do. Be factual and compact. Reply with the ' +
  'summary only, and call no tools.';

export function createSummarizer(source: () => SummarizerSource): Summarizer {
  return async (older, instructions) => {
    const s = source();
    const messages: Message[] = [...older];
    appendUserText(messages, instructions ? `${REQUEST}\nThe user adds: ${instructions}` : REQUEST);
    const request = {
      system: s.system,
      tools: s.toolSchemas,
      messages,
      maxTokens: s.maxTokens,
      thinking: s.thinking,
      ...(s.thinkingEffort ? { thinkingEffort: s.thinkingEffort } : {}),
      ...(s.signal ? { signal: s.signal } : {}),
    };
    for await (const event of s.client.stream(request)) {
      if (event.type !== 'stop') continue;
      s.onUsage?.(event.usage);
      const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('').trim();
      if (!text) throw new Error('The model returned an empty summary.');
      return text;
    }
    throw new Error('The summary request ended without a reply.');
  };
}
