/** Asks an OpenAI-compatible server (Ollama, LM Studio, vLLM …) which models it serves. */
import { userAgent } from '../providers/user-agent.js';

export class LocalServerError extends Error {
  /** A runtime problem, not a usage error. */
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'LocalServerError';
  }
}

export async function firstServedModel(baseUrl: string, opts: { timeoutMs?: number; presetName: string }): Promise<string> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { 'user-agent': userAgent() }, signal: AbortSignal.timeout(opts.timeoutMs ?? 3000) });
  } catch {
    throw new LocalServerError(
      `cannot reach ${url} to find a model for preset "${opts.presetName}": is the server running? ` +
        `Start it, or name the model with -m ${opts.presetName}:MODEL`,
    );
  }
  if (!response.ok) {
    throw new LocalServerError(`${url} answered HTTP ${response.status}; name the model with -m ${opts.presetName}:MODEL`);
  }
  let ids: string[] = [];
  try {
    const body = (await response.json()) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
  } catch {
    throw new LocalServerError(`${url} did not return a JSON model list; name the model with -m ${opts.presetName}:MODEL`);
  }
  const first = ids[0];
  if (!first) {
    throw new LocalServerError(`${url} lists no models: load or pull one first, or name it with -m ${opts.presetName}:MODEL`);
  }
  return first;
}
