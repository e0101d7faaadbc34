/**
 * Retention: sessions idle longer than session_retention_days go, with their offloads. Never the
 * one being resumed, never one a live process holds, never a file we cannot read (it is reported
 * instead: deleting what we do not understand is not ours to decide). Leftovers of interrupted
 * writes (temp files, superseded history generations, map files of removed sessions) are cleared
 * once they are an hour old.
 */
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { idFromCodeMapName, isLeftoverTemp, lockName, metaName, parseHistoryName } from './layout.js';
import { acquireLock, liveOtherOwner, releaseLock } from './lock.js';
import { readMeta } from './meta-file.js';
import { scanProject } from './session-reader.js';
import type { SweepResult } from './types.js';
import { absent } from '../diagnostics/ignore-error.js';

const DAY_MS = 86_400_000;
const LEFTOVER_AGE_MS = 3_600_000;
const LOCK_SUFFIX = lockName('');

export interface SweepContext {
  readonly projectDir: string;
  readonly projectRoot: string;
  /** Zero, negative or not finite: keep everything. */
  readonly retentionDays: number;
  readonly keepId?: string;
  /** Sessions this process holds. */
  readonly held: ReadonlySet<string>;
  readonly removeFiles: (id: string) => Promise<void>;
  readonly notice: (line: string) => void;
  readonly now?: number;
}

export async function sweepProject(ctx: SweepContext): Promise<SweepResult> {
  const now = ctx.now ?? Date.now();
  const scan = await scanProject(ctx.projectDir, ctx.projectRoot);
  const removed: string[] = [];
  if (Number.isFinite(ctx.retentionDays) && ctx.retentionDays > 0) {
    const cutoff = now - ctx.retentionDays * DAY_MS;
    for (const meta of scan.metas) {
      const id = meta.record.id;
      if (id === ctx.keepId || ctx.held.has(id) || Date.parse(meta.record.updatedAt) >= cutoff) continue;
      if (!(await lockIfStillIdle(ctx, id, cutoff))) continue;
      await ctx.removeFiles(id);
      removed.push(id);
    }
  }
  if (removed.length > 0) {
    ctx.notice(`sessions: removed ${removed.length} session(s) idle for more than ${ctx.retentionDays} days`);
  }

  // Generations still referenced, and ids whose index we could not read (keep all their files).
  const live = new Map(scan.metas.map((m) => [m.record.id, m.history.gen]));
  for (const name of scan.names) {
    const history = parseHistoryName(name);
    // A map file whose index is gone (a removal cut short): nothing names it any more.
    const mapOf = idFromCodeMapName(name);
    const leftover =
      isLeftoverTemp(name) ||
      (history !== undefined && !scan.bad.has(history.id) && live.get(history.id) !== history.gen && !removed.includes(history.id)) ||
      (mapOf !== undefined && !scan.bad.has(mapOf) && !live.has(mapOf)) ||
      (name.endsWith('.streamed') && !live.has(name.slice(0, -'.streamed'.length)) && !scan.bad.has(name.slice(0, -'.streamed'.length)));
    if (!leftover) continue;
    const path = join(ctx.projectDir, name);
    try {
      if (now - (await lstat(path)).mtimeMs > LEFTOVER_AGE_MS) await rm(path, { force: true });
    } catch {
      // Gone already.
    }
  }
  await sweepOrphanedLocks(ctx, scan.names, new Set([...live.keys(), ...scan.bad.keys()]), now);
  return { removed, problems: [...scan.bad.values()].sort() };
}

/**
 * A session's lock is taken before its first save (SessionStore.prepare), so a process killed
 * before it saved anything leaves a lock with no index beside it. Such a lock goes once it is an
 * hour old and its owner is gone; a lock beside an index, or one we cannot read, stays (an index
 * is the session's, and the takeover in lock.ts handles a dead owner's lock when it is resumed).
 */
async function sweepOrphanedLocks(ctx: SweepContext, names: readonly string[], indexed: ReadonlySet<string>, now: number): Promise<void> {
  for (const name of names) {
    if (!name.endsWith(LOCK_SUFFIX)) continue;
    const id = name.slice(0, -LOCK_SUFFIX.length);
    if (indexed.has(id) || ctx.held.has(id) || id === ctx.keepId) continue;
    const path = join(ctx.projectDir, name);
    try {
      const info = await lstat(path);
      if (!info.isFile() || now - info.mtimeMs <= LEFTOVER_AGE_MS) continue;
      if (await liveOtherOwner(path)) continue;
      await rm(path, { force: true });
    } catch {
      // Gone already, or not ours to read: left as it is.
    }
  }
}

/**
 * Takes the session's lock for the removal, so a process resuming it meanwhile is refused rather
 * than left writing into deleted files, and checks under the lock that no save made it recent
 * since the scan. False (lock released) when the session is in use or no longer idle.
 */
async function lockIfStillIdle(ctx: SweepContext, id: string, cutoff: number): Promise<boolean> {
  const lock = join(ctx.projectDir, lockName(id));
  try {
    await acquireLock(lock, id);
  } catch {
    return false; // a live owner, or a lock we cannot take: not ours to remove
  }
  const meta = await readMeta(join(ctx.projectDir, metaName(id)), id, ctx.projectRoot).catch(absent);
  if (meta && Date.parse(meta.record.updatedAt) < cutoff) return true;
  await releaseLock(lock);
  return false;
}
