/**
 * One session's checkpoints: every user turn begins one; whatever changes files during it reports
 * through one of two wrappers, and restoring goes back to any of them.
 *
 *   aroundPaths    a tool that names the paths it changes (write_file, edit_file, delete_file):
 *                  their states are read (contents stored) before it runs and after.
 *   aroundCommand  anything that may change any file (bash, and later a `!command`, an MCP server,
 *                  a hook): the project is scanned before (catching edits made outside lindwyrm
 *                  since, which are not the turn's) and after; what differs is the command's.
 *
 * A call outside a turn (a `!command` between prompts, a hook) opens a checkpoint of its own.
 */
import { resolvePath } from '../policy/resolve-path.js';
import { settleEvents } from './change-watch.js';
import { addChange, CheckpointLog, readCheckpointLog, type MutableCheckpoint } from './checkpoint-log.js';
import { loadConversation, snapshotConversation, type ConversationState } from './conversation-snapshot.js';
import { MAX_TRACKED_PATHS, type ProjectStore } from './project-store.js';
import { planRestore } from './restore-plan.js';
import type { Change, Checkpoint, CheckpointKind, PathState, RestorePlan } from './types.js';
import { sameState, unreadable } from './types.js';
import { absent, noEntries } from '../diagnostics/ignore-error.js';

export interface PathTarget {
  /** As the tool was given it (relative to the project root, absolute, or ~/…). */
  readonly path: string;
  /** Whether the tool follows a symlink in the last component (write and edit do, delete does not). */
  readonly followFinal: boolean;
}

export class SessionCheckpoints {
  private open: MutableCheckpoint | undefined;
  private implicit = false;
  private nextId: number;

  private constructor(
    readonly project: ProjectStore,
    readonly sessionId: string,
    private readonly log: CheckpointLog,
    private readonly all: MutableCheckpoint[],
    private readonly onLog?: (line: string) => void,
  ) {
    this.nextId = (all.at(-1)?.id ?? 0) + 1;
    log.follow(all.at(-1));
  }

  static async open(project: ProjectStore, sessionId: string, onLog?: (line: string) => void): Promise<SessionCheckpoints> {
    const path = project.sessionLogPath(sessionId);
    const { checkpoints, bad } = await readCheckpointLog(path);
    if (bad > 0) onLog?.(`rewind: ${bad} unreadable line(s) in ${path} skipped`);
    return new SessionCheckpoints(project, sessionId, new CheckpointLog(path), checkpoints, onLog);
  }

  list(): readonly Checkpoint[] {
    return this.all;
  }

  get(id: number): Checkpoint | undefined {
    return this.all.find((c) => c.id === id);
  }

  /** A new checkpoint for the turn about to run, with the conversation as it stands before the prompt. */
  begin(prompt: string, conversation: ConversationState | undefined, kind: CheckpointKind = 'turn', target?: number): Promise<Checkpoint> {
    return this.start(prompt, conversation, kind, target);
  }

  private async start(prompt: string, conversation: ConversationState | undefined, kind: CheckpointKind, target?: number): Promise<MutableCheckpoint> {
    if (this.open) await this.end();
    const cp: MutableCheckpoint = {
      id: this.nextId++,
      kind,
      at: new Date().toISOString(),
      prompt: this.project.redactText(prompt),
      ...(target !== undefined ? { target } : {}),
      ...(conversation ? { conversation: await snapshotConversation(this.project.blobs, conversation, this.project.redactJson) } : {}),
      changes: new Map(),
      notes: [],
    };
    this.all.push(cp);
    this.open = cp;
    this.project.baseline.startTurn();
    await this.log.begin(cp);
    // The first read of the project is not started here: the rewind service starts it once the
    // model's reply begins (replyStarted), and a command waits for it (scanAround).
    return cp;
  }

  /** The turn is over: its lines are made durable and the baseline saved for the next session. */
  async end(): Promise<void> {
    if (!this.open) return;
    this.open = undefined;
    this.implicit = false;
    await this.log.sync();
    await this.project.saveBaseline().catch((e: unknown) => this.onLog?.(`rewind: could not save the baseline: ${(e as Error).message}`));
  }

  private async current(label: string): Promise<MutableCheckpoint> {
    if (this.open) return this.open;
    // No conversation of its own: restoring it goes back in the files only.
    const cp = await this.start(label, undefined, 'turn');
    this.implicit = true;
    return cp;
  }

  private async record(cp: MutableCheckpoint, changes: readonly { path: string; before: PathState; after: PathState }[], by: string): Promise<void> {
    const lines: Change[] = [];
    for (const c of changes) {
      if (sameState(c.before, c.after)) continue;
      addChange(cp, c.path, c.before, c.after, by);
      lines.push({ path: c.path, before: c.before, after: c.after, by });
    }
    await this.log.changes(cp.id, lines);
  }

  private async note(cp: MutableCheckpoint, text: string): Promise<void> {
    if (cp.notes.includes(text)) return;
    cp.notes.push(text);
    await this.log.note(cp.id, text);
  }

