/**
 * The one place a failure is deliberately let go: cleanup after the real work is done (a temp
 * file, a lock of a session being left, a cache that is only derived data). Nothing can be done
 * about such a failure and it must not fail what succeeded, but under -v it is said, so a disk
 * that keeps refusing is visible instead of silent.
 */

type LogSink = (line: string) => void;

let verboseLog: LogSink | undefined;

/** Where let-go failures are reported: the verbose log of the run (-v), or nowhere. */
export function setVerboseLog(log: LogSink | undefined): void {
  verboseLog = log;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A `.catch` handler for a failure nothing can be done about: logs `could not <what>: <why>` to
 * `log` (default: the run's verbose log) and resolves to undefined.
 */
export function ignoreError(what: string, log?: LogSink): (error: unknown) => undefined {
  return (error) => {
    (log ?? verboseLog)?.(`could not ${what}: ${messageOf(error)}`);
    return undefined;
  };
}

/** The same for a synchronous `catch`: call it with the caught error. */
export function reportIgnored(what: string, error: unknown, log?: LogSink): void {
  ignoreError(what, log)(error);
}

/**
 * A `.catch` for a probe whose failure means "not there": a file that is missing and one that
 * cannot be read are the same to the caller, which goes on without it.
 */
export function absent(): undefined {
  return undefined;
}

/** The same for a listing: a folder that is gone or cannot be read lists nothing. */
export function noEntries(): never[] {
  return [];
}

/**
 * A `.catch` for a chain that only keeps work in order: each link's own failure reaches whoever
 * awaits that link, and must not stop the links after it.
 */
export function orderOnly(): undefined {
  return undefined;
}
