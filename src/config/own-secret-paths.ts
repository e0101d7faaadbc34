/**
 * Where lindwyrm keeps its own secrets, as the policy must hold them back from every tool
 * (src/policy/own-secrets.ts): each preset's key file, the user config folder, the data folder.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { appPaths } from './paths.js';
import type { OwnSecretPaths, Preset } from './types.js';

/** Both the path as written and where it leads, so a link to the key file is covered either way. */
function spellings(p: string): string[] {
  const out = [path.resolve(p)];
  try {
    const real = realpathSync.native(p);
    if (real !== out[0]) out.push(real);
  } catch {
    // Missing for now: the written path is still held back.
  }
  return out;
}

/** Computed once when the config loads, from the environment it loaded with. */
export function ownSecretPaths(presets: readonly Preset[], env: Readonly<Record<string, string | undefined>>): OwnSecretPaths {
  const app = appPaths(env);
  return {
    keyFiles: [...new Set(presets.flatMap((p) => (p.keyFile === undefined ? [] : spellings(p.keyFile))))],
    configDirs: [...new Set(spellings(app.configDir))],
    dataDirs: [...new Set(spellings(app.dataDir))],
  };
}
