/** A prompt the engine took back (its request failed before any reply) comes back to the input. */
import { expect, it } from 'vitest';
import { PROMPT_TAKEN_BACK } from '../../src/agent/notices.js';
import type { TurnOutcome } from '../../src/agent/state.js';
import { FakeEngine } from './fake-engine.js';
import { KEYS, renderApp, settle } from './render-app.js';

class FailingEngine extends FakeEngine {
  override submit(text: string): Promise<TurnOutcome> {
    this.submitted.push(text);
    this.emit(
      { type: 'turn.start', blockId: this.id('u'), text },
      { type: 'notice', blockId: this.id('n'), level: 'info', text: PROMPT_TAKEN_BACK },
      { type: 'turn.end', blockId: this.id('e'), status: 'error', detail: '401 invalid x-api-key' },
    );
    return Promise.resolve({ status: 'error', result: '', detail: '401 invalid x-api-key', steps: 0 });
  }
}

it('puts the text back in the input and says why', async () => {
  const r = renderApp({ engine: new FailingEngine(), columns: 80, rows: 20 });
  await r.type('fix the parser', KEYS.enter);
  await settle();
  const f = r.frame();
  expect(f).toContain('Not sent: 401 invalid x-api-key');
  expect(f).toMatch(/› fix the parser/);
  expect(f.replace(/\n\s*/g, ' ')).toContain('this prompt was not kept in the conversation');
});
