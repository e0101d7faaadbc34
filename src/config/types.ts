/**
 * The resolved configuration: one typed, validated, frozen object produced by config/load.ts.
 * Nothing else in the program reads TOML.
 */
import type { ThinkingEffort } from '../providers/types.js';

/** `ollama` is Ollama's native chat API (/api/chat), the one route that honours num_ctx. */
export type WireFormat = 'anthropic' | 'openai' | 'ollama';

/**
 * Which tools, descriptions and system prompt a session sends: `small` is the trimmed set for
 * small local models with short windows.
 */
export type ToolProfile = 'full' | 'small';

/** Prices in US dollars per million tokens. */
export interface Prices {
  readonly input: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly output: number;
}

/**
 * Where a preset's proxy setting comes from: a URL, `false` (always direct), `"system"`
 * (honour HTTP_PROXY and friends), or undefined (inherit the global setting).
 */
export type ProxySetting = string | false | 'system' | undefined;

/** How long Anthropic keeps a cached prefix: 5 minutes (the default) or an hour (writes cost more). */
export type CacheTtl = '5m' | '1h';

export interface Preset {
  readonly name: string;
  readonly format: WireFormat;
  readonly baseUrl: string;
  /** Empty for the local presets when no model was given: ask the server's /models. */
  readonly model: string;
  readonly apiKeyEnv: readonly string[];
  readonly keyFile?: string;
  /** True for presets that need no key (local servers). */
  readonly keyOptional: boolean;
  readonly thinking: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly vision: boolean;
  readonly contextWindow: number;
  /** True when a config file set context_window (a local server's own figure is then capped by it). */
  readonly contextWindowSet?: boolean;
  readonly maxTokens: number;
  /** tool_profile of this preset; unset: the global one, else small for a local model under 32K. */
  readonly toolProfile?: ToolProfile;
  readonly echoReasoning: 'auto' | boolean;
  readonly prices?: Prices;
  readonly proxy: ProxySetting;
  /**
   * Anthropic-format cache breakpoints (cache_control): true or false as the preset says, absent
   * to decide by model and endpoint (Claude models yes; DeepSeek, which caches by itself, no).
   */
  readonly promptCache?: boolean;
  /** The TTL the breakpoints ask for; absent means 5 minutes. */
  readonly cacheTtl?: CacheTtl;
}

export type Level = 'allow' | 'confirm' | 'deny';
export type PathKind = 'read' | 'write' | 'delete';
export type ToolKind = PathKind | 'bash';

export interface PathRule {
  /** Absolute, `~` expanded, symlinks resolved where the path exists. */
  readonly path: string;
  readonly read?: Level;
  readonly write?: Level;
  readonly delete?: Level;
}

/**
 * A saved bash rule ([[policy.bash_rules]]): a command's first words (`prefix`, then any plain
 * arguments) or a whole command (`exact`), judged per segment like an [a]lways grant.
 */
export interface BashRule {
  readonly words: readonly string[];
  readonly match: 'prefix' | 'exact';
}

export interface PolicySettings {
  readonly read: Level;
  readonly write: Level;
  readonly delete: Level;
  readonly bash: Level;
  readonly readOutside: Level;
  readonly bashAllowlist: readonly string[];
  readonly bashDenylist: readonly string[];
  /** Saved bash rules (often written by answering [s]ave at an approval). */
  readonly bashRules: readonly BashRule[];
  readonly rules: readonly PathRule[];
}

/** lindwyrm's own secrets (src/policy/own-secrets.ts): absolute paths, as written and made real. */
export interface OwnSecretPaths {
  readonly keyFiles: readonly string[];
  readonly configDirs: readonly string[];
  readonly dataDirs: readonly string[];
}

/** The hook events (Claude Code's names, so its scripts and their settings read the same). */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'PreCompact'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One `[[hooks.EVENT]]` entry. */
export interface HookEntry {
  readonly event: HookEvent;
  /** A tool-name pattern (PreToolUse, PostToolUse): a name, `A|B`, a regular expression; absent or "*": every tool. */
  readonly matcher?: string;
  /** A shell command line, run with bash in the project root. */
  readonly command: string;
  readonly timeoutMs: number;
  /** The config file it came from (the user's, or a trusted project's). */
  readonly file: string;
}

/** One `[[mcp.servers]]` entry. env and header values may hold ${VAR} / ${file:PATH} references. */
export interface McpServerConfig {
  readonly name: string;
  /** Who configured it: only a user's own servers have their readOnlyHint believed. */
  readonly origin: 'user' | 'project';
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Tool-name globs run without asking / never run. */
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  /** Per-call timeout. */
  readonly timeoutMs?: number;
  readonly enabled: boolean;
  readonly oauthClientId?: string;
  readonly oauthClientSecretEnv?: string;
  /** Where a stdio server starts (the config file's base folder). */
  readonly cwd: string;
  /**
   * A stdio server starts through the command sandbox (src/sandbox/) like a bash command. Only a
   * user's own server may set sandbox = false; a project's server always runs inside.
   */
  readonly sandbox: boolean;
  /**
   * env and header values are the values themselves, not references: an editor passed them over
   * ACP from its own settings. Values under secret-looking names are redacted like keys.
   */
  readonly literalValues?: boolean;
}

