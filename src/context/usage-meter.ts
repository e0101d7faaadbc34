/**
 * How full the context is. Before anything has been sent the figure is an estimate; after each
 * request it is the provider's own count of that prompt, plus the reply, plus an estimate of
 * whatever was appended since. Once history is rewritten (a reclaim, a resumed or cleared
 * session), the measurement no longer describes it and the figure falls back to an estimate.
 */
import type { Message, ToolSchema, Usage } from '../providers/types.js';
import { estimateMessage, estimateMessages, estimateText, estimateTools } from './estimate-tokens.js';

export interface ContextFill {
  readonly usedTokens: number;
  /** True when the bulk of the figure is the provider's measurement. */
  readonly measured: boolean;
  /** The part of usedTokens that is an estimate (everything when not measured). */
  readonly estimatedTokens: number;
}

interface Measurement {
  readonly prompt: number;
  readonly output: number;
  readonly sent: readonly Message[];
  readonly system: string;
}

export interface UsageTotals {
  output: number;
  cacheRead: number;
  inputTotal: number;
}

export function createUsageMeter(tools: readonly ToolSchema[] = []) {
  const toolTokens = estimateTools(tools);
  let last: Measurement | undefined;
  let lastSent: { messages: readonly Message[]; system: string } | undefined;
  const totals: UsageTotals = { output: 0, cacheRead: 0, inputTotal: 0 };

  function estimateAll(messages: readonly Message[], system: string): ContextFill {
    const used = estimateText(system) + toolTokens + estimateMessages(messages);
    return { usedTokens: used, measured: false, estimatedTokens: used };
  }

  /** True when `messages` still starts with exactly what was measured. */
  function prefixHolds(m: Measurement, messages: readonly Message[], system: string): boolean {
    if (system !== m.system || messages.length < m.sent.length) return false;
    for (let i = 0; i < m.sent.length; i++) {
      const a = messages[i]!;
      const b = m.sent[i]!;
      // Same object in the common case; an engine that copies messages still matches by value.
      if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return false;
    }
    return true;
  }

  return {
    totals: totals as Readonly<UsageTotals>,

    /** The engine is about to send these: remember them so a measurement can be matched to them. */
    noteSent(messages: readonly Message[], system: string): void {
      lastSent = { messages, system };
    },

    record(usage: Usage, messagesSent: number, sent?: readonly Message[]): void {
      totals.output += usage.output;
      totals.cacheRead += usage.cacheRead;
      totals.inputTotal += usage.input + usage.cacheRead + usage.cacheWrite;
      const source = sent ?? lastSent?.messages;
      const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
      // A server that reports no usage (some local ones) leaves the estimate in charge.
      if (!source || source.length < messagesSent || prompt === 0) {
        last = undefined;
        return;
      }
      last = {
        prompt,
        output: usage.output,
        sent: source.slice(0, messagesSent),
        system: lastSent?.system ?? '',
      };
    },

    /** Counts a request that is not part of the conversation (the summarizing call) in the totals. */
    recordSide(usage: Usage): void {
      totals.output += usage.output;
      totals.cacheRead += usage.cacheRead;
      totals.inputTotal += usage.input + usage.cacheRead + usage.cacheWrite;
    },

    /** History was rewritten: the measurement describes a conversation that no longer exists. */
    invalidate(): void {
      last = undefined;
    },

    fill(messages: readonly Message[], system: string): ContextFill {
      if (!last || !prefixHolds(last, messages, system)) return estimateAll(messages, system);
      let estimated = 0;
      let output = 0;
      for (let i = last.sent.length; i < messages.length; i++) {
        const m = messages[i]!;
        // The reply to the measured request was counted as output.
        if (i === last.sent.length && m.role === 'assistant') output = last.output;
        else estimated += estimateMessage(m);
      }
      return { usedTokens: last.prompt + output + estimated, measured: true, estimatedTokens: estimated };
    },
  };
}

export type UsageMeter = ReturnType<typeof createUsageMeter>;
