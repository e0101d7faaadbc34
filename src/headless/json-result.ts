/**
 * The --json object. Its own module with type-only imports, so the CLI can print it for a run
 * that fails before the engine is loaded (no API key) without loading the engine.
 */
import type { LindwyrmEngine } from '../agent/engine.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';

/**
 * The --json object, exactly as the contract names it. Every status but "finished" carries
 * `error`: the message stderr showed (`error` when given, else the turn's own detail), so a
 * script learns why without parsing stderr. `denied` counts the calls that were denied and
 * `denied_calls` lists every denied or failed call (one-shot mode tallies them on the outcome).
 */
export function jsonResult(
  outcome: TurnOutcome | undefined,
  engine: LindwyrmEngine | undefined,
  status: TurnStatus,
  error?: string,
): Record<string, unknown> {
  const rt = engine?.runtime;
  const usage = rt?.session.usage;
  const calls = outcome?.calls ?? [];
  const unreported = (usage?.unreported ?? 0) > 0;
  return {
    status,
    result: outcome?.result ?? '',
    ...(status === 'finished' ? {} : { error: error ?? outcome?.detail ?? `The run ended as ${status}.` }),
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
    // A request whose server reported no usage leaves the cost unknown: null, never a low figure.
    ...(unreported ? { usage_reported: false } : {}),
    cost: unreported ? null : (rt?.session.cost ?? null),
    denied: calls.filter((c) => c.status === 'denied').length,
    denied_calls: calls.map((c) => ({ tool: c.tool, call: c.call, status: c.status, message: c.message })),
    // Only when the session could not be written (a full disk): `-c` will not find this run. A run
    // that saved keeps the contract object as it was.
    ...(outcome?.saved === false ? { saved: false } : {}),
  };
}
