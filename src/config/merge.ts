/** Merging of the built-in defaults, the user layer and the (already restricted) project layer. */
import { BUILTIN_PRESETS, CUSTOM_PRESET_DEFAULTS, DEFAULT_POLICY, DEFAULTS } from './defaults.js';
import { ConfigError } from './errors.js';
import type { ConfigLayer, PolicyLayer, PresetLayer } from './layer.js';
import type { BashRule, CodeMapSettings, McpServerConfig, PolicySettings, Preset, Prices, SandboxSettings } from './types.js';

export function mergePolicy(base: PolicySettings, layer: PolicyLayer | undefined): PolicySettings {
  if (!layer) return base;
  return {
    read: layer.read ?? base.read,
    write: layer.write ?? base.write,
    delete: layer.delete ?? base.delete,
    bash: layer.bash ?? base.bash,
    readOutside: layer.readOutside ?? base.readOutside,
    bashAllowlist: unique([...base.bashAllowlist, ...(layer.bashAllowlist ?? [])]),
    bashDenylist: unique([...base.bashDenylist, ...(layer.bashDenylist ?? [])]),
    bashRules: uniqueRules([...base.bashRules, ...(layer.bashRules ?? [])]),
    // Later rules come from the more specific file; the policy resolver picks the most specific path.
    rules: [...base.rules, ...(layer.rules ?? [])],
  };
}

/** Built-ins first; a layer's preset with a known name overrides only the fields it sets. */
export function mergePresets(layers: readonly (ConfigLayer | undefined)[]): Preset[] {
  const presets: Preset[] = [...BUILTIN_PRESETS];
  for (const layer of layers) {
    const named = new Map<string, string>();
    for (const entry of layer?.presets ?? []) {
      // Two entries with one name in a file: the second would silently replace fields of the first.
      const earlier = named.get(entry.name);
      if (earlier !== undefined) {
        const file = layer?.file ?? '';
        throw new ConfigError(
          `${file}: key "${entry.where}.name": expected a name no other [[presets]] entry in this file uses (${earlier} is "${entry.name}")`,
          { file, key: `${entry.where}.name` },
        );
      }
      named.set(entry.name, entry.where);
      const index = presets.findIndex((p) => p.name === entry.name);
      const merged = overlayPreset(index >= 0 ? presets[index] : undefined, entry, layer?.file ?? '');
      if (index >= 0) presets[index] = merged;
      else presets.push(merged);
    }
  }
  return presets;
}

function overlayPreset(base: Preset | undefined, entry: PresetLayer, file: string): Preset {
  if (!base) {
    const missing = (key: string, what: string): never => {
      throw new ConfigError(`${file}: key "${entry.where}.${key}": expected ${what} for the new preset "${entry.name}"`, {
        file,
        key: `${entry.where}.${key}`,
      });
    };
    if (!entry.format) missing('format', '"anthropic", "openai" or "ollama"');
    if (!entry.baseUrl) missing('base_url', 'the endpoint URL');
    if (entry.format === 'anthropic' && !entry.model) missing('model', 'a model name (anthropic-format servers have no model list)');
  }
  const apiKeyEnv = entry.apiKeyEnv ?? base?.apiKeyEnv ?? [];
  const keyFile = entry.keyFile ?? base?.keyFile;
  const prices = overlayPrices(base?.prices, entry, file);
  const promptCache = entry.promptCache ?? base?.promptCache;
  const cacheTtl = entry.cacheTtl ?? base?.cacheTtl;
  const preset: Preset = {
    name: entry.name,
    format: entry.format ?? base?.format ?? 'openai',
    baseUrl: entry.baseUrl ?? base?.baseUrl ?? '',
    model: entry.model ?? base?.model ?? '',
    apiKeyEnv,
    ...(keyFile !== undefined ? { keyFile } : {}),
    keyOptional: apiKeyEnv.length === 0 && keyFile === undefined,
    thinking: entry.thinking ?? base?.thinking ?? CUSTOM_PRESET_DEFAULTS.thinking,
    ...(entry.thinkingEffort ?? base?.thinkingEffort ? { thinkingEffort: entry.thinkingEffort ?? base?.thinkingEffort } : {}),
    vision: entry.vision ?? base?.vision ?? CUSTOM_PRESET_DEFAULTS.vision,
    contextWindow: entry.contextWindow ?? base?.contextWindow ?? CUSTOM_PRESET_DEFAULTS.contextWindow,
    ...(entry.contextWindow !== undefined || base?.contextWindowSet ? { contextWindowSet: true } : {}),
    maxTokens: entry.maxTokens ?? inheritedMaxTokens(base?.maxTokens ?? CUSTOM_PRESET_DEFAULTS.maxTokens, entry.contextWindow),
    echoReasoning: entry.echoReasoning ?? base?.echoReasoning ?? CUSTOM_PRESET_DEFAULTS.echoReasoning,
    ...(entry.toolProfile ?? base?.toolProfile ? { toolProfile: entry.toolProfile ?? base?.toolProfile } : {}),
    ...(prices ? { prices } : {}),
    proxy: entry.proxy ?? base?.proxy,
    ...(promptCache !== undefined ? { promptCache } : {}),
    ...(cacheTtl !== undefined ? { cacheTtl } : {}),
  };
  if (preset.promptCache === true && preset.format !== 'anthropic') {
    throw new ConfigError(
      `${file}: key "${entry.where}.prompt_cache": expected it only on a preset with format = "anthropic" (cache breakpoints are an Anthropic Messages field; OpenAI-format servers cache by themselves)`,
      { file, key: `${entry.where}.prompt_cache` },
    );
  }
  if (preset.maxTokens >= preset.contextWindow) {
    throw new ConfigError(
      `${file}: key "${entry.where}.max_tokens": expected less than context_window (${preset.contextWindow}), got the number ${preset.maxTokens}`,
      { file, key: `${entry.where}.max_tokens` },
    );
  }
  return preset;
}

