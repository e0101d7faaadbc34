/**
 * One project's rewind store under the data dir (0700 folders, 0600 files):
 *   <dataDir>/rewind/<hash of the project's real path>/
 *     objects/ab/cdef…        file contents and messages, gzipped, by SHA-256 (blob-store.ts)
 *     baseline.json           the last stat and blob of every tracked path (baseline-file.ts)
 *     sessions/<id>.jsonl     each session's checkpoints (checkpoint-log.ts)
 *     restore-journal.json    only while a restore runs (restore-journal.ts)
 * Nothing is ever written into the project (no shadow repository, nothing in the user's .git).
 * Everything that reads or changes the baseline runs one at a time through `exclusive`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Baseline, RACY_MS, type RefreshOutcome, type SkippedPath } from './baseline.js';
import { lstatQuiet } from './project-scan.js';
import { readBaselineFile, writeBaselineFile } from './baseline-file.js';
import { createBlobStore, DIR_MODE, type BlobStore } from './blob-store.js';
import { ChangeWatch } from './change-watch.js';
import type { PathState } from './types.js';
import { ignoreError, orderOnly } from '../diagnostics/ignore-error.js';

/** A session started in ~ must not make the scan walk the whole disk. */
export const MAX_TRACKED_PATHS = 100_000;

export interface ProjectStoreOptions {
  /** The data dir (appPaths().dataDir); undefined keeps everything in a temp folder removed at close (--no-save). */
  readonly dataDir?: string;
  /** Real path of the project root. */
  readonly projectRoot: string;
  /** rewind_max_mb in bytes. */
  readonly maxBytes: number;
  /**
   * Cleans a JSON text of secrets (API keys, proxy credentials) before it is stored: the prompts and
   * messages a checkpoint keeps, like a saved session, never hold them.
   */
  readonly redactJson?: (json: string) => string;
}

export function rewindDirFor(dataDir: string, realRoot: string): string {
  return join(dataDir, 'rewind', createHash('sha256').update(realRoot).digest('hex').slice(0, 20));
}

/** Files above this are seen but not kept: a twenty-fifth of the budget, at most 20 MB, at least 1 MB. */
export function fileCapFor(maxBytes: number): number {
  return Math.max(1 << 20, Math.min(20 << 20, Math.floor(maxBytes / 25)));
}

export class ProjectStore {
  readonly blobs: BlobStore;
  readonly baseline: Baseline;
  readonly watch = new ChangeWatch();
  private queue: Promise<unknown> = Promise.resolve();
  /** Set inside an exclusive task, so a nested call (a hook inside a command) does not wait for itself. */
  private readonly holder = new AsyncLocalStorage<true>();
  private ready: Promise<void> | undefined;
  private dirty = false;
  /** What the last scan left out (folders, large files), for notes and /context. */
  skipped: readonly SkippedPath[] = [];
  ignoredFiles = 0;
  /** The scan was cut short: changes by commands are not tracked (too many files). */
  truncated = false;

  private constructor(
    readonly dir: string,
    readonly root: string,
    readonly maxBytes: number,
    private readonly temporary: boolean,
    readonly redactJson: (json: string) => string,
  ) {
    this.blobs = createBlobStore(dir);
    this.baseline = new Baseline({
      root,
      maxFileBytes: fileCapFor(maxBytes),
      maxPaths: MAX_TRACKED_PATHS,
      blobs: this.blobs,
      // Half for the project as it is now (every change's pre-image), a tenth for what one turn adds.
      budgetBytes: Math.floor(maxBytes / 2),
      turnBudgetBytes: Math.floor(maxBytes / 10),
    });
  }

  static async open(opts: ProjectStoreOptions): Promise<ProjectStore> {
    const temporary = opts.dataDir === undefined;
    let dir: string;
    if (opts.dataDir === undefined) {
      dir = await mkdtemp(join(tmpdir(), 'lwyrm-rewind-'));
    } else {
      dir = rewindDirFor(opts.dataDir, opts.projectRoot);
      await mkdir(join(opts.dataDir, 'rewind'), { recursive: true, mode: DIR_MODE });
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
    }
    await mkdir(join(dir, 'sessions'), { recursive: true, mode: DIR_MODE });
    return new ProjectStore(dir, opts.projectRoot, opts.maxBytes, temporary, opts.redactJson ?? ((json) => json));
  }

