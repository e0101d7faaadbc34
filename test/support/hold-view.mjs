/**
 * Test-only, for `node --import`: holds the full-screen view's chunk (dist/run-tui-*.js) back until
 * the file named by LWYRM_TEST_VIEW_GATE exists, so a test can type while lindwyrm shows its early
 * first frame and know the view is not there yet. Module hooks run off the main thread, so the
 * CLI's own event loop (the early input) keeps running while the view waits.
 */
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { existsSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const gate = process.env.LWYRM_TEST_VIEW_GATE;
  if (gate && /run-tui-[^/]*\\.js$/.test(specifier)) {
    while (!existsSync(gate)) await new Promise((r) => setTimeout(r, 20));
  }
  return next(specifier, context);
}
`),
  import.meta.url,
);
