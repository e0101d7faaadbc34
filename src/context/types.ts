/** The context manager's boundary with the engine. */
import type { Message, Usage } from '../providers/types.js';

export interface OffloadStore {
  /** Writes a snapshot and returns its ref ('off_0001'). */
  put(tool: string, content: string): Promise<string>;
  read(ref: string): Promise<string | undefined>;
  /** Refs and sizes on disk, for /context and for saving a session. */
  list(): Promise<readonly { ref: string; bytes: number }[]>;
}

/** Asks the model to summarize a stretch of history; the engine provides it. */
export type Summarizer = (older: readonly Message[], instructions?: string) => Promise<string>;

export interface ContextStats {
  readonly usedTokens: number;
  readonly measured: boolean;
  readonly window: number;
  readonly threshold: number;
  readonly messages: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly inputTokensTotal: number;
  readonly offloadedCount: number;
  readonly offloadedBytes: number;
}

export interface ReclaimResult {
  readonly messages: readonly Message[];
  /** What happened, for the transcript: 'none' | 'offloaded' | 'summarized'. */
  readonly action: 'none' | 'offloaded' | 'summarized';
  readonly detail?: string;
}

export interface ContextManager {
  /** Offload on arrival: returns the content to put in history (a stub, or the content itself). */
  onToolResult(tool: string, content: string): Promise<string>;
  /** Record the provider's measured usage after a request. */
  recordUsage(usage: Usage, messagesSent: number): void;
  /** Before each request: reclaim if over the threshold. */
  beforeRequest(messages: readonly Message[], system: string): Promise<ReclaimResult>;
  /** /compact [instructions]: reclaim now. */
  compact(messages: readonly Message[], system: string, instructions?: string): Promise<ReclaimResult>;
  stats(messages: readonly Message[], system: string): Promise<ContextStats>;
}
