/**
 * Tells whether anything may have changed in the project since a scan began, so the scan before a
 * command can be skipped when nothing did. Every tracked folder gets a file-system watch (inotify,
 * FSEvents); any event in any of them marks the project dirty. It is only ever used to skip work
 * that would have found nothing: the scan after a command always runs in full, and whenever the
 * watch cannot be trusted (too many folders, a watch that failed, folders added since it was set
 * up) it answers "dirty" and the scan runs as if there were no watch at all.
 */
import { watch, type FSWatcher } from 'node:fs';

/** More folders than this and the project is scanned before every command instead. */
export const MAX_WATCHED_DIRS = 4096;

export class ChangeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private events = 0;
  /** The event count a scan that began at it has seen everything up to. */
  private cleanAt = -1;
  private broken = false;

  /** Marks the point a full scan begins: every event before it is covered by that scan. */
  scanStarting(): number {
    return this.events;
  }

  /** The scan that began at `mark` finished: the project is clean as of then. */
  scanned(mark: number): void {
    this.cleanAt = mark;
  }

  /** Whether the scan before a command can be skipped: watching works and no event came since the last scan began. */
  unchanged(): boolean {
    return !this.broken && this.watchers.size > 0 && this.cleanAt === this.events;
  }

  /** Watches exactly these folders (absolute paths), adding and dropping watches as folders come and go. */
  follow(dirs: readonly string[]): void {
    if (this.broken) return;
    if (dirs.length > MAX_WATCHED_DIRS) {
      this.stop();
      return;
    }
    const wanted = new Set(dirs);
    for (const [dir, watcher] of this.watchers) {
      if (wanted.has(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    let added = false;
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, () => {
          this.events++;
        });
        // A folder removed or a watch the system drops: no longer trusted.
        watcher.on('error', () => {
          this.events++;
          watcher.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, watcher);
        added = true;
      } catch {
        // Out of watches (ENOSPC), or the folder just went: fall back to scanning every time.
        this.stop();
        return;
      }
    }
    // A folder watched only now may have changed before its watch began.
    if (added) this.events++;
  }

  stop(): void {
    this.broken = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

/**
 * Waits until events already queued by the kernel have reached the watch callbacks: a command's own
 * writes happened before it exited, so after two turns of the event loop they have been counted.
 */
export async function settleEvents(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
