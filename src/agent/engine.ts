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
import type { CommandSandbox } from '../sandbox/types.js';
import { createApprovalQueue } from './approvals.js';
import { repairHistory } from './history.js';
import { initialState, type SessionRuntime } from './runtime.js';
import type { Session, SessionHost } from './session.js';
import type { Engine, TurnOutcome } from './state.js';
import { createEventStore, type EventStore } from './store.js';
import { createTurnJournal } from './turn-journal.js';
import { runTurn } from './turn-loop.js';
import { formatUsage, subtractUsage } from './usage.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

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
  /** The session's MCP servers, when it has any (src/mcp/). */
  readonly mcp?: McpView;
  /** The command sandbox bash runs in (and the `!cmd` passthrough, hooks and MCP servers can). */
  readonly sandbox?: CommandSandbox;
}

export interface ToolDelegates {
  readonly files?: FileAccess;
  readonly commands?: CommandRunner;
}

export interface LindwyrmEngine extends Engine {
  readonly store: EventStore;
  /** The session's runtime in use (read only: it changes through `session`'s operations). */
  readonly runtime: SessionRuntime;
  readonly session: Session;
  /** The slash commands; later parts register theirs here. */
  readonly slash: SlashRegistry;
  /** Whether a turn runs: the one answer, which the store's `busy` follows. */
  busy(): boolean;
  /** The session's MCP servers, to read (status, resources); absent when none are configured. */
  readonly mcp?: McpView;
  /** The session's command sandbox (src/sandbox/); absent in bare test sessions. */
  readonly sandbox?: CommandSandbox;
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
  const session = open({ dispatch, stateOf, describe, detail, turnSignal: () => controller?.signal });
  // The conversation as it opened: its history's blocks, and the notice of a turn a crash cut short.
  const events = createEventStore(stateOf(session.runtime, session.openedBlocks()));
  const approvals = createApprovalQueue(events.dispatch);
  slash.onChange(() => events.dispatch({ type: 'commands', commands: slash.list() }));

  const persist = async (): Promise<void> => {
    try {
      await session.persist();
    } catch (err) {
      const text = `Could not save the session: ${err instanceof Error ? err.message : String(err)}`;
      events.dispatch({ type: 'notice', blockId: newId('notice'), level: 'warning', text });
    }
  };
  // Streamed text is saved as it arrives, so a kill mid-answer loses at most a second of it.
  const journal = createTurnJournal(() => session.runtime.session, events.dispatch, () => session.persist(), services.log);
  /** A safe point: the history holds everything so far, so no streamed text is pending. */
  const safePoint = async (): Promise<void> => {
    journal.settled();
    // The reply and tool results are in the history now: the meter counts them, as /context does.
    session.publishContext();
    await persist();
  };

  const interrupt = (reason?: string): void => {
    if (controller && !controller.signal.aborted) stopReason = reason;
    controller?.abort();
    approvals.cancelAll('quit');
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
      ...(services.onFileChanged ? { onFileChanged: services.onFileChanged } : {}),
      vision: rt.preset.vision,
      ...(services.delegates?.files ? { files: services.delegates.files } : {}),
      ...(services.delegates?.commands ? { commands: services.delegates.commands } : {}),
      ...(services.sandbox ? { sandbox: services.sandbox } : {}),
    };
  };

  /** One turn, up to and including saving it; the caller announces its end. */
  const turn = async (text: string, signal: AbortSignal, images?: readonly ImageData[]): Promise<TurnOutcome> => {
    const rt = session.runtime;
    const s = rt.session;
    if (!s.firstPrompt) s.firstPrompt = text;
    const before = { usage: s.usage, cost: s.cost };
    journal.begin();
    events.dispatch({ type: 'turn.start', blockId: newId('user'), text });
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
          describe,
          onUsage: (usage) => session.recordUsage(usage, false),
          safePoint,
          stopReason: () => stopReason,
          afterSummary: () => session.rewritePrompt(),
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
    session.publishContext();
    services.log?.(`turn: ${outcome.status}, ${outcome.steps} steps, ${formatUsage(usage)}${cost === null ? '' : `, $${cost.toFixed(4)}`}`);
    await persist();
    return outcome;
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
      running = turn(text, controller.signal, extra?.images);
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
      }),
    busy: () => running !== undefined,
    async dispose() {
      interrupt();
      // A turn reports its own failure in its outcome; what is left is to shut down.
      await running?.catch(ignoreError('finish the turn'));
      await services.onDispose?.();
    },
  };
  // The meter has a figure from the start: an estimate of the prompt (and a resumed history).
  session.publishContext();
  // A turn a crash cut short was recovered into the history: that replaces the note on disk now.
  if (session.recoveredTurn) void persist();
  return engine;
}
