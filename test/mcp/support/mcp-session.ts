/**
 * A real session with MCP servers: the fake provider over HTTP, the real tool registry and policy,
 * the config read from TOML the test writes (user file and, optionally, the project's), and real
 * MCP servers as child processes — the reference server-everything and a small fault fixture.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { assembleSession } from '../../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../../src/agent/engine.js';
import type { CliOptions } from '../../../src/cli/options.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { Config } from '../../../src/config/types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../../src/policy/types.js';
import { createToolRegistry } from '../../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../../support/fake-provider.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from '../../agent/support/harness.js';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FLAKY = join(import.meta.dirname, '..', 'fixtures', 'flaky-server.mjs');
export const q = (s: string): string => JSON.stringify(s);

export const everything = (extra = ''): string => `[[mcp.servers]]
name = "everything"
command = ${q(process.execPath)}
args = [${q(EVERYTHING)}, "stdio"]
${extra}
`;
export const flaky = (extra = '', name = 'flaky'): string => `[[mcp.servers]]
name = "${name}"
command = ${q(process.execPath)}
args = [${q(FLAKY)}]
${extra}
`;

export interface OpenOptions {
  readonly projectToml?: string;
  readonly trusted?: boolean;
  /** Answers to approvals, in order (the last repeats); default no. */
  readonly answers?: readonly ApprovalDecision[];
  /** The fake preset's context window (default 200,000). */
  readonly window?: number;
  /** Keys for the fake preset, or more [[presets]] (given the fake's URL). */
  readonly presetToml?: string | ((baseUrl: string) => string);
  readonly cli?: Partial<CliOptions>;
}

export interface McpSession {
  readonly engine: LindwyrmEngine;
  readonly config: Config;
  readonly fake: FakeProvider;
  readonly sandbox: Sandbox;
  /** Every approval asked, in order. */
  readonly asked: ApprovalRequest[];
  /** The tool results request `i` carried. */
  toolResults(i: number): string[];
  /** The tool names request `i` offered. */
  toolNames(i: number): string[];
  close(): Promise<void>;
}

/** The user config's MCP part: text, or made from the sandbox (its HOME, files put in it first). */
export type UserToml = string | ((sandbox: Sandbox) => string | Promise<string>);

export async function openMcpSession(replies: ScriptedReply[], userTomlOf: UserToml, opts: OpenOptions = {}): Promise<McpSession> {
  const fake = await startFakeProvider({ format: 'anthropic', replies });
  const presetToml = typeof opts.presetToml === 'function' ? opts.presetToml(fake.baseUrl) : (opts.presetToml ?? '');
  const sandbox = await makeSandbox('anthropic', fake.baseUrl, '', presetToml);
  const userToml = typeof userTomlOf === 'function' ? await userTomlOf(sandbox) : userTomlOf;
  const trust = opts.trusted ? `trusted_projects = [${q(sandbox.project)}]\n` : '';
  const base = await readFile(sandbox.configPath, 'utf8');
  // Top-level keys first, then the tables: TOML puts a key after a table header into that table.
  const firstTable = userToml.search(/^\[/m);
  const cut = firstTable === -1 ? userToml.length : firstTable;
  await writeFile(sandbox.configPath, `${trust}${userToml.slice(0, cut)}${base}\n${userToml.slice(cut)}`);
  if (opts.projectToml !== undefined) await writeFile(join(sandbox.project, '.lindwyrm.toml'), opts.projectToml);
  const loaded = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  const window = opts.window;
  const config = window === undefined ? loaded : { ...loaded, presets: loaded.presets.map((p) => (p.name === 'fake' ? { ...p, contextWindow: window } : p)) };
  const asked: ApprovalRequest[] = [];
  const answers = opts.answers ?? ['no'];
  const engine = await assembleSession(cliOptions(config.projectRoot, opts.cli), config, {
    createTools: (o) => createToolRegistry(o),
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    approver: async (req) => {
      asked.push(req);
      return answers[Math.min(asked.length - 1, answers.length - 1)]!;
    },
    mcp: { startupTimeoutMs: 20_000, callTimeoutMs: 1_500 },
  });
  return {
    engine,
    config,
    fake,
    sandbox,
    asked,
    toolResults: (i) => readRequest('anthropic', fake.requests[i]!).messages.flatMap((m) => m.toolResults.map((r) => r.content)),
    toolNames: (i) => ((fake.requests[i]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name),
    async close() {
      await engine.dispose();
      await fake.close();
      await sandbox.cleanup();
    },
  };
}

/** Waits until `check` holds (a server's notification is handled on its own clock). */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