/**
 * max_tokens a preset did not set, under the context_window it did: a quarter of the window when
 * the inherited figure would not fit (context_window = 8192 on a local preset must just work).
 */
function inheritedMaxTokens(inherited: number, window: number | undefined): number {
  if (window === undefined || inherited < window) return inherited;
  return Math.max(256, Math.floor(window / 4));
}

function overlayPrices(base: Prices | undefined, entry: PresetLayer, file: string): Prices | undefined {
  const input = entry.priceInput ?? base?.input;
  const output = entry.priceOutput ?? base?.output;
  const cacheRead = entry.priceCacheRead ?? base?.cacheRead;
  const cacheWrite = entry.priceCacheWrite ?? base?.cacheWrite;
  if (input === undefined && output === undefined && cacheRead === undefined && cacheWrite === undefined) return undefined;
  if (input === undefined || output === undefined) {
    const key = input === undefined ? 'price_input' : 'price_output';
    throw new ConfigError(`${file}: key "${entry.where}.${key}": expected both price_input and price_output when a preset has prices`, {
      file,
      key: `${entry.where}.${key}`,
    });
  }
  return {
    input,
    output,
    ...(cacheRead !== undefined ? { cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  };
}

/** Project over user over defaults, for every plain setting. */
export function pick<K extends keyof ConfigLayer>(
  key: K,
  user: ConfigLayer | undefined,
  project: ConfigLayer | undefined,
): ConfigLayer[K] | undefined {
  return project?.[key] ?? user?.[key];
}

export function mergeCodeMap(user: ConfigLayer | undefined, project: ConfigLayer | undefined): CodeMapSettings {
  const a = user?.codeMap;
  const b = project?.codeMap;
  const enabled = b?.enabled ?? a?.enabled ?? DEFAULTS.codeMapEnabled;
  const budgetTokens = b?.budgetTokens ?? a?.budgetTokens;
  return budgetTokens === undefined ? { enabled } : { enabled, budgetTokens };
}

/** The user's servers first; a trusted project's server cannot replace one of the user's. */
export function mergeMcpServers(user: ConfigLayer | undefined, project: ConfigLayer | undefined, warnings: string[]): McpServerConfig[] {
  const servers = [...(user?.mcpServers ?? [])];
  for (const s of project?.mcpServers ?? []) {
    if (servers.some((u) => u.name === s.name)) {
      warnings.push(`${project?.file ?? ''}: MCP server "${s.name}" is also in your user config; yours is used`);
      continue;
    }
    servers.push(s);
  }
  return servers.filter((s) => s.enabled);
}

/** A project may lower the schema budget, never raise it above the user's. */
export function mcpBudget(user: ConfigLayer | undefined, project: ConfigLayer | undefined): number | undefined {
  const u = user?.mcpSchemaBudget;
  const p = project?.mcpSchemaBudget;
  if (p === undefined) return u;
  return u === undefined ? p : Math.min(u, p);
}

/** Mode and auto-allow: project over user. Lists: the project's entries join the user's. */
export function mergeSandbox(user: ConfigLayer | undefined, project: ConfigLayer | undefined): SandboxSettings {
  return {
    mode: project?.sandbox ?? user?.sandbox ?? DEFAULTS.sandbox,
    writable: unique([...(user?.sandboxWritable ?? []), ...(project?.sandboxWritable ?? [])]),
    network: unique([...(user?.sandboxNetwork ?? []), ...(project?.sandboxNetwork ?? [])]),
    bashInSandbox: project?.bashInSandbox ?? user?.bashInSandbox ?? DEFAULTS.bashInSandbox,
  };
}

export function basePolicy(user: ConfigLayer | undefined): PolicySettings {
  return mergePolicy(DEFAULT_POLICY, user?.policy);
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function uniqueRules(rules: readonly BashRule[]): BashRule[] {
  const seen = new Set<string>();
  return rules.filter((rule) => {
    const key = JSON.stringify([rule.match, rule.words]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
