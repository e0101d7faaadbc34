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

/**
 * The request: a record of the past under fixed headings, so the model that reads it later tells
 * finished work from open work and the user's last request from everything before it. Framed as
 * a request to stop and summarize, which is what a model mid-task would otherwise carry on from.
 */
export const SUMMARY_REQUEST = [
  'Summarize the conversation so far for your own later use: it will replace the messages above, which stay archived word for word (the recall tool searches them).',
  'Stop the task for this: call no tools and do not continue the work. Write a record of what already happened, in the past tense, under these headings:',
  'Done: everything completed — edits made (file and what changed), commands run and their outcome, questions answered. Mark each item "(done)"; nothing listed here is to be done again.',
  'Facts and decisions: what was learned, decided and why, what was tried and ruled out; file names, functions, commands and values exactly.',
  'Open: what was asked or planned but not finished when this record was made, each marked "(open)"; write "none" if nothing is open.',
  'Latest request: the user\'s most recent request above, in their words, and whether it was completed.',
  'Be factual and compact. Reply with the record only.',
].join('\n');

export function createSummarizer(source: () => SummarizerSource): Summarizer {
  return async (older, instructions) => {
    const s = source();
    const messages: Message[] = [...older];
    appendUserText(messages, instructions ? `${SUMMARY_REQUEST}\nThe user adds what matters to keep: ${instructions}` : SUMMARY_REQUEST);
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
