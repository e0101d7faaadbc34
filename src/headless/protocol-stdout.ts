/**
 * When stdout is a protocol (stream-json lines, ACP's JSON-RPC), one stray write from a dependency
 * (a console.log, a library's banner) would break every consumer's framing. claimStdout takes
 * stdout over: whatever else writes to it lands on stderr, and only the returned writer reaches it.
 */

export interface ClaimedStdout {
  /** Writes to the real stdout; false when the stream asks the writer to wait (backpressure). */
  write(text: string): boolean;
  /** Gives stdout back. */
  release(): void;
}

type WriteFn = NodeJS.WriteStream['write'];

// One claim per stream: the CLI claims stdout as soon as it knows it is a protocol, and the
// output code that runs later gets the same writer, not a writer to the diverted stream.
const claims = new WeakMap<NodeJS.WriteStream, ClaimedStdout>();

export function claimStdout(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): ClaimedStdout {
  const existing = claims.get(stdout);
  if (existing) return existing;
  const original = stdout.write;
  const real = original.bind(stdout) as (text: string) => boolean;
  // Same signature as write, so console.log and friends keep working, only on the other stream.
  const diverted = function divert(this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    return (stderr.write as (...args: unknown[]) => boolean).call(stderr, chunk, ...rest);
  } as WriteFn;
  stdout.write = diverted;
  const claim: ClaimedStdout = {
    write: (text) => real(text),
    release() {
      if (stdout.write === diverted) stdout.write = original;
      claims.delete(stdout);
    },
  };
  claims.set(stdout, claim);
  return claim;
}
