/**
 * The status line shows the code map's indexing progress while it builds, and drops it once the
 * map is ready; the rest of the line stays.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StatusLine } from '../../components/status/status-line.js';
import { EngineProvider } from '../../hooks/engine-context.js';
import { FakeEngine, initialState } from './fake-engine.js';
import { settle, strip } from './render-app.js';

function renderStatus(engine: FakeEngine, width = 100) {
  const app = render(
    <EngineProvider engine={engine}>
      <StatusLine width={width} />
    </EngineProvider>,
  );
  return { app, frame: () => strip(app.lastFrame()) };
}

describe('status line indexing progress', () => {
  it('shows done/total while indexing and nothing once the map is ready', async () => {
    const engine = new FakeEngine(initialState({ indexing: { done: 120, total: 324 } }));
    const { app, frame } = renderStatus(engine);
    await settle();
    expect(frame()).toContain('indexing 120/324');
    expect(frame()).toContain('tokens');

    engine.emit({ type: 'indexing', progress: { done: 300, total: 324 } });
    await settle();
    expect(frame()).toContain('indexing 300/324');

    engine.emit({ type: 'indexing', progress: null });
    await settle();
    expect(frame()).not.toContain('indexing');
    expect(frame()).toContain('tokens');
    app.unmount();
  });

  it('shows nothing when the state has no indexing field', async () => {
    const { app, frame } = renderStatus(new FakeEngine());
    await settle();
    expect(frame()).not.toContain('indexing');
    app.unmount();
  });
});
