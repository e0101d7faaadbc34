/**
 * The checker of this thread (the index worker's, or the main thread's when there is no worker):
 * built on the first question for a project root, kept for the ones after (the language service
 * then re-parses only files that changed on disk).
 */
import { statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChangeWatch, settleEvents } from '../rewind/change-watch.js';
import type { CheckerAnswer, CheckerRequest } from './checker-protocol.js';
import { lowerInliningBudget, tightenHeapGrowth } from './v8-flags.js';
import { loadTypeScript } from './load-typescript.js';
import { createTsChecker, type TsChecker } from './ts-checker.js';

/**
 * A checker and a watch of its project files' folders: while no event came from any of them, the
 * files the checker looked at are as it saw them, and a question on a large project is spared
 * looking at each of its files again (5,000 files: ~40 ms a question). Any event at all, a watch
 * that fails, or too many folders, and every file is looked at again, as without a watch.
 */
interface Hosted {
  readonly checker: TsChecker;
  readonly watch: ChangeWatch;
}

const checkers = new Map<string, Hosted>();

/**
 * Linux file systems whose files another machine can change without an event here (NFS, SMB/CIFS,
 * FUSE mounts such as sshfs, 9p, Ceph, AFS, Lustre…): a project on one is looked at file by file
 * every question, the watch never trusted.
 */
const REMOTE_FILE_SYSTEMS = new Set([0x6969, 0x517b, 0xfe534d42, 0xff534d42, 0x65735546, 0x01021997, 0x00c36400, 0x5346414f, 0x0bd00bd0, 0x73757245, 0x564c]);

function watchable(root: string): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return !REMOTE_FILE_SYSTEMS.has(statfsSync(root).type);
  } catch {
    return false;
  }
}
/**
 * Shared with the main thread: [0] non-zero when a request waits behind the one under way, [1] the
 * id of a request no tool waits for any more (past its budget): it stops, as a warm-up does, when another waits.
 */
let waiting: Int32Array | undefined;
/** The id of the request under way (0: none, or asked in this thread). */
let current = 0;

/** The worker's flag for "a request waits": a warm-up under way stops when it is set. */
export function useWaitingFlag(flag: Int32Array): void {
  waiting = flag;
}

/** Called as a request starts: whatever waited is now being served. */
export function clearWaiting(): void {
  if (waiting) Atomics.store(waiting, 0, 0);
}
/** One project per session; a second root (tests, benchmarks) replaces the first rather than adding memory. */
const MAX_PROJECTS = 1;

export async function answerCheckerRequest(request: CheckerRequest, id = 0): Promise<CheckerAnswer> {
  try {
    const api = loadTypeScript();
    let hosted = checkers.get(request.root);
    if (!hosted) {
      tightenHeapGrowth();
      lowerInliningBudget();
      if (checkers.size >= MAX_PROJECTS) dropCheckers();
      const checker = createTsChecker(api, request.root, () => waiting !== undefined && Atomics.load(waiting, 0) !== 0,
        () => waiting !== undefined && current !== 0 && Atomics.load(waiting, 1) === current);
      const watch = new ChangeWatch();
      if (!watchable(request.root)) watch.stop();
      checkers.set(request.root, (hosted = { checker, watch }));
    }
    const { checker, watch } = hosted;
    const root = request.root;
    if (request.files) watch.follow([...new Set(request.files.map((rel) => dirname(join(root, rel))))]);
    // A write that returned before this request was sent has its event queued by now: let it reach the watch.
    await settleEvents();
    current = id;
    const mark = watch.scanStarting();
    const answer = checker.answer(request, watch.unchanged());
    // What the checker looked at is as of the mark (an event since then: the next question looks again).
    watch.scanned(mark);
    return answer;
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Drops every checker (its memory goes with it) and its watch. */
export function dropCheckers(): void {
  for (const { watch } of checkers.values()) watch.stop();
  checkers.clear();
}
