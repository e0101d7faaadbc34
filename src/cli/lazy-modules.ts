/**
 * The heavy parts, loaded only on the paths that need them, so --help and --version never pay
 * for Ink, React, TypeScript or the providers. Each loader names the module's contract as a type.
 */
import type { Engine, SessionState } from '../agent/state.js';
import type { Approver } from '../policy/types.js';
import type { Config } from '../config/types.js';
import type { createParser } from '../codemap/tree-sitter-runtime.js';
import type { CliOptions } from './options.js';

/** The code map's tree-sitter loader, which the view's highlighter shares. */
export type GrammarParsers = typeof createParser;

export interface StartSessionModule {
  /** The engine, and its session's files to ready while the input is idle (src/agent/session-files.ts). */
  startSession(cli: CliOptions, config: Config, hooks?: { approver?: Approver }): Promise<Engine & { readonly session: { prepareSave(): Promise<void> } }>;
  /** Compiles the HTTP client's parser over loopback while the input is idle (src/providers/warm-http.ts). */
  warmHttpClient(): Promise<void>;
}
export interface RunOneShotModule {
  runOneShot(cli: CliOptions, config: Config, version?: string): Promise<number>;
}
export interface RunTuiModule {
  /** With a promise, the first frame shows `startingState` while the engine starts. */
  runTui(
    engine: Engine | Promise<Engine>,
    opts: {
      initialPrompt?: string;
      startingState?: SessionState;
      painted?: EarlyFrame;
      grammars?: GrammarParsers;
      /** The project's prompt history (src/sessions/prompt-history.ts). */
      history?: { readonly entries: readonly string[]; add(text: string): unknown };
      /** Project paths for @ completion. */
      mentionPaths?: () => Promise<readonly string[]>;
      /** Called once the input reads keys (or soon after the first frame, where it never will). */
      onInputLive?: () => void;
    },
  ): Promise<number>;
}
/** A first frame already on screen; the view adopts it (components/terminal/early-paint.ts). */
export interface EarlyFrame {
  readonly columns: number;
  readonly rows: number;
  readonly lines: readonly string[];
  /** Where the real cursor was put (the input's caret). */
  readonly cursor: { readonly row: number; readonly column: number };
  readonly stray?: { readonly writeStdout: (data: string) => boolean; release(): { stdout: string; stderr: string } };
  /** Keys typed meanwhile, for the view's input (components/terminal/early-input.ts); the CLI only passes them on. */
  handOver(): {
    readonly buffer: { readonly text: string; readonly cursor: number };
    readonly commands: readonly ({ readonly name: 'text'; readonly text: string } | { readonly name: 'backspace' })[];
  };
  abandon(): void;
}
export interface EarlyPaintModule {
  paintEarlyFrameOnProcess(state: SessionState, env: Readonly<Record<string, string | undefined>>): EarlyFrame | undefined;
}
export interface InputSupportModule {
  openInputSupport(config: Config, env: Readonly<Record<string, string | undefined>>, apiKey: string | undefined): Promise<{
    history: { readonly entries: readonly string[]; add(text: string): unknown };
    mentionPaths: () => Promise<readonly string[]>;
  }>;
}
export interface RunAcpModule {
  runAcp(base: CliOptions, opts: { version: string; env: Readonly<Record<string, string | undefined>> }): Promise<number>;
}
export interface PrintMapModule {
  printCodeMap(config: Config): Promise<string>;
}
export interface RewindCliModule {
  runRewindCli: typeof import('../rewind/rewind-cli.js').runRewindCli;
}

// The specifiers stay literal so the bundler can split them into chunks, and typed, so tsc checks
// each module against the contract above.
export const loadStartSession = (): Promise<StartSessionModule> =>
  import('../agent/start-session.js');

export const loadRunOneShot = (): Promise<RunOneShotModule> =>
  import('../headless/run-oneshot.js');

export const loadRunTui = async (): Promise<RunTuiModule> => {
  // React, then Ink, then the app: three stretches of the only thread instead of one, so keys
  // typed at the early first frame are echoed in between (components/view-stack.ts).
  await (await import('../../components/view-stack.js')).loadViewStack();
  return import('../../components/run-tui.js');
};

export const loadInputSupport = (): Promise<InputSupportModule> =>
  import('../agent/input-support.js');

export const loadEarlyPaint = (): Promise<EarlyPaintModule> =>
  import('../../components/terminal/early-paint.js');

export const loadRunAcp = (): Promise<RunAcpModule> =>
  import('../acp/run-acp.js');

export interface TreeSitterModule {
  createParser: GrammarParsers;
}

export const loadTreeSitter = (): Promise<TreeSitterModule> =>
  import('../codemap/tree-sitter-runtime.js');

export const loadPrintMap = (): Promise<PrintMapModule> =>
  import('../codemap/print-map.js');

export const loadRewindCli = (): Promise<RewindCliModule> =>
  import('../rewind/rewind-cli.js');
