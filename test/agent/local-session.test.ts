import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CodeMapPort } from '../../src/agent/ports.js';
import { buildSystemPrompt } from '../../src/agent/system-prompt.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { FullContextManager } from '../../src/context/create-context-manager.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../support/fake-ollama.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { cliOptions } from './support/harness.js';

let fake: FakeOllama | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = undefined;
});

interface OpenOptions {
  readonly cli?: Partial<CliOptions>;
  readonly presetLines?: string;
  /** Appended to the server's address in base_url ("/v1" for the OpenAI route). */
  readonly route?: string;
  readonly configToml?: string;
  readonly budgets?: number[];
}

/** A session on the built-in ollama preset, pointed at a fake Ollama, with the real tools. */
async function open(server: Omit<FakeOllamaOptions, 'models'> & { models?: FakeOllamaOptions['models'] }, o: OpenOptions = {}) {
  fake = await startFakeOllama({ models: [{ name: 'qwen3:8b', contextLength: 4096, arch: 'qwen3' }], ...server });
  sandbox = await makeSandbox({
    format: 'openai',
    baseUrl: 'http://127.0.0.1:1/unused',
    codeMap: o.budgets !== undefined,
    configToml: `max_retries = 0\n${o.configToml ?? ''}`,
    presetToml: `\n[[presets]]\nname = "ollama"\nbase_url = "${fake.baseUrl}${o.route ?? ''}"\n${o.presetLines ?? ''}`,
  });
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  const logs: string[] = [];
  const map: CodeMapPort = { mapText: (budget) => (o.budgets?.push(budget), 'src/a.ts\n  export function a(): void'), tools: () => [], fileChanged: async () => {}, close: () => {} };
  engine = await assembleSession(cliOptions(config.projectRoot, { model: 'ollama:qwen3:8b', ...o.cli }), config, {
    createTools: (opts) => createToolRegistry(opts),
    describe: describeToolCall,
    env: sandbox.env,
    log: (line) => logs.push(line),
    ...(o.budgets ? { openCodeMap: async () => map } : {}),
  });
  return { engine, logs };
}

type Chat = { messages: { role: string; content: string }[]; tools?: { function: { name: string; description: string } }[]; options: { num_ctx: number; num_predict: number } };
const chats = (): Chat[] => fake!.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as Chat);

