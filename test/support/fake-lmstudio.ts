/**
 * A fake LM Studio server following its documented REST API:
 *
 *   GET /v1/models                 every downloaded model (OpenAI shape: ids only)
 *   GET /api/v0/models[/{id}]      {id, type, state: "loaded"|"not-loaded", max_context_length, loaded_context_length}
 *   GET /api/v1/models             {models: [{key, loaded_instances: [{config: {context_length}}], max_context_length}]}
 *   POST /v1/chat/completions      OpenAI-format SSE
 *
 * A model not loaded is loaded on first use with `defaultContext` (4096); a prompt longer than the
 * loaded context is cut from the front and answered normally, with the smaller prompt_tokens.
 * `v0: false` leaves the v0 API out (LM Studio versions that only serve v1).
 */
import { fitToWindow, replyFor, sendJson, sendOpenAiStream, startJsonServer, type FakeServer, type LocalReplies } from './fake-local-common.js';

export interface FakeLmStudioModel {
  readonly id: string;
  readonly type?: 'llm' | 'vlm' | 'embeddings';
  readonly maxContext: number;
  /** Loaded with this context length; undefined: not loaded. */
  readonly loadedContext?: number;
}

export interface FakeLmStudioOptions {
  readonly models: readonly FakeLmStudioModel[];
  readonly replies: LocalReplies;
  readonly defaultContext?: number;
  readonly v0?: boolean;
}

export interface FakeLmStudio extends FakeServer {
  readonly ran: { model: string; context: number; evaluated: number; cut: boolean }[];
}

export async function startFakeLmStudio(opts: FakeLmStudioOptions): Promise<FakeLmStudio> {
  const ran: FakeLmStudio['ran'] = [];
  const loaded = new Map(opts.models.flatMap((m) => (m.loadedContext ? [[m.id, m.loadedContext] as const] : [])));
  let chats = 0;
  const v0 = (m: FakeLmStudioModel): Record<string, unknown> => ({
    id: m.id,
    object: 'model',
    type: m.type ?? 'llm',
    publisher: 'lmstudio-community',
    arch: 'qwen3',
    compatibility_type: 'gguf',
    quantization: 'Q4_K_M',
    state: loaded.has(m.id) ? 'loaded' : 'not-loaded',
    max_context_length: m.maxContext,
    ...(loaded.has(m.id) ? { loaded_context_length: loaded.get(m.id) } : {}),
  });
  const server = await startJsonServer(async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'GET' && req.path === '/v1/models') return sendJson(res, 200, { object: 'list', data: opts.models.map((m) => ({ id: m.id, object: 'model', owned_by: 'organization_owner' })) });
    if (req.method === 'GET' && req.path.startsWith('/api/v0/models') && opts.v0 !== false) {
      const id = decodeURIComponent(req.path.slice('/api/v0/models/'.length));
      if (!id) return sendJson(res, 200, { object: 'list', data: opts.models.map(v0) });
      const m = opts.models.find((x) => x.id === id);
      return m ? sendJson(res, 200, v0(m)) : sendJson(res, 404, { error: `Model "${id}" not found` });
    }
    if (req.method === 'GET' && req.path === '/api/v1/models') {
      const models = opts.models.map((m) => ({
        type: m.type === 'embeddings' ? 'embedding' : 'llm',
        key: m.id,
        display_name: m.id,
        loaded_instances: loaded.has(m.id) ? [{ id: m.id, config: { context_length: loaded.get(m.id) } }] : [],
        max_context_length: m.maxContext,
      }));
      return sendJson(res, 200, { models });
    }
    if (req.method === 'POST' && req.path === '/v1/chat/completions') {
      const m = opts.models.find((x) => x.id === body['model']);
      if (!m) return sendJson(res, 404, { error: { message: `Model "${String(body['model'])}" not found`, type: 'invalid_request_error' } });
      if (!loaded.has(m.id)) loaded.set(m.id, opts.defaultContext ?? 4096);
      const context = loaded.get(m.id)!;
      const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as Record<string, unknown>[];
      const fit = fitToWindow(messages, body['tools'], context);
      ran.push({ model: m.id, context, evaluated: fit.evaluated, cut: fit.cut });
      const reply = replyFor(opts.replies, req, chats++);
      if (!reply) return sendJson(res, 500, { error: { message: `fake lmstudio: no scripted reply for chat #${chats}` } });
      return sendOpenAiStream(res, reply, m.id, fit.evaluated);
    }
    sendJson(res, 404, { error: `Unexpected endpoint or method. (${req.method} ${req.path})` });
  });
  return { ...server, ran };
}
