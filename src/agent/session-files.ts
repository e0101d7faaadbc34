/**
 * A session's files and their lifecycle, which follows the conversation rather than the process:
 * the session store (which conversation to resume, its lock, its saves) and the offload store of
 * the conversation in use. /clear and /sessions resume move to another conversation: its lock is
 * taken first, then the old one's offloads are kept (it was saved) or removed, and its lock freed.
 */
import { randomBytes } from 'node:crypto';
import type { CliOptions } from '../cli/options.js';
import type { AppPaths } from '../config/paths.js';
import type { Config } from '../config/types.js';
import { createOffloadStore, sweepOrphanedOffloads, type DisposableOffloadStore } from '../context/offload-store.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { sweepAbandonedTemps } from '../io/temp-journal.js';
import { SessionLockedError } from '../sessions/errors.js';
import { savedSessionIds } from '../sessions/saved-ids.js';
import { createSessionStore } from '../sessions/session-store.js';
import type { SessionRecord, SessionStore } from '../sessions/types.js';
import { removeRewindSession, type Rewind } from '../rewind/rewind-service.js';
import { openSessionRewind } from '../rewind/session-rewind.js';
import { redactJson as redactSecrets, redactText, secretMatcher } from '../secrets/redact.js';

export interface SessionFiles {
  readonly store?: SessionStore;
  /** Whether turns are written to disk (false with --no-save). */
  readonly saves: boolean;
  /** The saved conversation this run resumes (-c, --resume), when it could be locked. */
  readonly record?: SessionRecord;
  /** The id of the conversation this run starts with. */
  readonly firstId: string;
  /** An id for a new conversation. */
  newId(): string;
  /** Removes temp files of killed runs and opens the first conversation's offload store. */
  prepare(): Promise<DisposableOffloadStore>;
  /**
   * Sweeps sessions past their retention and orphaned offloads: work that need not stand between
   * the start and the first request, so the session runs it once that request is out (or the
   * session has sat idle a while). Once per run; later calls return the same sweep.
   */
  sweep(notice: (text: string) => void): Promise<void>;
  /**
   * Readies the first save of a conversation not on disk yet while the input is idle (its
   * folders and lock), so the save before its first request only writes. Never fails: a lock
   * that cannot be taken now is tried again, and reported, by that save.
   */
  prepareSave(): Promise<void>;
  /** Moves to another conversation (see the file comment); returns its offload store. */
  switchTo(id: string, resumed: boolean): Promise<DisposableOffloadStore>;
  /** Saves the conversation in use; `recordOf` gets the refs of its offloaded results. */
  /** `durable: false`: see SessionStore.save (the offloads' fsync waits for the next durable save too). */
  save(recordOf: (offloadRefs: readonly string[]) => SessionRecord, opts?: { readonly durable?: boolean }): Promise<void>;
  /** Appends answer text the running turn streamed (after a save named the turn); '' with no turn removes the file. */
  saveStreamed(turn: { readonly startedAt: string; readonly afterMessages: number } | undefined, text: string | readonly string[]): Promise<void>;
  /** The checkpoints of the conversation in use (they follow it like its offloads). */
  readonly rewind: Rewind;
  close(): Promise<void>;
}

type Paths = Pick<AppPaths, 'sessionsDir' | 'offloadDir' | 'dataDir'>;