describe('a session on a local model uses the window the server reports', () => {
  it('meter, offload thresholds and code-map budget from /api/show; -v says where it came from', async () => {
    const budgets: number[] = [];
    const { engine, logs } = await open({ models: [{ name: 'qwen3:8b', contextLength: 8192, arch: 'qwen3' }], replies: [] }, { budgets });
    expect(engine.getSnapshot().context).toMatchObject({ window: 8192, threshold: 6144 });
    const settings = (engine.runtime.context as FullContextManager).settings;
    expect(settings).toMatchObject({ window: 8192, reclaimAt: 6144, eagerTokens: 1000, thresholdTokens: 500 });
    expect(engine.runtime.preset).toMatchObject({ contextWindow: 8192, maxTokens: 2048, toolProfile: 'small' });
    // The small profile's map budget: a 32nd of 8192 (the full profile would give 1,000).
    expect(budgets).toEqual([256]);
    expect(logs).toContain(
      'context window 8192 tokens: context_window 32768 of preset "ollama", the model allows 8192 (/api/show qwen3.context_length); num_ctx is set per request',
    );
  });

  it('sends num_ctx for the conversation and num_predict for the reply, and the small profile byte-stable on every request', async () => {
    const { engine } = await open({
      models: [{ name: 'qwen3:8b', contextLength: 16_384 }],
      replies: [{ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'Done.' }],
    }, { cli: { allow: ['bash'] } });
    const outcome = await engine.submit('say hi');
    expect(outcome.status).toBe('finished');
    const [first, second] = chats();
    // About 900 tokens of prompt and room for a usual reply: 4096, and num_predict fills the rest.
    expect(first!.options.num_ctx).toBe(4096);
    expect(first!.options.num_predict).toBeGreaterThan(2048);
    expect(first!.options.num_predict).toBeLessThan(4096 - 500);
    expect(second!.options.num_ctx).toBe(4096);
    expect(first!.messages[0]).toEqual(second!.messages[0]);
    expect(first!.tools).toEqual(second!.tools);
    expect(first!.tools?.map((t) => t.function.name)).toEqual(['read_file', 'edit_file', 'bash', 'write_file', 'grep', 'read_offloaded', 'recall']);
    expect(first!.messages[0]!.content).toMatch(/^You are lindwyrm, a coding agent in the user's terminal\. Work in this project with the tools\./);
    expect(first!.messages[0]!.content.length).toBeLessThan(1200);
  });
});

describe('a 4K window', () => {
  const bigFile = Array.from({ length: 250 }, (_, i) => `line ${i}: const value${i} = compute(${i}); // notes`).join('\n');

  it('completes a tool loop: a result too big for the window is offloaded and the loop goes on', async () => {
    const { engine } = await open({
      replies: [{ toolCalls: [{ name: 'read_file', input: { path: 'big.txt' } }] }, { toolCalls: [{ name: 'read_offloaded', input: { ref: 'off_0001', offset: 100, limit: 3 } }] }, { text: 'Line 100 computes value100.' }],
    });
    await writeFile(join(sandbox!.project, 'big.txt'), bigFile);
    const outcome = await engine.submit('what does line 100 do?');
    expect(outcome).toMatchObject({ status: 'finished', result: 'Line 100 computes value100.' });
    const requests = chats();
    expect(requests.length).toBe(3);
    // The read came back as a stub; the slice asked for came back whole; nothing was cut.
    expect(requests[1]!.messages.find((m) => m.role === 'tool')?.content).toMatch(/^\[offloaded lw-[0-9a-f]+: read_file big\.txt/);
    expect(requests[2]!.messages.at(-1)?.content).toContain('line 100: const value100');
    expect(fake!.ran.every((r) => !r.cut && r.numCtx === 4096)).toBe(true);
  });

  it('stops before sending a prompt that cannot fit, naming the fix', async () => {
    const { engine } = await open({ replies: [] });
    const outcome = await engine.submit(`Review this:\n${bigFile}\n${bigFile}`);
    expect(outcome.status).toBe('error');
    expect(outcome.detail).toMatch(/^Not sent: the prompt is about [\d,]+ tokens and does not fit the 4,096-token window of qwen3:8b on Ollama at /);
    expect(outcome.detail).toContain("The model's maximum is 4096 tokens: use a model with a longer context");
    expect(chats()).toEqual([]);
  });

  it('stops a turn whose prompt the server cut, when the OpenAI route ignored the window', async () => {
    const { engine } = await open(
      { models: [{ name: 'qwen3:8b', contextLength: 40_960, loadedContext: 16_384 }], replies: [{ text: 'I see no tools.' }] },
      { presetLines: 'format = "openai"\ncontext_window = 8192', route: '/v1' },
    );
    expect(engine.runtime.preset.contextWindow).toBe(8192);
    // Another app reloads the model with 2048 after the session asked /api/ps.
    fake!.load('qwen3:8b', 2048);
    const outcome = await engine.submit(`Explain:\n${bigFile}`);
    expect(outcome.status).toBe('error');
    expect(outcome.detail).toMatch(/cut the prompt to [\d,]+ tokens: it evaluated/);
    expect(outcome.detail).toContain('Set format = "ollama" in preset "ollama" so lindwyrm can set num_ctx');
    expect(fake!.ran[0]).toMatchObject({ numCtx: 2048, cut: true });
  });
});

describe('the full profile', () => {
  it('is byte-identical to the system prompt before profiles existed', () => {
    const input = {
      projectRoot: '/p',
      model: 'm',
      presetName: 'flash',
      readOnly: false,
      marker: 'lw-000000000000000000',
      instructions: { sections: [{ kind: 'project' as const, label: 'AGENTS.md', path: '/p/AGENTS.md', text: 'Run npm test.', truncated: false }], notes: [] },
      commitTrailer: 'Co-authored-by: {model}',
      codeMap: 'src/a.ts\n  export function a(): void',
      platform: 'linux',
    };
    const digest = (text: string) => createHash('sha256').update(text).digest('hex');
    // The digest of buildSystemPrompt(input) as round 1 built it.
    expect(digest(buildSystemPrompt(input))).toBe(digest(buildSystemPrompt({ ...input, profile: 'full' })));
    expect(digest(buildSystemPrompt(input))).toBe('7010296e088f70189811c05e79a203faf65c8190a41ac9d8cf5825d424f774ce');
  });
});
