/**
 * The saved sessions of one project. See layout.ts for the files, session-writer.ts for how a
 * save stays cheap and crash-safe, lock.ts for the one-writer rule.
 */
import { existsSync, lstatSync } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionFileError, SessionLockedError, SessionLookupError } from './errors.js';
import { codeMapName, idFromMetaName, isValidId, lockName, metaName, parseHistoryName, projectDirFor, randomId, realProjectRoot, streamedName } from './layout.js';
import { readStreamed, StreamedWriter, type StreamedTurn } from './streamed-file.js';
import { acquireLock, liveOtherOwner, releaseLock } from './lock.js';
import { readMeta, summaryOf } from './meta-file.js';
import { ensurePrivateDir, repairTree } from './permissions.js';
import { secretMatcher } from '../secrets/redact.js';
import { describeError, listNames, readSession, scanProject } from './session-reader.js';
import { sweepProject } from './sweep.js';
import { writeSession, type Committed } from './session-writer.js';
import type { SessionList, SessionRecord, SessionStore, SessionStoreOptions, SessionSummary, SweepResult } from './types.js';
import { orderOnly } from '../diagnostics/ignore-error.js';

export function createSessionStore(opts: SessionStoreOptions): SessionStore {
  const projectRoot = realProjectRoot(opts.projectRoot);
  const projectDir = projectDirFor(opts.dir, projectRoot);
  let matcher = secretMatcher([]);
  let matcherKey = '';
  /** Rebuilt only when the secret values change. */
  const currentMatcher = (): typeof matcher => {
    const values = (typeof opts.secrets === 'function' ? opts.secrets() : opts.secrets) ?? [];
    const key = JSON.stringify(values);
    if (key !== matcherKey) {
      matcher = secretMatcher(values);
      matcherKey = key;
    }
    return matcher;
  };
  const notice = (line: string): void => opts.onNotice?.(line);
  const report = (lines: readonly string[]): void => lines.forEach((line) => notice(`sessions: ${line}`));
  const committed = new Map<string, Committed>();
  const streamed = new Map<string, StreamedWriter>();
  const held = new Set<string>();
  /** Held sessions known to have no index on disk yet (prepare): their first save skips the check. */
  const unsaved = new Set<string>();
  const path = (name: string): string => join(projectDir, name);

  // Writes of this store run one at a time: two saves of one session must not interleave.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(orderOnly);
    return run;
  };

  let repaired: Promise<void> | undefined;
  let created: Promise<void> | undefined;
  /** Checks and repairs the folders once per store; creates them only when about to write. */
  const prepare = async (create: boolean): Promise<void> => {
    if (create) {
      created ??= Promise.all([ensurePrivateDir(opts.dir), ensurePrivateDir(projectDir)]).then(() => undefined);
      await created.catch((error: unknown) => {
        created = undefined;
        throw error;
      });
    }
    // Folders here; index files as list() reads them; every file in sweep(), which runs at start.
    repaired ??= repairTree([opts.dir, projectDir], false).then(report);
    await repaired;
  };

  const lock = async (id: string): Promise<void> => {
    checkId(id);
    await prepare(true);
    await acquireLock(path(lockName(id)), id);
    held.add(id);
  };

  const unlock = async (id: string): Promise<void> => {
    checkId(id);
    held.delete(id);
    unsaved.delete(id);
    committed.delete(id);
    streamed.delete(id);
    await releaseLock(path(lockName(id)));
  };

  const list = async (): Promise<SessionList> => {
    try {
      await prepare(false);
      const scan = await scanProject(projectDir, projectRoot);
      report(scan.repaired);
      const sessions = scan.metas.map(summaryOf).sort(byActivity);
      return { sessions, problems: [...scan.bad.values()].sort() };
    } catch (error) {
      return { sessions: [], problems: [describeError(error, projectDir)] };
    }
  };

  const resolveId = async (query: string): Promise<string> => {
    const names = isValidId(query) ? await listNames(projectDir) : [];
    const ids = names.map(idFromMetaName).filter((id): id is string => id !== undefined);
    if (ids.includes(query)) return query;
    const matches = ids.filter((id) => id.startsWith(query));
    if (matches.length === 1) return matches[0]!;
    const { sessions } = await list();
    if (matches.length === 0) throw new SessionLookupError('unknown', query, sessions.slice(0, 10));
    const known = new Map(sessions.map((s) => [s.id, s]));
    const candidates = matches.sort().map((id) => known.get(id) ?? unreadableSummary(id));
    throw new SessionLookupError('ambiguous', query, candidates);
  };

  const load = async (idOrPrefix: string): Promise<SessionRecord> => {
    await prepare(false);
    const id = await resolveId(idOrPrefix);
    const loaded = await readSession(projectDir, projectRoot, id);
    if (loaded.repaired) report([loaded.repaired]);
    committed.set(id, loaded.committed);
    const turn = loaded.record.unfinishedTurn;
    if (!turn) return loaded.record;
    // A turn cut short: the text it streamed since its last safe point is in the file beside.
    const more = await readStreamed(path(streamedName(id)), turn);
    return more ? { ...loaded.record, unfinishedTurn: { ...turn, streamed: turn.streamed + more } } : loaded.record;
  };

  const latest = async (): Promise<SessionRecord | undefined> => {
    await prepare(false);
    // The newest by activity, reading as few indexes as that takes (-c in a project of a thousand
    // sessions): a save sets updatedAt just before it writes the index, so no index is newer than
    // its file's mtime (give or take MTIME_SLACK_MS). Indexes are read newest file first, and
    // once the best read is newer than any unread file can be, the rest are left unread.
    const candidates = (await listNames(projectDir))
      .flatMap((name) => {
        const id = idFromMetaName(name);
        const mtimeMs = id === undefined ? undefined : mtimeOf(path(name));
        return id === undefined || mtimeMs === undefined ? [] : [{ id, name, mtimeMs }];
      })
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    const read: SessionSummary[] = [];
    let next = 0;
    for (;;) {
      while (next < candidates.length && (read.length === 0 || candidates[next]!.mtimeMs + MTIME_SLACK_MS >= Date.parse(read[0]!.updatedAt))) {
        const { id, name } = candidates[next++]!;
        try {
          read.push(summaryOf(await readMeta(path(name), id, projectRoot)));
          read.sort(byActivity);
        } catch {
          // An index that cannot be read is list()'s to report; -c takes the newest readable one.
        }
      }
      const best = read.shift();
      if (!best) return undefined;
      try {
        return await load(best.id);
      } catch (error) {
        if (!(error instanceof SessionFileError)) throw error;
        notice(`sessions: skipped ${error.message}`);
      }
    }
  };

  const save = (record: SessionRecord, opts?: { readonly durable?: boolean }): Promise<void> =>
    serial(async () => {
      const id = record.id;
      checkId(id);
      await prepare(true);
      const fresh = !held.has(id);
      if (fresh) await lock(id);
      let previous = fresh ? undefined : committed.get(id);
      let diskGen: number | undefined;
      const metaPath = path(metaName(id));
      // A session prepare() found without an index, held by us since: nobody can have written one.
      if (previous === undefined && !unsaved.has(id) && (await exists(metaPath))) {
        // Never overwrite what we cannot read: a corrupt or newer index stays as it is.
        const meta = await readMeta(metaPath, id, projectRoot).catch((error: unknown) => {
          throw new SessionFileError(metaPath, `${describeError(error, metaPath).replace(`${metaPath}: `, '')}; not saving over it`);
        });
        diskGen = meta.history.gen;
        const known = committed.get(id);
        // Resumed earlier in this process and untouched since: keep appending.
        if (known && known.gen === diskGen && known.bytes === meta.history.bytes) previous = known;
      }
      committed.set(id, await writeSession({ projectDir, projectRoot, matcher: currentMatcher(), notice }, record, previous, diskGen, opts?.durable));
      unsaved.delete(id);
    });

  const prepareSave = (id: string): Promise<void> =>
    serial(async () => {
      checkId(id);
      if (committed.has(id)) return;
      await lock(id);
      if (!(await exists(path(metaName(id))))) unsaved.add(id);
    });

  const appendStreamed = (id: string, turn: StreamedTurn, text: string | readonly string[]): Promise<void> =>
    serial(async () => {
      checkId(id);
      // Only beside an index this store wrote: the text belongs to the turn that index names.
      if (!held.has(id) || !committed.has(id)) return;
      let writer = streamed.get(id);
      if (!writer) streamed.set(id, (writer = new StreamedWriter(path(streamedName(id)))));
      await writer.append(turn, text, currentMatcher());
    });

  const clearStreamed = (id: string): Promise<void> =>
    serial(async () => {
      checkId(id);
      const writer = streamed.get(id);
      streamed.delete(id);
      await writer?.remove();
    });

  const removeFiles = async (id: string): Promise<void> => {
    await rm(path(metaName(id)), { force: true });
    await rm(path(streamedName(id)), { force: true });
    await rm(path(codeMapName(id)), { force: true });
    const names = await listNames(projectDir);
    await Promise.all(names.filter((n) => parseHistoryName(n)?.id === id).map((n) => rm(path(n), { force: true })));
    if (opts.offloadDir) await rm(join(opts.offloadDir, id), { recursive: true, force: true });
    await opts.onRemoved?.(id).catch((error: unknown) => notice(`sessions: could not remove what was kept for ${id}: ${(error as Error).message}`));
    await rm(path(lockName(id)), { force: true });
    committed.delete(id);
    held.delete(id);
    unsaved.delete(id);
  };

  const remove = (id: string): Promise<void> =>
    serial(async () => {
      checkId(id);
      if (!(await exists(path(metaName(id))))) throw new SessionLookupError('unknown', id, (await list()).sessions.slice(0, 10));
      const owner = await liveOtherOwner(path(lockName(id)));
      if (owner) throw new SessionLockedError(id, owner.pid, owner.host);
      await removeFiles(id);
    });

  const sweep = (retentionDays: number, keepId?: string): Promise<SweepResult> =>
    serial(async () => {
      await prepare(false);
      report(await repairTree([projectDir], true));
      return sweepProject({ projectDir, projectRoot, retentionDays, keepId, held, removeFiles, notice });
    });

  const close = async (): Promise<void> => {
    for (const id of [...held]) await unlock(id);
  };

  const newId = (): string => {
    for (;;) {
      const id = randomId();
      // Offloads are kept per id for all projects together: never reuse an id they know.
      const taken = existsSync(path(metaName(id))) || (opts.offloadDir !== undefined && existsSync(join(opts.offloadDir, id)));
      if (!taken) return id;
    }
  };

  return { projectRoot, newId, save, prepare: prepareSave, appendStreamed, clearStreamed, list, load, latest, delete: remove, sweep, lock, unlock, close };
}

/**
 * How far an index's updatedAt may run ahead of its file's mtime: timestamp granularity (2 s on
 * FAT), a network file system's server clock. An index edited by hand to look older is the one
 * case it cannot cover.
 */
const MTIME_SLACK_MS = 5 * 60_000;

function mtimeOf(file: string): number | undefined {
  try {
    return lstatSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function checkId(id: string): void {
  if (!isValidId(id)) throw new Error(`invalid session id ${JSON.stringify(id)}`);
}

function byActivity(a: SessionSummary, b: SessionSummary): number {
  return Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || (a.id < b.id ? -1 : 1);
}

function unreadableSummary(id: string): SessionSummary {
  return { id, updatedAt: '?', firstPrompt: '(unreadable session file)', turns: 0, tokens: 0, cost: null };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    return true; // exists but cannot be inspected: treat as present, so nothing overwrites it
  }
}
