/**
 * What the fake local servers (fake-ollama.ts, fake-lmstudio.ts, fake-llamacpp.ts) share: a
 * JSON-over-HTTP server on 127.0.0.1 that records every request, a token count of a chat prompt,
 * and the front truncation small servers do when a prompt outgrows the window — they drop the
 * oldest messages (system messages and the last one stay) and answer as if nothing happened,
 * reporting only the smaller count of tokens they evaluated.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ScriptedReply } from './fake-provider.js';
import { openaiEvents } from './fake-provider-events.js';

export interface LocalRequest {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

/** A scripted answer; `promptTokens` overrides the evaluated count the server reports. */
export type LocalReply = Pick<ScriptedReply, 'text' | 'thinking' | 'toolCalls' | 'stop'> & {
  readonly promptTokens?: number;
  readonly outputTokens?: number;
  /** Ollama: end with an {"error"} line, or without the done line. */
  readonly fault?: 'error_line' | 'no_done';
};

export type LocalReplies = readonly LocalReply[] | ((req: LocalRequest, index: number) => LocalReply);

export interface FakeServer {
  readonly baseUrl: string;
  readonly requests: LocalRequest[];
  close(): Promise<void>;
}

export type Handler = (req: LocalRequest, res: ServerResponse) => Promise<void> | void;

export async function startJsonServer(handle: Handler): Promise<FakeServer> {
  const requests: LocalRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    res.on('error', () => {});
    void (async () => {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded: LocalRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body };
      requests.push(recorded);
      await handle(recorded, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `fake server crashed: ${String(err)}` });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

export function replyFor(replies: LocalReplies, req: LocalRequest, index: number): LocalReply | undefined {
  return typeof replies === 'function' ? replies(req, index) : replies[index];
}

type Msg = Record<string, unknown>;

/** A message's text as the template would render it: content, thinking, tool calls. */
function messageChars(m: Msg): number {
  let chars = 0;
  const content = m['content'];
  if (typeof content === 'string') chars += content.length;
  else if (Array.isArray(content)) for (const p of content as Msg[]) if (typeof p['text'] === 'string') chars += p['text'].length;
  if (typeof m['thinking'] === 'string') chars += m['thinking'].length;
  if (m['tool_calls'] !== undefined) chars += JSON.stringify(m['tool_calls']).length;
  return chars;
}

/**
 * Tokens of a chat prompt: four characters a token by default (like lindwyrm's estimate), four a
 * message; a smaller `charsPerToken` plays a tokenizer that needs more than the estimate says.
 */
export function promptTokens(messages: readonly Msg[], tools: unknown, charsPerToken = 4): number {
  let chars = tools === undefined ? 0 : JSON.stringify(tools).length;
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / charsPerToken) + 4 * messages.length;
}

/**
 * What a server with a window of `ctx` tokens evaluates of this prompt: everything when it fits;
 * else it drops the oldest non-system messages (always keeping the last) and counts what is left,
 * at most the window.
 */
export function fitToWindow(messages: readonly Msg[], tools: unknown, ctx: number, charsPerToken = 4): { evaluated: number; cut: boolean } {
  const count = (list: readonly Msg[]): number => promptTokens(list, tools, charsPerToken);
  const total = count(messages);
  if (total <= ctx) return { evaluated: total, cut: false };
  const kept = [...messages];
  while (count(kept) > ctx) {
    const oldest = kept.findIndex((m, i) => m['role'] !== 'system' && i < kept.length - 1);
    if (oldest < 0) break;
    kept.splice(oldest, 1);
  }
  return { evaluated: Math.min(ctx, count(kept)), cut: true };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** An OpenAI-format SSE answer (LM Studio, llama.cpp and Ollama's /v1 all stream this). */
export function sendOpenAiStream(res: ServerResponse, reply: LocalReply, model: string, evaluated: number, reasoningField: 'reasoning_content' | 'reasoning' = 'reasoning_content'): void {
  const { text, thinking, toolCalls, stop } = reply;
  const scripted: ScriptedReply = { text, thinking, toolCalls, stop, usage: { input: reply.promptTokens ?? evaluated, output: reply.outputTokens ?? 5 } };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const ev of openaiEvents(scripted, model, reasoningField, true)) res.write(`data: ${ev.data}\n\n`);
  res.end();
}
