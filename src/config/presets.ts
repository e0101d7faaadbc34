/** Choosing a preset (-m NAME, -m NAME:MODEL, default_preset) and finding its API key. */
import { readFile } from 'node:fs/promises';
import { ConfigError } from './errors.js';
import { pickLocalModel } from './local-models.js';
import { likelyKind } from './local-server.js';
import type { Config, Preset } from './types.js';

export { LocalServerError } from './local-models.js';

/** Splits "ollama:qwen3:8b" into the preset and the model (models may contain ":" themselves). */
export function splitPresetSpec(spec: string): { name: string; model?: string } {
  const colon = spec.indexOf(':');
  if (colon < 0) return { name: spec };
  return { name: spec.slice(0, colon), model: spec.slice(colon + 1) || undefined };
}

/** Throws ConfigError (exit 2) for an unknown name; only looks a preset up, no network. */
export function findPreset(config: Config, spec?: string): Preset {
  const { name, model } = splitPresetSpec(spec ?? config.defaultPreset);
  const preset = config.presets.find((p) => p.name === name);
  if (!preset) {
    throw new ConfigError(`unknown preset "${name}": choose one of ${config.presets.map((p) => p.name).join(', ')}`);
  }
  return model ? { ...preset, model } : preset;
}

/**
 * The preset to use. When it has no model (the local presets), the server supplies it: the model
 * it has loaded, or its only one (config/local-models.ts); a server that is not running is a
 * clear LocalServerError (exit 1). A session asks for more through openPreset (local-preset.ts).
 */
export async function resolvePreset(config: Config, name?: string): Promise<Preset> {
  const preset = findPreset(config, name);
  if (preset.model) return preset;
  const model = await pickLocalModel(preset, likelyKind(preset));
  return { ...preset, model };
}

/**
 * The key from the first variable in api_key_env that is set, else the contents of key_file.
 * Never from a config file, never from a project `.env`.
 */
export async function resolveApiKey(
  preset: Preset,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  for (const variable of preset.apiKeyEnv) {
    const value = env[variable]?.trim();
    if (value) return value;
  }
  if (preset.keyFile === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(preset.keyFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    // Not written yet: simply no key, so the caller names the variable to set and the file (exit 1).
    if (code === 'ENOENT') return undefined;
    throw new ConfigError(`preset "${preset.name}": key_file ${preset.keyFile} cannot be read (${code})`, {
      key: 'key_file',
    });
  }
  return text.trim() || undefined;
}

/** The message for a session that cannot start for want of a key. */
export function missingKeyMessage(preset: Preset): string {
  const vars = preset.apiKeyEnv;
  const where = vars.length === 0 ? '' : vars.length === 1 ? `set ${vars[0]}` : `set one of ${vars.join(', ')}`;
  const file = preset.keyFile ? `${where ? ' or ' : ''}put the key in ${preset.keyFile}` : '';
  const example = vars[0] ? ` (for example: export ${vars[0]}=...)` : '';
  return `no API key for preset "${preset.name}": ${where}${file}${example}`;
}
