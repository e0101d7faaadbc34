/**
 * The engine: owns one session and its store. Commands go in through plain methods (submit,
 * interrupt, answer, runSlash); everything the view needs comes out through the store. The
 * session's runtime changes only through its own operations (src/agent/session.ts).
 */
import type { CliOptions } from '../cli/options.js';
import { answerOf, type Approver } from '../policy/types.js';
import { appendUserRule } from '../config/save-rule.js';
import type { SessionStore } from '../sessions/types.js';
import type { SlashRegistry } from '../slash/registry.js';
import { describeToolCall, describeToolDetail } from '../tools/describe-call.js';
import type { McpView } from '../mcp/session-mcp.js';
import type { ImageData } from '../providers/types.js';
import type { CommandRunner, FileAccess, ToolContext } from '../tools/types.js';
import { createBuildFileWatch } from '../policy/build-file-watch.js';
import type { CommandSandbox } from '../sandbox/types.js';
import { createApprovalQueue } from './approvals.js';
import type { QuestionInput } from './questions.js';
import { createSessionGuards } from './session-guards.js';
import { repairHistory } from './history.js';
import { initialState, type SessionRuntime } from './runtime.js';
import type { Session, SessionHost } from './session.js';
import type { Engine, EngineQuestion, TurnOutcome } from './state.js';
import { createEventStore, type EventStore } from './store.js';
import { createTurnJournal } from './turn-journal.js';
import { runTurn } from './turn-loop.js';
import { attachMentions, isOnlyAttachments } from './mentions.js';
import { runUserShell } from './user-shell.js';
import { formatUsage, subtractUsage } from './usage.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { holdForRequest, requestDispatched } from '../io/request-gate.js';
import type { Hooks } from '../extensions/hooks.js';
import { conversationOf, type ConversationState } from '../rewind/conversation-snapshot.js';
import type { CheckpointWrappers } from '../rewind/checkpointed-tools.js';

export type { SessionData, SessionRuntime } from './runtime.js';
export { initialState, newSessionData, permissionSummary } from './runtime.js';

export interface EngineServices {
  /** One-shot's prompt; without it, approvals wait for `answer` from the view. */
  readonly approver?: Approver;
  /** A call's title for the transcript; default the tools' own (ToolRunner.describe). */
  readonly describe?: (name: string, input: unknown) => string;
  /** Whether the session is written to disk (false with --no-save); published as SessionState.saved. */
  readonly saves?: boolean;
  readonly cli: CliOptions;
  readonly store?: SessionStore;
  readonly slash: SlashRegistry;
  /** lindwyrm's own data folder (sessions, exports): for the commands that write there. */
  readonly dataDir: string;
  readonly onFileChanged?: (path: string) => void;
  readonly log?: (line: string) => void;
  /** See ToolCallsEnv.takeDenialNote. */
  readonly takeDenialNote?: () => string | undefined;
  readonly onDispose?: () => Promise<void>;
  /** File and command access owned by someone else (an ACP client); see ToolContext. */
  readonly delegates?: ToolDelegates;
  /** The session's hooks (src/extensions/hooks.ts); absent or empty: none run. */
  readonly hooks?: Hooks;
  /**
   * Answers engine questions (a budget reached, a summary ahead, a model switch) where no view
   * does: one-shot and the protocol modes take each question's fallback. Absent: the view answers
   * through `answerQuestion`.
   */
  readonly answerQuestion?: (question: EngineQuestion) => string;
  /** The session's MCP servers, when it has any (src/mcp/). */
  readonly mcp?: McpView;
  /** The command sandbox bash runs in (and the `!cmd` passthrough, hooks and MCP servers can). */
  readonly sandbox?: CommandSandbox;
  /** Checkpoints (src/rewind/): one begins before each prompt enters the history, and ends with the turn. */
  readonly checkpoints?: TurnCheckpoints;
  /** Lines other parts add to /context about what they hold (what rewind keeps). */
  readonly contextNotes?: () => Promise<readonly string[]>;
  /** A model reply began, so its request is out: start-up work held back from its way may run (sweeps). */
  readonly replyStarted?: () => void;
}

export interface TurnCheckpoints {
  /** Not awaited before the request (the wrappers wait for it); `conversation` is the one before the prompt. */
  beginTurn(prompt: string, conversation: ConversationState): Promise<void>;
  endTurn(): Promise<void>;
  /** The model's reply began: the first read of the project (once per project) may start, out of the request's way. */
  replyStarted?(): void;
  /** The scan around anything that may change files (see LindwyrmEngine.aroundCommand). */
  readonly wrappers: Pick<CheckpointWrappers, 'aroundCommand'>;
}

