/**
 * A session does not wait for a cold code map: indexing a few hundred files from scratch takes
 * seconds (12 s on a 324-file project on a loaded machine), and the first request — or a whole
 * one-shot run — would wait for it. The index keeps building in the background; the symbol tools
 * wait for it when the model calls them.
 */
import type { ToolDefinition, ToolResult } from '../tools/types.js';
import type { CodeMapPort } from './ports.js';
import { absent } from '../diagnostics/ignore-error.js';

/**
 * How long a session start waits for the code map. A warm cache opens well within this (a
 * stat per file), so a usual start gets the map in its prompt; a cold index gets no longer than
 * a pause the user barely notices.
 */
export const CODE_MAP_WAIT_MS = 1500;

/**
 * How long a one-shot run, its answer printed, waits for an index still building so it can write
 * its cache: a small project finishes in this time and the next run starts with the map in its
 * prompt; a huge one is abandoned (the cache is written by rename, so never half-written) rather
 * than holding the shell.
 */
export const CODE_MAP_GRACE_MS = 3000;

/** Waits up to `graceMs` for `lateOpen` (the late map opening and closing, which writes its cache). */
export async function finishLateIndex(lateOpen: Promise<void>, graceMs: number, log?: (line: string) => void, now: () => number = Date.now): Promise<boolean> {
  log?.(`code map: still indexing; waiting up to ${graceMs} ms for it to write its cache`);
  const started = now();
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: this timer is what ends the wait, and the caller's exit follows it.
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  try {
    const done = await Promise.race([lateOpen.then(() => true as const), late]);
    log?.(done ? `code map: cache written ${now() - started} ms after the answer` : `code map: not ready within ${graceMs} ms; abandoned, the next run indexes again`);
    return done;
  } finally {
    clearTimeout(timer);
  }
}

/** The code map if it opens within `waitMs`, else undefined (it keeps opening). */
export async function waitForCodeMap(opening: Promise<CodeMapPort | undefined>, waitMs = CODE_MAP_WAIT_MS): Promise<CodeMapPort | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
    // A timer alone must not hold a process that is otherwise done.
    timer.unref();
  });
  try {
    return await Promise.race([opening, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The code map's tools, registered while it is still opening: same names and schemas (the tool
 * list stays the same for the whole session), each call waiting for the index first.
 */
export function deferredCodeMapTools(shapes: readonly ToolDefinition[], opening: Promise<CodeMapPort | undefined>): ToolDefinition[] {
  return shapes.map((shape) => ({
    name: shape.name,
    description: shape.description,
    inputSchema: shape.inputSchema,
    kind: shape.kind,
    bulk: shape.bulk,
    async run(args, ctx): Promise<ToolResult> {
      const map = await untilReady(opening, ctx.signal);
      if (map === 'aborted') return { ok: false, content: 'Interrupted while the code map was indexing.', summary: 'interrupted', interrupted: true };
      const real = map?.tools().find((t) => t.name === shape.name);
      if (!real) {
        return { ok: false, content: `${shape.name} is unavailable: the code map could not be built. Use grep and read_file instead.`, summary: 'code map unavailable' };
      }
      return real.run(args, ctx);
    },
  }));
}

async function untilReady(opening: Promise<CodeMapPort | undefined>, signal: AbortSignal): Promise<CodeMapPort | undefined | 'aborted'> {
  if (signal.aborted) return 'aborted';
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // A map that failed to open was reported where it opens; here it is only not there.
    return await Promise.race([opening.catch(absent), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
