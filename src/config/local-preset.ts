/**
 * The preset a session runs with, as the server sees it. For local servers that means asking
 * them: which model (when none was named), the window the model really has, and from that the
 * reply budget and the tool profile. Everything downstream — the context meter, the offload
 * thresholds, the code-map budget, Ollama's num_ctx — reads the result, not the guess.
 */
import { findPreset } from './presets.js';
import { pickLocalModel } from './local-models.js';
import { detectServer, isLocalCandidate, notRunning, SERVER_NAME, serverRoot } from './local-server.js';
import { readLocalWindow, type LocalWindow } from './local-window.js';
import type { Config, Preset, ToolProfile } from './types.js';

/** Below this window the small tool profile is the default for a local model. */
export const SMALL_PROFILE_BELOW = 32_768;

export interface OpenedPreset {
  readonly preset: Preset;
  /** What the local server said; undefined for hosted presets and servers of unknown kind. */
  readonly local?: LocalWindow;
  /** The guard's view of the server (providers/local-guard.ts), for a known local server. */
  readonly guard?: { readonly window: number; readonly fix: string; readonly server: string };
  /** For -v: where the window, the model and the profile came from. */
  readonly log: readonly string[];
  /** For the transcript: what the user should know before the first turn. */
  readonly notices: readonly string[];
}

/** The preset to run with; `log` (the -v sink) hears where its window, model and profile came from. */
export async function openPreset(config: Config, spec?: string, log?: (line: string) => void): Promise<OpenedPreset> {
  const opened = await open(config, spec);
  for (const line of opened.log) log?.(line);
  return opened;
}

async function open(config: Config, spec?: string): Promise<OpenedPreset> {
  const named = findPreset(config, spec);
  if (!isLocalCandidate(named)) return { preset: withProfile(named, config, false), log: [], notices: [] };
  const log: string[] = [];
  const found = await detectServer(named);
  let preset = named;
  if (!preset.model) {
    preset = { ...preset, model: await pickLocalModel(preset, found.kind) };
    log.push(`preset "${preset.name}": model ${preset.model}, as the server has it loaded (or has only it)`);
  } else if (found.refused) {
    throw notRunning(preset, preset.baseUrl, found.kind, false);
  }
  if (!found.kind) {
    // vLLM, a proxy, something else: nothing known about its window or whether it truncates, so
    // it is used as any OpenAI-compatible endpoint, with context_window as configured.
    log.push(`context window ${preset.contextWindow}: context_window of preset "${preset.name}" (not Ollama, LM Studio or llama.cpp)`);
    return { preset: withProfile(preset, config, false), log, notices: [] };
  }
  const local = await readLocalWindow(preset, found.kind);
  log.push(`context window ${local.source}`);
  const maxTokens = Math.min(preset.maxTokens, Math.max(256, Math.floor(local.window / 4)));
  if (maxTokens < preset.maxTokens) log.push(`max_tokens ${maxTokens}: a quarter of the window (max_tokens ${preset.maxTokens} would not leave room for the prompt)`);
  const sized = withProfile({ ...preset, contextWindow: local.window, maxTokens }, config, true);
  if (!preset.toolProfile && !config.toolProfile) log.push(`tool profile ${sized.toolProfile} (${sized.toolProfile === 'small' ? 'a local window under' : 'a window of at least'} ${SMALL_PROFILE_BELOW})`);
  const notices = [...local.notes];
  if (local.canUseTools === false) {
    notices.push(`Ollama lists no "tools" capability for ${preset.model}: it may refuse requests that offer tools. A model with tool support (qwen3, llama3.1 …) works better here.`);
  }
  const server = `${preset.model} on ${SERVER_NAME[found.kind]} at ${serverRoot(preset.baseUrl)}`;
  return { preset: sized, local, guard: { window: local.window, fix: local.fix, server }, log, notices };
}

/** The tool profile: the preset's, else the config's, else small for a local model under 32K. */
function withProfile(preset: Preset, config: Config, local: boolean): Preset {
  const toolProfile: ToolProfile = preset.toolProfile ?? config.toolProfile ?? (local && preset.contextWindow < SMALL_PROFILE_BELOW ? 'small' : 'full');
  return { ...preset, toolProfile };
}

/** What the model client needs from an opened local preset (create-client.ts `local`). */
export function clientLocalOptions(opened: OpenedPreset):
  | { guard: NonNullable<OpenedPreset['guard']>; ollama?: { limit: number; loaded?: number; canThink?: boolean } }
  | undefined {
  if (!opened.guard) return undefined;
  const w = opened.local;
  const ollama =
    opened.preset.format === 'ollama'
      ? {
          limit: opened.preset.contextWindow,
          ...(w?.loaded ? { loaded: w.loaded } : {}),
          ...(w?.canThink !== undefined ? { canThink: w.canThink } : {}),
        }
      : undefined;
  return { guard: opened.guard, ...(ollama ? { ollama } : {}) };
}
