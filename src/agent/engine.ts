/**
 * The engine: owns one conversation and its store. Commands go in through plain methods
 * (submit, interrupt, answer, runSlash); everything the view needs comes out through the store.
 */
import type { Config, Preset, ToolKind } from '../config/types.js';
import type { ContextManager, OffloadStore } from '../context/types.js';
import type { ApprovalDecision, Approver } from '../policy/types.js';
import type { ImageData, Message, ModelClient, ThinkingEffort, ToolSchema, Usage } from '../providers/types.js';
import type { CommandRunner, FileAccess, ToolContext } from '../tools/types.js';
import { createApprovalQueue } from './approvals.js';
import type { ToolRunner } from './ports.js';
import { repairHistory } from './history.js';
import type { Engine, SlashResult, TurnOutcome } from './state.js';
import { initialState, permissionSummary } from './initial-state.js';
import { createEventStore, type EventStore } from './store.js';
import { runTurn } from './turn-loop.js';
import { resumedSession, type UnfinishedTurn } from './unfinished-turn.js';
import { createTurnJournal } from './turn-journal.js';
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
  /** Set while a turn runs (saved with it): a resume that finds it knows the run died mid-turn. */
  unfinishedTurn?: UnfinishedTurn;
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
}

export { initialState, permissionSummary } from './initial-state.js';

export function createEngine(rt: SessionRuntime, services: EngineServices): LindwyrmEngine {
  const store = createEventStore(initialState(rt, services.saves));
  const approvals = createApprovalQueue(store.dispatch);
  let ids = 0;
  const newId = (prefix: string): string => `${prefix}-${++ids}`;
  let controller: AbortController | undefined;
  let running: Promise<TurnOutcome> | undefined;
  let stopReason: string | undefined;

  const persist = async (): Promise<void> => {
    try {
      await services.persist?.(rt);
    } catch (err) {
      const text = `Could not save the session: ${err instanceof Error ? err.message : String(err)}`;
      store.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text });
    }
  };
  const journal = createTurnJournal(() => rt.session, store.dispatch, async () => services.persist?.(rt), services.log);
  /** The meter's figure for the history as it is now (the one /context gives); `usage` when there is no manager's figure. */
  const publishGauge = (usage?: Usage): void => {
    const window = rt.preset.contextWindow;
    const fallback = usage ? { usedTokens: contextTokens(usage), measured: true, window, threshold: reclaimThreshold(window) } : undefined;
    const gauge = rt.context.gauge?.(rt.session.history, rt.system) ?? fallback;
    if (gauge) store.dispatch({ type: 'context', gauge });
  };
  /** A safe point: the history holds everything so far, so no streamed text is pending. */
  const safePoint = async (): Promise<void> => {
    journal.settled();
    // The reply and tool results are in the history now: the meter counts them, as /context does.
    publishGauge();
    await persist();
  };

  const interrupt = (reason?: string): void => {
    if (controller && !controller.signal.aborted) stopReason = reason;
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
    publishGauge(usage);
  };

  const turn = async (text: string, signal: AbortSignal, images?: readonly ImageData[]): Promise<TurnOutcome> => {
    const s = rt.session;
    if (!s.firstPrompt) s.firstPrompt = text;
    const before = { usage: s.usage, cost: s.cost };
    journal.begin();
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
          dispatch: journal.dispatch,
          newId,
          toolContext,
          describe: services.describe,
          onUsage,
          safePoint,
          stopReason: () => stopReason,
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
    journal.end();
    // A first prompt that was taken back (its request failed) is not the session's first prompt.
    if (s.history.length === 0) s.firstPrompt = '';
    const usage = subtractUsage(s.usage, before.usage);
    const cost = s.cost === null || usage.unreported ? null : s.cost - (before.cost ?? 0); // unreported usage: unknown, not smaller
    outcome = { ...outcome, usage, cost };
    publishGauge();
    services.log?.(`turn: ${outcome.status}, ${outcome.steps} steps, ${formatUsage(usage)}${cost === null ? '' : `, $${cost.toFixed(4)}`}`);
    await persist();
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
      stopReason = undefined;
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
      const resumed = resumedSession(session, services.describe);
      rt.session = resumed.session;
      rt.sessionGrants.clear();
      const blocks = resumed.blocks;
      // The meter shows the new conversation's figure (initialState asks the context manager), not 0.
      store.dispatch({ type: 'session.reset', state: { ...initialState(rt, services.saves), blocks } });
      // The recovered history replaces the note on disk now, not only after the next turn.
      if (resumed.recovered) void persist();
    },
    busy: () => running !== undefined,
    persist,
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

export function newSessionData(id: string, now: Date = new Date()): SessionData {
  return { id, createdAt: now.toISOString(), firstPrompt: '', turns: 0, history: [], usage: ZERO_USAGE, cost: null };
}
