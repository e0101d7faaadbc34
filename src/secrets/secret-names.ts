/**
 * The one list of environment variables that may hold a secret: every preset's api_key_env (the
 * config collects them as secretEnvNames) and the proxy variables, whose URLs may carry
 * credentials. Commands run without the key variables; session files, audit lines and messages
 * are redacted of all of their values.
 */
import type { Config } from '../config/types.js';

/** Proxy variables a `"system"` proxy setting honours; only their credentials are secret. */
export const PROXY_VARIABLES: readonly string[] = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];

/** Every variable that may hold a provider key: the config's list and each preset's own. */
export function secretEnvNames(config: Pick<Config, 'secretEnvNames' | 'presets'>): string[] {
  return [...new Set([...config.secretEnvNames, ...config.presets.flatMap((p) => p.apiKeyEnv)])];
}
