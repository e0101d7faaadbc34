/** `lwyrm -p TASK`: one-shot mode over a session with the real tools. */
import type { LindwyrmEngine } from '../agent/engine.js';
import type { CliOptions } from '../cli/options.js';
import type { Config } from '../config/types.js';
import { processIo, runOneShotWith, type OpenEngine } from './oneshot-run.js';

export async function runOneShot(cli: CliOptions, config: Config, version?: string): Promise<number> {
  // The engine loads inside `open`, after the run's signal handlers are in place: a SIGTERM while
  // it loads still ends the run with its result (stream-json, --json).
  const open: OpenEngine = async (hooks) => {
    const { startSession } = await import('../agent/start-session.js');
    return startSession(cli, config, hooks) as Promise<LindwyrmEngine>;
  };
  return runOneShotWith(cli, open, { ...processIo, ...(version ? { version } : {}) });
}
