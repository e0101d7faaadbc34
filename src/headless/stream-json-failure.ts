/**
 * The stream-json result line for a run that failed before its session existed (no API key), in
 * a module of its own so the CLI can print it without loading the engine.
 */
export function failedStreamResult(json: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: 0,
    total_cost_usd: null,
    ...json,
    usage: { ...(json['usage'] as object), input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
    exit_status: 1,
    // The global one, loaded on first use: importing node:crypto here cost every start-up ~8 ms.
    uuid: globalThis.crypto.randomUUID(),
  };
}