  /** A plain text with its secrets replaced. */
  redactText(text: string): string {
    return JSON.parse(this.redactJson(JSON.stringify(text))) as string;
  }

  sessionLogPath(id: string): string {
    return join(this.dir, 'sessions', `${id}.jsonl`);
  }

  /** Runs `task` alone (a call nested inside a running task runs at once: it already holds the store). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return task();
    const run = this.queue.then(() => this.holder.run(true, task));
    this.queue = run.catch(orderOnly);
    return run;
  }

  /**
   * Loads the saved baseline and checks it against the disk (the first time, a full read of the
   * project). It runs outside `exclusive`: a file tool meanwhile notes its own path, and whichever
   * state the build records last for that path is corrected by the next scan's stat comparison.
   */
  ensureBaseline(): Promise<void> {
    this.ready ??= (async () => {
      const saved = this.temporary ? undefined : await readBaselineFile(this.dir, this.root);
      if (saved) this.baseline.load(saved.entries, saved.scanStart);
      await this.refreshLocked();
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** Scans and returns what changed since the last scan; the caller holds `exclusive`. */
  async refreshLocked(): Promise<RefreshOutcome> {
    const mark = this.watch.scanStarting();
    const first = !this.baseline.ready;
    const outcome = await this.baseline.refresh();
    this.watch.scanned(mark);
    this.skipped = outcome.skipped;
    this.ignoredFiles = outcome.ignoredFiles;
    this.truncated = outcome.truncated;
    this.dirty = true;
    if (outcome.truncated) this.watch.stop();
    else if (first || outcome.changes.some((c) => c.before?.kind === 'dir' || c.after?.kind === 'dir')) this.watch.follow(this.trackedDirs());
    return outcome;
  }

  /**
   * The scan before a command: skipped when the watch saw nothing happen since the last scan (the
   * result would be empty), a full scan otherwise.
   */
  async refreshBeforeCommand(): Promise<void> {
    if (this.watch.unchanged()) return;
    await this.refreshLocked();
  }

  private trackedDirs(): string[] {
    const dirs = [this.root];
    for (const [rel, k] of this.baseline.map) if (k.kind === 'dir') dirs.push(join(this.root, rel));
    return dirs;
  }

  /** The project-relative key of an absolute path, or the absolute path when outside. */
  keyOf(abs: string): string {
    const rel = relative(this.root, abs);
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return abs;
    return rel.split(sep).join('/');
  }

  absOf(key: string): string {
    return key.startsWith('/') ? key : join(this.root, key);
  }

  /** A path's state now, taken from the baseline when its stat still matches (contents stored either way). */
  async currentState(key: string): Promise<PathState> {
    const abs = this.absOf(key);
    const info: Stats | undefined = lstatQuiet(abs);
    if (!info) return null;
    const known = key.startsWith('/') ? undefined : this.baseline.map.get(key);
    const fresh = Math.max(info.mtimeMs, info.ctimeMs) >= Date.now() - RACY_MS;
    if (
      known &&
      !known.racy &&
      !fresh &&
      known.size === info.size &&
      known.mtimeMs === info.mtimeMs &&
      known.ctimeMs === info.ctimeMs &&
      known.ino === info.ino &&
      known.mode === info.mode
    ) {
      return known.state;
    }
    return this.baseline.stateOf(abs, info);
  }

  /** Records a path's new state in the baseline after lindwyrm changed it (a file tool, a restore). */
  async noteChanged(key: string): Promise<PathState> {
    this.dirty = true;
    if (key.startsWith('/')) return this.baseline.stateOf(key);
    return this.baseline.note(key, this.absOf(key));
  }

  async saveBaseline(): Promise<void> {
    if (this.temporary || !this.dirty || !this.baseline.ready) return;
    this.dirty = false;
    await writeBaselineFile(this.dir, this.root, this.baseline.scanStart(), this.baseline.map);
  }

  async close(): Promise<void> {
    await this.queue;
    this.watch.stop();
    if (this.temporary) await rm(this.dir, { recursive: true, force: true });
    else await this.saveBaseline().catch(ignoreError('save the rewind baseline'));
  }
}
