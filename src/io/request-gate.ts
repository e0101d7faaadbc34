/**
 * A prompt's request leaves before the screen redraws. Between Enter and the request the engine
 * saves the prompt (several file operations, each a trip round the event loop) and builds the
 * body; a redraw of the whole screen let in at any of those trips (the emptied input, the prompt
 * in the transcript: tens of milliseconds of Ink's layout on a busy machine) ran ahead of the
 * request. So a submitted prompt holds the gate shut, the HTTP layer opens it once the request is
 * handed to the client, and what waits for it runs two check-phase hops later: past the next poll
 * phase, where the socket connects and the request is written. A cap keeps a slow path (a hook, a
 * save on a slow disk, a prompt that sends nothing) from holding the screen still for long.
 *
 * One gate per process: there is one screen, and one prompt in flight at a time.
 */

/** The longest a redraw waits for a request. */
export const REDRAW_CAP_MS = 250;

/**
 * One Int32, 1 while a request is pending: background threads (the code map's parse workers)
 * read it between files and wait, so on a busy machine the request does not share the cores with
 * them, nor with the collector and compiler threads their work sets going. Made on first use.
 */
let pauseFlag: Int32Array | undefined;

/** The shared flag for a worker to wait on (see waitWhileRequestPending). */
export function requestPendingFlag(): SharedArrayBuffer {
  pauseFlag ??= new Int32Array(new SharedArrayBuffer(4));
  return pauseFlag.buffer as SharedArrayBuffer;
}

/** In a worker: returns once no request is pending (or after the redraw cap, whichever is first). */
export function waitWhileRequestPending(flag: Int32Array): void {
  if (Atomics.load(flag, 0) === 1) Atomics.wait(flag, 0, 1, REDRAW_CAP_MS);
}

let waiting: (() => void)[] | undefined;
let cap: ReturnType<typeof setTimeout> | undefined;
let opening = false;

/** A prompt was submitted: redraws asked for from now on wait for its request (or the cap). */
export function holdForRequest(): void {
  if (waiting) return;
  waiting = [];
  opening = false;
  if (pauseFlag) Atomics.store(pauseFlag, 0, 1);
  cap = setTimeout(open, REDRAW_CAP_MS);
  cap.unref();
}

/** The request was handed to the HTTP client (or the prompt sends none): the gate opens once it is written. */
export function requestDispatched(): void {
  if (!waiting || opening) return;
  opening = true;
  setImmediate(() => setImmediate(open));
}

function open(): void {
  clearTimeout(cap);
  cap = undefined;
  if (pauseFlag) {
    Atomics.store(pauseFlag, 0, 0);
    Atomics.notify(pauseFlag, 0);
  }
  const run = waiting ?? [];
  waiting = undefined;
  opening = false;
  for (const fn of run) fn();
}

/** Whether a submitted prompt's request has not left yet (a redraw now would run ahead of it). */
export function requestPending(): boolean {
  return waiting !== undefined;
}

/**
 * Runs `fn` once the request of a prompt just submitted has left; with none in flight, two
 * check-phase hops from now (the caller may be about to submit one in the same key handler).
 */
export function afterRequestLeaves(fn: () => void): void {
  setImmediate(() => {
    if (waiting) waiting.push(fn);
    else setImmediate(fn);
  });
}
