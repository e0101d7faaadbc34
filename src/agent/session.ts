/**
 * The session: the engine's one runtime and the only operations that change it. Each operation
 * builds the next runtime whole — a new preset brings its client, tools, schemas, system prompt
 * and context manager together; another conversation brings its offload store, marker, prompt and
 * context manager together — swaps it in, and publishes what the view shows. Code outside the
 * engine reads `runtime`, never writes it.
 */
import type { Level, PathKind, PathRule, PolicySettings, Preset } from '../config/types.js';
import type { ContextManager } from '../context/types.js';
import { computeCost } from '../providers/cost.js';
import type { Message, ThinkingEffort, Usage } from '../providers/types.js';
import type { EngineEvent } from './events.js';
import { newSessionData, permissionSummary, settingsOf, type PromptPrefix, type SessionData, type SessionRuntime } from './runtime.js';
import type { SessionFiles } from './session-files.js';
import type { SessionParts } from './session-parts.js';
import { recordOf } from './session-record.js';
import type { SessionState, TranscriptBlock } from './state.js';
import { createSummarizer } from './summarizer.js';
import { newSessionMarker } from './system-prompt.js';
import { resumedSession } from './unfinished-turn.js';
import { addCost, addUsage, contextTokens, reclaimThreshold } from './usage.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { createSessionGrants, type GrantEntry, type SessionGrants } from '../policy/session-grants.js';
import type { ConversationState } from '../rewind/conversation-snapshot.js';

