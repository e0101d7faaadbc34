/**
 * The engine: owns one conversation and its store. Commands go in through plain methods
 * (submit, interrupt, answer, runSlash); everything the view needs comes out through the store.
 */
import type { Config, Preset, ToolKind } from '../config/types.js';
import type { ContextManager, OffloadStore } from '../context/types.js';
import type { ApprovalDecision, Approver } from '../policy/types.js';
import type { ImageData, Message, ModelClient, ThinkingEffort, ToolSchema, Usage } from '../providers/types.js';
import type { CommandRunner, FileAccess, ToolContext } from '../tools/types.js';
import type { ConversationState } from '../rewind/conversation-snapshot.js';
import { createApprovalQueue } from './approvals.js';
import type { ToolRunner } from './ports.js';
import { repairHistory } from './history.js';
import { blocksFromHistory } from './history-blocks.js';
import type { Engine, SessionState, SlashResult, TurnOutcome } from './state.js';
import { createEventStore, type EventStore } from './store.js';
import { runTurn } from './turn-loop.js';
import { addCost, addUsage, contextTokens, formatUsage, reclaimThreshold, subtractUsage, type CostFn } from './usage.js';
import { ZERO_USAGE } from '../providers/types.js';

/** The conversation being worked on: what a session file holds. */
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
}

/** Everything a session runs with. Slash commands replace parts of it between turns. */
export interface SessionRuntime {
  config: Config;
  preset: Preset;
  client: ModelClient;
  tools: ToolRunner;
  /** Built once per session: byte-identical on every request. */
  toolSchemas: readonly ToolSchema[];
  system: string;
  /** The code map text inside `system` ('' none yet); undefined when the code map is off. */
  codeMapText?: string;
  marker: string;
  context: ContextManager;
  offload: OffloadStore;
  thinking: boolean;
  thinkingEffort?: ThinkingEffort;
  markdown: boolean;
  readOnly: boolean;
  preApproved: ReadonlySet<ToolKind>;
  sessionGrants: Set<ToolKind>;
  session: SessionData;
}

export interface EngineServices {
  /** One-shot's prompt; without it, approvals wait for `answer` from the view. */
  readonly approver?: Approver;
  readonly costOf: CostFn;
  readonly describe: (name: string, input: unknown) => string;
  /** Saves the session (after every turn and at safe points mid-turn). */
  readonly persist?: (runtime: SessionRuntime) => Promise<void>;
  /** Whether `persist` writes the session to disk (false with --no-save); published as SessionState.saved. */
  readonly saves?: boolean;
  readonly slash?: (command: string, engine: LindwyrmEngine) => Promise<SlashResult>;
  readonly onFileChanged?: (path: string) => void;
  readonly log?: (line: string) => void;
  /** See ToolCallsEnv.takeDenialNote. */
  readonly takeDenialNote?: () => string | undefined;
  readonly onDispose?: () => Promise<void>;
  /** Rebuilds rt.system with fresh snapshots (the code map): only where the prefix changes anyway. */
  readonly refreshPrompt?: (runtime: SessionRuntime) => void;
  /** Checkpoints (src/rewind/): one begins before each prompt enters the history, and ends with the turn. */
  readonly checkpoints?: {
    begin(prompt: string, conversation: ConversationState): Promise<void>;
    end(): Promise<void>;
  };
  /** File and command access owned by someone else (an ACP client); see ToolContext. */
  readonly delegates?: ToolDelegates;
}

export interface ToolDelegates {
  readonly files?: FileAccess;
  readonly commands?: CommandRunner;
}

export interface LindwyrmEngine extends Engine {
  readonly store: EventStore;
  readonly runtime: SessionRuntime;
  /** Publishes header settings after a slash command changed the runtime. */
  refreshSettings(): void;
  /** Replaces the conversation (resume, /clear) and resets the view's state. */
  replaceSession(session: SessionData): void;
  busy(): boolean;
  /** Saves the session now (a safe point outside a turn, e.g. after /compact). */
  persist(): Promise<void>;
  /** The running turn's abort signal (a summary made mid-turn stops with it). */
  turnSignal(): AbortSignal | undefined;
  /**
   * The prompt prefix was rewritten (a summary, /clear): refresh what the system prompt snapshots.
   * Never call it otherwise: a changed system prompt re-charges the whole conversation.
   */
  refreshPrompt(): void;
  /** The conversation as a checkpoint keeps it. */
  conversation(): ConversationState;
  /**
   * Puts an earlier conversation back (a rewind): its history, the system prompt it was sent with
   * and its turn count, so the next request's prefix is what the provider cached. Saves the session.
   */
  restoreConversation(state: ConversationState): Promise<void>;
}

