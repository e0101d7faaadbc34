/**
 * `--input-format stream-json`: another program drives the conversation with JSON lines on
 * stdin — user messages (Claude Code's shape), answers to approval requests, interrupts. The
 * session stays open until stdin ends. A line that cannot be used is reported as an
 * `input_error` line and skipped; nothing else is lost.
 */
import { createInterface } from 'node:readline';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../policy/types.js';
import type { ImageData } from '../providers/types.js';

export interface UserTurn {
  readonly text: string;
  readonly images: readonly ImageData[];
}

export interface StreamJsonInput {
  /** The user messages, in order, as they arrive; done when stdin ends (or close()). */
  turns(): AsyncIterable<UserTurn>;
  /** Waits for the approval_response line naming the request; stdin's end is a no. */
  readonly approver: Approver;
  /** Stops reading: the turns end and pending approvals are answered quit. */
  close(): void;
}

const DECISIONS: Readonly<Record<string, ApprovalDecision>> = {
  yes: 'yes', y: 'yes', allow: 'yes', allow_once: 'yes',
  no: 'no', n: 'no', deny: 'no', reject: 'no',
  always: 'always', a: 'always', allow_always: 'always',
  every: 'every', e: 'every',
  quit: 'quit', q: 'quit',
};

const MEDIA = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A user message's text and images, or why it is not one. */
export function userTurnOf(message: unknown): UserTurn | string {
  if (!isObject(message)) return 'a user line needs "message": {"role": "user", "content": …}';
  const content = message['content'];
  if (typeof content === 'string') return content.trim() ? { text: content, images: [] } : 'the message is empty';
  if (!Array.isArray(content)) return '"content" must be a string or an array of content blocks';
  const texts: string[] = [];
  const images: ImageData[] = [];
  for (const block of content) {
    if (!isObject(block)) return 'every content block must be an object';
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    else if (block['type'] === 'image' && isObject(block['source'])) {
      const src = block['source'];
      const media = String(src['media_type'] ?? '');
      if (src['type'] !== 'base64' || typeof src['data'] !== 'string' || !MEDIA.has(media)) {
        return 'an image block needs source {"type": "base64", "media_type": "image/png|jpeg|gif|webp", "data": …}';
      }
      images.push({ mediaType: media as ImageData['mediaType'], base64: src['data'] });
    } else return `content block type ${JSON.stringify(block['type'])} is not supported (text and image are)`;
  }
  const text = texts.join('\n');
  if (!text.trim() && images.length === 0) return 'the message is empty';
  return { text, images };
}

export function createStreamJsonInput(io: {
  stdin: NodeJS.ReadableStream;
  /** A line was not usable: number and reason (reported on stdout as input_error). */
  onError: (line: number, error: string) => void;
  /** An interrupt line (Claude Code's control_request interrupt, or {"type": "interrupt"}). */
  onInterrupt: () => void;
}): StreamJsonInput {
  const queue: UserTurn[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const waiting = new Map<string, (d: ApprovalDecision) => void>();
  const rl = createInterface({ input: io.stdin, crlfDelay: Infinity, terminal: false });
  let n = 0;

  const finish = (): void => {
    if (ended) return;
    ended = true;
    for (const settle of waiting.values()) settle('no');
    waiting.clear();
    wake?.();
  };

  rl.on('line', (raw) => {
    n++;
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      io.onError(n, `not JSON: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (!isObject(value)) return io.onError(n, 'each line must be a JSON object');
    const type = value['type'];
    if (type === 'user') {
      const turn = userTurnOf(value['message']);
      if (typeof turn === 'string') return io.onError(n, turn);
      queue.push(turn);
      wake?.();
      return;
    }
    if (type === 'approval_response') {
      const id = value['request_id'];
      const decision = DECISIONS[String(value['decision'] ?? '').toLowerCase()];
      if (typeof id !== 'string' || !decision) {
        return io.onError(n, 'approval_response needs "request_id" and "decision": yes | no | always | quit');
      }
      const settle = waiting.get(id);
      if (!settle) return io.onError(n, `no approval request ${JSON.stringify(id)} is waiting`);
      waiting.delete(id);
      settle(decision);
      return;
    }
    const request = value['request'];
    if (type === 'interrupt' || (type === 'control_request' && isObject(request) && request['subtype'] === 'interrupt')) {
      io.onInterrupt();
      return;
    }
    io.onError(n, `unknown line type ${JSON.stringify(type)} (expected user, approval_response or interrupt)`);
  });
  rl.on('close', finish);

  return {
    async *turns() {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
    approver: (request: ApprovalRequest) =>
      new Promise<ApprovalDecision>((resolve) => {
        if (ended) return resolve('no');
        waiting.set(request.id, resolve);
      }),
    close() {
      for (const settle of waiting.values()) settle('quit');
      waiting.clear();
      rl.close();
      finish();
    },
  };
}
