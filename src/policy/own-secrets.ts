/**
 * lindwyrm's own secrets: the key file of every preset, the key material in the user config
 * folder, and the data folder (every project's sessions and offloaded results, MCP tokens). No
 * tool may read, write or delete them, whatever `read_outside` or a path rule says: a rule that
 * opens `~` or `~/.config` to the agent opens the folder, not these. A session reads its own
 * offloaded results through read_offloaded, never by path.
 */
import path from 'node:path';
import { ownSecretPaths } from '../config/own-secret-paths.js';
import type { Config, OwnSecretPaths } from '../config/types.js';
import { isWithinFolded } from './case-fold.js';

/**
 * What the user config folder may hold that is not key material: the config (which refuses keys),
 * the personal instructions, and the extension folders meant to be read. Anything else there (a
 * key file, a token cache, a file some other version wrote) is treated as a secret.
 */
const CONFIG_DIR_PLAIN = new Set(['config.toml', 'agents.md', 'lindwyrm.md', 'commands', 'skills', 'plugins']);

function pathsOf(config: Config): OwnSecretPaths {
  // A Config built by hand (tests, an embedding) still gets the protection, from this process's env.
  return config.ownSecrets ?? ownSecretPaths(config.presets, process.env);
}

/**
 * Why `realPath` is one of lindwyrm's own secrets, or undefined. `fold` on case-insensitive file
 * systems; NFC/NFD spellings match either way.
 */
export function ownSecretReason(realPath: string, config: Config, fold = false): string | undefined {
  const own = pathsOf(config);
  if (own.keyFiles.some((file) => isWithinFolded(realPath, file, fold))) return 'the key file of a preset';
  if (own.dataDirs.some((dir) => isWithinFolded(realPath, dir, fold))) return "lindwyrm's session, offload and token store";
  for (const dir of own.configDirs) {
    if (realPath === dir || !isWithinFolded(realPath, dir, fold)) continue;
    const first = realPath.split(path.sep).filter((c) => c !== '')[dir.split(path.sep).filter((c) => c !== '').length] ?? '';
    if (!CONFIG_DIR_PLAIN.has(first.normalize('NFC').toLowerCase())) return "key material in lindwyrm's config folder";
  }
  return undefined;
}
