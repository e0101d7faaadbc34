/**
 * While the full screen is up, anything else written to stdout or stderr (a library's warning, a
 * stray console.log) would scribble over the frame. It is held back and replayed on the normal
 * screen after leaving, so it is neither lost nor in the way.
 */

type Write = typeof process.stdout.write;

export interface StrayOutput {
  /** The real stdout write, for the view's own output. */
  readonly writeStdout: (data: string) => boolean;
  /** Restores the streams and returns what was held back, in order. */
  release(): { stdout: string; stderr: string };
}

const MAX_HELD = 256 * 1024;

export function holdStrayOutput(): StrayOutput {
  const realOut: Write = process.stdout.write;
  const realErr: Write = process.stderr.write;
  let out = '';
  let err = '';
  const hold =
    (append: (s: string) => void): Write =>
    ((chunk: unknown, encodingOrCb?: unknown, cb?: unknown) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as Write;
  process.stdout.write = hold((s) => {
    out = (out + s).slice(-MAX_HELD);
  });
  process.stderr.write = hold((s) => {
    err = (err + s).slice(-MAX_HELD);
  });
  let released = false;
  return {
    writeStdout: (data) => realOut.call(process.stdout, data),
    release() {
      if (!released) {
        released = true;
        process.stdout.write = realOut;
        process.stderr.write = realErr;
      }
      const held = { stdout: out, stderr: err };
      out = '';
      err = '';
      return held;
    },
  };
}