export interface ToolDelegates { readonly files?: FileAccess; readonly commands?: CommandRunner }

export interface LindwyrmEngine extends Engine {
  readonly store: EventStore;
  /** The session's runtime in use (read only: it changes through `session`'s operations). */
  readonly runtime: SessionRuntime;
  readonly session: Session;
  /** The slash commands; later parts register theirs here. */
  readonly slash: SlashRegistry;
  /** Whether a turn runs: the one answer, which the store's `busy` follows. */
  busy(): boolean;
  /** Asks the user (the view), or takes the question's fallback where nothing can answer. */
  ask(question: QuestionInput): Promise<string>;
  /** Why the dollar budgets cannot be checked with the preset in use (no prices); undefined when they can. */
  budgetPriceWarning(): string | undefined;
  /** The session's MCP servers, to read (status, resources); absent when none are configured. */
  readonly mcp?: McpView;
  /** The session's command sandbox (src/sandbox/); absent in bare test sessions. */
  readonly sandbox?: CommandSandbox;
  /**
   * Runs something that may change files outside the tools (a `!command`, a hook) inside the
   * current checkpoint, or a checkpoint of its own between turns, so /rewind can undo it.
   */
  aroundCommand<T>(label: string, run: () => Promise<T>): Promise<T>;
}

