/**
 * Engine events: plain data describing what happened. The reducer folds them into SessionState;
 * one-shot mode prints them as they come. No functions, no class instances.
 */
import type { ApprovalDecision, ApprovalRequest } from '../policy/types.js';
import type { AssistantMessage, StopReason, Usage } from '../providers/types.js';
import type { FailureKind, FileChange, ToolCallKind } from '../tools/types.js';
import type { SlashCommandInfo } from '../slash/types.js';
import type { BudgetGauge, ContextGauge, EngineQuestion, IndexingProgress, SessionState, ToolCallStatus, TurnStatus } from './state.js';

/** Settings the header shows; changed by slash commands. */
export type SettingsPatch = Partial<
  Pick<SessionState, 'preset' | 'thinking' | 'thinkingEffort' | 'markdown' | 'permissionSummary' | 'sessionId'>
>;

export type EngineEvent =
  /** Replace the whole state (a resumed or cleared session). */
  | { readonly type: 'session.reset'; readonly state: SessionState }
  | { readonly type: 'settings'; readonly patch: SettingsPatch }
  | { readonly type: 'turn.start'; readonly blockId: string; readonly text: string }
  /** `sealed`: as the provider's text_delta has it (types.ts). */
  | { readonly type: 'assistant.delta'; readonly blockId: string; readonly text: string; readonly sealed?: string }
  | { readonly type: 'reasoning.delta'; readonly blockId: string; readonly text: string }
  | { readonly type: 'block.end'; readonly blockId: string }
  | {
      readonly type: 'tool.start';
      readonly blockId: string;
      readonly callId: string;
      readonly name: string;
      readonly title: string;
      /** The call's arguments as the model sent them (machine interfaces show them; the view does not). */
      readonly input?: unknown;
      /** The tool's permission kind (ToolDefinition.kind), when the tool is known. */
      readonly kind?: ToolCallKind;
      /** The call's whole text, escaped, when the title clips it (a multi-line command). */
      readonly detail?: string;
    }
  | { readonly type: 'tool.output'; readonly blockId: string; readonly text: string }
  | {
      readonly type: 'tool.end';
      readonly blockId: string;
      readonly status: ToolCallStatus;
      readonly summary: string;
      /** Why it failed, as data (absent when it succeeded). */
      readonly failure?: FailureKind;
      /** The call's id and its result exactly as the model sees it (after offloading), unescaped. */
      readonly callId?: string;
      readonly content?: string;
      /** write_file / edit_file: what changed, with the diff. */
      readonly change?: FileChange;
    }
  /** One finished model reply, whole (text, thinking, tool calls), and why it stopped. */
  | { readonly type: 'assistant.message'; readonly message: AssistantMessage; readonly stopReason: StopReason | 'interrupted' | 'error' }
  | { readonly type: 'approval.request'; readonly request: ApprovalRequest }
  | { readonly type: 'approval.resolved'; readonly id: string; readonly decision?: ApprovalDecision }
  | {
      readonly type: 'usage';
      readonly lastUsage: Usage;
      readonly sessionUsage: Usage;
      readonly sessionCost: number | null;
    }
  | { readonly type: 'context'; readonly gauge: ContextGauge }
  /** The slash commands changed (one registered at runtime, or removed). */
  | { readonly type: 'commands'; readonly commands: readonly SlashCommandInfo[] }
  | { readonly type: 'question.request'; readonly question: EngineQuestion }
  | { readonly type: 'question.resolved'; readonly id: string; readonly value: string }
  | { readonly type: 'budget'; readonly gauge: BudgetGauge }
  /** The code map's indexing progress; null when it is ready or failed. Coalesced like deltas. */
  | { readonly type: 'indexing'; readonly progress: IndexingProgress | null }
  /** A save of the session failed (`error`), or worked again after one had (null). */
  | { readonly type: 'save'; readonly error: string | null }
  | {
      readonly type: 'notice';
      readonly blockId: string;
      readonly level: 'info' | 'warning' | 'error';
      readonly text: string;
      /** What the notice is about, for machine interfaces; absent for anything else. */
      readonly kind?: NoticeKind;
    }
  | { readonly type: 'turn.end'; readonly blockId: string; readonly status: TurnStatus; readonly detail?: string };

/** offload and summary: the context was reclaimed; retry: a request is being retried. */
export type NoticeKind = 'offload' | 'summary' | 'retry';

export type EngineEventType = EngineEvent['type'];

/** Events that are delivered at once; the rest wait for the next frame. */
export const FLUSH_AT_ONCE: ReadonlySet<EngineEventType> = new Set<EngineEventType>([
  'session.reset',
  'settings',
  'turn.start',
  'block.end',
  'approval.request',
  'approval.resolved',
  'commands',
  'question.request',
  'question.resolved',
  'turn.end',
]);
