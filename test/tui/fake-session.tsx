/**
 * Runs the real full-screen view over a scripted FakeEngine, for the tmux tests (resize, exit
 * paths) and for trying the view by hand: `node --import tsx test/tui/fake-session.tsx`.
 * FAKE_LINES=n preloads n transcript rows; typing a prompt streams a reply with a write approval.
 */
import { writeFileSync } from 'node:fs';
import { runTui } from '../../components/run-tui.js';
import { FakeEngine, initialState } from '../components/fake-engine.js';

const engine = new FakeEngine(initialState({ context: { usedTokens: 30_000, measured: true, window: 128_000, threshold: 96_000 } }), 33);
const preload = Number(process.env['FAKE_LINES'] ?? '0');
if (preload > 0) {
  engine.emit({ type: 'turn.start', blockId: 'pre-u', text: 'show me the history' });
  const text = Array.from({ length: preload }, (_, i) => `history line ${i + 1}`).join('\n');
  engine.emit({ type: 'assistant.delta', blockId: 'pre-a', text }, { type: 'block.end', blockId: 'pre-a' });
  engine.emit({ type: 'turn.end', blockId: 'pre-e', status: 'finished' });
}

engine.submit = async (text: string) => {
  engine.submitted.push(text);
  engine.emit({ type: 'turn.start', blockId: engine.id('u'), text });
  const r = engine.id('r');
  for (const word of 'Let me look at the file first and then change it.'.split(' ')) {
    engine.store.dispatch({ type: 'reasoning.delta', blockId: r, text: `${word} ` });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  engine.emit({ type: 'block.end', blockId: r });
  const decision = new Promise<string>((resolve) => {
    const original = engine.answer.bind(engine);
    engine.answer = (id, d) => {
      original(id, d);
      engine.answer = original;
      resolve(d);
    };
  });
  engine.emit({
    type: 'approval.request',
    request: {
      id: engine.id('ap'),
      kind: 'write',
      tool: 'edit_file',
      path: '/home/dev/shop/prices.py',
      summary: 'edit prices.py (+1 -4)',
      reason: 'default write=confirm',
      diff: '--- a/prices.py\n+++ b/prices.py\n@@ -1,5 +1,2 @@\n def total(items):\n-    result = 0\n-    for item in items:\n-        result += item["price"]\n-    return result\n+    return sum(item["price"] for item in items)\n',
    },
  });
  const answer = await decision;
  const a = engine.id('a');
  for (let i = 0; i < 20; i++) {
    engine.store.dispatch({ type: 'assistant.delta', blockId: a, text: `Answer line ${i} (${answer}).\n` });
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  engine.emit({ type: 'block.end', blockId: a }, { type: 'turn.end', blockId: engine.id('e'), status: 'finished' });
  return { status: 'finished', result: '', steps: 1 };
};

if (process.env['FAKE_PID_FILE']) writeFileSync(process.env['FAKE_PID_FILE'], String(process.pid));
// FAKE_CRASH_MS: an uncaught exception some time after start, to test the crash exit path.
const crashMs = Number(process.env['FAKE_CRASH_MS'] ?? '0');
if (crashMs > 0) {
  setTimeout(() => {
    throw new Error('simulated crash');
  }, crashMs);
}

const status = await runTui(engine, {});
process.exit(status);
