/**
 * Child process: saves one session over and over, growing the history by a turn each time and
 * replacing it with a summary every fifth save, and reports each committed save as "saved N".
 */
import { createSessionStore } from '../../../src/sessions/session-store.js';
import type { Message } from '../../../src/providers/types.js';
import { expectedHistory } from './expected-history.js';
import { makeRecord } from './records.js';

const [dir, projectRoot, id] = process.argv.slice(2) as [string, string, string];
const store = createSessionStore({ dir, projectRoot });
let messages: readonly Message[] = [];
for (let n = 1; ; n++) {
  // Keep the message objects of the previous save, as the engine does, so the append path runs.
  const next = expectedHistory(n);
  messages = next.length > messages.length && n % 5 !== 0 ? [...messages, ...next.slice(messages.length)] : next;
  await store.save(makeRecord(id, projectRoot, messages, { turns: n }));
  process.stdout.write(`saved ${n}\n`);
}
