/**
 * Tool-call ids as they must be for the next request to be accepted: unique in the whole
 * conversation and of a sane length. Servers get this wrong in both directions — `call_0` in
 * every reply, one id for two parallel calls, ids of many kilobytes — and a history holding such
 * ids is refused ("tool_use ids must be unique") or bloats every later request. Each id is fixed
 * once, as the call arrives, so the tool result and every replay use the same fixed id.
 */
import { generateToolId } from './tool-input.js';
import type { Message } from './types.js';

/** Longer than any real id (Anthropic's are ~30 bytes, OpenAI's ~40): a server bug, not an id. */
export const MAX_TOOL_ID_BYTES = 256;

export type IdNote = (line: string) => void;

/** Every tool-call id already in a conversation. */
export function toolIdsIn(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'tool_use') ids.add(b.id);
      else if (b.type === 'tool_result') ids.add(b.toolUseId);
    }
  }
  return ids;
}

export class ToolIds {
  private readonly taken: Set<string>;

  constructor(
    used: Iterable<string> = [],
    private readonly note?: IdNote,
  ) {
    this.taken = new Set(used);
  }

  /** The id to use for a call that arrived with `raw` (generated when it has none). */
  claim(raw: string | undefined): string {
    let id = raw ?? '';
    if (id.length === 0) id = generateToolId();
    else if (Buffer.byteLength(id, 'utf8') > MAX_TOOL_ID_BYTES) {
      this.note?.(`tool call id of ${Buffer.byteLength(id, 'utf8')} bytes replaced by a generated one`);
      id = generateToolId();
    } else if (this.taken.has(id)) {
      this.note?.(`tool call id ${JSON.stringify(id.slice(0, 60))} was already used in this conversation; replaced by a generated one`);
      id = generateToolId();
    }
    this.taken.add(id);
    return id;
  }
}
