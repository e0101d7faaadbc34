/**
 * Rewind as the engine composes it: one object per session run, over the project's store. The
 * engine calls beginTurn/endTurn around each turn and runs its tools through wrapTools; anything
 * else that changes files (a `!command`, an MCP server, a hook) calls wrappers.aroundCommand.
 * Nothing here may break a turn: a failure of the store is logged and the work goes on untracked.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolRunner } from '../agent/ports.js';
import { FILE_MODE } from './blob-store.js';
import { withCheckpoints, type CheckpointWrappers } from './checkpointed-tools.js';
import type { ConversationState } from './conversation-snapshot.js';
import { createLineCounter, type LineCounter } from './line-counts.js';
import { ProjectStore, rewindDirFor } from './project-store.js';
import { enforceQuota } from './quota.js';
import { recoverRestore, rewindTo, type RewindPart, type RewindReport, type RewindRequest } from './rewind-restore.js';
import { SessionCheckpoints } from './session-checkpoints.js';
import { previewOf, summarize, type CheckpointSummary, type RewindPreview } from './summaries.js';
import { describeRecovery } from './format.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { unreadable } from './types.js';

export interface RewindOptions {
  /** The data dir; undefined keeps the store in a temp folder removed at close (--no-save). */
  readonly dataDir?: string;
  /** Real path of the project root. */
  readonly projectRoot: string;
  /** rewind_max_mb; 0 turns rewind off. */
  readonly maxMb: number;
  readonly sessionId: string;
  readonly log?: (line: string) => void;
  /** See ProjectStoreOptions.redactJson. */
  readonly redactJson?: (json: string) => string;
}

export interface RewindStats {
  readonly enabled: boolean;
  readonly checkpoints: number;
  readonly withChanges: number;
  readonly storeBytes: number;
  readonly maxBytes: number;
  readonly trackedPaths: number;
  /** What the scan leaves out, in words ('node_modules/ (vendored)', 'big.iso (over the size cap)'). */
  readonly untracked: readonly string[];
}

export interface Rewind {
  readonly enabled: boolean;
  /** For the start of the session: a restore cut short by a kill, finished now. */
  readonly notices: readonly string[];
  readonly wrappers: CheckpointWrappers;
  beginTurn(prompt: string, conversation: ConversationState): Promise<void>;
  /** The model's reply began: the first read of the project starts now (once per project). */
  replyStarted(): void;
  endTurn(): Promise<void>;
  wrapTools(runner: ToolRunner): ToolRunner;
  checkpoints(): Promise<readonly CheckpointSummary[]>;
  /** What a rewind to `id` would change; undefined for an unknown id. */
  preview(id: number, part: RewindPart, historyLength: number): Promise<RewindPreview | undefined>;
  rewind(request: RewindRequest): Promise<RewindReport>;
  /** Another conversation (/clear, a resumed session): its own checkpoints from now on. */
  switchSession(id: string): Promise<void>;
  stats(): Promise<RewindStats>;
  close(): Promise<void>;
}

const COLLECT_MARK = 'collect-pending';

const passThrough: CheckpointWrappers = {
  aroundPaths: (_targets, _by, run) => run(),
  aroundCommand: (_by, run) => run(),
};

export function disabledRewind(): Rewind {
  const off = (): never => {
    throw new Error('Rewind is off (rewind_max_mb = 0).');
  };
  return {
    enabled: false,
    notices: [],
    wrappers: passThrough,
    beginTurn: async () => undefined,
    replyStarted: () => undefined,
    endTurn: async () => undefined,
    wrapTools: (runner) => runner,
    checkpoints: async () => [],
    preview: async () => undefined,
    rewind: off,
    switchSession: async () => undefined,
    stats: async () => ({ enabled: false, checkpoints: 0, withChanges: 0, storeBytes: 0, maxBytes: 0, trackedPaths: 0, untracked: [] }),
    close: async () => undefined,
  };
}

