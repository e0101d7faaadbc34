/**
 * A fake Ollama server following its documented API (docs/api.md of ollama/ollama):
 *
 *   POST /api/chat      NDJSON stream: {message:{content|thinking|tool_calls}, done:false} lines,
 *                       then {done:true, done_reason, prompt_eval_count, eval_count}
 *   POST /api/show      {model_info: {"general.architecture", "<arch>.context_length"}, capabilities, parameters}
 *   GET  /api/ps        loaded models with context_length;  GET /api/tags  pulled models
 *   GET  /api/version   {version}
 *   POST /v1/chat/completions, GET /v1/models   the OpenAI-compatible route (ignores num_ctx)
 *
 * Like the real server it runs a model with options.num_ctx (at most the model's maximum), else
 * with the window it is loaded with, else 4096; a longer prompt is cut from the front and the
 * reply is normal — only prompt_eval_count shows it. `honorsTruncate` makes it refuse instead when
 * the request says truncate: false (Ollama 0.12.6+).
 */
import type { ServerResponse } from 'node:http';
import { argumentText, pieces } from './fake-provider-events.js';
import { fitToWindow, replyFor, sendJson, sendOpenAiStream, startJsonServer, type FakeServer, type LocalReplies, type LocalReply, type LocalRequest } from './fake-local-common.js';

export interface FakeOllamaModel {
  readonly name: string;
  /** The model's maximum ("<arch>.context_length"); default 32768. */
  readonly contextLength?: number;
  readonly arch?: string;
  readonly capabilities?: readonly string[];
  /** The Modelfile parameters text, e.g. "num_ctx 8192". */
  readonly parameters?: string;
  /** Loaded now, with this num_ctx (listed by /api/ps). */
  readonly loadedContext?: number;
}

export interface FakeOllamaOptions {
  readonly models: readonly FakeOllamaModel[];
  readonly replies: LocalReplies;
  /** The window a model gets without num_ctx (OLLAMA_CONTEXT_LENGTH); default 4096. */
  readonly defaultContext?: number;
  readonly honorsTruncate?: boolean;
  readonly version?: string;
  /** The tokenizer's characters a token (default 4, lindwyrm's estimate). */
  readonly charsPerToken?: number;
  /** Routes this server lacks (older versions): answered as gin does, "404 page not found". */
  readonly without?: readonly string[];
}

export interface FakeOllama extends FakeServer {
  /** num_ctx each model ran with, per chat request. */
  readonly ran: { model: string; numCtx: number; evaluated: number; cut: boolean }[];
  /** (Re)loads a model with this window, as another client's request would. */
  load(model: string, context: number): void;
}

