/**
 * A session save that failed (a full disk) stays on the status line, on a narrow screen too,
 * until a later save works.
 */
import { render } from 'ink-testing-library';
import { expect, it } from 'vitest';
import { StatusLine } from '../../components/status/status-line.js';
import { EngineProvider } from '../../hooks/engine-context.js';
import { FakeEngine } from './fake-engine.js';
import { settle, strip } from './render-app.js';

it('shows "session not saved" from a failed save until one works again', async () => {
  const engine = new FakeEngine();
  const app = render(
    <EngineProvider engine={engine}>
      <StatusLine width={60} />
    </EngineProvider>,
  );
  const frame = () => strip(app.lastFrame());
  await settle();
  expect(frame()).not.toContain('not saved');
  engine.emit({ type: 'save', error: 'Could not save the session: ENOSPC: no space left on device' });
  await settle();
  expect(frame()).toContain('⚠ session not saved');
  // Other events (a notice, usage) do not clear it.
  engine.emit({ type: 'notice', blockId: 'n1', level: 'info', text: 'hello' });
  await settle();
  expect(frame()).toContain('⚠ session not saved');
  engine.emit({ type: 'save', error: null });
  await settle();
  expect(frame()).not.toContain('not saved');
  app.unmount();
});
