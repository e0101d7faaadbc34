/**
 * The context manager the engine calls: offload on arrival, reclaim before a request when the
 * context is over the reclaim point, /compact on demand, and the figures behind /context.
 */
import type { ContentBlock, Message, ToolSchema, Usage } from '../providers/types.js';
import { estimateText, estimateTools } from './estimate-tokens.js';
import { BULK_TOOLS, buildStub, mainArgument, neutralizeMarker, stubSaves, wholeKeptNote } from './offload-stub.js';
import { reclaim } from './reclaim.js';
import { resolveContextSettings, type ContextSettings } from './settings.js';
import type {
  BeforeRequestHooks,
  ContextFillGauge,
  ContextManager,
  ContextStats,
  OffloadStore,
  ReclaimResult,
  Summarizer,
  ToolResultInfo,
} from './types.js';
import { createUsageMeter } from './usage-meter.js';

export interface ContextManagerOptions {
  /** The preset's context_window, in tokens. */
  window: number;
  /** offload_eager_tokens; default a thirty-second of the window, floor 1,000. */
  eagerTokens?: number;
  /** offload_threshold_tokens; default a 128th of the window, floor 500. */
  thresholdTokens?: number;
  /** protected_tokens; default a quarter of the reclaim point. */
  protectedTokens?: number;
  offload: OffloadStore;
  summarize: Summarizer;
  /** The per-session marker that lindwyrm's own insertions carry and tool output cannot. */
  marker: string;
  /**
   * Stop a retroactive pass as soon as the context is under the reclaim point, instead of moving
   * every eligible older result at once. Default false: stopping early makes the next turns
   * reclaim again, each one costing the cache of the tail.
   */
  offloadUntilUnder?: boolean;
  /** The tool schemas sent with every request, so the estimate before the first request counts them. */
  tools?: readonly ToolSchema[];
  /** The preset's max_tokens: the room a reply needs, which a postponed summary must leave. */
  replyTokens?: number;
}

export type FullContextManager = ContextManager & {
  readonly settings: ContextSettings;
  /** Where a summary postponed at the reclaim point happens after all (undefined: no room to postpone). */
  readonly postponeUntil: number | undefined;
  recordSideUsage(usage: Usage): void;
  gauge(messages: readonly Message[], system: string): ContextFillGauge;
};

