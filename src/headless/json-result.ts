/**
 * The --json object. Its own module with type-only imports, so the CLI can print it for a run
 * that fails before the engine is loaded (no API key) without loading the engine.
 */
import type { LindwyrmEngine } from '../agent/engine.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';
import type { UnsuccessfulCall } from './tool-tally.js';

/**
 * The --json object, exactly as the contract names it; `calls` adds `denied` (how many calls were
 * denied) and `denied_calls` (every denied or failed call, with what it said).
 */
export function jsonResult(
  outcome: TurnOutcome | undefined,
  engine: LindwyrmEngine | undefined,
  status: TurnStatus,
  calls?: readonly UnsuccessfulCall[],
): Record<string, unknown> {
  const rt = engine?.runtime;
  const usage = rt?.session.usage;
  return {
    status,
    result: outcome?.result ?? '',
    session_id: rt?.session.id ?? null,
    preset: rt?.preset.name ?? null,
    model: rt?.preset.model ?? null,
    steps: outcome?.steps ?? 0,
    usage: {
      input: usage?.input ?? 0,
      cache_read: usage?.cacheRead ?? 0,
      cache_write: usage?.cacheWrite ?? 0,
      output: usage?.output ?? 0,
    },
    cost: rt?.session.cost ?? null,
    denied: (calls ?? []).filter((c) => c.status === 'denied').length,
    denied_calls: (calls ?? []).map((c) => ({ tool: c.tool, call: c.call, status: c.status, message: c.message })),
  };
}
