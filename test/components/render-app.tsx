/** Renders the whole app over a FakeEngine at a fixed size, with helpers to type and wait. */
import { render } from 'ink-testing-library';
import { App, type AppProps } from '../../components/app.js';
import { EngineProvider } from '../../hooks/engine-context.js';
import { FakeEngine } from './fake-engine.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function strip(text: string | undefined): string {
  return (text ?? '').replace(ANSI, '');
}

export const KEYS = {
  enter: '\r',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  shiftUp: '\x1b[1;2A',
  shiftDown: '\x1b[1;2B',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  // The transcript's top and bottom; Home / End move in the input's line.
  ctrlHome: '\x1b[1;5H',
  ctrlEnd: '\x1b[1;5F',
  tab: '\t',
  escape: '\x1b',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlJ: '\n',
  ctrlO: '\x0f',
  altEnter: '\x1b\r',
  backspace: '\x7f',
} as const;

/** Lets effects, store notifications and Ink's render settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

export function renderApp(
  opts: { engine?: FakeEngine; columns?: number; rows?: number; initialPrompt?: string; history?: AppProps['history']; mentionPaths?: AppProps['mentionPaths'] } = {},
) {
  const engine = opts.engine ?? new FakeEngine();
  let exits = 0;
  const size = { columns: opts.columns ?? 80, rows: opts.rows ?? 24 };
  const app = render(
    <EngineProvider engine={engine}>
      <App
        size={size}
        onExit={() => (exits += 1)}
        {...(opts.initialPrompt !== undefined ? { initialPrompt: opts.initialPrompt } : {})}
        {...(opts.history ? { history: opts.history } : {})}
        {...(opts.mentionPaths ? { mentionPaths: opts.mentionPaths } : {})}
      />
    </EngineProvider>,
  );
  return {
    engine,
    app,
    exits: () => exits,
    frame: () => strip(app.lastFrame()),
    async type(...inputs: string[]) {
      for (const input of inputs) {
        app.stdin.write(input);
        await settle();
      }
    },
  };
}
