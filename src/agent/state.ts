/**
 * The immutable session state the view renders, and the engine's command surface.
 * Plain data only: no functions, no class instances, no React nodes.
 */
import type { ApprovalDecision, ApprovalRequest } from '../policy/types.js';
import type { ImageData, ThinkingEffort, Usage } from '../providers/types.js';
import type { WireFormat } from '../config/types.js';
import type { SessionSummary } from '../sessions/types.js';
import type { ParsedDiff } from '../tools/numbered-diff.js';
import type { FailureKind, FileChange } from '../tools/types.js';
import type { SlashCommandInfo } from '../slash/types.js';
import type { RewindView } from '../rewind/rewind-command.js';

export type TurnStatus = 'finished' | 'incomplete' | 'error' | 'interrupted';
export type ToolCallStatus = 'running' | 'ok' | 'error' | 'denied' | 'interrupted';

interface BlockBase {
  readonly id: string;
  /** Bumped on every change, so views can cache per (id, version, width). */
  readonly version: number;
}

/**
 * A streaming block's text as the deltas brought it, for a view that lays the text out as it
 * grows: `text` is a rope of one piece per delta, and reading any of it flattens the whole answer
 * into a new copy, on every frame. `list` is append-only and shared by the block's versions; a
 * version owns its first `count` pieces. Dropped when the block ends.
 */
export interface StreamPieces {
  readonly list: readonly string[];
  readonly count: number;
}

/** A file change as the transcript holds it: the counts, and the diff read into numbered lines. */
export interface TranscriptChange extends Omit<FileChange, 'diff'> {
  readonly diff?: ParsedDiff;
}

/** The approval the view shows: the request, its diff read into numbered lines. */
export interface PendingApproval extends Omit<ApprovalRequest, 'diff' | 'clipped'> {
  readonly diff?: ParsedDiff;
  /** The clipped first view (ApprovalRequest.clipped), its diff read the same way. */
  readonly clipped?: { readonly command?: string; readonly diff?: ParsedDiff; readonly note: string };
}

export type TranscriptBlock =
  | (BlockBase & { readonly kind: 'user'; readonly text: string })
  | (BlockBase & { readonly kind: 'assistant'; readonly text: string; readonly streaming: boolean; readonly stream?: StreamPieces })
  | (BlockBase & { readonly kind: 'reasoning'; readonly text: string; readonly streaming: boolean; readonly stream?: StreamPieces })
  | (BlockBase & {
      readonly kind: 'tool';
      readonly callId: string;
      readonly name: string;
      /** '→ edit_file prices.py' without the arrow: the tool and its main argument. */
      readonly title: string;
      /** The call's whole text, escaped, when the title clips it: every line of a bash command. */
      readonly detail?: string;
      readonly status: ToolCallStatus;
      /** Live output while running (bash), escaped; bounded to the tail. */
      readonly output: string;
      /** Lines of live output in all (the tail above holds only the last of them). */
      readonly outputLines?: number;
      /** 'Edited prices.py', or the error, once finished. */
      readonly resultSummary?: string;
      /** A file it changed: "edit prices.py +1 −4", and the diff behind it. */
      readonly change?: TranscriptChange;
      /** Why it failed, once finished with an error: denied, not_found, timeout … */
      readonly failure?: FailureKind;
    })
  | (BlockBase & { readonly kind: 'turn_end'; readonly status: TurnStatus; readonly detail?: string })
  | (BlockBase & { readonly kind: 'notice'; readonly level: 'info' | 'warning' | 'error'; readonly text: string });

export interface ContextGauge {
  readonly usedTokens: number;
  /** True when usedTokens came from the provider's reported usage, false when estimated. */
  readonly measured: boolean;
  readonly window: number;
  /** Where reclaiming starts: min(75% of the window, 200k). */
  readonly threshold: number;
}

export interface SessionState {
  readonly sessionId: string;
  readonly preset: { readonly name: string; readonly format: WireFormat; readonly model: string };
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly markdown: boolean;
  readonly projectRoot: string;
  /** 'read=allow write=confirm delete=confirm bash=confirm' */
  readonly permissionSummary: string;
  readonly blocks: readonly TranscriptBlock[];
  readonly busy: boolean;
  readonly pendingApproval: PendingApproval | null;
  readonly lastUsage: Usage | null;
  readonly sessionUsage: Usage;
  /** Null when the preset has no prices. */
  readonly sessionCost: number | null;
  readonly context: ContextGauge;
  /** The code map's index while it builds (files done of total); null or absent once ready or failed. */
  readonly indexing?: IndexingProgress | null;
  /**
   * Whether this session's turns are written to disk (false with --no-save): the view offers to
   * resume only a saved one. Absent from an engine that does not say.
   */
  readonly saved?: boolean;
  /**
   * Why the last save of the session failed (a full disk); absent or null once a save works. The
   * view keeps it in sight: the conversation on screen is not on disk.
   */
  readonly saveError?: string | null;
  /** The session is still being assembled; the view shows what the config says until it is. */
  readonly starting?: boolean;
  /**
   * The slash commands the engine has registered: the view's help, completion and argument hints
   * come from this list. Absent from an engine that does not say (the view falls back to the
   * built-in ones).
   */
  readonly commands?: readonly SlashCommandInfo[];
  /** A question the engine waits on (see EngineQuestion); null or absent when none. */
  readonly pendingQuestion?: EngineQuestion | null;
  /** Spend against the budgets that are set; absent when none is. */
  readonly budget?: BudgetGauge;
}