export function permissionSummary(rt: Pick<SessionRuntime, 'config' | 'readOnly'>): string {
  const p = rt.config.policy;
  const base = `read=${p.read} write=${p.write} delete=${p.delete} bash=${p.bash}`;
  return rt.readOnly ? `${base} (read-only)` : base;
}

export function initialState(rt: SessionRuntime, saved?: boolean): SessionState {
  const window = rt.preset.contextWindow;
  return {
    sessionId: rt.session.id,
    preset: { name: rt.preset.name, format: rt.preset.format, model: rt.preset.model },
    thinking: rt.thinking,
    ...(rt.thinkingEffort ? { thinkingEffort: rt.thinkingEffort } : {}),
    markdown: rt.markdown,
    projectRoot: rt.config.projectRoot,
    permissionSummary: permissionSummary(rt),
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: rt.session.usage,
    sessionCost: rt.session.cost,
    context: { usedTokens: 0, measured: false, window, threshold: reclaimThreshold(window) },
    ...(saved !== undefined ? { saved } : {}),
  };
}

export function createEngine(rt: SessionRuntime, services: EngineServices): LindwyrmEngine {
  const store = createEventStore(initialState(rt, services.saves));
  const approvals = createApprovalQueue(store.dispatch);
  let ids = 0;
  const newId = (prefix: string): string => `${prefix}-${++ids}`;
  let controller: AbortController | undefined;
  let running: Promise<TurnOutcome> | undefined;

  const persist = async (): Promise<void> => {
    try {
      await services.persist?.(rt);
    } catch (err) {
      const text = `Could not save the session: ${err instanceof Error ? err.message : String(err)}`;
      store.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text });
    }
  };

  const interrupt = (): void => {
    controller?.abort();
    approvals.cancelAll('quit');
  };

  const approve: Approver = async (request) => {
    const decision: ApprovalDecision = await approvals.request(request, services.approver);
    // q stops the whole turn, not just this call.
    if (decision === 'quit') interrupt();
    return decision;
  };

  const toolContext = (signal: AbortSignal, onOutput: (text: string) => void): ToolContext => ({
    config: rt.config,
    projectRoot: rt.config.projectRoot,
    sessionId: rt.session.id,
    signal,
    readOnly: rt.readOnly,
    preApproved: rt.preApproved,
    sessionGrants: rt.sessionGrants,
    approve,
    offload: rt.offload,
    onOutput,
    ...(services.onFileChanged ? { onFileChanged: services.onFileChanged } : {}),
    vision: rt.preset.vision,
    ...(services.delegates?.files ? { files: services.delegates.files } : {}),
    ...(services.delegates?.commands ? { commands: services.delegates.commands } : {}),
  });

  const onUsage = (usage: Usage): void => {
    const s = rt.session;
    s.usage = addUsage(s.usage, usage);
    s.cost = addCost(s.cost, services.costOf(usage, rt.preset.prices, rt.preset));
    if (!usage.unreported) rt.context.recordUsage(usage, s.history.length, s.history); // unreported zeros are no measurement
    store.dispatch({ type: 'usage', lastUsage: usage, sessionUsage: s.usage, sessionCost: s.cost });
    const window = rt.preset.contextWindow;
    const gauge = rt.context.gauge?.(s.history, rt.system) ?? {
      usedTokens: contextTokens(usage),
      measured: true,
      window,
      threshold: reclaimThreshold(window),
    };
    store.dispatch({ type: 'context', gauge });
  };

  const turn = async (text: string, signal: AbortSignal, images?: readonly ImageData[]): Promise<TurnOutcome> => {
    const s = rt.session;
    if (!s.firstPrompt) s.firstPrompt = text;
    const before = { usage: s.usage, cost: s.cost };
    // The checkpoint keeps the conversation as it is before the prompt joins it.
    await services.checkpoints?.begin(text, conversationOf(rt));
    store.dispatch({ type: 'turn.start', blockId: newId('user'), text });
    let outcome: TurnOutcome;
    try {
      outcome = await runTurn(
        {
          client: rt.client,
          tools: rt.tools,
          context: rt.context,
          history: s.history,
          system: rt.system,
          toolSchemas: rt.toolSchemas,
          maxTokens: rt.preset.maxTokens,
          thinking: rt.thinking,
          ...(rt.thinkingEffort ? { thinkingEffort: rt.thinkingEffort } : {}),
          maxToolSteps: rt.config.maxToolSteps,
          loopWindow: rt.config.loopDetectionWindow,
          signal,
          dispatch: store.dispatch,
          newId,
          toolContext,
          describe: services.describe,
          onUsage,
          safePoint: persist,
          afterSummary: () => {
            services.refreshPrompt?.(rt);
            return rt.system;
          },
          ...(services.log ? { log: services.log } : {}),
          ...(services.takeDenialNote ? { takeDenialNote: services.takeDenialNote } : {}),
        },
        text,
        images,
      );
    } catch (err) {
      // A bug below must not leave a tool call without a result in the saved history.
      s.history.splice(0, s.history.length, ...repairHistory(s.history));
      outcome = { status: 'error', result: '', detail: err instanceof Error ? err.message : String(err), steps: 0 };
    }
    s.turns++;
    const usage = subtractUsage(s.usage, before.usage);
    const cost = s.cost === null || usage.unreported ? null : s.cost - (before.cost ?? 0); // unreported usage: unknown, not smaller
    outcome = { ...outcome, usage, cost };
    services.log?.(`turn: ${outcome.status}, ${outcome.steps} steps, ${formatUsage(usage)}${cost === null ? '' : `, $${cost.toFixed(4)}`}`);
    await persist();
    await services.checkpoints?.end();
    store.dispatch({
      type: 'turn.end',
      blockId: newId('end'),
      status: outcome.status,
      ...(outcome.detail ? { detail: outcome.detail } : {}),
    });
    return outcome;
  };

  const engine: LindwyrmEngine = {
    store,
    runtime: rt,
    subscribe: store.subscribe,
    getSnapshot: store.getSnapshot,
    async submit(text, extra) {
      if (running) return { status: 'error', result: '', detail: 'A turn is already running.', steps: 0 };
      controller = new AbortController();
      running = turn(text, controller.signal, extra?.images);
      try {
        return await running;
      } finally {
        running = undefined;
        controller = undefined;
      }
    },
    interrupt,
    answer(id, decision) {
      approvals.answer(id, decision);
    },
    async runSlash(command) {
      if (!services.slash) return { output: 'Slash commands are not available here.', error: true };
      return services.slash(command, engine);
    },
    refreshSettings() {
      store.dispatch({
        type: 'settings',
        patch: {
          preset: { name: rt.preset.name, format: rt.preset.format, model: rt.preset.model },
          thinking: rt.thinking,
          thinkingEffort: rt.thinkingEffort,
          markdown: rt.markdown,
          permissionSummary: permissionSummary(rt),
          sessionId: rt.session.id,
        },
      });
    },
    replaceSession(session) {
      rt.session = { ...session, history: repairHistory(session.history) };
      rt.sessionGrants.clear();
      const blocks = blocksFromHistory(rt.session.history, services.describe);
      store.dispatch({ type: 'session.reset', state: { ...initialState(rt, services.saves), blocks } });
    },
    busy: () => running !== undefined,
    persist,
    conversation: () => conversationOf(rt),
    async restoreConversation(state) {
      const s = rt.session;
      s.history.splice(0, s.history.length, ...state.history);
      s.turns = state.turns;
      if (s.history.length === 0) s.firstPrompt = '';
      rt.system = state.system;
      rt.codeMapText = state.codeMapText;
      const blocks = blocksFromHistory(s.history, services.describe);
      store.dispatch({ type: 'session.reset', state: { ...initialState(rt, services.saves), blocks } });
      store.dispatch({ type: 'context', gauge: rt.context.gauge?.(s.history, rt.system) ?? initialState(rt).context });
      await persist();
    },
    refreshPrompt: () => services.refreshPrompt?.(rt),
    turnSignal: () => controller?.signal,
    async dispose() {
      interrupt();
      await running?.catch(() => undefined);
      await services.onDispose?.();
    },
  };
  return engine;
}

function conversationOf(rt: SessionRuntime): ConversationState {
  return {
    history: rt.session.history,
    system: rt.system,
    ...(rt.codeMapText !== undefined ? { codeMapText: rt.codeMapText } : {}),
    turns: rt.session.turns,
  };
}

export function newSessionData(id: string, now: Date = new Date()): SessionData {
  return { id, createdAt: now.toISOString(), firstPrompt: '', turns: 0, history: [], usage: ZERO_USAGE, cost: null };
}
