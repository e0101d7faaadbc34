/**
 * Keeps a project's rewind store under rewind_max_mb: when the blobs on disk pass it, the oldest
 * checkpoints (of every session of the project, by time) are dropped until what the rest still
 * names fits in nine tenths of it, and blobs nothing names any more are removed. The baseline's
 * blobs (the current contents of the project) are never dropped: they are what the next change's
 * pre-image is. Also the collection after sessions were swept: their logs go with them, and their
 * blobs at the next collection.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { baselineFileHashes } from './baseline-file.js';
import { readCheckpointLog, CheckpointLog } from './checkpoint-log.js';
import { conversationHashes } from './conversation-snapshot.js';
import type { ProjectStore } from './project-store.js';
import type { Checkpoint } from './types.js';
import { absent, noEntries } from '../diagnostics/ignore-error.js';

/** A blob younger than this may be about to be named by another process's log: never collected. */
export const COLLECT_MIN_AGE_MS = 3_600_000;

/** Every blob a checkpoint names. */
export function checkpointHashes(cp: Checkpoint): string[] {
  const out = conversationHashes(cp.conversation);
  for (const c of cp.changes.values()) {
    if (c.before?.kind === 'file') out.push(c.before.hash);
    if (c.after?.kind === 'file') out.push(c.after.hash);
  }
  return out;
}

/** A session whose checkpoints live in this process: dropping goes through it. */
export interface OpenSession {
  readonly sessionId: string;
  list(): readonly Checkpoint[];
  /** Drops these checkpoints and rewrites its log. */
  drop(ids: ReadonlySet<number>): Promise<void>;
  /** The checkpoint still being recorded, never dropped. */
  openId(): number | undefined;
}

interface Loaded {
  readonly id: string;
  readonly checkpoints: readonly Checkpoint[];
  readonly open?: OpenSession;
}

async function loadAll(project: ProjectStore, open: readonly OpenSession[]): Promise<Loaded[]> {
  const dir = join(project.dir, 'sessions');
  const names = await readdir(dir).catch(noEntries);
  const out: Loaded[] = open.map((s) => ({ id: s.sessionId, checkpoints: s.list(), open: s }));
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const id = name.slice(0, -'.jsonl'.length);
    if (open.some((s) => s.sessionId === id)) continue;
    out.push({ id, checkpoints: (await readCheckpointLog(join(dir, name))).checkpoints });
  }
  return out;
}

async function blobSizes(project: ProjectStore, hashes: Iterable<string>): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const hash of hashes) {
    if (sizes.has(hash)) continue;
    const info = await stat(join(project.blobs.dir, 'objects', hash.slice(0, 2), hash.slice(2))).catch(absent);
    sizes.set(hash, info?.size ?? 0);
  }
  return sizes;
}

export interface QuotaOutcome {
  readonly dropped: number;
  readonly removedBlobs: number;
  readonly freedBytes: number;
}

export async function enforceQuota(project: ProjectStore, open: readonly OpenSession[], force = false): Promise<QuotaOutcome> {
  const total = await project.blobs.bytes();
  if (!force && total <= project.maxBytes) return { dropped: 0, removedBlobs: 0, freedBytes: 0 };
  const sessions = await loadAll(project, open);
  const pinned = project.baseline.hashes();
  for (const hash of await baselineFileHashes(project.dir, project.root)) pinned.add(hash);
  const refs = new Map<string, number>();
  const all: { session: Loaded; cp: Checkpoint; hashes: string[] }[] = [];
  for (const session of sessions) {
    for (const cp of session.checkpoints) {
      const hashes = [...new Set(checkpointHashes(cp))];
      for (const h of hashes) refs.set(h, (refs.get(h) ?? 0) + 1);
      all.push({ session, cp, hashes });
    }
  }
  const sizes = await blobSizes(project, [...pinned, ...refs.keys()]);
  let live = 0;
  for (const [hash, size] of sizes) if (pinned.has(hash) || (refs.get(hash) ?? 0) > 0) live += size;
  const goal = Math.floor(project.maxBytes * 0.9);
  const drops = new Map<Loaded, Set<number>>();
  all.sort((a, b) => a.cp.at.localeCompare(b.cp.at) || a.cp.id - b.cp.id);
  for (const item of all) {
    if (live <= goal) break;
    if (item.session.open?.openId() === item.cp.id) continue;
    for (const h of item.hashes) {
      const left = (refs.get(h) ?? 1) - 1;
      refs.set(h, left);
      if (left === 0 && !pinned.has(h)) live -= sizes.get(h) ?? 0;
    }
    const set = drops.get(item.session) ?? new Set<number>();
    set.add(item.cp.id);
    drops.set(item.session, set);
  }
  let dropped = 0;
  for (const [session, ids] of drops) {
    dropped += ids.size;
    if (session.open) await session.open.drop(ids);
    else await new CheckpointLog(project.sessionLogPath(session.id)).rewrite(session.checkpoints.filter((c) => !ids.has(c.id)));
  }
  const keep = new Set(pinned);
  for (const [hash, count] of refs) if (count > 0) keep.add(hash);
  const gc = await project.blobs.gc(keep, COLLECT_MIN_AGE_MS);
  return { dropped, removedBlobs: gc.removed, freedBytes: gc.freed };
}

/** Removes a swept session's checkpoints; its blobs go at the next collection. */
export async function removeSessionLog(project: Pick<ProjectStore, 'sessionLogPath'>, id: string): Promise<void> {
  await rm(project.sessionLogPath(id), { force: true });
}