/** One answer to an EngineQuestion: the key that picks it, what it says, and the value it returns. */
export interface QuestionChoice {
  readonly key: string;
  readonly label: string;
  readonly value: string;
}

/**
 * A question the engine waits on between two steps, approval-like: before an automatic summary,
 * at a budget, before /model re-sends the conversation to another model. Plain data; the view
 * shows it in place of the input and answers with `answerQuestion`. A run without a view takes
 * `fallback` without asking; an interrupt settles it with `cancel`.
 */
export interface EngineQuestion {
  readonly id: string;
  readonly kind: 'compaction' | 'budget' | 'model-switch';
  readonly title: string;
  readonly lines: readonly string[];
  /** The first one is what Enter picks. */
  readonly choices: readonly QuestionChoice[];
  readonly fallback: string;
  readonly cancel: string;
}

/** Spend against one budget, for the status line. `spent` is null while unknown (no prices). */
export interface BudgetReading {
  readonly spent: number | null;
  readonly limit: number;
}

export interface BudgetGauge {
  readonly turnCost?: BudgetReading;
  readonly sessionCost?: BudgetReading;
  readonly turnTokens?: BudgetReading;
}

export interface IndexingProgress {
  readonly done: number;
  readonly total: number;
}

export interface TurnOutcome {
  readonly status: TurnStatus;
  /** The final answer text of the turn. */
  readonly result: string;
  /** Why it is incomplete or failed, in plain words. */
  readonly detail?: string;
  readonly steps: number;
  /** What this turn's requests used (summaries included), and their cost (null without prices). */
  readonly usage?: Usage;
  readonly cost?: number | null;
  /** False when the session was to be saved and could not be (absent with --no-save). */
  readonly saved?: boolean;
  /** One-shot mode's tally of the turn's tool calls that were denied or failed (src/headless/tool-tally.ts). */
  readonly calls?: readonly { readonly tool: string; readonly call: string; readonly status: 'denied' | 'error'; readonly message: string }[];
}

/** The result of a slash command: text to show (the view decides how), or a request to exit. */
export interface SlashResult {
  /** The command's tagged reply this result carries (src/slash/types.ts, SlashReply). */
  readonly kind?: 'text' | 'error' | 'panel' | 'sessions' | 'prompt' | 'exit' | 'rewind' | 'rewound';
  /** Send this to the model as the user's prompt (a custom command, a server's prompt). */
  readonly prompt?: string;
  readonly output?: string;
  /** The command failed (unknown command, bad arguments, unknown preset...): `output` says why. */
  readonly error?: boolean;
  readonly exit?: boolean;
  /** The panel the view should open ('sessions', 'presets', ...), when the command has one. */
  readonly panel?: string;
  /** For the 'sessions' panel: this project's saved sessions, newest activity first. */
  readonly sessions?: readonly SessionSummary[];
  /** /rewind: the checkpoints for the picker, or a preview of going back to one. */
  readonly rewind?: RewindView;
  /** For 'rewound': text to put back in the input (the prompt a conversation rewind went back before). */
  readonly input?: string;
}

export interface EngineStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): SessionState;
}

export interface Engine extends EngineStore {
  /**
   * Runs one turn; images (an editor's pasted screenshot) go with the text to a model that can see.
   * `shell`: the text is a command the user runs themselves (`!command` in the input): run, shown,
   * added to the conversation, no model request.
   */
  submit(text: string, extra?: { readonly images?: readonly ImageData[]; readonly shell?: boolean }): Promise<TurnOutcome>;
  /** Stops the running turn; `reason` ("Stopped by SIGTERM.") is what the turn's end says, else "Interrupted by the user.". */
  interrupt(reason?: string): void;
  /** `note`: with a no, what the user typed for the model (what to do instead). */
  answer(approvalId: string, decision: ApprovalDecision, note?: string): void;
  /** Answers the pending EngineQuestion with one of its choices' values. */
  answerQuestion?(questionId: string, value: string): void;
  /** `server:uri` of every resource the MCP servers list, for `@` completion (none before they answer). */
  mentionResources?(): readonly string[];
  runSlash(command: string): Promise<SlashResult>;
  dispose(): Promise<void>;
}
