/**
 * Opening rewind for a session as the engine's assembly does it: off when rewind_max_mb is 0, and
 * a store that cannot be opened (a read-only data dir) means a session without rewind, said once,
 * rather than a session that does not start.
 */
import type { Config } from '../config/types.js';
import { disabledRewind, openRewind, type Rewind } from './rewind-service.js';

export interface SessionRewindOptions {
  /** The data dir; absent with --no-save (a temp store, removed when the session ends). */
  readonly dataDir?: string;
  readonly config: Pick<Config, 'projectRoot' | 'rewindMaxMb'>;
  readonly sessionId: string;
  readonly log?: (line: string) => void;
  readonly redactJson?: (json: string) => string;
}

export async function openSessionRewind(opts: SessionRewindOptions, notices: string[]): Promise<Rewind> {
  try {
    const rewind = await openRewind({
      ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
      projectRoot: opts.config.projectRoot,
      maxMb: opts.config.rewindMaxMb,
      sessionId: opts.sessionId,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.redactJson ? { redactJson: opts.redactJson } : {}),
    });
    notices.push(...rewind.notices);
    return rewind;
  } catch (error) {
    notices.push(`Rewind is unavailable this session: ${(error as Error).message}`);
    return disabledRewind();
  }
}
