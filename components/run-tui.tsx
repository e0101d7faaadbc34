/**
 * Runs the full-screen session: alternate screen, the app, and a clean way back on every exit
 * path (leaving normally, an error, SIGTERM / SIGHUP / SIGINT, an uncaught crash). On the way out
 * it prints the last answer and how to resume, so they stay in the terminal's scrollback.
 */
import './terminal/yoga-fetch-guard.js';
import { render } from 'ink';
import './terminal/restore-fetch.js';
import type { Engine, SessionState } from '../src/agent/state.js';
import { EngineProvider } from '../hooks/engine-context.js';
import { paceEngine } from '../hooks/paced-engine.js';
import { startingEngine, type StartingEngine } from '../hooks/starting-engine.js';
import { App } from './app.js';
import { lastAnswer } from './last-answer.js';
import { FrameStdout } from './terminal/frame-stdout.js';
import { RowOverlay, RowOverlayContext } from './terminal/row-overlay.js';
import type { FrameWriter } from './terminal/frame-writer.js';
import type { EarlyFrame } from './terminal/early-paint.js';
import { SIGNAL_STATUS, createScreen } from './terminal/screen.js';
import { createTerminalControl } from './terminal/terminal-control.js';
import { holdStrayOutput, type StrayOutput } from './terminal/stray-output.js';
import { whenInputLive } from './terminal/input-live.js';
import { sanitizeForTerminal } from './text/sanitize.js';
import { encodeLine } from './text/ansi.js';
import { renderMarkdown } from './transcript/markdown.js';
import { preloadLanguages } from './highlight/preload.js';
import { setGrammarSource } from './highlight/highlighter.js';
import type { GrammarParsers } from './highlight/tree-sitter-highlight.js';

