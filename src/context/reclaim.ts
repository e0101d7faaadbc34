/**
 * One reclaim pass: retroactive offload first (lossless), summarizing only if that was not enough
 * (lossy). The protected zone of recent conversation is never touched, and the history is only
 * cut where a user turn starts.
 */
import type { ContentBlock, Message, UserMessage } from '../providers/types.js';
import { estimateMessages } from './estimate-tokens.js';
import { cutPoint, protectedStart } from './history-shape.js';
import { formatSize } from './offload-stub.js';
import { offloadOlderResults } from './retro-offload.js';
import type { ContextSettings } from './settings.js';
import { describeRefs, withSummary } from './summary-message.js';
import { renderTurns, splitTurns } from './turn-archive.js';
import type { ConfirmSummary, OffloadStore, ReclaimResult, Summarizer } from './types.js';
import { formatCount } from './format-count.js';

export interface ReclaimDeps {
  readonly settings: ContextSettings;
  readonly marker: string;
  readonly store: OffloadStore;
  readonly summarize: Summarizer;
  readonly memo: WeakMap<ContentBlock, string>;
  /** Stop moving results as soon as the context is under the reclaim point (see below). */
  readonly offloadUntilUnder: boolean;
}

const fmt = formatCount;

/**
 * `force` is /compact: move every eligible older result and summarize whatever lies before the
 * protected zone, however full the context is.
 *
 * Otherwise a pass moves every eligible result older than the protected zone, oldest first, not
 * just enough of them to dip under the reclaim point: the first edit already costs the cache of
 * everything after it, so the rest come free now but would each cost it again on a later turn.
 * Stopping at the reclaim point (offloadUntilUnder) made a 100-turn benchmark reclaim before 40
 * requests instead of 5 (scripts/bench-context.ts).
 */
export async function reclaim(
  deps: ReclaimDeps,
  messages: readonly Message[],
  used: number,
  opts: {
    force: boolean;
    instructions?: string;
    summarizePaused?: boolean;
    /** The system prompt and tools, in tokens: sent before the history, for the plan's figures. */
    prefixTokens?: number;
    /** Asked before an automatic summary; absent: summarize without asking. */
    confirm?: ConfirmSummary;
    /** Offered to `confirm` as the point a postponed summary happens after all. */
    postponeUntil?: number;
    /** Set while a postponed summary waits for that point: offload only. */
    postponedUntil?: number;
    /** The summary was postponed once and its point is reached: `confirm` is told, not asked. */
    wasPostponed?: boolean;
  },
): Promise<ReclaimResult> {
  const { settings, marker } = deps;
  const zone = protectedStart(messages, settings.protectedTokens);
  const offload = await offloadOlderResults({
    messages,
    end: zone,
    minTokens: settings.thresholdTokens,
    used,
    stopBelow: opts.force || !deps.offloadUntilUnder ? undefined : settings.reclaimAt,
    marker,
    store: deps.store,
    memo: deps.memo,
  });
  const movedNote = [
    offload.moved > 0
      ? `Moved ${offload.moved} older tool result${offload.moved === 1 ? '' : 's'} (${formatSize(offload.bytes)}) to the offload store, about ${fmt(used - offload.used)} tokens freed.`
      : '',
    offload.writeError ? `Some older results stayed in place: the offload store could not be written (${offload.writeError}).` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const offloaded = (detail: string): ReclaimResult => ({
    messages: offload.messages,
    action: offload.moved > 0 ? 'offloaded' : 'none',
    detail: [movedNote, detail].filter(Boolean).join(' ') || undefined,
    offloadedResults: offload.moved,
    summarizedMessages: 0,
  });

  if (!opts.force && offload.used < settings.reclaimAt) return offloaded('');

  if (opts.summarizePaused) {
    return offloaded('Summarizing is paused since the last attempt failed; /compact tries again now.');
  }
  const current = offload.messages;
  const cut = cutPoint(current, zone);
  if (cut === undefined) {
    const why = opts.force
      ? `Nothing older than the protected zone (the last ${fmt(settings.protectedTokens)} tokens) to summarize.`
      : `Still over the reclaim point, but everything left is in the protected zone (the last ${fmt(settings.protectedTokens)} tokens) or in the turn under way.`;
    return offloaded(why);
  }

  if (opts.postponedUntil !== undefined) {
    return offloaded(`Summarizing is postponed, as you chose, until the context reaches ${fmt(opts.postponedUntil)} tokens; /compact summarizes now.`);
  }
  const older = current.slice(0, cut);
  const olderTokens = estimateMessages(older);
  if (opts.confirm) {
    const decision = await opts.confirm({
      usedTokens: offload.used,
      window: settings.window,
      prefixTokens: opts.prefixTokens ?? 0,
      olderMessages: older.length,
      olderTurns: splitTurns(older).length,
      olderTokens,
      keptTokens: estimateMessages(current.slice(cut)),
      ...(opts.postponeUntil !== undefined ? { postponeUntil: opts.postponeUntil } : {}),
      ...(opts.wasPostponed ? { wasPostponed: true } : {}),
    });
    if (decision === 'later') {
      const until = opts.postponeUntil === undefined ? '' : ` until the context reaches ${fmt(opts.postponeUntil)} tokens`;
      return { ...offloaded(`Summary postponed${until}; /compact summarizes whenever you like.`), postponed: true };
    }
  }
  let summary: string;
  let archived: string[];
  try {
    summary = (await deps.summarize(older, opts.instructions)).trim();
    if (!summary) throw new Error('the model returned an empty summary');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      messages,
      action: 'none',
      detail: `Summarizing the earlier conversation failed (${reason}); the conversation was left exactly as it was.`,
      offloadedResults: 0,
      summarizedMessages: 0,
      failed: true,
    };
  }
  // Nothing a summary replaces may be lost: without its archive, no summary.
  try {
    archived = await deps.store.archive(renderTurns(older, marker));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      messages,
      action: 'none',
      detail: `Summarizing was skipped: the turns it would replace could not be archived (${reason}), and a summary without its archive would lose them. The conversation was left exactly as it was.`,
      offloadedResults: 0,
      summarizedMessages: 0,
      failed: true,
    };
  }

  const firstKept = current[cut] as UserMessage;
  const compacted: Message[] = [withSummary(firstKept, summary, marker, archived), ...current.slice(cut + 1)];
  const after = estimateMessages(compacted.slice(0, 1)) - estimateMessages([firstKept]);
  const turns = archived.length === 1 ? '1 turn' : `${archived.length} turns`;
  const summaryNote =
    `Summarized ${older.length} earlier message${older.length === 1 ? '' : 's'} (about ${fmt(olderTokens)} tokens) into about ${fmt(after)}; ` +
    `the last ${current.length - cut} were kept as they were. The ${turns} it replaces ${archived.length === 1 ? 'is' : 'are'} archived (${describeRefs(archived)}): recall searches them.`;
  return {
    messages: compacted,
    action: 'summarized',
    detail: [movedNote, summaryNote].filter(Boolean).join(' '),
    offloadedResults: offload.moved,
    summarizedMessages: older.length,
    archived,
    tokensAfter: (opts.prefixTokens ?? 0) + estimateMessages(compacted),
  };
}
