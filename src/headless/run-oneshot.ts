/** `lwyrm -p TASK`: one-shot mode over a session with the real tools. */
import type { LindwyrmEngine } from '../agent/engine.js';
import type { CliOptions } from '../cli/options.js';
import type { Config } from '../config/types.js';
import { processIo, runOneShotWith } from './oneshot-run.js';

export async function runOneShot(cli: CliOptions, config: Config, version?: string): Promise<number> {
  const { startSession } = await import('../agent/start-session.js');
  return runOneShotWith(cli, (hooks) => startSession(cli, config, hooks) as Promise<LindwyrmEngine>, { ...processIo, ...(version ? { version } : {}) });
}