  async aroundPaths<T>(targets: readonly PathTarget[], by: string, run: () => Promise<T>): Promise<T> {
    const cp = await this.current(by);
    const closeImplicit = this.implicit;
    try {
      return await this.project.exclusive(async () => {
        const keys = await this.keysFor(targets).catch(noEntries);
        const before = new Map<string, PathState>();
        for (const key of keys) before.set(key, await this.project.currentState(key).catch(unreadable));
        try {
          return await run();
        } finally {
          const changes = [];
          for (const key of keys) changes.push({ path: key, before: before.get(key) ?? null, after: await this.project.noteChanged(key).catch(unreadable) });
          await this.record(cp, changes, by).catch((error: unknown) => this.onLog?.(`rewind: ${(error as Error).message}`));
        }
      });
    } finally {
      if (closeImplicit) await this.end();
    }
  }

  /** The real paths a tool will touch, and the folders above them that do not exist yet (it may create them). */
  private async keysFor(targets: readonly PathTarget[]): Promise<string[]> {
    const keys: string[] = [];
    for (const t of targets) {
      const resolved = await resolvePath(t.path, this.project.root, { followFinal: t.followFinal }).catch(absent);
      if (!resolved) continue;
      const key = this.project.keyOf(resolved.realPath);
      keys.push(key);
      if (!key.startsWith('/')) {
        const parts = key.split('/');
        for (let i = parts.length - 1; i > 0; i--) {
          const parent = parts.slice(0, i).join('/');
          if (this.project.baseline.map.has(parent) || (await this.project.currentState(parent)) !== null) break;
          keys.unshift(parent);
        }
      }
    }
    return [...new Set(keys)];
  }

  async aroundCommand<T>(by: string, run: () => Promise<T>): Promise<T> {
    const cp = await this.current(by);
    const closeImplicit = this.implicit;
    try {
      return await this.scanAround(cp, by, run);
    } finally {
      if (closeImplicit) await this.end();
    }
  }

  private async scanAround<T>(cp: MutableCheckpoint, by: string, run: () => Promise<T>): Promise<T> {
    try {
      await this.project.ensureBaseline();
    } catch (error) {
      await this.note(cp, `changes by ${by} not tracked: ${(error as Error).message}`);
      return run();
    }
    if (this.project.truncated) {
      await this.note(cp, `the project has over ${MAX_TRACKED_PATHS} paths: changes by commands are not tracked`);
      return run();
    }
    return this.project.exclusive(async () => {
      // Edits made outside lindwyrm since the last scan: into the baseline, not into this turn.
      const scanned = await this.project.refreshBeforeCommand().then(
        () => true,
        async (error: unknown) => {
          await this.note(cp, `changes by ${by} not tracked: ${(error as Error).message}`);
          return false;
        },
      );
      try {
        return await run();
      } finally {
        if (scanned) await this.recordScan(cp, by).catch((error: unknown) => this.onLog?.(`rewind: ${(error as Error).message}`));
      }
    });
  }

  private async recordScan(cp: MutableCheckpoint, by: string): Promise<void> {
    // The command's own writes are counted before the scan begins, so they do not make the next
    // command's scan look necessary.
    await settleEvents();
    const after = await this.project.refreshLocked();
    await this.record(cp, after.changes, by);
    for (const dir of after.untrackedChanged) await this.note(cp, `${dir} changed (not tracked: ${this.whyUntracked(dir)})`);
    for (const c of after.changes) {
      if (c.after?.kind === 'unkept') await this.note(cp, `${c.path} changed (its contents are not kept: over the size cap or this turn's share of rewind_max_mb)`);
    }
    if (after.truncated) await this.note(cp, `the project has over ${MAX_TRACKED_PATHS} paths: changes by commands are not tracked`);
  }

  private whyUntracked(dir: string): string {
    const why = this.project.skipped.find((s) => s.path === dir)?.why;
    return why === 'ignored' ? '.gitignore' : 'vendored';
  }

  /** What restoring checkpoint `id`'s code would do now; undefined for an unknown id. */
  async plan(id: number): Promise<RestorePlan | undefined> {
    if (!this.get(id)) return undefined;
    return this.project.exclusive(() =>
      planRestore({
        checkpoints: this.all,
        id,
        current: (path) => this.project.currentState(path).catch(unreadable),
        hasBlob: (hash) => this.project.blobs.has(hash),
      }),
    );
  }

  async conversationAt(id: number): Promise<ConversationState | undefined> {
    const ref = this.get(id)?.conversation;
    if (!ref) return undefined;
    return loadConversation(this.project.blobs, ref).catch(absent);
  }

  /** For restore.ts: the open log, to record a rewind checkpoint into. */
  logFor(): CheckpointLog {
    return this.log;
  }

  /** For restore.ts: records a finished rewind's changes into its checkpoint. */
  async recordRestore(cp: Checkpoint, changes: readonly { path: string; before: PathState; after: PathState }[]): Promise<void> {
    const mutable = this.all.find((c) => c.id === cp.id);
    if (mutable) await this.record(mutable, changes, 'rewind');
  }

  isOpen(): boolean {
    return this.open !== undefined;
  }

  openId(): number | undefined {
    return this.open?.id;
  }

  /** Forgets these checkpoints (the quota dropped them) and writes the log without them. */
  async drop(ids: ReadonlySet<number>): Promise<void> {
    const keep = this.all.filter((c) => !ids.has(c.id));
    this.all.splice(0, this.all.length, ...keep);
    await this.log.rewrite(keep);
  }

  async close(): Promise<void> {
    await this.end();
  }
}
