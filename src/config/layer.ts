/** What one config file contributes, validated but not yet merged (camelCase, paths resolved). */
import type { BashInSandbox, BashRule, CacheTtl, CodeMapSettings, HookEntry, Level, McpServerConfig, PathRule, ProxySetting, SandboxMode, ToolProfile, WireFormat } from './types.js';
import type { ThinkingEffort } from '../providers/types.js';

export interface PresetLayer {
  readonly name: string;
  /** e.g. "presets[1]", for messages. */
  readonly where: string;
  readonly format?: WireFormat;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: readonly string[];
  readonly keyFile?: string;
  readonly thinking?: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly vision?: boolean;
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly echoReasoning?: 'auto' | boolean;
  readonly toolProfile?: ToolProfile;
  readonly priceInput?: number;
  readonly priceCacheRead?: number;
  readonly priceCacheWrite?: number;
  readonly priceOutput?: number;
  readonly proxy?: ProxySetting;
  readonly promptCache?: boolean;
  readonly cacheTtl?: CacheTtl;
}

export interface PolicyLayer {
  readonly read?: Level;
  readonly write?: Level;
  readonly delete?: Level;
  readonly bash?: Level;
  readonly readOutside?: Level;
  readonly bashAllowlist?: readonly string[];
  readonly bashDenylist?: readonly string[];
  readonly bashRules?: readonly BashRule[];
  readonly rules?: readonly PathRule[];
}

export interface ConfigLayer {
  readonly file: string;
  readonly defaultPreset?: string;
  readonly trustedProjects?: readonly string[];
  readonly presets?: readonly PresetLayer[];
  readonly policy?: PolicyLayer;
  readonly proxy?: ProxySetting;
  readonly noProxy?: readonly string[];
  readonly auditLog?: string;
  readonly sessionRetentionDays?: number;
  readonly contextFile?: string;
  readonly commitTrailer?: string;
  readonly plugins?: readonly string[];
  readonly maxToolSteps?: number;
  readonly maxRetries?: number;
  readonly maxFileSizeBytes?: number;
  readonly maxToolOutputChars?: number;
  readonly bashTimeoutMs?: number;
  readonly streamIdleTimeoutMs?: number;
  readonly maxReplyBytes?: number;
  readonly maxCallsPerReply?: number;
  readonly rewindMaxMb?: number;
  readonly loopDetectionWindow?: number;
  readonly offloadEagerTokens?: number;
  readonly offloadThresholdTokens?: number;
  readonly protectedTokens?: number;
  readonly maxCostPerTurn?: number;
  readonly maxCostPerSession?: number;
  readonly maxTokensPerTurn?: number;
  readonly markdown?: boolean;
  readonly codeMap?: CodeMapSettings;
  readonly mcpServers?: readonly McpServerConfig[];
  readonly mcpSchemaBudget?: number;
  readonly sandbox?: SandboxMode;
  readonly sandboxWritable?: readonly string[];
  readonly sandboxNetwork?: readonly string[];
  readonly bashInSandbox?: BashInSandbox;
  readonly toolProfile?: ToolProfile;
  readonly hooks?: readonly HookEntry[];
}

/** The TOML spelling of the keys a project file may not set unless trusted. */
export const RESTRICTED_KEYS = [
  'presets',
  'base_url',
  'key_file',
  'proxy',
  'no_proxy',
  'audit_log',
  'session_retention_days',
  'context_file',
  'commit_trailer',
  'plugins',
  'trusted_projects',
  'hooks',
  'mcp.servers',
] as const;
