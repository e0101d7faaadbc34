/**
 * The heavy parts, loaded only on the paths that need them, so --help and --version never pay
 * for Ink, React, TypeScript or the providers. Each loader names the module's contract as a type,
 * and turns "this build does not contain it" into a clear message instead of a stack trace.
 */
import type { Engine } from '../agent/state.js';
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
  runTui(engine: Engine, opts: { initialPrompt?: string }): Promise<number>;
}
export interface PrintMapModule {
  printCodeMap(config: Config): Promise<string>;
}

export class MissingModuleError extends Error {
  readonly exitCode = 1;
}

async function guard<T>(what: string, load: () => Promise<unknown>): Promise<T> {
  try {
    return (await load()) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new MissingModuleError(`this build of lindwyrm does not include ${what} yet`);
    }
    throw error;
  }
}

// The specifiers stay literal so the bundler can split them into chunks. Modules written in
// parallel may be absent; tsup.config.ts marks a missing one external and this guard reports it.
export const loadStartSession = (): Promise<StartSessionModule> =>
  guard('the session engine (src/agent/start-session.ts)', () =>
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore -- may not exist yet in a partial build; typed through StartSessionModule
    import('../agent/start-session.js'),
  );

export const loadRunOneShot = (): Promise<RunOneShotModule> =>
  guard('one-shot mode (src/headless/run-oneshot.ts)', () =>
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore -- may not exist yet in a partial build; typed through RunOneShotModule
    import('../headless/run-oneshot.js'),
  );

export const loadRunTui = (): Promise<RunTuiModule> =>
  guard('the full-screen view (components/run-tui.tsx)', () =>
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore -- may not exist yet in a partial build; typed through RunTuiModule
    import('../../components/run-tui.js'),
  );

export const loadPrintMap = (): Promise<PrintMapModule> =>
  guard('the code map (src/codemap/print-map.ts)', () =>
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore -- may not exist yet in a partial build; typed through PrintMapModule
    import('../codemap/print-map.js'),
  );
