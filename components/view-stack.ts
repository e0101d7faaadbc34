/**
 * The view's third-party stack, loaded on its own before the view (src/cli/lazy-modules.ts):
 * React first, then Ink. Each stage is compiled and evaluated in its own stretch of the only
 * thread, with a turn of the event loop between them, so keys typed at the early first frame are
 * echoed between stages (terminal/early-input.ts) instead of after the whole ~900 KB.
 */
export async function loadViewStack(): Promise<void> {
  await import('./view-stack-react.js');
  await new Promise((resolve) => setImmediate(resolve));
  await import('./view-stack-ink.js');
  await new Promise((resolve) => setImmediate(resolve));
}
