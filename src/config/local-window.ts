/**
 * The context window a local server really gives a model, read from the server itself at session
 * start: Ollama's /api/show (the model's maximum, "<arch>.context_length") and /api/ps (the num_ctx
 * it is loaded with), LM Studio's /api/v0/models (loaded_context_length, max_context_length), a
 * llama.cpp server's /props (default_generation_settings.n_ctx). The meter, the offload thresholds
 * and the code-map budget then use that number instead of a guess.
 */
import { field, getJson, LocalServerError, notRunning, positiveInt, SERVER_NAME, serverRoot, type LocalServerKind } from './local-server.js';
import type { Preset } from './types.js';

export interface LocalWindow {
  readonly kind: LocalServerKind;
  /** The tokens a session may fill. */
  readonly window: number;
  /** Where the number came from, for -v. */
  readonly source: string;
  /** The model's own maximum, when the server says. */
  readonly modelMax?: number;
  /** The window the model is loaded with now, when the server says. */
  readonly loaded?: number;
  /** From Ollama's capabilities: false when the model cannot think / call tools. */
  readonly canThink?: boolean;
  readonly canUseTools?: boolean;
  /** Startup notes for the transcript. */
  readonly notes: readonly string[];
  /** How to get a bigger window on this server (ends without a full stop). */
  readonly fix: string;
}

/** Ollama's default num_ctx on small machines, and LM Studio's usual load default. */
const ASSUMED_DEFAULT = 4096;

export async function readLocalWindow(preset: Preset, kind: LocalServerKind): Promise<LocalWindow> {
  const read = kind === 'ollama' ? readOllama : kind === 'lmstudio' ? readLmStudio : readLlamaCpp;
  const w = await read(preset);
  // A context_window set in the config caps what the server reports (a user may want less).
  if (kind !== 'ollama' || preset.format !== 'ollama') {
    if (preset.contextWindowSet && preset.contextWindow < w.window) {
      return { ...w, window: preset.contextWindow, source: `${w.source}; capped by context_window ${preset.contextWindow} of preset "${preset.name}"` };
    }
  }
  return w;
}

async function readOllama(preset: Preset): Promise<LocalWindow> {
  const root = serverRoot(preset.baseUrl);
  const show = await getJson(`${root}/api/show`, { post: { model: preset.model } });
  if (!show.ok && (show.refused || show.status === undefined)) throw notRunning(preset, `${root}/api/show`, 'ollama', false);
  // Ollama's 404 names the model ("model 'x' not found"); a bare 404 is a server without the route.
  const said = show.ok ? undefined : field(show.body, 'error');
  if (!show.ok && show.status === 404 && typeof said === 'string' && /model/i.test(said)) throw await missingOllamaModel(preset, root);
  const info = show.ok ? field(show.body, 'model_info') : undefined;
  const arch = field(info, 'general.architecture');
  const key = typeof arch === 'string' && positiveInt(field(info, `${arch}.context_length`)) ? `${arch}.context_length` : contextKey(info);
  const modelMax = key ? positiveInt(field(info, key)) : undefined;
  const params = show.ok ? field(show.body, 'parameters') : undefined;
  const paramCtx = typeof params === 'string' ? Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(params)?.[1] ?? NaN) : NaN;
  const caps = show.ok ? field(show.body, 'capabilities') : undefined;
  const capList = Array.isArray(caps) ? caps.map(String) : undefined;
  const ps = await getJson(`${root}/api/ps`);
  const running = ps.ok ? field(ps.body, 'models') : undefined;
  const entry = Array.isArray(running) ? running.find((m: unknown) => sameModel(field(m, 'name'), preset.model) || sameModel(field(m, 'model'), preset.model)) : undefined;
  const loaded = positiveInt(field(entry, 'context_length'));
  const base = {
    kind: 'ollama' as const,
    ...(modelMax ? { modelMax } : {}),
    ...(loaded ? { loaded } : {}),
    ...(capList ? { canThink: capList.includes('thinking'), canUseTools: capList.includes('tools') } : {}),
  };
  const maxNote = modelMax ? `the model allows ${modelMax} (/api/show ${key})` : '/api/show gave no context length';
  const loadedNote = loaded ? `; loaded now with ${loaded} (/api/ps)` : '';
  if (preset.format === 'ollama') {
    const cap = preset.contextWindow;
    const window = modelMax ? Math.min(cap, modelMax) : cap;
    const fix =
      modelMax && window >= modelMax
        ? `The model's maximum is ${modelMax} tokens: use a model with a longer context`
        : `Raise context_window of preset "${preset.name}" (now ${cap}${modelMax ? `; the model allows ${modelMax}` : ''})`;
    return { ...base, window, source: `${window} tokens: context_window ${cap} of preset "${preset.name}", ${maxNote}${loadedNote}; num_ctx is set per request`, notes: [], fix };
  }
  // The OpenAI-compatible route takes whatever num_ctx the server loads the model with.
  const [server, how] = loaded
    ? [loaded, `loaded with ${loaded} (/api/ps)`]
    : Number.isInteger(paramCtx) && paramCtx > 0
      ? [paramCtx, `num_ctx ${paramCtx} of the model's parameters (/api/show)`]
      : [ASSUMED_DEFAULT, `assumed ${ASSUMED_DEFAULT}, Ollama's default (the model is not loaded)`];
  const window = modelMax ? Math.min(server, modelMax) : server;
  const fix = `Set format = "ollama" in preset "${preset.name}" so lindwyrm can set num_ctx, or restart Ollama with a longer default (OLLAMA_CONTEXT_LENGTH=32768 ollama serve)`;
  const note = `Preset "${preset.name}" reaches Ollama through its OpenAI-compatible route, which cannot set num_ctx: the window is ${window} tokens (${how}). Use format = "ollama" to let lindwyrm size it.`;
  return { ...base, window, source: `${window} tokens: ${how}, ${maxNote}`, notes: [note], fix };
}

