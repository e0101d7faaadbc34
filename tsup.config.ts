import { defineConfig } from 'tsup';
import { lazyUnicodePlugin } from './scripts/lazy-unicode.js';
import { thirdPartyPlugin } from './scripts/third-party.js';

/** LWYRM_BUNDLE_VIEW=0 builds with the view stack external, for scripts/bench-startup.ts to compare. */
const bundleView = process.env['LWYRM_BUNDLE_VIEW'] !== '0';

export default defineConfig({
  // The code map indexes in a worker thread, which needs a file of its own (src/codemap/worker-runner.ts).
  entry: { cli: 'src/cli.ts', 'codemap-worker': 'src/codemap/index-worker.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  splitting: true,
  sourcemap: false,
  shims: false,
  // Only undici is installed with lindwyrm (package.json dependencies, external by default). The
  // rest is bundled: the view stack because importing Ink from node_modules means resolving and
  // evaluating hundreds of small files (the bundle loads several times faster, figures from
  // scripts/bench-startup.ts in the README), yargs, diff, smol-toml, picomatch and ignore because
  // that makes the install smaller. Splitting keeps each in the chunks of the paths that use it,
  // never those of --version or --help. TypeScript and the tree-sitter grammars are copied into
  // dist/vendor instead (thirdPartyPlugin), with every bundled package's licence notice.
  // LWYRM_BUNDLE_VIEW=0 keeps the view stack external, for bench-startup's comparison only.
  external: [...(bundleView ? [] : [/^(ink|ink-text-input|react)($|\/)/]), 'react-devtools-core', 'typescript', '@vscode/tree-sitter-wasm'],
  // string-width's Unicode tables are built on first use, not while the view loads (scripts/lazy-unicode.ts).
  esbuildPlugins: [lazyUnicodePlugin(), thirdPartyPlugin({ external: bundleView ? [] : ['ink', 'ink-text-input', 'react'] })],
  // Bundled CommonJS (react, Ink's helpers) calls require(); an ESM bundle has none.
  banner: { js: "import { createRequire as __lwyrmRequire } from 'node:module'; const require = __lwyrmRequire(import.meta.url);" },
  // Picks React's production build at bundle time instead of shipping both.
  env: { NODE_ENV: 'production' },
});