/** The engine around the session `open` makes (it is handed the host it publishes through). */
export function createEngine(open: (host: SessionHost) => Session, services: EngineServices): LindwyrmEngine {
  const slash = services.slash;
  let ids = 0;
  const newId = (prefix: string): string => `${prefix}-${++ids}`;
  let controller: AbortController | undefined;
  let running: Promise<TurnOutcome> | undefined;
  let stopReason: string | undefined;
  // `events` is made right below; the session publishes only when an operation runs, never while it is made.
  const dispatch: SessionHost['dispatch'] = (event) => events.dispatch(event);
  const describe = (name: string, input: unknown): string =>
    services.describe ? services.describe(name, input) : (session.runtime.tools.describe?.(name, input) ?? describeToolCall(name, input));
  const detail = (name: string, input: unknown): string | undefined =>
    session.runtime.tools.detail ? session.runtime.tools.detail(name, input) : describeToolDetail(name, input);
  const stateOf: SessionHost['stateOf'] = (rt, blocks) => ({ ...initialState(rt, services.saves), commands: slash.list(), blocks });
  const hooks = services.hooks;
  // SessionStart hooks run beside the start (the first frame does not wait); the first prompt waits for them.
  let sessionStarted: Promise<void> = Promise.resolve();
  const startHooks = (source: 'startup' | 'resume' | 'clear'): void => {
    if (hooks?.has('SessionStart')) sessionStarted = hooks.sessionStart(source).catch(ignoreError('run the SessionStart hooks'));
  };
  const session = open({
    dispatch,
    stateOf,
    describe,
    detail,
    turnSignal: () => controller?.signal,
    ...(hooks ? { preCompact: (trigger: 'manual' | 'auto', instructions: string) => hooks.preCompact(trigger, instructions) } : {}),
    opened: (resumed) => startHooks(resumed ? 'resume' : 'clear'),
    billed: (usage, cost) => guards.billed(usage, cost),
  });
  // The conversation as it opened: its history's blocks, and the notice of a turn a crash cut short.
  const events = createEventStore(stateOf(session.runtime, session.openedBlocks()));
  const approvals = createApprovalQueue(events.dispatch);
  const guards = createSessionGuards({
    runtime: () => session.runtime,
    dispatch: events.dispatch,
    newId,
    ...(services.answerQuestion ? { answerQuestion: services.answerQuestion } : {}),
  });
  const questions = guards.questions;
  slash.onChange(() => events.dispatch({ type: 'commands', commands: slash.list() }));

  // Why the last save failed; undefined while saves work. A turn's outcome says whether it was saved.
  let saveError: string | undefined;
  const persist = async (opts?: { readonly durable?: boolean }): Promise<void> => {
    try {
      await session.persist(opts);
      if (saveError !== undefined) events.dispatch({ type: 'save', error: null });
      saveError = undefined;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const text = `Could not save the session: ${message}`;
      // Once per failure, not at every step of a turn that keeps failing to save.
      if (saveError !== message) events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text });
      saveError = message;
      events.dispatch({ type: 'save', error: text });
    }
  };
  // Streamed text is saved as it arrives, so a kill mid-answer loses at most a second of it.
  const journal = createTurnJournal(() => session.runtime.session, events.dispatch, () => session.persist(), (turn, text) => session.persistStreamed(turn, text), services.log);
  /** A safe point: the history holds everything so far, so no streamed text is pending. */
  const safePoint = async (opts?: { readonly durable?: boolean }): Promise<void> => {
    journal.settled();
    // The reply and tool results are in the history now: the meter counts them, as /context does.
    session.publishContext();
    await persist(opts);
  };

  const interrupt = (reason?: string): void => {
    if (controller && !controller.signal.aborted) stopReason = reason;
    controller?.abort();
    approvals.cancelAll('quit');
    questions.cancelAll();
  };

  const approve: Approver = async (request) => {
    const answer = await approvals.request(request, services.approver);
    // q stops the whole turn, not just this call.
    if (answerOf(answer).decision === 'quit') interrupt();
    return answer;
  };

  /** [s]ave at an approval: the block goes to the user config, and the transcript says how that went. */
  const saveRule = async (block: string): Promise<void> => {
    const { userConfigFile, projectRoot } = session.runtime.config;
    if (userConfigFile === undefined) return;
    try {
      const file = await appendUserRule(userConfigFile, block, projectRoot);
      events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'info', text: `Saved to ${file}; it applies from the next session on too:\n${block.trimEnd()}` });
    } catch (err) {
      const text = `The rule was not saved (it holds for this session only): ${err instanceof Error ? err.message : String(err)}`;
      events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text });
    }
  };

  // Build files the agent changed, for the allowlisted commands that run them (one per engine).
  const buildFiles = createBuildFileWatch(session.runtime.config.projectRoot);
  const fileChanged = (path: string): void => {
    buildFiles.noteChanged(path);
    services.onFileChanged?.(path);
  };

  // Read at every call: a rule added with /perm applies to the next call, even mid-turn.
  const toolContext = (signal: AbortSignal, onOutput: (text: string) => void): ToolContext => {
    const rt = session.runtime;
    return {
      config: rt.config,
      projectRoot: rt.config.projectRoot,
      sessionId: rt.session.id,
      signal,
      readOnly: rt.readOnly,
      preApproved: rt.preApproved,
      sessionGrants: rt.sessionGrants,
      approve,
      ...(rt.config.userConfigFile !== undefined && services.saves !== false ? { saveRule } : {}),
      offload: rt.offload,
      onOutput,
      onFileChanged: fileChanged,
      buildFiles,
      vision: rt.preset.vision,
      ...(services.delegates?.files ? { files: services.delegates.files } : {}),
      ...(services.delegates?.commands ? { commands: services.delegates.commands } : {}),
      ...(services.sandbox ? { sandbox: services.sandbox } : {}),
    };
  };

  /** One turn, up to and including saving it; the caller announces its end. */
  const turn = async (text: string, signal: AbortSignal, images?: readonly ImageData[], shell?: boolean): Promise<TurnOutcome> => {
    const rt = session.runtime;
    const s = rt.session;
    await sessionStarted;
    const submitted = hooks ? await hooks.userPromptSubmit(text, signal) : { context: [] };
    if (submitted.blocked !== undefined) {
      // Not sent, not kept: the reason is the user's to read (the model never saw the prompt).
      events.dispatch({ type: 'turn.start', blockId: newId('user'), text });
      const detail = `Not sent: a UserPromptSubmit hook blocked this prompt: ${submitted.blocked}`;
      events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text: detail });
      return { status: 'error', result: '', detail, steps: 0 };
    }
    const promptContext = [...(hooks?.takeStartContext() ?? []), ...submitted.context];
    if (!s.firstPrompt) s.firstPrompt = text;
    const before = { usage: s.usage, cost: s.cost };
    journal.begin();
    // The checkpoint keeps the conversation as it is before the prompt joins it. Its writes run
    // beside the request rather than before it; anything that changes files waits for them.
    const checkpoint = services.checkpoints?.beginTurn(shell ? `!${text}` : text, conversationOf(rt));
    events.dispatch({ type: 'turn.start', blockId: newId('user'), text: shell ? `!${text}` : text });
    guards.startTurn();
    let outcome: TurnOutcome;
    const calls = { tools: rt.tools, context: rt.context, signal, dispatch: journal.dispatch, newId, toolContext, describe, ...(services.log ? { log: services.log } : {}) };
    try {
      const attached = shell ? undefined : await attachMentions(text, { ...calls, projectRoot: rt.config.projectRoot });
      if (attached) s.history.push(attached);
      outcome = shell ? await runUserShell(text, { ...calls, history: s.history }) : await runTurn(
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
          maxCallsPerReply: rt.config.maxCallsPerReply,
          signal,
          dispatch: journal.dispatch,
          newId,
          toolContext,
          describe,
          onUsage: (usage) => session.recordUsage(usage, false),
          safePoint,
          onReplyStart: () => (services.checkpoints?.replyStarted?.(), services.replyStarted?.()),
          stopReason: () => stopReason,
          afterSummary: () => session.rewritePrompt(),
          ...(guards.budgetActive ? { beforeStep: guards.turn.beforeStep } : {}),
          confirmSummary: guards.turn.confirmSummary,
          ...(services.log ? { log: services.log } : {}),
          ...(services.takeDenialNote ? { takeDenialNote: services.takeDenialNote } : {}),
          ...(hooks ? { hooks, onStop: (active: boolean, last: string) => hooks.stop(active, last, signal) } : {}),
          ...(promptContext.length ? { promptContext } : {}),
        },
        text,
        images,
      );
      // A prompt taken back (its request failed) takes what it attached with it.
      if (attached && isOnlyAttachments(s.history.at(-1))) s.history.pop();
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
    session.publishContext();
    services.log?.(`turn: ${outcome.status}, ${outcome.steps} steps, ${formatUsage(usage)}${cost === null ? '' : `, $${cost.toFixed(4)}`}`);
    await persist();
    await checkpoint;
    await services.checkpoints?.endTurn();
    return services.saves ? { ...outcome, saved: saveError === undefined } : outcome;
  };

  const engine: LindwyrmEngine = {
    store: events,
    get runtime() {
      return session.runtime;
    },
    session,
    slash,
    ...(services.mcp ? { mcp: services.mcp } : {}),
    ...(services.sandbox ? { sandbox: services.sandbox } : {}),
    subscribe: events.subscribe,
    getSnapshot: events.getSnapshot,
    async submit(text, extra) {
      if (running) return { status: 'error', result: '', detail: 'A turn is already running.', steps: 0 };
      controller = new AbortController();
      stopReason = undefined;
      // The view hears of the prompt once its request is out (src/io/request-gate.ts), from the keypress on.
      if (!extra?.shell) holdForRequest();
      events.holdNotifications();
      running = turn(text, controller.signal, extra?.images, extra?.shell).finally(requestDispatched);
      let outcome: TurnOutcome;
      try {
        outcome = await running;
      } finally {
        running = undefined;
        controller = undefined;
      }
      // Not busy any more before anyone hears the turn ended: a prompt sent the moment the view
      // sees it (text typed ahead) is taken, not refused as "already running".
      events.dispatch({ type: 'turn.end', blockId: newId('end'), status: outcome.status, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      return outcome;
    },
    interrupt,
    answer(id, decision, note) {
      approvals.answer(id, decision, note);
    },
    answerQuestion(id, value) {
      questions.answer(id, value);
    },
    mentionResources: () => (services.mcp?.resources() ?? []).map((r) => `${r.server}:${r.uri}`),
    ask: (q) => questions.ask(q),
    budgetPriceWarning: () => guards.priceWarning(),
    runSlash: (command) =>
      slash.run(command, {
        session,
        cli: services.cli,
        ...(services.store ? { store: services.store } : {}),
        busy: () => running !== undefined,
        state: () => events.current(),
        commands: () => slash.list(),
        dataDir: services.dataDir,
        // Something the user asked outside a turn: nothing to interrupt it but the approval's q.
        toolContext: () => toolContext(new AbortController().signal, () => undefined),
        ask: (q) => questions.ask(q),
        budgetPriceWarning: () => engine.budgetPriceWarning(),
        ...(services.contextNotes ? { contextNotes: services.contextNotes } : {}),
      }),
    busy: () => running !== undefined,
    aroundCommand: (label, run) => (services.checkpoints ? services.checkpoints.wrappers.aroundCommand(label, run) : run()),
    async dispose() {
      interrupt();
      // A turn reports its own failure in its outcome; what is left is to shut down.
      await running?.catch(ignoreError('finish the turn'));
      await services.onDispose?.();
    },
  };
  // The meter has a figure from the start: an estimate of the prompt (and a resumed history).
  session.publishContext();
  // And the budgets from the start: the status line shows them before the first turn spends.
  guards.turn.publishBudget();
  const unpriced = engine.budgetPriceWarning();
  if (unpriced) events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text: unpriced });
  // A turn a crash cut short was recovered into the history: that replaces the note on disk now.
  if (session.recoveredTurn) void persist();
  startHooks(session.runtime.session.turns > 0 ? 'resume' : 'startup');
  return engine;
}
