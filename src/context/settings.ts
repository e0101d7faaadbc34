/**
 * The context settings and their defaults, all derived from the window so that one rule fits a
 * 16K local model and a 1M hosted one.
 */

export interface ContextSettings {
  readonly window: number;
  /** Offload a bulk tool result on arrival above this many tokens. */
  readonly eagerTokens: number;
  /** Over the reclaim point, older tool results above this many tokens move to the store. */
  readonly thresholdTokens: number;
  /** The most recent stretch of conversation, in tokens, that reclaiming never touches. */
  readonly protectedTokens: number;
  /** Where reclaiming starts: min(75% of the window, 200k). */
  readonly reclaimAt: number;
}

/** Above this, a share of the window stops being a sensible rule (cold caches, slow prefill). */
export const RECLAIM_CEILING = 200_000;

export function reclaimPoint(window: number): number {
  return Math.min(Math.floor(window * 0.75), RECLAIM_CEILING);
}

/** A thirty-second of the window, never below 1,000: 4,000 on 128K, 31,250 on 1M. */
export function defaultEagerTokens(window: number): number {
  return Math.max(1_000, Math.floor(window / 32));
}

/**
 * A quarter of the eager size, never below 500: results that were too small to offload on arrival
 * but still worth moving once space is short. Anything smaller barely beats its own stub.
 */
export function defaultThresholdTokens(window: number): number {
  return Math.max(500, Math.floor(window / 128));
}

/**
 * A quarter of the reclaim point: 24,000 tokens on 128K, 50,000 on 1M. Big enough to hold the
 * turn in progress with its test runs, small enough that a summarize frees most of the space.
 */
export function defaultProtectedTokens(window: number): number {
  return Math.floor(reclaimPoint(window) / 4);
}

export function resolveContextSettings(opts: {
  window: number;
  eagerTokens?: number;
  thresholdTokens?: number;
  protectedTokens?: number;
}): ContextSettings {
  const window = Math.max(1, Math.floor(opts.window));
  return {
    window,
    eagerTokens: opts.eagerTokens ?? defaultEagerTokens(window),
    thresholdTokens: opts.thresholdTokens ?? defaultThresholdTokens(window),
    protectedTokens: opts.protectedTokens ?? defaultProtectedTokens(window),
    reclaimAt: reclaimPoint(window),
  };
}
