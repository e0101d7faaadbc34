/**
 * Provider-neutral conversation and streaming types. Both wire formats translate to and from
 * these; the engine, the context manager and the session store only ever see these shapes.
 */

export type ThinkingEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** Base64 image payload, as sent to a model that can see. */
export interface ImageData {
  readonly mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  readonly base64: string;
}

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  /** Anthropic thinking block: stored and replayed verbatim (DeepSeek rejects history without it). */
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature?: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** Set when the streamed arguments were not valid JSON; the engine answers with a tool error. */
      readonly inputError?: string;
      /**
       * OpenAI format: the call's `extra_content`, exactly as it arrived. Gemini's endpoint puts
       * `google.thought_signature` there and rejects the next request unless it comes back.
       */
      readonly extraContent?: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly content: string;
      readonly isError?: boolean;
      readonly images?: readonly ImageData[];
    }
  | { readonly type: 'image'; readonly image: ImageData };

/**
 * Reasoning an OpenAI-format server sent, kept in the very field it used so it can be echoed back
 * (see WIRE.md, echo_reasoning). `value` is a string, or OpenRouter's reasoning_details array.
 */
export interface ReasoningEcho {
  readonly field: 'reasoning_content' | 'reasoning' | 'reasoning_details';
  readonly value: string | readonly unknown[];
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: readonly ContentBlock[];
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: readonly ContentBlock[];
  readonly reasoningEcho?: ReasoningEcho;
}

export type Message = UserMessage | AssistantMessage;

/** JSON Schema object for a tool's arguments (the subset both formats accept). */
export interface JsonSchemaObject {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
}

export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

/** Token counts, split the way providers bill them. `input` is fresh (cache-miss) input only. */
export interface Usage {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  /**
   * Requests whose server reported no usage at all (one that ignores stream_options): their
   * tokens are not in the counts above, so a cost computed from them would be a guess.
   */
  readonly unreported?: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';

export interface ModelRequest {
  readonly system: string;
  readonly tools: readonly ToolSchema[];
  readonly messages: readonly Message[];
  readonly maxTokens: number;
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly signal?: AbortSignal;
}

/** Normalized stream events, the same for both wire formats. */
export type StreamEvent =
  /**
   * `sealed`: when this delta completed a chunk of the client's copy of the text, that chunk (this
   * delta and those before it since the last one, joined). The client keeps it for the message:
   * a consumer that holds on to it instead of the deltas holds no second copy (turn-journal.ts).
   */
  | { readonly type: 'text_delta'; readonly text: string; readonly sealed?: string }
  | { readonly type: 'thinking_delta'; readonly text: string }
  | { readonly type: 'tool_call_start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly index: number; readonly fragment: string }
  | {
      readonly type: 'tool_call_end';
      readonly index: number;
      readonly id: string;
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      readonly inputError?: string;
      /** What was repaired to read near-JSON arguments (for the verbose log). */
      readonly repairs?: readonly string[];
    }
  /** Cumulative usage of this request so far (overwrite, never add). */
  | { readonly type: 'usage'; readonly usage: Usage }
  /** Always last on success: the whole assistant message, ready to append to history verbatim. */
  | {
      readonly type: 'stop';
      readonly reason: StopReason;
      readonly message: AssistantMessage;
      readonly usage: Usage;
      /** With reason 'refusal': what the provider said about it (Anthropic stop_details, OpenAI refusal). */
      readonly explanation?: string;
    };

export interface ModelClient {
  /** Streams one request. Throws ProviderError on failure (after retries, where retrying is safe). */
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}

export type ProviderErrorKind =
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'timeout'
  | 'truncated'
  | 'malformed'
  /** The reply outgrew max_reply_bytes: cut off, never retried. */
  | 'too_large'
  | 'aborted';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** What had streamed before the failure, when anything had. */
    readonly partial?: AssistantMessage,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
