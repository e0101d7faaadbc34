/**
 * What the full screen shows while the session is still starting: the header's facts, all cheap to
 * know from the config and the chosen preset, and an empty transcript. The engine's own first
 * state (src/agent/engine.ts, initialState) replaces it; keep the two saying the same things.
 */
import type { SessionState } from '../agent/state.js';
import type { Config, Preset } from '../config/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import { BUILTIN_SLASH_INFO } from '../slash/builtin-info.js';
import type { CliOptions } from './options.js';

export function startingState(cli: CliOptions, config: Config, preset: Preset): SessionState {
  const p = config.policy;
  const summary = `read=${p.read} write=${p.write} delete=${p.delete} bash=${p.bash}`;
  const thinkingEffort = cli.thinkingEffort ?? preset.thinkingEffort;
  const window = preset.contextWindow;
  return {
    sessionId: '',
    preset: { name: preset.name, format: preset.format, model: preset.model },
    thinking: cli.thinking ?? preset.thinking,
    ...(thinkingEffort ? { thinkingEffort } : {}),
    markdown: config.markdown,
    projectRoot: config.projectRoot,
    permissionSummary: cli.readOnly ? `${summary} (read-only)` : summary,
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: ZERO_USAGE,
    sessionCost: null,
    context: { usedTokens: 0, measured: false, window, threshold: Math.min(Math.floor(window * 0.75), 200_000) },
    commands: BUILTIN_SLASH_INFO,
  };
}
