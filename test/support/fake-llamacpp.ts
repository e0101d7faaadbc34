/**
 * A fake llama.cpp server (llama-server) following its documented endpoints:
 *
 *   GET /props      {default_generation_settings: {n_ctx, params}, total_slots, model_path}
 *                   (router mode: n_ctx 0 on the bare route, the model's own behind ?model=)
 *   GET /v1/models  {data: [{id, meta: {n_ctx_train}}]};  GET /health
 *   POST /v1/chat/completions   OpenAI-format SSE
 *
 * `overflow` says what a prompt longer than n_ctx gets: the 400 newer servers send
 * (exceed_context_size_error), or the silent front cut of context shifting.
 */
import { fitToWindow, replyFor, sendJson, sendOpenAiStream, startJsonServer, type FakeServer, type LocalReplies } from './fake-local-common.js';

export interface FakeLlamaCppOptions {
  readonly nCtx: number;
  readonly model?: string;
  readonly replies: LocalReplies;
  readonly overflow?: 'error' | 'truncate';
  readonly routerMode?: boolean;
}

export interface FakeLlamaCpp extends FakeServer {
  readonly ran: { evaluated: number; cut: boolean }[];
}

export async function startFakeLlamaCpp(opts: FakeLlamaCppOptions): Promise<FakeLlamaCpp> {
  const ran: FakeLlamaCpp['ran'] = [];
  const model = opts.model ?? 'qwen2.5-coder-7b-instruct-q4_k_m.gguf';
  let chats = 0;
  const server = await startJsonServer(async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'GET' && req.path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (req.method === 'GET' && req.path === '/props') {
      const placeholder = opts.routerMode && req.query.get('model') !== model;
      return sendJson(res, 200, {
        default_generation_settings: { id: 0, n_ctx: placeholder ? 0 : opts.nCtx, params: { n_predict: -1, temperature: 0.8 } },
        total_slots: 1,
        model_path: `/models/${model}`,
        build_info: 'b6000-fake',
      });
    }
    if (req.method === 'GET' && req.path === '/v1/models') return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', meta: { n_ctx_train: 32_768 } }] });
    if (req.method === 'POST' && req.path === '/v1/chat/completions') {
      const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as Record<string, unknown>[];
      const fit = fitToWindow(messages, body['tools'], opts.nCtx);
      ran.push({ evaluated: fit.evaluated, cut: fit.cut });
      if (fit.cut && (opts.overflow ?? 'error') === 'error') {
        return sendJson(res, 400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } });
      }
      const reply = replyFor(opts.replies, req, chats++);
      if (!reply) return sendJson(res, 500, { error: { message: `fake llama.cpp: no scripted reply for chat #${chats}` } });
      return sendOpenAiStream(res, reply, model, fit.evaluated);
    }
    sendJson(res, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
  });
  return { ...server, ran };
}
