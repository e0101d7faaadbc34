/**
 * A saved session shaped like a long real one, written through the real session and offload
 * stores: `turns` turns of a prompt, a reply with reasoning and a tool call (read_file, grep or
 * bash), its result (0.5–1.2 KB), and a closing answer; every tenth result offloaded (its snapshot
 * on disk, a stub in the history). ~183k tokens: the longest history a session resumes without
 * summarizing first (the reclaim point is 200k), so the first request is the turn's.
 * For scripts/bench-sessions.ts.
 */
import { join } from 'node:path';
import { createOffloadStore } from '../src/context/offload-store.js';
import { buildStub } from '../src/context/offload-stub.js';
import { createSessionStore } from '../src/sessions/session-store.js';
import { SESSION_FORMAT_VERSION } from '../src/sessions/types.js';
import { estimateMessages } from '../src/context/estimate-tokens.js';
import type { Message } from '../src/providers/types.js';

const CODE = 'export function total(items: Item[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);\n}\n';

export async function writeLongSession(opts: { dataDir: string; projectRoot: string; turns: number }): Promise<{ id: string; bytes: number; messages: number; tokens: number }> {
  const store = createSessionStore({ dir: join(opts.dataDir, 'sessions'), projectRoot: opts.projectRoot, offloadDir: join(opts.dataDir, 'offload') });
  const id = store.newId();
  const marker = 'lw-0123456789abcdef01';
  const offload = createOffloadStore({ dir: join(opts.dataDir, 'offload'), sessionId: id });
  const messages: Message[] = [];
  const refs: string[] = [];
  for (let n = 0; n < opts.turns; n++) {
    const callId = `toolu_${String(n).padStart(5, '0')}`;
    const tool = ['read_file', 'grep', 'bash'][n % 3]!;
    const input = tool === 'read_file' ? { path: `src/module-${n}.ts` } : tool === 'grep' ? { pattern: `total${n}`, path: 'src' } : { command: `npm test -- module-${n}` };
    const output = `${CODE.repeat(3 + (n % 6))}// end of output ${n}\n`;
    let content = output;
    if (n % 10 === 9) {
      const big = output.repeat(15);
      const ref = await offload.put(tool, big);
      refs.push(ref);
      content = buildStub({ tool, label: Object.values(input)[0], content: big, ref, marker });
    }
    messages.push({ role: 'user', content: [{ type: 'text', text: `Step ${n}: look at module ${n} and fix the total if it is wrong.` }] });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `Module ${n} computes totals; read it before changing anything. `.repeat(4), signature: `sig-${n}-EqQBCkYIARgC` },
        { type: 'text', text: `Let me look at module ${n}.` },
        { type: 'tool_use', id: callId, name: tool, input },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: callId, content }] });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Module ${n} looks right: the total multiplies price by quantity.\n`.repeat(3) }] });
  }
  await offload.sync();
  const now = new Date().toISOString();
  await store.save({
    formatVersion: SESSION_FORMAT_VERSION,
    id,
    projectRoot: opts.projectRoot,
    preset: 'fake',
    model: 'm',
    createdAt: now,
    updatedAt: now,
    firstPrompt: 'Step 0: look at module 0',
    turns: opts.turns,
    messages,
    usage: { input: 1200, cacheRead: 340000, cacheWrite: 8000, output: 9500 },
    cost: null,
    offloadRefs: refs,
    marker,
    // Saved with the session as its system prompt had it (the code map on, as by default): the
    // resume sends the same prefix and needs nothing from the index before its request.
    codeMapText: Array.from({ length: 60 }, (_, i) => `src/module-${i}.ts\n  export function total(items: Item[]): number  (line 1)\n`).join(''),
  });
  await store.close();
  return { id, bytes: Buffer.byteLength(JSON.stringify(messages)), messages: messages.length, tokens: estimateMessages(messages) };
}
