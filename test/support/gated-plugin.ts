/**
 * A code map plugin whose `.gated` files are indexed only once the test opens the gate: the test,
 * not a timer, decides when an index is done, so "still indexing" and "ready" are both reachable
 * without guessing at timings.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface GatedPlugin {
  /** Path of the plugin module, for the config's `plugins`. */
  readonly plugin: string;
  /** The file whose existence opens the gate. */
  readonly gate: string;
}

/** Writes the plugin into `dir` (a sandbox root: outside the project, so it is not indexed itself). */
export async function writeGatedPlugin(dir: string): Promise<GatedPlugin> {
  const gate = join(dir, 'gate');
  const plugin = join(dir, 'gated-plugin.mjs');
  await writeFile(
    plugin,
    `import { existsSync } from 'node:fs';
export const plugin = {
  name: 'gated', version: '1.0.0', extensions: ['.gated'],
  indexFile: () => new Promise((resolve) => {
    const check = () => (existsSync(${JSON.stringify(gate)}) ? resolve({ symbols: [], edges: [], imports: [] }) : setTimeout(check, 10));
    check();
  }),
};
`,
  );
  return { plugin, gate };
}
