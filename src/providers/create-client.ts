/**
 * The one way the rest of the program gets a model client for a preset.
 */
import type { Preset, ProxySetting } from '../config/types.js';
import { createAnthropicClient } from './anthropic-client.js';
import { guardClient, type LocalServerGuard } from './local-guard.js';
import { createOllamaClient, type OllamaWindow } from './ollama-client.js';
import { createOpenAiClient } from './openai-client.js';
import { chooseProxy, createDispatcher, redactProxyUrl } from './proxy.js';
import type { ModelClient } from './types.js';

export interface ModelClientOptions {
  readonly apiKey?: string;
  /** --proxy (or /proxy): overrides every other proxy setting (loopback stays direct); false: direct. */
  readonly proxy?: string | false;
  readonly noProxy: readonly string[];
  readonly globalProxy: ProxySetting;
  readonly maxRetries: number;
  readonly idleTimeoutMs: number;
  readonly log?: (line: string) => void;
  /** Told before each retry of a request (see RunnerOptions.onRetry). */
  readonly onRetry?: (note: string) => void;
  /** Environment for proxy = "system" (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** First backoff step in ms (default 500); tests make it small. */
  readonly retryBaseMs?: number;
  readonly connectTimeoutMs?: number;
  /** max_reply_bytes: a reply's answer, reasoning and arguments past this are cut off (default 8 MiB). */
  readonly maxReplyBytes?: number;
  /** A local server's real window (config/local-preset.ts): guards against truncated prompts. */
  readonly local?: { readonly guard: LocalServerGuard; readonly ollama?: OllamaWindow };
}

export function createModelClient(preset: Preset, opts: ModelClientOptions): ModelClient {
  const choice = chooseProxy({
    target: preset.baseUrl,
    cliProxy: opts.proxy,
    presetProxy: preset.proxy,
    globalProxy: opts.globalProxy,
    noProxy: opts.noProxy,
    env: opts.env ?? process.env,
  });
  if (choice.kind === 'proxy') opts.log?.(`Using proxy ${redactProxyUrl(choice.url)} (${choice.source}) for ${preset.baseUrl}`);
  const runner = {
    preset,
    dispatcher: createDispatcher(choice, { connectTimeoutMs: opts.connectTimeoutMs }),
    maxRetries: Math.max(0, opts.maxRetries),
    idleTimeoutMs: opts.idleTimeoutMs,
    retryBaseMs: opts.retryBaseMs ?? 500,
    keySent: Boolean(opts.apiKey),
    log: opts.log,
    ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
    ...(opts.maxReplyBytes !== undefined ? { maxReplyBytes: opts.maxReplyBytes } : {}),
  };
  const client =
    preset.format === 'anthropic'
      ? createAnthropicClient(preset, opts.apiKey, runner)
      : preset.format === 'ollama'
        ? createOllamaClient(preset, opts.apiKey, runner, opts.local?.ollama ?? { limit: preset.contextWindow })
        : createOpenAiClient(preset, opts.apiKey, runner);
  return guardClient(client, { ...(opts.local ? { local: opts.local.guard } : {}), ...(opts.log ? { log: opts.log } : {}) });
}