export async function openRewind(opts: RewindOptions): Promise<Rewind> {
  if (!(opts.maxMb > 0)) return disabledRewind();
  const log = opts.log;
  const project = await ProjectStore.open({
    ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
    projectRoot: opts.projectRoot,
    maxBytes: opts.maxMb * 1024 * 1024,
    ...(opts.redactJson ? { redactJson: opts.redactJson } : {}),
  });
  const notices: string[] = [];
  const recovered = await recoverRestore(project).catch((error: unknown) => {
    notices.push(`Could not finish a restore that was cut short: ${(error as Error).message}`);
    return undefined;
  });
  if (recovered) notices.push(describeRecovery(recovered));
  let session = await SessionCheckpoints.open(project, opts.sessionId, log);
  const count: LineCounter = createLineCounter(project.blobs);
  const warn = (what: string) => (error: unknown): void => log?.(`rewind: ${what}: ${(error as Error).message}`);

  // The turn's checkpoint is written once the request is out (its conversation snapshot hashes
  // and compresses every new message): at the reply's start, or sooner when something records
  // into it (a tool, a command) or the turn ends. Until then it waits here, with the conversation
  // as it was when the turn began.
  let beginning: Promise<void> = Promise.resolve();
  let toBegin: (() => Promise<void>) | undefined;
  const begun = (): Promise<void> => {
    const start = toBegin;
    toBegin = undefined;
    if (start) beginning = start();
    return beginning;
  };
  const wrappers: CheckpointWrappers = {
    aroundPaths: async (targets, by, run) => {
      await begun();
      return session.aroundPaths(targets, by, run);
    },
    aroundCommand: async (by, run) => {
      await begun();
      return session.aroundCommand(by, run);
    },
  };

  const collect = async (): Promise<void> => {
    const mark = join(project.dir, COLLECT_MARK);
    const force = existsSync(mark);
    const outcome = await enforceQuota(project, [session], force);
    if (force) await rm(mark, { force: true });
    if (outcome.dropped > 0) log?.(`rewind: dropped the ${outcome.dropped} oldest checkpoint(s) to stay under rewind_max_mb`);
  };

  return {
    enabled: true,
    notices,
    wrappers,
    beginTurn(prompt, conversation) {
      // A turn before it whose checkpoint never had to be written (no reply, no tool) goes first.
      const before = begun();
      toBegin = () => before.then(() => session.begin(prompt, conversation)).then(() => undefined, warn('could not begin a checkpoint'));
      return Promise.resolve();
    },
    replyStarted() {
      void begun();
      // The first read of the project overlaps the model's reply; started with the turn, its
      // hashing and writes stood between Enter and the request.
      void project.ensureBaseline().catch(warn('could not read the project'));
    },
    async endTurn() {
      await begun();
      await session.end().catch(warn('could not end the checkpoint'));
      await collect().catch(warn('could not keep the store under rewind_max_mb'));
    },
    wrapTools: (runner) => withCheckpoints(runner, () => wrappers),
    async checkpoints() {
      await begun();
      return project.exclusive(() => summarize({ checkpoints: session.list(), current: (p) => project.currentState(p).catch(unreadable), count }));
    },
    async preview(id, part, historyLength) {
      await begun();
      const cp = session.get(id);
      if (!cp) return undefined;
      const plan = part === 'conversation' ? { checkpoint: id, items: [] } : await session.plan(id);
      if (!plan) return undefined;
      const kept = part === 'code' ? undefined : cp.conversation?.messages.length;
      return previewOf(plan, cp.prompt, count, kept === undefined ? undefined : Math.max(0, historyLength - kept));
    },
    rewind: async (request) => {
      await begun();
      return rewindTo(session, request);
    },
    async switchSession(id) {
      await begun();
      if (id === session.sessionId) return;
      await session.close().catch(warn('could not close the checkpoints'));
      session = await SessionCheckpoints.open(project, id, log);
    },
    async stats() {
      await begun();
      const list = session.list();
      const untracked = project.skipped.slice(0, 12).map((s) =>
        s.why === 'large' ? `${s.path} (over the size cap)` : `${s.path} (${s.why === 'ignored' ? '.gitignore' : 'vendored'})`,
      );
      if (project.skipped.length > 12) untracked.push(`… and ${project.skipped.length - 12} more`);
      if (project.ignoredFiles > 0) untracked.push(`${project.ignoredFiles} file(s) .gitignore names`);
      return {
        enabled: true,
        checkpoints: list.length,
        withChanges: list.filter((c) => c.changes.size > 0).length,
        storeBytes: await project.blobs.bytes(),
        maxBytes: project.maxBytes,
        trackedPaths: project.baseline.map.size,
        untracked,
      };
    },
    async close() {
      await begun();
      await session.close().catch(warn('could not close the checkpoints'));
      await project.close().catch(warn('could not close the store'));
    },
  };
}

/** A swept or deleted session's checkpoints go with it; the blobs only they named, at the next collection. */
export async function removeRewindSession(dataDir: string, realRoot: string, id: string): Promise<void> {
  const dir = rewindDirFor(dataDir, realRoot);
  if (!existsSync(dir)) return;
  await rm(join(dir, 'sessions', `${id}.jsonl`), { force: true });
  await writeFile(join(dir, COLLECT_MARK), '', { mode: FILE_MODE }).catch(ignoreError('mark the rewind store for collection'));
}
