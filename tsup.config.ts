import { defineConfig } from 'tsup';

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
  // The full-screen view stack is bundled: importing Ink from node_modules means resolving and
  // evaluating hundreds of small files; the bundle loads several times faster (figures from
  // scripts/bench-startup.ts in the README). TypeScript (huge, loaded by the code map),
  // tree-sitter (its .wasm files are located on disk), yargs (reads locale files next to
  // itself) and undici stay external. They all load lazily, never for --version or --help.
  noExternal: bundleView ? [/^(ink|ink-text-input|react)($|\/)/] : [],
  // Ink imports it only when DEV=true, from a chunk of its own; it is not installed.
  external: ['react-devtools-core'],
  // Bundled CommonJS (react, Ink's helpers) calls require(); an ESM bundle has none.
  banner: { js: "import { createRequire as __lwyrmRequire } from 'node:module'; const require = __lwyrmRequire(import.meta.url);" },
  // Picks React's production build at bundle time instead of shipping both.
  env: { NODE_ENV: 'production' },
});
