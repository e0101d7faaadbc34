/**
 * Start-up: Ink's layout engine (yoga, WebAssembly embedded as base64) loads its binary with
 * `fetch(dataUrl)` when a global fetch exists. In Node that first touch of `fetch` loads Node's
 * internal HTTP stack, about 60 ms before the first frame; without it yoga decodes the base64
 * synchronously. So `fetch` is hidden while Ink's modules evaluate: this module is imported just
 * before Ink. It comes back at the first microtask checkpoint (yoga checks for fetch
 * synchronously, before its first await), so code running meanwhile (the engine starting up in
 * parallel) never sees it missing; restore-fetch.ts, imported after Ink, is the backstop.
 */
const saved = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
let hidden = false;
if (saved?.configurable) {
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  hidden = true;
  queueMicrotask(restoreFetch);
}

export function restoreFetch(): void {
  if (!hidden || saved === undefined) return;
  hidden = false;
  Object.defineProperty(globalThis, 'fetch', saved);
}
