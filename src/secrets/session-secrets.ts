/**
 * The values a session file must never hold: API keys, key files' contents, proxy URLs with their
 * credentials. The session store redacts them on every save; the set grows when /model resolves
 * another preset's key.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Config } from '../config/types.js';
import { PROXY_VARIABLES, secretEnvNames } from './secret-names.js';

type Env = Readonly<Record<string, string | undefined>>;


export interface SessionSecrets {
  /** Adds a value resolved later (the key of a preset switched to). */
  add(value: string | undefined): void;
  /** For createSessionStore's `secrets`: asked at every save. */
  readonly values: () => readonly string[];
}

/** A regular, small file only: a FIFO named as key_file must not hang the start. */
async function readKeyFile(file: string): Promise<string | undefined> {
  try {
    const st = await stat(file);
    return st.isFile() && st.size <= 64 * 1024 ? await readFile(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

export async function collectSessionSecrets(opts: { config: Config; env: Env; cliProxy?: string; apiKey?: string }): Promise<SessionSecrets> {
  const set = new Set<string>();
  const add = (value: string | undefined): void => {
    const v = value?.trim();
    if (v) set.add(v);
  };
  add(opts.apiKey);
  add(opts.cliProxy);
  if (typeof opts.config.proxy === 'string' && opts.config.proxy !== 'system') add(opts.config.proxy);
  for (const preset of opts.config.presets) {
    if (typeof preset.proxy === 'string' && preset.proxy !== 'system') add(preset.proxy);
  }
  // Every preset's key variables, not only the active one's: /model can switch to them, and a
  // tool's output could echo any of them.
  for (const name of secretEnvNames(opts.config)) add(opts.env[name]);
  for (const name of PROXY_VARIABLES) {
    const value = opts.env[name];
    if (value?.includes('@')) add(value);
  }
  const keyFiles = [...new Set(opts.config.presets.flatMap((p) => (p.keyFile ? [p.keyFile] : [])))];
  const contents = await Promise.all(keyFiles.map(readKeyFile));
  contents.forEach(add);
  return { add, values: () => [...set] };
}