/** Where the view draws: process.stdout, or a fake terminal in the benchmark. */
export interface TuiOutput {
  write(data: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface RunTuiOptions {
  readonly initialPrompt?: string;
  /** The engine's tree-sitter loader, for highlighting code in the grammars the code map parses. */
  readonly grammars?: GrammarParsers;
  /** Defaults to process.stdout (with stray output held back while the screen is up). */
  readonly output?: TuiOutput;
  readonly stdin?: NodeJS.ReadStream;
  /** Where the farewell (last answer, resume hint) goes. @default process.stdout */
  readonly farewell?: (text: string) => void;
  /** Frame interval. @default 33 */
  readonly frameMs?: number;
  /** Minimum time between two renders caused by the engine. @default 50 */
  readonly renderMs?: number;
  /** Receives the frame writer, whose counters the render benchmark reads. */
  readonly onFrameWriter?: (writer: FrameWriter) => void;
  /**
   * What to show while the engine passed as a promise is still starting (header, empty
   * transcript). Required with a promise; the first frame then does not wait for the engine.
   */
  readonly startingState?: SessionState;
  /**
   * The first frame the CLI already painted (components/terminal/early-paint.ts): the screen is
   * entered, and Ink's first frame is diffed against these rows instead of repainting them.
   */
  readonly painted?: EarlyFrame;
  /** The project's prompt history (src/sessions/prompt-history.ts), kept across runs. */
  readonly history?: { readonly entries: readonly string[]; add(text: string): unknown };
  /** Lists the project's paths for @ completion. */
  readonly mentionPaths?: () => Promise<readonly string[]>;
  /** Told once the input reads keys (terminal/input-live.ts); the CLI starts the engine then. */
  readonly onInputLive?: () => void;
}

/** The start-up failed before the session existed: the screen is restored, the caller reports it. */
export class EngineStartError extends Error {
  constructor(readonly reason: unknown) {
    super('the session did not start');
  }
}

const DISPOSE_TIMEOUT_MS = 10_000;

export async function runTui(engineOrPending: Engine | Promise<Engine>, opts: RunTuiOptions = {}): Promise<number> {
  if (opts.grammars) setGrammarSource(opts.grammars);
  let starting: StartingEngine | undefined;
  if (engineOrPending instanceof Promise) {
    if (!opts.startingState) throw new Error('runTui: a starting engine needs opts.startingState');
    starting = startingEngine(opts.startingState, engineOrPending);
  }
  const engine: Engine = starting ?? (engineOrPending as Engine);
  let startError: EngineStartError | undefined;
  const real = opts.output === undefined;
  // Held since the early frame was painted, if it was; from now on, in any case.
  const stray: StrayOutput | undefined = real ? (opts.painted?.stray ?? holdStrayOutput()) : undefined;
  const output: TuiOutput = opts.output ?? process.stdout;
  const write = stray ? stray.writeStdout : (data: string) => output.write(data);
  const target = { write };
  const screen = createScreen(target, { entered: opts.painted !== undefined });
  const overlay = new RowOverlay();
  const frames = new FrameStdout(target, output.columns || 80, output.rows || 24, { minIntervalMs: opts.frameMs ?? 33, overlay });
  opts.onFrameWriter?.(frames.writer);
  const onResize = (): void => frames.setSize(output.columns || 80, output.rows || 24);

  let finish: (status: number, error?: unknown) => void = () => undefined;
  const done = new Promise<number>((resolve, reject) => {
    let finished = false;
    finish = (status, error) => {
      if (finished) return;
      finished = true;
      void leave(status, error).then(resolve, (e: unknown) => (e instanceof EngineStartError ? reject(e.reason) : resolve(status === 0 ? 1 : status)));
    };
  });

  let stoppedBy: keyof typeof SIGNAL_STATUS | undefined;
  const onSignal = (signal: keyof typeof SIGNAL_STATUS): void => {
    stoppedBy ??= signal;
    finish(SIGNAL_STATUS[signal]);
  };
  const signalHandlers = (Object.keys(SIGNAL_STATUS) as (keyof typeof SIGNAL_STATUS)[]).map(
    (sig) => [sig, () => onSignal(sig)] as const,
  );
  const onCrash = (error: unknown): void => finish(1, error);
  // Last resort: whatever happens, the terminal is not left in the alternate screen.
  const onProcessExit = (): void => screen.leave();

  screen.enter();
  output.on?.('resize', onResize);
  for (const [sig, handler] of signalHandlers) process.on(sig, handler);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('exit', onProcessExit);
  // From here the view reads the keys: what was typed into the early frame becomes its input's
  // text, and the frame on screen (that text included) is what Ink's first frame is diffed against.
  const typed = opts.painted?.handOver();
  // Resized since it was painted: the screen's contents are unknown, so the first frame repaints.
  if (opts.painted && opts.painted.columns === frames.columns && opts.painted.rows === frames.rows) frames.writer.assume(opts.painted.lines, opts.painted.cursor);

  const stdin = opts.stdin ?? process.stdin;
  if (opts.onInputLive) whenInputLive(stdin, opts.onInputLive);
  const terminal = createTerminalControl({ screen, writer: frames.writer, stdin });
  const instance = render(
    <EngineProvider engine={paceEngine(engine, opts.renderMs ?? 50)}>
      <RowOverlayContext.Provider value={overlay}>
      <App
        {...(opts.initialPrompt !== undefined ? { initialPrompt: opts.initialPrompt } : {})}
        {...(typed && typed.commands.length > 0 ? { typed: typed.commands } : {})}
        {...(opts.history ? { history: opts.history } : {})}
        {...(opts.mentionPaths ? { mentionPaths: opts.mentionPaths } : {})}
        terminal={terminal}
        onExit={() => finish(0)}
      />
      </RowOverlayContext.Provider>
    </EngineProvider>,
    {
      stdout: frames as unknown as NodeJS.WriteStream,
      stdin,
      // Every write becomes one whole frame for the FrameWriter (see frame-stdout.ts).
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  instance.waitUntilExit().catch(onCrash);
  void starting?.failed.then((reason) => {
    startError = new EngineStartError(reason);
    finish(1);
  });

  async function leave(status: number, error?: unknown): Promise<number> {
    try {
      // A turn cut short by a signal says which one in the saved session, not "by the user".
      if (engine.getSnapshot().busy) engine.interrupt(stoppedBy && stoppedBy !== 'SIGINT' ? `Stopped by ${stoppedBy}.` : undefined);
    } catch {
      // Leaving must not fail because the engine is already broken.
    }
    instance.unmount();
    frames.writer.close();
    screen.leave();
    output.off?.('resize', onResize);
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    process.off('exit', onProcessExit);
    const held = stray?.release();
    if (held?.stdout) process.stdout.write(held.stdout);
    if (held?.stderr) process.stderr.write(held.stderr);
    // No session to save or say goodbye from: the caller reports the error as before the screen.
    if (startError) throw startError;

    const state = engine.getSnapshot();
    let disposeError: unknown;
    try {
      // Saving the session must not keep the user from their shell forever.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still saving after ${DISPOSE_TIMEOUT_MS / 1000} s; gave up waiting`)), DISPOSE_TIMEOUT_MS);
      });
      await Promise.race([engine.dispose(), timeout]).finally(() => clearTimeout(timer));
    } catch (e) {
      disposeError = e;
    }
    const say = opts.farewell ?? ((text: string) => process.stdout.write(text));
    const answer = lastAnswer(state.blocks);
    // The answer's code is highlighted too: give the languages it uses a moment to load.
    if (answer !== undefined && state.markdown) await preloadLanguages(answer, 1_500);
    say(farewellText(state.blocks, state.sessionId, state.saved, state.markdown ? { width: output.columns || 80 } : undefined));
    if (error !== undefined) process.stderr.write(`lwyrm: ${describe(error)}\n`);
    if (disposeError !== undefined) process.stderr.write(`lwyrm: could not close the session cleanly: ${describe(disposeError)}\n`);
    return error !== undefined && status === 0 ? 1 : status;
  }

  return done;
}

function describe(error: unknown): string {
  if (error instanceof Error) return process.env['LWYRM_DEBUG'] ? (error.stack ?? error.message) : error.message;
  return String(error);
}

/** How src/agent/assemble-session.ts names a session it does not save: only for an engine that does not say. */
const UNSAVED_PREFIX = 'tmp-';

/**
 * What stays on the normal screen: the last answer and how to come back. `saved` is the engine's
 * SessionState.saved: a session not written to disk (--no-save, resumed or not) has nothing to resume.
 */
export function farewellText(
  blocks: Parameters<typeof lastAnswer>[0],
  sessionId: string,
  saved?: boolean,
  /** Render the answer's markdown for a terminal this wide (wrapped, styled); without it the text is left as written. */
  rendered?: { readonly width: number },
): string {
  if (!blocks.some((b) => b.kind === 'user')) return '';
  const answer = lastAnswer(blocks);
  const parts: string[] = [];
  if (answer !== undefined) {
    parts.push(rendered ? `${renderMarkdown(sanitizeForTerminal(answer), rendered.width).map(encodeLine).join('\n')}\n` : `${sanitizeForTerminal(answer)}\n`);
  }
  if (sessionId !== '' && (saved ?? !sessionId.startsWith(UNSAVED_PREFIX))) parts.push(`Session ${sessionId} · resume with: lwyrm --resume ${sessionId}\n`);
  return parts.join('\n');
}
