/** The view's state for a session as it stands: what the header, transcript and meter start from. */
import type { SessionRuntime } from './engine.js';
import type { SessionState } from './state.js';
import { reclaimThreshold } from './usage.js';

export function permissionSummary(rt: Pick<SessionRuntime, 'config' | 'readOnly'>): string {
  const p = rt.config.policy;
  const base = `read=${p.read} write=${p.write} delete=${p.delete} bash=${p.bash}`;
  return rt.readOnly ? `${base} (read-only)` : base;
}

export function initialState(rt: SessionRuntime, saved?: boolean): SessionState {
  const window = rt.preset.contextWindow;
  return {
    sessionId: rt.session.id,
    preset: { name: rt.preset.name, format: rt.preset.format, model: rt.preset.model },
    thinking: rt.thinking,
    ...(rt.thinkingEffort ? { thinkingEffort: rt.thinkingEffort } : {}),
    markdown: rt.markdown,
    projectRoot: rt.config.projectRoot,
    permissionSummary: permissionSummary(rt),
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: rt.session.usage,
    sessionCost: rt.session.cost,
    // The figure /context gives for this history (an estimate until a request measures it), never a 0 placeholder.
    context: rt.context.gauge?.(rt.session.history, rt.system) ?? { usedTokens: 0, measured: false, window, threshold: reclaimThreshold(window) },
    ...(saved !== undefined ? { saved } : {}),
  };
}