export interface Session {
  /** The runtime in use: read it, never assign to it. */
  readonly runtime: SessionRuntime;
  /** The transcript of the conversation as it was last opened: its history, with the notice of a turn a crash cut short. */
  openedBlocks(): TranscriptBlock[];
  /** Whether opening it recovered such a turn into the history (saved so at the next persist). */
  readonly recoveredTurn: boolean;
  /**
   * Another conversation: a saved one (its own marker and, if it still fits, its code map text) or
   * a new one. A saved one whose last run died mid-turn gets what had streamed back, and is saved so.
   */
  open(data: SessionData | 'new'): Promise<void>;
  /** Another preset: client, tools, schemas, prompt and context manager for it, together. Throws when it cannot be used. */
  switchPreset(name: string): Promise<Preset>;
  setThinking(on: boolean): void;
  setThinkingEffort(level: ThinkingEffort): void;
  setMarkdown(on: boolean): void;
  /** Read-only from now on (an editor's mode): the gate refuses writes, deletes and commands; the tools stay offered. */
  setReadOnly(on: boolean): void;
  /** The proxy for model requests from now on: a URL, false for direct, undefined for the configured one. */
  setProxy(setting: string | false | undefined): void;
  /** Takes back grant `index` (0-based, as /policy numbers them from 1); returns what it was. */
  revokeGrant(index: number): GrantEntry | undefined;
  /** A path rule for this session (also over the project's floor, so the user's own rule counts). */
  addPathRule(rule: { readonly path: string } & Partial<Record<PathKind, Level>>): void;
  /**
   * The prompt prefix was rewritten (a summary): the moment to refresh what the system prompt
   * snapshots (the code map) and to take in tool lists that changed since they were frozen (an
   * MCP server's), with a notice. Returns the prefix to send from now on. Never otherwise: a
   * changed prompt re-charges the whole conversation.
   */
  rewritePrompt(): PromptPrefix;
  /** Replaces the conversation's history (a /compact); the caller saves. */
  replaceHistory(messages: readonly Message[]): void;
  /**
   * Puts an earlier state of this conversation back (a rewind): its history, the system prompt it
   * was sent with and its turn count, so the next request starts with exactly what the provider
   * saw (and cached) then. Saves it.
   */
  restoreConversation(state: ConversationState): Promise<void>;
  /** Counts a request's usage in the session's totals (a turn's; `side` for a summary's). */
  recordUsage(usage: Usage, side: boolean): void;
  /** Publishes the meter's figure (an estimate before the first request). */
  publishContext(): void;
  /** Saves the conversation now (`durable: false`: see SessionStore.save). */
  persist(opts?: { readonly durable?: boolean }): Promise<void>;
  /** Readies a new conversation's first save while nothing waits for it (see SessionFiles.prepareSave). */
  prepareSave(): Promise<void>;
  /** Saves answer text `turn` streamed since the last save (only the new text is written); no turn: drops it. */
  persistStreamed(turn: SessionData['unfinishedTurn'], text: string | readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** What the session needs from the engine around it. */
export interface SessionHost {
  dispatch(event: EngineEvent): void;
  /** The view's whole state for a runtime, for a conversation that replaces the old one. */
  stateOf(runtime: SessionRuntime, blocks: SessionState['blocks']): SessionState;
  describe(name: string, input: unknown): string;
  /** The call's whole text (escaped) when its title clips it. */
  detail?(name: string, input: unknown): string | undefined;
  /** The running turn's abort signal (a summary made mid-turn stops with it). */
  turnSignal(): AbortSignal | undefined;
  /** Asked before every summary (PreCompact hooks): a reason not to make it, or undefined. */
  preCompact?(trigger: 'manual' | 'auto', instructions: string): Promise<string | undefined>;
  /** Another conversation was opened (a resumed one, or a new one after /clear). */
  opened?(resumed: boolean): void;
  /** Told of every request billed (a summary's too) with its cost, priced by the preset it went to: the budgets count it. */
  billed?(usage: Usage, cost: number | null): void;
}

/** The first runtime's parts that come from outside: the rest is built from them. */
export type SessionStart = Omit<SessionRuntime, 'tools' | 'toolSchemas' | 'system' | 'context' | 'sessionGrants'>;

function withRule(policy: PolicySettings, rule: PathRule): PolicySettings {
  const existing = policy.rules.find((r) => r.path === rule.path);
  const merged = existing ? { ...existing, ...rule } : rule;
  return { ...policy, rules: [...policy.rules.filter((r) => r.path !== rule.path), merged] };
}

export function createSession(start: SessionStart, parts: SessionParts, files: SessionFiles, host: SessionHost): Session {
  let rt: SessionRuntime;
  const summarizeNow = createSummarizer(() => ({
    client: rt.client,
    system: rt.system,
    toolSchemas: rt.toolSchemas,
    maxTokens: rt.preset.maxTokens,
    thinking: rt.thinking,
    ...(rt.thinkingEffort ? { thinkingEffort: rt.thinkingEffort } : {}),
    ...(host.turnSignal() ? { signal: host.turnSignal() } : {}),
    // A summary is billed like any request: it counts in the session's totals, not the window.
    onUsage: (u) => session.recordUsage(u, true),
  }));
  // A summary asked for outside a turn is the user's (/compact); one inside a turn is automatic.
  const summarize: typeof summarizeNow = async (older, instructions) => {
    const blocked = await host.preCompact?.(host.turnSignal() ? 'auto' : 'manual', instructions ?? '');
    if (blocked !== undefined) throw new Error(`a PreCompact hook blocked it: ${blocked}`);
    return summarizeNow(older, instructions);
  };
  /** The meter's figure: the context manager's, else (a manager without a gauge) the last request's. */
  const gauge = (measured?: Usage): void => {
    const window = rt.preset.contextWindow;
    const g =
      rt.context.gauge?.(rt.session.history, rt.system) ??
      (measured ? { usedTokens: contextTokens(measured), measured: true, window, threshold: reclaimThreshold(window) } : undefined);
    if (g) host.dispatch({ type: 'context', gauge: g });
  };
  /** Swaps the runtime in and tells the view: the header's settings, or a whole new conversation. */
  const swap = (next: SessionRuntime, change: 'settings' | 'context' | 'conversation'): void => {
    rt = next;
    if (change === 'conversation') {
      // The state carries the new conversation's meter (initialState asks the context manager).
      host.dispatch({ type: 'session.reset', state: host.stateOf(rt, session.openedBlocks()) });
      return;
    }
    // The meter first: the settings are published at once, and carry it along.
    if (change === 'context') gauge();
    host.dispatch({ type: 'settings', patch: settingsOf(rt) });
  };
  /** A conversation's grants: every change shows in the header at once (the gate adds them mid-call). */
  const newGrants = (): SessionGrants => {
    const grants = createSessionGrants();
    grants.onChange(() => {
      if (rt.sessionGrants === grants) host.dispatch({ type: 'settings', patch: { permissionSummary: permissionSummary(rt) } });
    });
    return grants;
  };
  let notices = 0;
  /** Changed tool lists, taken in where the prefix changes anyway: the tools to swap in, and the notice. */
  const toolChanges = (preset: SessionRuntime['preset']): { built?: ReturnType<SessionParts['tools']>; tell: () => void } => {
    const note = parts.toolChanges();
    if (note === undefined) return { tell: () => undefined };
    const tell = (): void => host.dispatch({ type: 'notice', blockId: `tools-changed-${++notices}`, level: 'info', text: note });
    return { built: parts.tools(preset), tell };
  };
  const contextFor = (next: Pick<SessionRuntime, 'offload' | 'preset' | 'marker' | 'toolSchemas'>): ContextManager =>
    parts.context(next.offload, next.preset, next.marker, next.toolSchemas, summarize);

  let opened: ReturnType<typeof resumedSession>;
  /** A conversation made ready to go on with: history repaired, a turn a crash cut short recovered. */
  const ready = (data: SessionData): SessionData => {
    opened = resumedSession(data);
    return opened.session;
  };
  const built = parts.tools(start.preset);
  rt = {
    ...start,
    ...built,
    system: parts.system(start.preset, start.marker, start.codeMapText),
    context: contextFor({ ...start, ...built }),
    sessionGrants: newGrants(),
    session: ready(start.session),
  };

  const session: Session = {
    get runtime() {
      return rt;
    },
    openedBlocks: () => opened.blocks(host.describe, host.detail),
    get recoveredTurn() {
      return opened.recovered;
    },
    async open(data) {
      const resumed = data !== 'new';
      const id = resumed ? data.id : files.newId();
      const offload = await files.switchTo(id, resumed);
      // A saved conversation brings back its own marker; a new one keeps the current marker.
      const marker = resumed ? (data.marker ?? newSessionMarker()) : rt.marker;
      // The prefix changes here anyway: the moment to refresh the code map in the prompt, unless
      // the saved conversation's own prompt can be sent again as its cache knows it.
      const codeMapText = (resumed ? parts.savedMapText(data, rt.preset) : undefined) ?? parts.mapText(rt.preset);
      const conversation = resumed ? { ...data, marker } : { ...newSessionData(id), marker };
      const changes = toolChanges(rt.preset);
      const { codeMapText: _old, ...rest } = rt;
      swap(
        {
          ...rest,
          ...changes.built,
          ...(codeMapText !== undefined ? { codeMapText } : {}),
          marker,
          system: parts.system(rt.preset, marker, codeMapText),
          offload,
          context: contextFor({ ...rt, ...changes.built, offload, marker }),
          sessionGrants: newGrants(),
          session: ready(conversation),
        },
        'conversation',
      );
      // The recovered history replaces the note on disk now, not only after the next turn.
      if (opened.recovered) await session.persist();
      // After the reset, so the notice is in the new transcript.
      changes.tell();
      host.opened?.(resumed);
    },
    async switchPreset(name) {
      const { preset, client } = await parts.preset(name, rt.proxyOverride);
      // Another preset rewrites the whole prefix: changed tool lists come along (built below).
      const changes = toolChanges(preset);
      const built = changes.built ?? parts.tools(preset);
      const codeMapText = parts.mapText(preset);
      const old = await rt.context.stats(rt.session.history, rt.system).catch(ignoreError('carry the context totals over to the new preset'));
      const context = contextFor({ ...rt, ...built, preset });
      // The session's totals for /context carry over; only the window and thresholds change.
      if (old) {
        const cacheRead = old.cacheReadTokens;
        context.recordSideUsage?.({ input: old.inputTokensTotal - cacheRead, cacheRead, cacheWrite: 0, output: old.outputTokens });
      }
      const { codeMapText: _old, thinkingEffort: _effort, ...rest } = rt;
      swap(
        {
          ...rest,
          preset,
          client,
          ...built,
          ...(codeMapText !== undefined ? { codeMapText } : {}),
          system: parts.system(preset, rt.marker, codeMapText),
          context,
          ...parts.thinkingFor(preset),
        },
        'context',
      );
      changes.tell();
      return preset;
    },
    setThinking: (on) => swap({ ...rt, thinking: on }, 'settings'),
    setThinkingEffort: (level) => swap({ ...rt, thinkingEffort: level }, 'settings'),
    setMarkdown: (on) => swap({ ...rt, markdown: on }, 'settings'),
    setReadOnly: (on) => swap({ ...rt, readOnly: on }, 'settings'),
    setProxy(setting) {
      const { proxyOverride: _old, ...rest } = rt;
      swap({ ...rest, ...(setting !== undefined ? { proxyOverride: setting } : {}), client: parts.client(rt.preset, setting) }, 'settings');
    },
    revokeGrant: (index) => rt.sessionGrants.revoke(index),
    addPathRule(rule) {
      const c = rt.config;
      // The user's own rule applies to their floor too, or an untrusted project's floor would veto it.
      swap({ ...rt, config: { ...c, policy: withRule(c.policy, rule), ...(c.policyFloor ? { policyFloor: withRule(c.policyFloor, rule) } : {}) } }, 'settings');
    },
    rewritePrompt() {
      const changes = toolChanges(rt.preset);
      const codeMapText = parts.mapText(rt.preset);
      const { codeMapText: _old, ...rest } = rt;
      // The context manager stays: it holds this conversation's measured usage and offloads.
      rt = { ...rest, ...changes.built, ...(codeMapText !== undefined ? { codeMapText } : {}), system: parts.system(rt.preset, rt.marker, codeMapText) };
      changes.tell();
      return { system: rt.system, tools: rt.tools, toolSchemas: rt.toolSchemas };
    },
    replaceHistory(messages) {
      rt.session.history.splice(0, rt.session.history.length, ...messages);
    },
    async restoreConversation(state) {
      const { codeMapText: _old, ...rest } = rt;
      const history = [...state.history];
      // An earlier state is a finished one: no turn of it to recover, and its transcript is its history.
      const { unfinishedTurn: _none, ...now } = rt.session;
      const conversation = { ...now, history, turns: state.turns, ...(history.length === 0 ? { firstPrompt: '' } : {}) };
      swap({ ...rest, ...(state.codeMapText !== undefined ? { codeMapText: state.codeMapText } : {}), system: state.system, session: ready(conversation) }, 'conversation');
      await session.persist();
    },
    recordUsage(usage, side) {
      const s = rt.session;
      const cost = computeCost(usage, rt.preset.prices, rt.preset);
      s.usage = addUsage(s.usage, usage);
      s.cost = addCost(s.cost, cost);
      host.billed?.(usage, cost);
      // Zeros a server never reported are no measurement: they count in the totals only.
      if (!usage.unreported) {
        if (side) rt.context.recordSideUsage?.(usage);
        else rt.context.recordUsage(usage, s.history.length, s.history);
      }
      host.dispatch({ type: 'usage', lastUsage: usage, sessionUsage: s.usage, sessionCost: s.cost });
      if (!side) gauge(usage);
    },
    publishContext: () => gauge(),
    persist: (opts) => files.save((refs) => recordOf(rt, refs), opts),
    persistStreamed: (turn, text) => files.saveStreamed(turn, text),
    prepareSave: () => files.prepareSave(),
    close: () => files.close(),
  };
  return session;
}