/** auto: sandbox commands where it can start · required: refuse to run them otherwise · off. */
export type SandboxMode = 'auto' | 'required' | 'off';

/** Whether a command that runs in the sandbox still asks first (the policy's confirm) or not. */
export type BashInSandbox = 'confirm' | 'allow';

export interface SandboxSettings {
  readonly mode: SandboxMode;
  /** Absolute, real where they exist: writable besides the project and the private temp dir. */
  readonly writable: readonly string[];
  /** Host patterns reachable through the egress proxy (exact, ".suffix", CIDR, "*"). Empty: none. */
  readonly network: readonly string[];
  readonly bashInSandbox: BashInSandbox;
}

export interface CodeMapSettings {
  readonly enabled: boolean;
  /** Undefined: scale with the context window. */
  readonly budgetTokens?: number;
}

/**
 * Spending limits. Reaching one pauses the turn between two requests: the full screen asks to
 * go on or stop, one-shot stops as incomplete. Dollars need the preset's prices; tokens count
 * what each request was billed at full rate (fresh input, cache writes, output), not cache reads.
 */
export interface Budgets {
  readonly costPerTurn?: number;
  readonly costPerSession?: number;
  readonly tokensPerTurn?: number;
}

export interface Config {
  /** Real path of the project root (-C or the current directory). */
  readonly projectRoot: string;
  /** The user config file this configuration was read from (or would be): where [s]ave writes rules. */
  readonly userConfigFile?: string;
  /** True when the project is listed in the user config's trusted_projects. */
  readonly trusted: boolean;
  readonly defaultPreset: string;
  /** Built-ins first, then the user's (a user preset with a built-in's name replaces it). */
  readonly presets: readonly Preset[];
  /** Merged policy (project over user, within the trust rules). */
  readonly policy: PolicySettings;
  /**
   * The user's own policy, without the project's. Present when the project is untrusted and has a
   * [policy]: every decision is the stricter of `policy` and `policyFloor` for the same path.
   */
  readonly policyFloor?: PolicySettings;
  readonly proxy: ProxySetting;
  readonly noProxy: readonly string[];
  readonly auditLog?: string;
  readonly sessionRetentionDays: number;
  /** Absolute path of an extra instructions file. */
  readonly contextFile?: string;
  readonly commitTrailer?: string;
  readonly plugins: readonly string[];
  readonly maxToolSteps: number;
  readonly maxRetries: number;
  readonly maxFileSizeBytes: number;
  readonly maxToolOutputChars: number;
  readonly bashTimeoutMs: number;
  readonly streamIdleTimeoutMs: number;
  /** A reply's text, reasoning and tool arguments beyond this many bytes are cut off. */
  readonly maxReplyBytes: number;
  /** Tool calls one reply may run; later calls of that reply are answered "not run". */
  readonly maxCallsPerReply: number;
  /** The rewind store's bound per project, in MB; 0 turns rewind off. */
  readonly rewindMaxMb: number;
  readonly loopDetectionWindow: number;
  /** Undefined: a thirty-second of the window, floor 1,000. */
  readonly offloadEagerTokens?: number;
  readonly offloadThresholdTokens?: number;
  readonly protectedTokens?: number;
  /** max_cost_per_turn, max_cost_per_session, max_tokens_per_turn; each absent when unset. */
  readonly budgets?: Budgets;
  readonly markdown: boolean;
  readonly codeMap: CodeMapSettings;
  /** Paths no tool may touch (key files, the config folder's key material, the data folder). */
  readonly ownSecrets?: OwnSecretPaths;
  /** The user's MCP servers, then a trusted project's (an untrusted project's never start). */
  readonly mcpServers?: readonly McpServerConfig[];
  /** Tokens all MCP tool schemas may cost before they are replaced by the search tools; undefined: 2% of the window. */
  readonly mcpSchemaBudget?: number;
  /** The command sandbox (src/sandbox/): mode, extra writable paths, network allowlist. */
  readonly sandbox: SandboxSettings;
  /** tool_profile at the top level; a preset's own setting wins. */
  readonly toolProfile?: ToolProfile;
  /** The user's hooks, then a trusted project's (an untrusted project's are never here). */
  readonly hooks: readonly HookEntry[];
  /** Every preset's api_key_env names, so the bash tool can strip them all. */
  readonly secretEnvNames: readonly string[];
  /** Startup warnings (restricted project keys, unknown keys), shown once. */
  readonly warnings: readonly string[];
}