export function createContextManager(opts: ContextManagerOptions): FullContextManager {
  if (!opts.marker) throw new Error('createContextManager needs a non-empty session marker');
  const settings = resolveContextSettings(opts);
  const { marker, offload } = opts;
  const meter = createUsageMeter(opts.tools);
  const memo = new WeakMap<ContentBlock, string>();
  // After a failed summary request, automatic attempts wait until the context has grown by a
  // twentieth of the window: a request that failed once (a 400, an outage) would otherwise be
  // re-sent before every tool step. /compact always tries.
  let pausedUntil: number | undefined;
  const pauseStep = Math.max(1_000, Math.floor(settings.window / 20));
  const deps = { settings, marker, store: offload, summarize: opts.summarize, memo, offloadUntilUnder: opts.offloadUntilUnder ?? false };
  const toolTokens = estimateTools(opts.tools ?? []);
  const postponeUntil = nextThreshold(settings.window, settings.reclaimAt, opts.replyTokens ?? 0);
  // "Later" holds once: until the context reaches postponeUntil, or a summary is made meanwhile.
  let postponed = false;

  /**
   * A result clipped for the context: its whole goes to the store whatever its size, so nothing the
   * command printed is lost. A clipped copy small enough to stay inline stays, with the ref.
   */
  async function offloadWhole(tool: string, label: string | undefined, clipped: string, whole: string, cut: string | undefined): Promise<string> {
    let ref: string;
    try {
      ref = await offload.put(tool, whole);
    } catch {
      // A full disk must not cost the model its result: keep the clipped copy inline.
      return clipped;
    }
    if (estimateText(clipped) > settings.eagerTokens) return buildStub({ tool, label, content: whole, ref, marker, ...(cut ? { cut } : {}) });
    return `${clipped}\n${wholeKeptNote(whole, ref, cut)}`;
  }

  return {
    settings,
    postponeUntil,

    async onToolResult(tool: string, content: string, info?: ToolResultInfo): Promise<string> {
      const clean = neutralizeMarker(content, marker);
      const bulk = info?.bulk ?? BULK_TOOLS.has(tool);
      const label = info?.label ?? mainArgument(info?.input);
      if (bulk && info?.whole !== undefined) return offloadWhole(tool, label, clean, neutralizeMarker(info.whole, marker), info.wholeCut);
      if (!bulk || estimateText(clean) <= settings.eagerTokens) return clean;
      if (!stubSaves(clean, buildStub({ tool, label, content: clean, ref: 'off_0000', marker }))) return clean;
      let ref: string;
      try {
        ref = await offload.put(tool, clean);
      } catch {
        // A full disk must not cost the model its result: keep it inline.
        return clean;
      }
      return buildStub({ tool, label, content: clean, ref, marker });
    },

    recordUsage(usage: Usage, messagesSent: number, sent?: readonly Message[]): void {
      meter.record(usage, messagesSent, sent);
    },

    recordSideUsage(usage: Usage): void {
      meter.recordSide(usage);
    },

    gauge(messages: readonly Message[], system: string): ContextFillGauge {
      const fill = meter.fill(messages, system);
      return { usedTokens: fill.usedTokens, measured: fill.measured, window: settings.window, threshold: settings.reclaimAt };
    },

    async beforeRequest(messages: readonly Message[], system: string, hooks?: BeforeRequestHooks): Promise<ReclaimResult> {
      const fill = meter.fill(messages, system);
      let result: ReclaimResult = { messages, action: 'none' };
      if (fill.usedTokens >= settings.reclaimAt) {
        const summarizePaused = pausedUntil !== undefined && fill.usedTokens < pausedUntil;
        const waiting = postponed && postponeUntil !== undefined && fill.usedTokens < postponeUntil;
        result = await reclaim(deps, messages, fill.usedTokens, {
          force: false,
          summarizePaused,
          prefixTokens: estimateText(system) + toolTokens,
          ...(hooks?.confirmSummary ? { confirm: hooks.confirmSummary } : {}),
          // Offered once per threshold: past a postponement the summary goes ahead, with a notice.
          ...(postponeUntil !== undefined && !postponed ? { postponeUntil } : {}),
          ...(postponed ? { wasPostponed: true } : {}),
          ...(waiting ? { postponedUntil: postponeUntil } : {}),
        });
        pausedUntil = result.failed ? fill.usedTokens + pauseStep : summarizePaused ? pausedUntil : undefined;
        if (result.postponed) postponed = true;
        if (result.action === 'summarized') postponed = false;
        if (result.messages !== messages) meter.invalidate();
      }
      meter.noteSent(result.messages, system);
      return result;
    },

    async compact(messages: readonly Message[], system: string, instructions?: string): Promise<ReclaimResult> {
      const fill = meter.fill(messages, system);
      const result = await reclaim(deps, messages, fill.usedTokens, { force: true, instructions, prefixTokens: estimateText(system) + toolTokens });
      if (!result.failed) pausedUntil = undefined;
      if (result.action === 'summarized') postponed = false;
      if (result.messages !== messages) meter.invalidate();
      return result;
    },

    async stats(messages: readonly Message[], system: string): Promise<ContextStats> {
      const fill = meter.fill(messages, system);
      const files = await offload.list();
      const archived = await offload.archived();
      return {
        usedTokens: fill.usedTokens,
        measured: fill.measured,
        estimatedTokens: fill.estimatedTokens,
        window: settings.window,
        threshold: settings.reclaimAt,
        protectedTokens: settings.protectedTokens,
        messages: messages.length,
        outputTokens: meter.totals.output,
        cacheReadTokens: meter.totals.cacheRead,
        inputTokensTotal: meter.totals.inputTotal,
        offloadedCount: files.length,
        offloadedBytes: files.reduce((sum, f) => sum + f.bytes, 0),
        archivedTurns: archived.length,
      };
    },
  };
}

/**
 * Where a summary postponed at the reclaim point happens after all: halfway from there to the
 * most a prompt can hold (the window less the reply's room). Undefined when that leaves too
 * little to be worth asking (under a fiftieth of the window): the summary then goes ahead.
 */
export function nextThreshold(window: number, reclaimAt: number, replyTokens: number): number | undefined {
  const ceiling = window - Math.max(0, replyTokens);
  const room = Math.floor((ceiling - reclaimAt) / 2);
  return room >= Math.max(500, window / 50) ? reclaimAt + room : undefined;
}