export async function startFakeOllama(opts: FakeOllamaOptions): Promise<FakeOllama> {
  const ran: FakeOllama['ran'] = [];
  const loaded = new Map(opts.models.flatMap((m) => (m.loadedContext ? [[m.name, m.loadedContext] as const] : [])));
  let chats = 0;
  const find = (name: unknown): FakeOllamaModel | undefined => {
    const tag = (n: string): string => (n.includes(':') ? n : `${n}:latest`);
    return typeof name === 'string' ? opts.models.find((m) => tag(m.name) === tag(name)) : undefined;
  };
  const server = await startJsonServer(async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (opts.without?.includes(req.path)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('404 page not found');
    }
    if (req.method === 'GET' && req.path === '/api/version') return sendJson(res, 200, { version: opts.version ?? '0.12.0' });
    if (req.method === 'GET' && req.path === '/api/tags') return sendJson(res, 200, { models: opts.models.map((m) => ({ name: m.name, model: m.name, details: { family: m.arch ?? 'llama' } })) });
    if (req.method === 'GET' && req.path === '/api/ps') {
      const models = opts.models.filter((m) => loaded.has(m.name)).map((m) => ({ name: m.name, model: m.name, size: 1, size_vram: 1, context_length: loaded.get(m.name) }));
      return sendJson(res, 200, { models });
    }
    if (req.method === 'GET' && req.path === '/v1/models') return sendJson(res, 200, { object: 'list', data: opts.models.map((m) => ({ id: m.name, object: 'model' })) });
    if (req.method === 'POST' && req.path === '/api/show') {
      const m = find(body['model']);
      if (!m) return sendJson(res, 404, { error: `model '${String(body['model'])}' not found` });
      const arch = m.arch ?? 'llama';
      return sendJson(res, 200, {
        parameters: m.parameters ?? '',
        details: { format: 'gguf', family: arch },
        model_info: { 'general.architecture': arch, [`${arch}.context_length`]: m.contextLength ?? 32_768, [`${arch}.block_count`]: 32 },
        capabilities: m.capabilities ?? ['completion', 'tools'],
      });
    }
    if (req.method === 'POST' && (req.path === '/api/chat' || req.path === '/v1/chat/completions')) {
      const m = find(body['model']);
      if (!m) return sendJson(res, 404, { error: `model '${String(body['model'])}' not found, try pulling it first` });
      const native = req.path === '/api/chat';
      const options = (body['options'] ?? {}) as Record<string, unknown>;
      const asked = native && typeof options['num_ctx'] === 'number' ? options['num_ctx'] : undefined;
      // A new num_ctx reloads the model with it; the OpenAI route keeps whatever is loaded.
      const numCtx = Math.min(asked ?? loaded.get(m.name) ?? opts.defaultContext ?? 4096, m.contextLength ?? 32_768);
      loaded.set(m.name, numCtx);
      const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as Record<string, unknown>[];
      const fit = fitToWindow(messages, body['tools'], numCtx, opts.charsPerToken);
      ran.push({ model: m.name, numCtx, evaluated: fit.evaluated, cut: fit.cut });
      if (fit.cut && native && body['truncate'] === false && opts.honorsTruncate) {
        return sendJson(res, 400, { error: 'the input length exceeds the context length' });
      }
      const reply = replyFor(opts.replies, req, chats++);
      if (!reply) return sendJson(res, 500, { error: `fake ollama: no scripted reply for chat #${chats}` });
      if (!native) return sendOpenAiStream(res, reply, m.name, fit.evaluated, 'reasoning');
      return sendNdjson(res, reply, m.name, fit.evaluated);
    }
    sendJson(res, 404, { error: `fake ollama: no route ${req.method} ${req.path}` });
  });
  return { ...server, ran, load: (model, context) => void loaded.set(model, context) };
}

function sendNdjson(res: ServerResponse, reply: LocalReply, model: string, evaluated: number): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): void => {
    res.write(`${JSON.stringify({ model, created_at: '2026-12-01T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done: false, ...extra })}\n`);
  };
  for (const p of pieces(reply.thinking ?? '')) line({ thinking: p });
  for (const p of pieces(reply.text ?? '')) line({ content: p });
  (reply.toolCalls ?? []).forEach((call, index) => {
    // Native tool calls come whole, arguments as an object (a string scripts a broken one).
    const args = typeof call.input === 'string' ? argumentText(call.input) : call.input;
    line({ tool_calls: [{ id: call.id ?? `call_${index}`, function: { index, name: call.name, arguments: args } }] });
  });
  if (reply.fault === 'no_done') return void res.end();
  if (reply.fault === 'error_line') return void res.end(`${JSON.stringify({ error: 'an error was encountered while running the model: out of memory' })}\n`);
  const reason = reply.stop === 'max_tokens' ? 'length' : 'stop';
  res.end(
    `${JSON.stringify({ model, message: { role: 'assistant', content: '' }, done: true, done_reason: reason, prompt_eval_count: reply.promptTokens ?? evaluated, eval_count: reply.outputTokens ?? 5 })}\n`,
  );
}

export type { LocalReply, LocalRequest };
