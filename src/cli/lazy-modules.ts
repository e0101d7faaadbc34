/**
 * The heavy parts, loaded only on the paths that need them, so --help and --version never pay
 * for Ink, React, TypeScript or the providers. Each loader names the module's contract as a type,
 * and turns "this build does not contain it" into a clear message instead of a stack trace.
 */
import type { Engine, SessionState } from '../agent/state.js';
import type { Approver } from '../policy/types.js';
import type { Config } from '../config/types.js';
import type { CliOptions } from './options.js';

export interface StartSessionModule {
  startSession(cli: CliOptions, config: Config, hooks?: { approver?: Approver }): Promise<Engine>;
}
export interface RunOneShotModule {
  runOneShot(cli: CliOptions, config: Config): Promise<number>;
}
export interface RunTuiModule {
  /** With a promise, the first frame shows `startingState` while the engine starts. */
  runTui(engine: Engine | Promise<Engine>, opts: { initialPrompt?: string; startingState?: SessionState }): Promise<number>;
}
export interface PrintMapModule {
  printCodeMap(config: Config): Promise<string>;
}

export class MissingModuleError extends Error {
  readonly exitCode = 1;
}

async function guard<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new MissingModuleError(`this build of lindwyrm does not include ${what} yet`);
    }
    throw error;
  }
}

// The specifiers stay literal so the bundler can split them into chunks, and typed, so tsc checks
// each module against the contract above. In a partial build (parts are written in parallel),
// tsup.config.ts leaves a missing module external and the guard reports it.
export const loadStartSession = (): Promise<StartSessionModule> =>
  guard<StartSessionModule>('the session engine (src/agent/start-session.ts)', () =>
    import('../agent/start-session.js'),
  );

export const loadRunOneShot = (): Promise<RunOneShotModule> =>
  guard<RunOneShotModule>('one-shot mode (src/headless/run-oneshot.ts)', () =>
    import('../headless/run-oneshot.js'),
  );

export const loadRunTui = (): Promise<RunTuiModule> =>
  guard<RunTuiModule>('the full-screen view (components/run-tui.tsx)', () =>
    import('../../components/run-tui.js'),
  );

export const loadPrintMap = (): Promise<PrintMapModule> =>
  guard<PrintMapModule>('the code map (src/codemap/print-map.ts)', () =>
    import('../codemap/print-map.js'),
  );
