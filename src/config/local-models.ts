/**
 * The model for a local preset given without one (`-m ollama`): the model the server has loaded,
 * else the only one it has; with several and none loaded, the user is shown the list to choose
 * from. Generic OpenAI-compatible servers (vLLM, llama.cpp) serve what they list: the first.
 */
import { ConfigError } from './errors.js';
import { field, getJson, likelyKind, LocalServerError, notRunning, SERVER_NAME, serverRoot, type LocalServerKind } from './local-server.js';
import type { Preset } from './types.js';

export { LocalServerError } from './local-server.js';

export async function pickLocalModel(preset: Preset, kind: LocalServerKind | undefined): Promise<string> {
  if (kind === 'ollama') return pickOllamaModel(preset);
  const url = `${preset.baseUrl.replace(/\/+$/, '')}/models`;
  const reply = await getJson(url);
  if (!reply.ok) {
    if (reply.refused || reply.status === undefined) throw notRunning(preset, url, kind ?? likelyKind(preset), true);
    throw new LocalServerError(`${url} answered ${reply.reason}; name the model with -m ${preset.name}:MODEL`);
  }
  const data = field(reply.body, 'data');
  if (!Array.isArray(data)) throw new LocalServerError(`${url} did not return a JSON model list; name the model with -m ${preset.name}:MODEL`);
  const ids = data.map((m: unknown) => field(m, 'id')).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) throw new LocalServerError(`${url} lists no models: load or pull one first, or name it with -m ${preset.name}:MODEL`);
  if (ids.length === 1 || kind !== 'lmstudio') return ids[0]!;
  return pickLmStudioModel(preset, ids);
}

async function pickOllamaModel(preset: Preset): Promise<string> {
  const root = serverRoot(preset.baseUrl);
  const ps = await getJson(`${root}/api/ps`);
  if (!ps.ok && (ps.refused || ps.status === undefined)) throw notRunning(preset, `${root}/api/ps`, 'ollama', true);
  const loaded = names(ps.ok ? ps.body : undefined, 'models', 'name');
  if (loaded.length === 1) return loaded[0]!;
  if (loaded.length > 1) throw chooseOne(preset, 'ollama', 'has several models loaded', loaded);
  const tags = await getJson(`${root}/api/tags`);
  if (!tags.ok) throw new LocalServerError(`${root}/api/tags answered ${tags.reason}; name the model with -m ${preset.name}:MODEL`);
  const pulled = names(tags.body, 'models', 'name');
  if (pulled.length === 1) return pulled[0]!;
  if (pulled.length === 0) throw new LocalServerError(`Ollama at ${root} has no models yet: pull one first (for example \`ollama pull qwen3:8b\`), then run -m ${preset.name}:MODEL`);
  throw chooseOne(preset, 'ollama', 'has several models and none is loaded', pulled);
}

/** LM Studio lists every downloaded model on /v1/models; its own API says which are loaded. */
async function pickLmStudioModel(preset: Preset, ids: readonly string[]): Promise<string> {
  const reply = await getJson(`${serverRoot(preset.baseUrl)}/api/v0/models`);
  const data = reply.ok ? field(reply.body, 'data') : undefined;
  const models = Array.isArray(data) ? data : [];
  const chat = models.filter((m: unknown) => field(m, 'type') !== 'embeddings');
  const loaded = chat.filter((m: unknown) => field(m, 'state') === 'loaded').map((m: unknown) => String(field(m, 'id')));
  if (loaded.length === 1) return loaded[0]!;
  if (loaded.length > 1) throw chooseOne(preset, 'lmstudio', 'has several models loaded', loaded);
  const listed = chat.map((m: unknown) => String(field(m, 'id')));
  throw chooseOne(preset, 'lmstudio', 'has several models and none is loaded', listed.length > 0 ? listed : ids);
}

function chooseOne(preset: Preset, kind: LocalServerKind, situation: string, models: readonly string[]): ConfigError {
  const list = models.map((m) => `  -m ${preset.name}:${m}`).join('\n');
  return new ConfigError(`${SERVER_NAME[kind]} at ${serverRoot(preset.baseUrl)} ${situation}; choose one:\n${list}`);
}

function names(body: unknown, listKey: string, nameKey: string): string[] {
  const list = field(body, listKey);
  if (!Array.isArray(list)) return [];
  return list.map((m: unknown) => field(m, nameKey) ?? field(m, 'model')).filter((n): n is string => typeof n === 'string' && n.length > 0);
}