/** Opens the store and finds the conversation to resume; `notice` gets what the user should know. */
export async function openSessionFiles(opts: {
  readonly cli: CliOptions;
  readonly config: Config;
  readonly paths: Paths;
  readonly secrets: () => readonly string[];
  readonly notice: (text: string) => void;
  readonly log?: (line: string) => void;
}): Promise<SessionFiles> {
  const { cli, config, paths, notice, log } = opts;
  const store: SessionStore | undefined =
    cli.save || cli.resume || cli.continueLast
      ? createSessionStore({
          dir: paths.sessionsDir,
          projectRoot: config.projectRoot,
          offloadDir: paths.offloadDir,
          secrets: opts.secrets,
          onNotice: notice,
          // A swept or deleted session's checkpoints go with it.
          onRemoved: (id) => removeRewindSession(paths.dataDir, config.projectRoot, id),
        })
      : undefined;
  const saves = Boolean(store && cli.save);
  let record: SessionRecord | undefined;
  if (store && cli.resume) record = await store.load(cli.resume);
  else if (store && cli.continueLast) {
    record = await store.latest();
    if (!record) notice('No saved session in this project yet; starting a new one.');
  }
  if (record && saves && store) {
    try {
      await store.lock(record.id);
    } catch (err) {
      if (!(err instanceof SessionLockedError)) throw err;
      notice(`${err.message}; starting a new session instead.`);
      record = undefined;
    }
  }
  // Archived turns are history written to disk: the keys a session file would not hold, neither do they.
  const redact = (text: string): string => redactText(text, secretMatcher(opts.secrets())).text;
  const newId = (): string => store?.newId() ?? `tmp-${randomBytes(6).toString('hex')}`;
  const firstId = record?.id ?? newId();
  let current = firstId;
  // Checkpoints live beside the sessions under the data dir; with --no-save in a temp folder.
  const rewindNotices: string[] = [];
  const redactJson = (json: string): string => redactSecrets(json, secretMatcher(opts.secrets())).text;
  const rewind = await openSessionRewind({ ...(cli.save ? { dataDir: paths.dataDir } : {}), config, sessionId: firstId, redactJson, ...(log ? { log } : {}) }, rewindNotices);
  rewindNotices.forEach(notice);
  let offload: DisposableOffloadStore | undefined;
  // Whether the conversation in use is on disk: its offloads stay when we leave it.
  let saved = record !== undefined;
  let swept: Promise<void> | undefined;
  const prepareSave = async (): Promise<void> => {
    if (!store || !saves || saved) return;
    await store.prepare(current).catch(ignoreError(`prepare the first save of session ${current}`, log));
  };
  const leave = async (): Promise<void> => {
    await offload?.dispose(saved && saves).catch(ignoreError(`tidy the offloads of session ${current}`, log));
  };

  return {
    ...(store ? { store } : {}),
    saves,
    ...(record ? { record } : {}),
    firstId,
    newId,
    async prepare() {
      // Temp files a killed run left beside the user's files (and ours) go before anything is written.
      await sweepAbandonedTemps().catch(ignoreError('remove the temp files of killed runs', log));
      offload = createOffloadStore({ dir: paths.offloadDir, sessionId: firstId, redact });
      return offload;
    },
    sweep(sweepNotice) {
      swept ??= (async () => {
        if (store && saves) {
          // A sweep that fails leaves old sessions for the next start; this one must still go on.
          await store.sweep(config.sessionRetentionDays, firstId).then((r) => r.problems.forEach(sweepNotice), ignoreError('sweep old sessions', log));
        }
        if (cli.save) {
          // Offloads of sessions nothing saved (--no-save, a crash) go after a week; saved ones stay.
          const savedIds = savedSessionIds(paths.sessionsDir);
          await sweepOrphanedOffloads({ dir: paths.offloadDir, isSaved: async (id) => (await savedIds).has(id) || id === firstId || id === current }).catch(
            ignoreError('sweep orphaned offloads', log),
          );
        }
      })();
      return swept;
    },
    prepareSave,
    async switchTo(id, resumed) {
      if (store && saves && resumed) await store.lock(id);
      const old = current;
      await leave();
      if (store && saves) await store.unlock(old).catch(ignoreError(`unlock session ${old}`, log));
      current = id;
      saved = resumed;
      await rewind.switchSession(id);
      offload = createOffloadStore({ dir: paths.offloadDir, sessionId: id, redact });
      // A new conversation (/clear) is typed into next: its first save is readied meanwhile.
      if (!resumed) void prepareSave();
      return offload;
    },
    async save(recordOf, opts) {
      if (!store || !saves || !offload) return;
      // The snapshots the record's stubs name are on disk for good before the record is.
      if (opts?.durable !== false) await offload.sync();
      const refs = (await offload.list()).map((o) => o.ref);
      await store.save(recordOf(refs), opts);
      saved = true;
    },
    async saveStreamed(turn, text) {
      if (!store || !saves) return;
      await (turn ? store.appendStreamed(current, turn, text) : store.clearStreamed(current));
    },
    rewind,
    async close() {
      // A sweep under way finishes first: a session half removed would wait an hour for the next.
      await swept;
      await rewind.close();
      await store?.close().catch(ignoreError('close the session store', log));
      await leave();
    },
  };
}
