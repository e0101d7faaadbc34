/**
 * Builds a real session (config from a temp XDG home, the real model client over HTTP to the fake
 * provider, the real context manager and session store) with tools supplied by the test.
 */
import { assembleSession, type SessionDeps } from '../../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../../src/agent/engine.js';
import type { ToolRunner } from '../../../src/agent/ports.js';
import type { CliOptions } from '../../../src/cli/options.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { ToolDefinition, ToolResult } from '../../../src/tools/types.js';
import type { FakeFormat, RecordedRequest } from '../../support/fake-provider.js';
import { makeSandbox as makeSharedSandbox, type Sandbox } from '../../support/sandbox.js';

export type { Sandbox } from '../../support/sandbox.js';

/** The engine tests' shorthand: `extraToml` goes at the top level; `presetToml` adds keys to the fake preset. */
export function makeSandbox(format: FakeFormat, baseUrl: string, extraToml = '', presetToml = ''): Promise<Sandbox> {
  return makeSharedSandbox({ format, baseUrl, configToml: extraToml, presetToml });
}

export function cliOptions(project: string, over: Partial<CliOptions> = {}): CliOptions {
  return { oneShot: true, json: false, cwd: project, continueLast: false, save: true, readOnly: false, allow: [], verbose: false, ...over };
}

export function toolRunner(defs: readonly ToolDefinition[]): ToolRunner {
  return {
    schemas: () => defs.map((d) => ({ name: d.name, description: d.description, inputSchema: d.inputSchema })),
    get: (name) => defs.find((d) => d.name === name),
    run: async (name, args, ctx) => {
      const def = defs.find((d) => d.name === name);
      if (!def) return { ok: false, content: `Unknown tool ${name}`, summary: 'unknown tool' };
      return def.run(args, ctx);
    },
  };
}

const schema = (props: Record<string, unknown>) => ({ type: 'object' as const, properties: props });

export const noteTool: ToolDefinition = {
  name: 'note',
  description: 'Records a note.',
  inputSchema: schema({ text: { type: 'string' } }),
  kind: 'none',
  bulk: false,
  run: async (args) => {
    const text = (args as { text?: unknown }).text;
    return { ok: true, content: `noted: ${String(text)}`, summary: `noted ${String(text)}` };
  },
};

/** Runs until interrupted: lets a test interrupt "while a tool runs" without any sleep. */
export const waitTool: ToolDefinition = {
  name: 'wait_for_abort',
  description: 'Waits.',
  inputSchema: schema({}),
  kind: 'none',
  bulk: false,
  run: (_args, ctx) =>
    new Promise<ToolResult>((resolve) => {
      ctx.onOutput?.('waiting\n');
      const done = (): void => resolve({ ok: false, content: 'stopped', summary: 'interrupted', interrupted: true });
      if (ctx.signal.aborted) done();
      else ctx.signal.addEventListener('abort', done, { once: true });
    }),
};

export const approvalTool: ToolDefinition = {
  name: 'needs_ok',
  description: 'Needs approval.',
  inputSchema: schema({ path: { type: 'string' } }),
  kind: 'write',
  bulk: false,
  run: async (args, ctx) => {
    const path = String((args as { path?: unknown }).path);
    const decision = await ctx.approve({ id: 'w1', kind: 'write', tool: 'needs_ok', path, summary: `write ${path}`, reason: 'default write=confirm' });
    if (decision === 'yes' || decision === 'always') return { ok: true, content: `wrote ${path}`, summary: `Wrote ${path}` };
    return { ok: false, failure: 'denied', content: `Denied: the user did not allow writing ${path}.`, summary: 'denied' };
  },
};

export async function startEngine(
  sandbox: Sandbox,
  defs: readonly ToolDefinition[],
  cli: Partial<CliOptions> = {},
  deps: Partial<SessionDeps> = {},
): Promise<LindwyrmEngine> {
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  return assembleSession(cliOptions(config.projectRoot, cli), config, {
    createTools: () => toolRunner(defs),
    describe: (name, input) => `${name} ${JSON.stringify(input)}`,
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    ...deps,
  });
}

/** Neutral view of a recorded request, for either wire format. */
export interface WireTurn {
  readonly system: string;
  readonly tools: string;
  /** role + a compact rendering of each message, in order. */
  readonly messages: readonly { role: string; text: string; toolUses: string[]; toolResults: { id: string; content: string }[] }[];
}

type Json = Record<string, unknown>;

export function readRequest(format: FakeFormat, req: RecordedRequest): WireTurn {
  const body = req.body as Json;
  const tools = JSON.stringify(body['tools'] ?? null);
  if (format === 'anthropic') {
    const messages = (body['messages'] as Json[]).map((m) => {
      const content = typeof m['content'] === 'string' ? [{ type: 'text', text: m['content'] }] : (m['content'] as Json[]);
      return {
        role: String(m['role']),
        text: content.filter((b) => b['type'] === 'text').map((b) => String(b['text'])).join(''),
        toolUses: content.filter((b) => b['type'] === 'tool_use').map((b) => String(b['id'])),
        toolResults: content
          .filter((b) => b['type'] === 'tool_result')
          .map((b) => ({ id: String(b['tool_use_id']), content: typeof b['content'] === 'string' ? b['content'] : JSON.stringify(b['content']) })),
      };
    });
    return { system: JSON.stringify(body['system']), tools, messages };
  }
  const all = body['messages'] as Json[];
  const system = JSON.stringify(all.filter((m) => m['role'] === 'system'));
  const messages = all
    .filter((m) => m['role'] !== 'system')
    .map((m) => ({
      role: String(m['role']),
      text: typeof m['content'] === 'string' && m['role'] !== 'tool' ? m['content'] : '',
      toolUses: ((m['tool_calls'] as Json[] | undefined) ?? []).map((c) => String(c['id'])),
      toolResults: m['role'] === 'tool' ? [{ id: String(m['tool_call_id']), content: String(m['content']) }] : [],
    }));
  return { system, tools, messages };
}

/** Every tool call in the request has a result, and every result answers an earlier call. */
export function assertValidHistory(turn: WireTurn): void {
  const open = new Set<string>();
  for (const m of turn.messages) {
    for (const r of m.toolResults) {
      if (!open.has(r.id)) throw new Error(`tool result ${r.id} answers no open call`);
      open.delete(r.id);
    }
    if (m.role === 'assistant' && open.size) throw new Error(`calls without results before an assistant message: ${[...open].join(', ')}`);
    for (const id of m.toolUses) open.add(id);
  }
  if (open.size) throw new Error(`calls without results: ${[...open].join(', ')}`);
}
