/**
 * `lwyrm --rewind [N]`: restores the files of checkpoint N (default: the last turn) of the session
 * last worked in for this project, or of --resume ID, prints what it restored, and exits. For
 * scripts: no API key, no full screen. Exit 0 when everything was restored, 2 for an unknown N or
 * session, 1 when something was kept (changed outside lindwyrm since, and not confirmed) or failed.
 * Files changed outside lindwyrm are overwritten only after a yes at the terminal; without one
 * they are kept and listed.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/types.js';
import { SessionLockedError } from '../sessions/errors.js';
import { lockName, projectDirFor } from '../sessions/layout.js';
import { acquireLock, releaseLock } from '../sessions/lock.js';
import { describeRecovery, formatReport, oneLine } from './format.js';
import { ProjectStore, rewindDirFor } from './project-store.js';
import { recoverRestore, rewindTo } from './rewind-restore.js';
import { SessionCheckpoints } from './session-checkpoints.js';
import { ignoreError, noEntries } from '../diagnostics/ignore-error.js';

export interface RewindCliOptions {
  /** The checkpoint; undefined for the last turn. */
  readonly checkpoint?: number;
  /** --resume ID (or a unique prefix); undefined for the session last worked in. */
  readonly session?: string;
}

export interface RewindCliIo {
  readonly dataDir: string;
  readonly sessionsDir: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Asks a yes/no question at the terminal; absent when there is none (then the answer is no). */
  readonly confirm?: (question: string) => Promise<boolean>;
}

class CliFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Session ids with checkpoints here, the most recently changed log first. */
async function sessionIds(project: ProjectStore): Promise<string[]> {
  const dir = join(project.dir, 'sessions');
  const names = (await readdir(dir).catch(noEntries)).filter((n) => n.endsWith('.jsonl'));
  const dated = await Promise.all(names.map(async (n) => ({ id: n.slice(0, -6), at: (await stat(join(dir, n))).mtimeMs })));
  return dated.sort((a, b) => b.at - a.at).map((d) => d.id);
}

async function pickSession(project: ProjectStore, wanted: string | undefined): Promise<SessionCheckpoints> {
  const ids = await sessionIds(project);
  if (wanted === undefined) {
    for (const id of ids) {
      const session = await SessionCheckpoints.open(project, id);
      if (session.list().length > 0) return session;
    }
    throw new CliFailure('No checkpoints for this project yet: every prompt of a saved session makes one.', 2);
  }
  const matches = ids.includes(wanted) ? [wanted] : ids.filter((id) => id.startsWith(wanted));
  if (matches.length !== 1) {
    const why = matches.length === 0 ? 'no checkpoints for a session' : 'more than one session starts with';
    throw new CliFailure(`--rewind: ${why} "${oneLine(wanted, 40)}"${matches.length > 1 ? `: ${matches.join(', ')}` : ''}`, 2);
  }
  return SessionCheckpoints.open(project, matches[0] as string);
}

export async function runRewindCli(opts: RewindCliOptions, config: Pick<Config, 'projectRoot' | 'rewindMaxMb'>, io: RewindCliIo): Promise<number> {
  if (!(config.rewindMaxMb > 0)) {
    io.stderr('lwyrm: rewind is off (rewind_max_mb = 0)\n');
    return 1;
  }
  if (!existsSync(rewindDirFor(io.dataDir, config.projectRoot))) {
    io.stderr('lwyrm: no checkpoints for this project yet: every prompt of a saved session makes one\n');
    return 2;
  }
  const project = await ProjectStore.open({ dataDir: io.dataDir, projectRoot: config.projectRoot, maxBytes: config.rewindMaxMb * 1048576 });
  let lock: string | undefined;
  try {
    const recovered = await recoverRestore(project);
    if (recovered) io.stderr(`lwyrm: ${describeRecovery(recovered)}\n`);
    const session = await pickSession(project, opts.session);
    lock = await lockSession(io.sessionsDir, config.projectRoot, session.sessionId);
    const turns = session.list().filter((c) => c.kind === 'turn');
    const id = opts.checkpoint ?? turns.at(-1)?.id;
    if (id === undefined || !session.get(id)) {
      const all = session.list().map((c) => c.id);
      const known = all.length ? `checkpoints ${all[0]}–${all.at(-1)}` : 'no checkpoints';
      throw new CliFailure(`--rewind: no checkpoint ${id ?? '(last turn)'} in session ${session.sessionId} (${known})`, 2);
    }
    const plan = await session.plan(id);
    const outside = plan?.items.filter((i) => i.changedOutside && i.unrestorable === undefined) ?? [];
    let overwrite = false;
    if (outside.length > 0 && io.confirm) {
      const names = outside.slice(0, 5).map((i) => oneLine(i.path, 80)).join(', ');
      overwrite = await io.confirm(`${outside.length} file(s) changed outside lindwyrm since checkpoint ${id} (${names}${outside.length > 5 ? ', …' : ''}). Overwrite them? [y/N] `);
    }
    const report = await rewindTo(session, { id, part: 'code', overwriteChanged: overwrite });
    io.stdout(`${formatReport(report)}\n`);
    const failed = report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'kept').length;
    const left = report.keptChanged.length + report.unrestorable.length + failed;
    if (left > 0) {
      io.stderr(`lwyrm: ${left} path(s) not restored${report.keptChanged.length > 0 ? ' (changed outside lindwyrm since: confirm at a terminal to overwrite them)' : ''}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof CliFailure) {
      io.stderr(`lwyrm: ${error.message}\n`);
      return error.status;
    }
    if (error instanceof SessionLockedError) {
      io.stderr(`lwyrm: ${error.message}; rewind it there with /rewind\n`);
      return 1;
    }
    throw error;
  } finally {
    if (lock) await releaseLock(lock).catch(ignoreError('release the session lock'));
    await project.close();
  }
}

/** Holds the session's lock while restoring, so a session open elsewhere is refused, not raced. */
async function lockSession(sessionsDir: string, root: string, id: string): Promise<string | undefined> {
  const dir = projectDirFor(sessionsDir, root);
  if (!existsSync(dir)) return undefined;
  const path = join(dir, lockName(id));
  await acquireLock(path, id);
  return path;
}
