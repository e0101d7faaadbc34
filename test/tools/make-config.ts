/** A complete Config for tool and policy tests, without the config loader (built in parallel). */
import type { Config, PolicySettings } from '../../src/config/types.js';

export function makePolicy(overrides: Partial<PolicySettings> = {}): PolicySettings {
  return {
    read: 'allow',
    write: 'confirm',
    delete: 'confirm',
    bash: 'confirm',
    readOutside: 'confirm',
    bashAllowlist: [],
    bashDenylist: [],
    rules: [],
    ...overrides,
  };
}

export function makeConfig(projectRoot: string, overrides: Partial<Config> = {}): Config {
  return {
    projectRoot,
    trusted: false,
    defaultPreset: 'flash',
    presets: [],
    policy: makePolicy(),
    proxy: undefined,
    noProxy: [],
    sessionRetentionDays: 30,
    plugins: [],
    maxToolSteps: 50,
    maxRetries: 4,
    maxFileSizeBytes: 1_000_000,
    maxToolOutputChars: 30_000,
    bashTimeoutMs: 120_000,
    streamIdleTimeoutMs: 60_000,
    loopDetectionWindow: 6,
    markdown: true,
    codeMap: { enabled: false },
    secretEnvNames: [],
    warnings: [],
    ...overrides,
  };
}