async function readLmStudio(preset: Preset): Promise<LocalWindow> {
  const root = serverRoot(preset.baseUrl);
  const one = await getJson(`${root}/api/v0/models/${encodeURIComponent(preset.model)}`);
  let entry: unknown = one.ok ? one.body : undefined;
  if (!entry) {
    const all = await getJson(`${root}/api/v0/models`);
    const data = all.ok ? field(all.body, 'data') : undefined;
    entry = Array.isArray(data) ? data.find((m: unknown) => field(m, 'id') === preset.model) : undefined;
  }
  const modelMax = positiveInt(field(entry, 'max_context_length'));
  let loaded = field(entry, 'state') === 'loaded' ? positiveInt(field(entry, 'loaded_context_length')) : undefined;
  let how = 'loaded_context_length (/api/v0/models)';
  if (!loaded) {
    // LM Studio 0.4's own API names the loaded instance's context instead.
    const v1 = await getJson(`${root}/api/v1/models`);
    const list = v1.ok ? field(v1.body, 'models') : undefined;
    const model = Array.isArray(list) ? list.find((m: unknown) => field(m, 'key') === preset.model) : undefined;
    const instances = field(model, 'loaded_instances');
    loaded = Array.isArray(instances) ? positiveInt(field(field(instances[0], 'config'), 'context_length')) : undefined;
    how = 'loaded_instances[0].config.context_length (/api/v1/models)';
  }
  const suggest = Math.min(modelMax ?? 32_768, 32_768);
  const fix = `Load the model in LM Studio with a longer context (lms load ${preset.model} --context-length ${suggest}, or in its model settings)`;
  const maxNote = modelMax ? `, the model allows ${modelMax}` : '';
  if (loaded) return { kind: 'lmstudio', window: loaded, loaded, ...(modelMax ? { modelMax } : {}), source: `${loaded} tokens: ${how}${maxNote}`, notes: [], fix };
  const window = Math.min(ASSUMED_DEFAULT, modelMax ?? ASSUMED_DEFAULT);
  const note = `LM Studio has not loaded ${preset.model}; it loads it on first use with its default context, assumed ${window} tokens. ${fix} to give it more.`;
  return { kind: 'lmstudio', window, ...(modelMax ? { modelMax } : {}), source: `${window} tokens: assumed (not loaded)${maxNote}`, notes: [note], fix };
}

async function readLlamaCpp(preset: Preset): Promise<LocalWindow> {
  const root = serverRoot(preset.baseUrl);
  const fix = 'Restart llama-server with a larger context (-c 32768)';
  let props = await getJson(`${root}/props`);
  let nCtx = positiveInt(field(field(props.ok ? props.body : undefined, 'default_generation_settings'), 'n_ctx'));
  if (!nCtx && preset.model) {
    // In router mode the bare /props is a placeholder (n_ctx 0): the model's own is behind ?model=.
    props = await getJson(`${root}/props?model=${encodeURIComponent(preset.model)}`);
    nCtx = positiveInt(field(field(props.ok ? props.body : undefined, 'default_generation_settings'), 'n_ctx'));
  }
  if (!nCtx) {
    const note = `${SERVER_NAME.llamacpp} did not report its context size (/props); using context_window ${preset.contextWindow} of preset "${preset.name}".`;
    return { kind: 'llamacpp', window: preset.contextWindow, source: `${preset.contextWindow} tokens: context_window (no n_ctx in /props)`, notes: [note], fix };
  }
  return { kind: 'llamacpp', window: nCtx, loaded: nCtx, source: `${nCtx} tokens: default_generation_settings.n_ctx (/props)`, notes: [], fix };
}

async function missingOllamaModel(preset: Preset, root: string): Promise<LocalServerError> {
  const tags = await getJson(`${root}/api/tags`);
  const list = tags.ok ? field(tags.body, 'models') : undefined;
  const names = Array.isArray(list) ? list.map((m: unknown) => field(m, 'name')).filter((n): n is string => typeof n === 'string') : [];
  const others = names.length > 0 ? `, or use one it has: ${names.join(', ')}` : '';
  return new LocalServerError(`Ollama at ${root} has no model "${preset.model}": pull it with \`ollama pull ${preset.model}\`${others}`);
}

function contextKey(info: unknown): string | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  return Object.keys(info).find((k) => k.endsWith('.context_length') && positiveInt((info as Record<string, unknown>)[k]));
}

/** "qwen3" and "qwen3:latest" are one model to Ollama. */
function sameModel(name: unknown, model: string): boolean {
  if (typeof name !== 'string') return false;
  const tag = (n: string): string => (n.includes(':') ? n : `${n}:latest`);
  return tag(name) === tag(model);
}
