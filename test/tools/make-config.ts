/** A complete Config for tool and policy tests, built directly so each test states what it changes. */
import { DEFAULT_POLICY } from '../../src/config/defaults.js';
import type { Config, PolicySettings } from '../../src/config/types.js';

export function makePolicy(overrides: Partial<PolicySettings> = {}): PolicySettings {
  return { ...DEFAULT_POLICY, ...overrides };
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
    maxReplyBytes: 8 * 1024 * 1024,
    maxCallsPerReply: 64,
    rewindMaxMb: 500,
    loopDetectionWindow: 6,
    markdown: true,
    codeMap: { enabled: false },
    hooks: [],
    sandbox: { mode: 'auto', writable: [], network: [], bashInSandbox: 'confirm' },
    secretEnvNames: [],
    warnings: [],
    ...overrides,
  };
}
