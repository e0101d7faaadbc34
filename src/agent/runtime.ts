/**
 * What a session runs with, as one immutable value. The session's operations (src/agent/session.ts)
 * build a new one whenever something changes and swap it in whole, so the parts that belong
 * together — client, tools, schemas, system prompt, context manager, offload store — can never be
 * seen half-updated, and nothing outside the engine assigns a field.
 */
import type { Config, Preset, ToolKind } from '../config/types.js';
import type { ContextManager, OffloadStore } from '../context/types.js';
import type { Message, ModelClient, ThinkingEffort, ToolSchema, Usage } from '../providers/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import type { SettingsPatch } from './events.js';
import { grantNote, type SessionGrants } from '../policy/session-grants.js';
import type { ToolRunner } from './ports.js';
import type { SessionState } from './state.js';
import type { UnfinishedTurn } from './unfinished-turn.js';
import { reclaimThreshold } from './usage.js';

/** The conversation being worked on: what a session file holds. The engine appends to it. */
export interface SessionData {
  id: string;
  createdAt: string;
  firstPrompt: string;
  turns: number;
  history: Message[];
  usage: Usage;
  cost: number | null;
  /** The marker its stubs and summaries carry (a saved session's); the runtime's when absent. */
  marker?: string;
  /**
   * A saved session's code map text as its system prompt carried it, and the preset and model it
   * was sent to: with the same ones a resume sends it again, so the prompt cache still hits.
   */
  savedCodeMap?: { readonly text: string; readonly preset: string; readonly model: string };
  /** Set while a turn runs (saved with it): a resume that finds it knows the run died mid-turn. */
  unfinishedTurn?: UnfinishedTurn;
}

/** Everything a session runs with. Replaced whole by the session's operations; never edited. */
export interface SessionRuntime {
  readonly config: Config;
  readonly preset: Preset;
  readonly client: ModelClient;
  readonly tools: ToolRunner;
  /** Built with the tools: byte-identical on every request until the tools change. */
  readonly toolSchemas: readonly ToolSchema[];
  readonly system: string;
  /** The code map text inside `system` ('' none yet); undefined when the code map is off. */
  readonly codeMapText?: string;
  readonly marker: string;
  readonly context: ContextManager;
  readonly offload: OffloadStore;
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly markdown: boolean;
  readonly readOnly: boolean;
  /** The proxy for model requests set with /proxy (false: direct), over every other setting. */
  readonly proxyOverride?: string | false;
  readonly preApproved: ReadonlySet<ToolKind>;
  /** What [a]lways answers granted in this conversation; the gate adds to it during a call. */
  readonly sessionGrants: SessionGrants;
  readonly session: SessionData;
}

/** What a request's prefix is made of: after a rewrite, the next requests of a turn use these. */
export type PromptPrefix = Pick<SessionRuntime, 'system' | 'tools' | 'toolSchemas'>;

export function newSessionData(id: string, now: Date = new Date()): SessionData {
  return { id, createdAt: now.toISOString(), firstPrompt: '', turns: 0, history: [], usage: ZERO_USAGE, cost: null };
}

/** 'read=allow write=confirm delete=confirm bash=confirm +2 always': the levels, and the grants in force. */
export function permissionSummary(rt: Pick<SessionRuntime, 'config' | 'readOnly'> & { readonly sessionGrants?: SessionGrants }): string {
  const p = rt.config.policy;
  const g = rt.sessionGrants;
  const note = (kind: ToolKind): string => (g === undefined || p[kind] !== 'confirm' ? '' : grantNote(g, kind));
  const base = `read=${p.read}${note('read')} write=${p.write}${note('write')} delete=${p.delete}${note('delete')} bash=${p.bash}${note('bash')}`;
  return rt.readOnly ? `${base} (read-only)` : base;
}

/** The header's facts, as the view shows them. */
export function settingsOf(rt: SessionRuntime): Required<Omit<SettingsPatch, 'thinkingEffort'>> & Pick<SettingsPatch, 'thinkingEffort'> {
  return {
    preset: { name: rt.preset.name, format: rt.preset.format, model: rt.preset.model },
    thinking: rt.thinking,
    thinkingEffort: rt.thinkingEffort,
    markdown: rt.markdown,
    permissionSummary: permissionSummary(rt),
    sessionId: rt.session.id,
  };
}

export function initialState(rt: SessionRuntime, saved?: boolean): SessionState {
  const window = rt.preset.contextWindow;
  const { thinkingEffort, ...settings } = settingsOf(rt);
  return {
    ...settings,
    ...(thinkingEffort ? { thinkingEffort } : {}),
    projectRoot: rt.config.projectRoot,
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: rt.session.usage,
    sessionCost: rt.session.cost,
    // The figure /context gives for this history (an estimate until a request measures it), never
    // a 0 placeholder: a new or resumed conversation's state carries its meter with it.
    context: rt.context.gauge?.(rt.session.history, rt.system) ?? { usedTokens: 0, measured: false, window, threshold: reclaimThreshold(window) },
    ...(saved !== undefined ? { saved } : {}),
  };
}
