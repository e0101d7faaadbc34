/**
 * Retroactive offload: once over the reclaim point, older tool results move to the store and
 * leave the same recoverable stub an eager offload does. Lossless, but it edits the middle of the
 * history, so the provider's cache is lost from the first edit on; that is why it waits for
 * pressure instead of running all the time.
 */
import type { ContentBlock, Message } from '../providers/types.js';
import { estimateBlock, estimateText } from './estimate-tokens.js';
import { callsAnsweredBy } from './history-shape.js';
import { buildStub, isStub, mainArgument, stubSaves } from './offload-stub.js';
import type { OffloadStore } from './types.js';

export interface RetroOffloadResult {
  readonly messages: readonly Message[];
  readonly moved: number;
  readonly bytes: number;
  /** Estimated tokens after the pass. */
  readonly used: number;
  /** Why a snapshot could not be written (a full disk): those results stayed inline. */
  readonly writeError?: string;
}

export async function offloadOlderResults(opts: {
  messages: readonly Message[];
  /** Only messages before this index are touched (the protected zone starts there). */
  end: number;
  /** Results above this many tokens are candidates. */
  minTokens: number;
  used: number;
  /** Stop once `used` falls below this; undefined moves every candidate (/compact). */
  stopBelow?: number;
  marker: string;
  store: OffloadStore;
  /** Refs already written per result block, so a retried pass never writes a snapshot twice. */
  memo: WeakMap<ContentBlock, string>;
}): Promise<RetroOffloadResult> {
  const { messages, end, minTokens, marker, store, memo } = opts;
  const out = messages.slice();
  let used = opts.used;
  let moved = 0;
  let bytes = 0;
  let writeError: string | undefined;
  const done = (): boolean => opts.stopBelow !== undefined && used < opts.stopBelow;

  for (let i = 0; i < end && !done(); i++) {
    const message = out[i]!;
    if (message.role !== 'user' || !message.content.some((b) => b.type === 'tool_result')) continue;
    // Ids are only unique within an exchange (some servers reuse them), so the call a result
    // answers is looked up in the message right before it.
    const calls = callsAnsweredBy(out, i);
    let changed = false;
    const content: ContentBlock[] = [];
    for (const block of message.content) {
      if (
        done() ||
        block.type !== 'tool_result' ||
        isStub(block.content, marker) ||
        estimateText(block.content) <= minTokens
      ) {
        content.push(block);
        continue;
      }
      const call = calls.get(block.toolUseId);
      const tool = call?.name ?? 'tool';
      const label = mainArgument(call?.input);
      const probe = buildStub({ tool, label, content: block.content, ref: 'off_0000', marker });
      if (!stubSaves(block.content, probe)) {
        content.push(block);
        continue;
      }
      let ref = memo.get(block);
      if (!ref) {
        try {
          ref = await store.put(tool, block.content);
        } catch (err) {
          // Lossless or not at all: the result stays inline and summarizing may still help.
          writeError ??= err instanceof Error ? err.message : String(err);
          content.push(block);
          continue;
        }
        memo.set(block, ref);
      }
      const replaced: ContentBlock = { ...block, content: buildStub({ tool, label, content: block.content, ref, marker }) };
      used -= estimateBlock(block) - estimateBlock(replaced);
      bytes += Buffer.byteLength(block.content, 'utf8');
      moved++;
      changed = true;
      content.push(replaced);
    }
    if (changed) out[i] = { role: 'user', content };
  }
  return { messages: moved > 0 ? out : messages, moved, bytes, used, ...(writeError ? { writeError } : {}) };
}
