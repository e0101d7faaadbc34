/**
 * One model request: streams the reply, turning deltas into engine events, and returns the
 * finished assistant message — or what had streamed when the user interrupted or the provider failed.
 */
import { ProviderError, type AssistantMessage, type ModelClient, type ModelRequest, type StopReason, type Usage } from '../providers/types.js';
import type { EngineEvent } from './events.js';

export type RequestOutcome =
  | {
      readonly kind: 'done';
      readonly message: AssistantMessage;
      readonly reason: StopReason;
      readonly usage: Usage;
      /** With reason 'refusal': the provider's explanation, when it gave one. */
      readonly explanation?: string;
    }
  | { readonly kind: 'interrupted'; readonly partialText: string; readonly usage?: Usage }
  /** The provider failed: the text that had streamed, and the usage it had reported, if any. */
  | { readonly kind: 'failed'; readonly error: unknown; readonly partialText: string; readonly usage?: Usage };

/** The answer text of a (partial) message. */
function textOf(message: AssistantMessage | undefined): string {
  return message?.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') ?? '';
}

export interface RequestEnv {
  readonly client: ModelClient;
  readonly dispatch: (event: EngineEvent) => void;
  readonly newId: (prefix: string) => string;
  /** The reply's first event arrived: the request is out and answered (see TurnEnv.onReplyStart). */
  readonly onReplyStart?: () => void;
}

export async function streamRequest(env: RequestEnv, request: ModelRequest & { signal: AbortSignal }): Promise<RequestOutcome> {
  let textId: string | undefined;
  let reasoningId: string | undefined;
  // How much answer text was shown. The text itself is the client's to keep (a second copy of a
  // long reply here cost its whole size again): an interrupt or a failure takes it from the
  // partial message the client reports, cut to what was shown.
  let shown = 0;
  const partial = (message: AssistantMessage | undefined): string => textOf(message).slice(0, shown);
  let lastUsage: Usage | undefined;
  const endText = (): void => {
    if (textId) env.dispatch({ type: 'block.end', blockId: textId });
    textId = undefined;
  };
  const endReasoning = (): void => {
    if (reasoningId) env.dispatch({ type: 'block.end', blockId: reasoningId });
    reasoningId = undefined;
  };
  let replying = false;
  try {
    for await (const event of env.client.stream(request)) {
      if (!replying) {
        replying = true;
        env.onReplyStart?.();
      }
      if (request.signal.aborted) {
        // Interrupted: nothing more is shown; the client stops with an 'aborted' error that
        // carries what it had, or (everything had arrived) with its stop.
        if (event.type === 'stop') {
          endText();
          endReasoning();
          return { kind: 'interrupted', partialText: partial(event.message), usage: event.usage };
        }
        continue;
      }
      switch (event.type) {
        case 'text_delta':
          endReasoning();
          textId ??= env.newId('assistant');
          shown += event.text.length;
          env.dispatch({ type: 'assistant.delta', blockId: textId, text: event.text, ...(event.sealed !== undefined ? { sealed: event.sealed } : {}) });
          break;
        case 'thinking_delta':
          endText();
          reasoningId ??= env.newId('reasoning');
          env.dispatch({ type: 'reasoning.delta', blockId: reasoningId, text: event.text });
          break;
        case 'tool_call_start':
          endText();
          endReasoning();
          break;
        case 'tool_call_delta':
        case 'tool_call_end':
          break;
        case 'usage':
          lastUsage = event.usage;
          break;
        case 'stop':
          endText();
          endReasoning();
          return {
            kind: 'done',
            message: event.message,
            reason: event.reason,
            usage: event.usage,
            ...(event.explanation ? { explanation: event.explanation } : {}),
          };
        default: {
          const unhandled: never = event;
          void unhandled;
        }
      }
    }
  } catch (err) {
    endText();
    endReasoning();
    const reported = err instanceof ProviderError ? err.partial : undefined;
    if (request.signal.aborted) return { kind: 'interrupted', partialText: partial(reported), usage: lastUsage };
    return { kind: 'failed', error: err, partialText: partial(reported), usage: lastUsage };
  }
  endText();
  endReasoning();
  if (request.signal.aborted) return { kind: 'interrupted', partialText: '', usage: lastUsage };
  return { kind: 'failed', error: new ProviderError('truncated', 'The reply ended before the model finished it.'), partialText: '', usage: lastUsage };
}
