/** The context manager's boundary with the engine. */
import type { Message, Usage } from '../providers/types.js';

export interface OffloadStore {
  /** Writes a snapshot and returns its ref ('off_0001'). */
  put(tool: string, content: string): Promise<string>;
  read(ref: string): Promise<string | undefined>;
  /** Refs and sizes on disk, for /context and for saving a session. */
  list(): Promise<readonly { ref: string; bytes: number }[]>;
  /** Writes the text of turns a summary replaces, one file each; returns their refs ('arc_0001' …), in order. */
  archive(turns: readonly string[]): Promise<string[]>;
  /** Every archived turn, oldest first (what recall searches). */
  archived(): Promise<readonly ArchivedTurn[]>;
}

export interface ArchivedTurn {
  readonly ref: string;
  readonly text: string;
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
  /** The part of usedTokens that is estimated (all of it when measured is false). */
  readonly estimatedTokens?: number;
  /** Size of the protected zone of recent conversation, in tokens. */
  readonly protectedTokens?: number;
  /** Turns summaries replaced, kept in the archive recall searches. */
  readonly archivedTurns?: number;
}

/** What the engine may say about a tool result besides its name (all optional). */
export interface ToolResultInfo {
  /** The call's arguments: the stub names the path, command or pattern from them. */
  readonly input?: Readonly<Record<string, unknown>>;
  /** Overrides the label taken from `input`. */
  readonly label?: string;
  /** Overrides the built-in list of bulk tools (ToolDefinition.bulk). */
  readonly bulk?: boolean;
  /** The complete result when the content was clipped for the context (ToolResult.whole): stored whole. */
  readonly whole?: string;
  /** How the whole result itself was cut by the on-disk cap, when it was (ToolResult.wholeCut). */
  readonly wholeCut?: string;
}

/** How full the context is right now, without touching the disk (for the meter). */
export interface ContextFillGauge {
  readonly usedTokens: number;
  readonly measured: boolean;
  readonly window: number;
  readonly threshold: number;
}

export interface ReclaimResult {
  readonly messages: readonly Message[];
  /** What happened, for the transcript: 'none' | 'offloaded' | 'summarized'. */
  readonly action: 'none' | 'offloaded' | 'summarized';
  /**
   * What to tell the user. Can be set with action 'none' too: a failed summary request (`failed`),
   * or nothing left to reclaim outside the protected zone. After 'summarized' the prompt prefix
   * has changed anyway: the moment to refresh session snapshots such as the code map.
   */
  readonly detail?: string;
  /** Tool results moved to the offload store by this pass. */
  readonly offloadedResults?: number;
  /** Messages replaced by the summary (0 when none). */
  readonly summarizedMessages?: number;
  /** True when the summarizing request failed; the history was returned as it came in. */
  readonly failed?: boolean;
  /** True when the user chose to summarize later: the history was only offloaded (if at all). */
  readonly postponed?: boolean;
  /** The archive refs of the turns the summary replaced (arc_0001 …), when one was made. */
  readonly archived?: readonly string[];
  /**
   * After a summary, what the next request sends (prompt prefix, summary and kept history), in
   * estimated tokens: the figure the re-send estimate is made from.
   */
  readonly tokensAfter?: number;
}

/** What a summary about to be made would replace and keep, for the notice that asks about it. */
export interface SummaryPlan {
  /** The context now, after the lossless offload pass. */
  readonly usedTokens: number;
  readonly window: number;
  /** The system prompt and tool schemas, sent before the conversation. */
  readonly prefixTokens: number;
  readonly olderMessages: number;
  readonly olderTurns: number;
  readonly olderTokens: number;
  /** The messages kept as they are (the protected zone and the turn under way). */
  readonly keptTokens: number;
  /** Where a postponed summary happens after all; undefined when it cannot be postponed (again). */
  readonly postponeUntil?: number;
  /** It was postponed once, and the context has reached the point it was postponed to. */
  readonly wasPostponed?: boolean;
}

export type SummaryDecision = 'now' | 'later';

/** Asked before an automatic summary request (never before /compact): now, or later once. */
export type ConfirmSummary = (plan: SummaryPlan) => Promise<SummaryDecision>;

export interface BeforeRequestHooks {
  readonly confirmSummary?: ConfirmSummary;
}

export interface ContextManager {
  /** Offload on arrival: returns the content to put in history (a stub, or the content itself). */
  onToolResult(tool: string, content: string, info?: ToolResultInfo): Promise<string>;
  /**
   * Record the provider's measured usage after a request. `sent` is the history that request
   * carried; without it, the messages beforeRequest last returned are assumed.
   */
  recordUsage(usage: Usage, messagesSent: number, sent?: readonly Message[]): void;
  /** Usage of a request outside the conversation (the summarizing call): totals only. */
  recordSideUsage?(usage: Usage): void;
  /** The meter's figure, synchronously. */
  gauge?(messages: readonly Message[], system: string): ContextFillGauge;
  /** Before each request: reclaim if over the threshold (asking `confirmSummary` before a summary). */
  beforeRequest(messages: readonly Message[], system: string, hooks?: BeforeRequestHooks): Promise<ReclaimResult>;
  /** /compact [instructions]: reclaim now. */
  compact(messages: readonly Message[], system: string, instructions?: string): Promise<ReclaimResult>;
  stats(messages: readonly Message[], system: string): Promise<ContextStats>;
}
