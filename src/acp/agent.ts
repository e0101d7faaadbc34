/**
 * `lwyrm acp`: the Agent Client Protocol's agent side (protocol version 1) over one connection —
 * initialize, authenticate, session/new, load, list, prompt, cancel, set_mode.
 */
import path from 'node:path';
import type { LindwyrmEngine } from '../agent/engine.js';
import type { SessionHooks } from '../agent/start-session.js';
import type { CliOptions } from '../cli/options.js';
import { loadConfig } from '../config/load-config.js';
import { appPaths } from '../config/paths.js';
import { findPreset } from '../config/presets.js';
import type { Config } from '../config/types.js';
import { createSessionStore } from '../sessions/session-store.js';
import { openAcpSession, type AcpSession, type ClientCapabilities } from './acp-session.js';
import { RPC, RpcError, type RpcConnection } from './json-rpc.js';
import { MCP_CLIENT_AVAILABLE } from './mcp-servers.js';
import { ignoreError } from '../diagnostics/ignore-error.js';

export const PROTOCOL_VERSION = 1;

export interface AgentDeps {
  readonly base: CliOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly version: string;
  readonly startSession: (cli: CliOptions, config: Config, hooks: SessionHooks) => Promise<LindwyrmEngine>;
  readonly log?: (line: string) => void;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function capabilitiesOf(params: Json): ClientCapabilities {
  const caps = isObject(params['clientCapabilities']) ? params['clientCapabilities'] : {};
  const fs = isObject(caps['fs']) ? caps['fs'] : {};
  return { fs: { readTextFile: fs['readTextFile'] === true, writeTextFile: fs['writeTextFile'] === true }, terminal: caps['terminal'] === true };
}

export function serveAgent(conn: RpcConnection, deps: AgentDeps): { dispose(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let client: ClientCapabilities | undefined;

  const sessionOf = (params: Json): AcpSession => {
    const id = params['sessionId'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!session) throw new RpcError(RPC.notFound, `no session ${JSON.stringify(id)} is open; create one with session/new or session/load`);
    return session;
  };
  const ready = (): ClientCapabilities => {
    if (!client) throw new RpcError(RPC.invalidRequest, 'call initialize first');
    return client;
  };
  const open = async (params: Json, resume?: string): Promise<AcpSession> => {
    const session = await openAcpSession(
      { peer: conn, client: ready(), base: deps.base, env: deps.env, startSession: deps.startSession, ...(deps.log ? { log: deps.log } : {}) },
      { cwd: params['cwd'], mcpServers: params['mcpServers'], ...(resume ? { resume } : {}) },
    );
    sessions.set(session.id, session);
    return session;
  };

  conn.onRequest('initialize', async (params) => {
    if (typeof params['protocolVersion'] !== 'number') throw new RpcError(RPC.invalidParams, 'protocolVersion must be a number');
    client = capabilitiesOf(params);
    // Image prompts are for a preset that can see; the default preset is known before any session.
    const config = await loadConfig({ cwd: process.cwd(), env: deps.env }).catch(ignoreError('read the config for the capabilities', deps.log));
    const vision = config ? findPreset(config, deps.base.model).vision : false;
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: vision, audio: false, embeddedContext: true },
        mcpCapabilities: { http: MCP_CLIENT_AVAILABLE, sse: false },
        sessionCapabilities: { list: {} },
      },
      authMethods: [],
      agentInfo: { name: 'lindwyrm', title: 'lindwyrm', version: deps.version },
    };
  });
  // No login of its own: API keys come from the environment or key files, as on the command line.
  conn.onRequest('authenticate', async () => ({}));
  conn.onRequest('session/new', async (params) => {
    const session = await open(params);
    setImmediate(() => session.announceCommands());
    return { sessionId: session.id, modes: session.modeState() };
  });
  conn.onRequest('session/load', async (params) => {
    const id = params['sessionId'];
    if (typeof id !== 'string' || !id) throw new RpcError(RPC.invalidParams, 'sessionId must be a saved session id');
    if (sessions.has(id)) throw new RpcError(RPC.invalidRequest, `session ${id} is already open on this connection`);
    const session = await open(params, id);
    // The history comes first, then the answer: the client shows the session before the next prompt.
    session.replay();
    session.announceCommands();
    return { modes: session.modeState() };
  });
  conn.onRequest('session/list', async (params) => {
    ready();
    const cwd = typeof params['cwd'] === 'string' && path.isAbsolute(params['cwd']) ? params['cwd'] : process.cwd();
    const config = await loadConfig({ cwd, env: deps.env });
    const store = createSessionStore({ dir: appPaths(deps.env).sessionsDir, projectRoot: config.projectRoot });
    try {
      const { sessions: saved } = await store.list();
      return {
        sessions: saved.map((s) => ({ sessionId: s.id, cwd: config.projectRoot, title: s.firstPrompt.slice(0, 120) || null, updatedAt: s.updatedAt })),
      };
    } finally {
      await store.close().catch(ignoreError('close the session store', deps.log));
    }
  });
  conn.onRequest('session/prompt', async (params) => sessionOf(params).prompt(params['prompt']));
  conn.onRequest('session/set_mode', async (params) => {
    sessionOf(params).setMode(params['modeId']);
    return {};
  });
  conn.onNotification('session/cancel', (params) => sessionOf(params).cancel());

  return {
    async dispose() {
      await Promise.all([...sessions.values()].map((s) => s.dispose().catch(ignoreError('close a session', deps.log))));
      sessions.clear();
    },
  };
}
