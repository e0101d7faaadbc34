/**
 * Built-in presets and default settings. Model names live here and nowhere else: providers rename
 * them (deepseek-v4-flash, later deepseek-flash), and a user preset of the same name overrides them.
 */
import type { PolicySettings, Preset } from './types.js';

export const DEEPSEEK_FLASH_MODEL = 'deepseek-v4-flash';
export const DEEPSEEK_PRO_MODEL = 'deepseek-v4-pro';
const DEEPSEEK_ANTHROPIC_URL = 'https://api.deepseek.com/anthropic';

/** DeepSeek V4: 1M-token context; output up to 384K, shared with reasoning (WIRE.md §2.2). */
const deepseek = {
  format: 'anthropic',
  baseUrl: DEEPSEEK_ANTHROPIC_URL,
  apiKeyEnv: ['DEEPSEEK_API_KEY'],
  keyOptional: false,
  thinking: true,
  vision: false,
  contextWindow: 1_000_000,
  maxTokens: 65_536,
  echoReasoning: 'auto',
  proxy: undefined,
} as const;

/**
 * Local servers: no key; the model comes from -m ollama:MODEL or the server (the loaded one, or
 * the only one). The window is read from the server at session start (config/local-window.ts);
 * context_window is the cap lindwyrm sizes Ollama's num_ctx within.
 */
const local = {
  model: '',
  apiKeyEnv: [],
  keyOptional: true,
  thinking: false,
  vision: false,
  contextWindow: 32_768,
  maxTokens: 8_192,
  echoReasoning: 'auto',
  proxy: undefined,
} as const;

export const BUILTIN_PRESETS: readonly Preset[] = [
  { name: 'flash', model: DEEPSEEK_FLASH_MODEL, ...deepseek },
  { name: 'pro', model: DEEPSEEK_PRO_MODEL, ...deepseek },
  // Ollama's native API: its OpenAI-compatible /v1 route ignores num_ctx (the 4K default truncates).
  { name: 'ollama', format: 'ollama', baseUrl: 'http://127.0.0.1:11434', ...local },
  { name: 'lmstudio', format: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', ...local },
];

/** Fields a new [[presets]] entry gets when it does not say. */
export const CUSTOM_PRESET_DEFAULTS = {
  thinking: true,
  vision: false,
  contextWindow: 128_000,
  maxTokens: 16_384,
  echoReasoning: 'auto',
} as const;

export const DEFAULT_POLICY: PolicySettings = {
  read: 'allow',
  write: 'confirm',
  delete: 'confirm',
  bash: 'confirm',
  readOutside: 'confirm',
  bashAllowlist: [],
  bashDenylist: [],
  bashRules: [],
  rules: [],
};

export const DEFAULTS = {
  defaultPreset: 'flash',
  sessionRetentionDays: 30,
  maxToolSteps: 50,
  maxRetries: 4,
  maxFileSizeBytes: 1_000_000,
  maxToolOutputChars: 30_000,
  bashTimeoutMs: 120_000,
  streamIdleTimeoutMs: 120_000,
  /** 8 MiB: far beyond any real answer, small enough that a runaway stream cannot exhaust memory. */
  maxReplyBytes: 8 * 1024 * 1024,
  rewindMaxMb: 500,
  loopDetectionWindow: 6,
  /** Tool calls one reply may run; the rest are answered "not run" (a runaway reply costs no more). */
  maxCallsPerReply: 64,
  markdown: true,
  codeMapEnabled: true,
  /** A hook that runs longer is killed (Claude Code's default too). */
  hookTimeoutMs: 60_000,
  sandbox: 'auto',
  bashInSandbox: 'confirm',
} as const;
