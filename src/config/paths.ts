/** XDG base directories, with the defaults the contract names. */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

function base(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  // The XDG spec says a relative value is invalid and must be ignored.
  if (value && value.startsWith('/')) return value;
  return join(env['HOME'] || homedir(), ...fallback);
}

export interface AppPaths {
  readonly configDir: string;
  readonly userConfigFile: string;
  readonly userInstructionsFile: string;
  readonly dataDir: string;
  readonly sessionsDir: string;
  readonly offloadDir: string;
  readonly codeMapCacheDir: string;
}

export function appPaths(env: Env = process.env): AppPaths {
  const configDir = join(base(env, 'XDG_CONFIG_HOME', ['.config']), 'lindwyrm');
  const dataDir = join(base(env, 'XDG_DATA_HOME', ['.local', 'share']), 'lindwyrm');
  const cacheDir = join(base(env, 'XDG_CACHE_HOME', ['.cache']), 'lindwyrm');
  return {
    configDir,
    userConfigFile: join(configDir, 'config.toml'),
    userInstructionsFile: join(configDir, 'AGENTS.md'),
    dataDir,
    sessionsDir: join(dataDir, 'sessions'),
    offloadDir: join(dataDir, 'offload'),
    codeMapCacheDir: join(cacheDir, 'codemap'),
  };
}
