/**
 * One ACP session: a lindwyrm engine opened on the client's cwd (the project root), with the
 * editor answering its approvals, owning file text and terminals when it offers to, and hearing
 * everything the engine does as session/update notifications.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { LindwyrmEngine } from '../agent/engine.js';
import type { SessionHooks } from '../agent/start-session.js';
import type { CliOptions } from '../cli/options.js';
import { loadConfig } from '../config/load-config.js';
import { findPreset, missingKeyMessage, resolveApiKey } from '../config/presets.js';
import type { Config } from '../config/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import { SessionLookupError } from '../sessions/errors.js';
import { describeToolCall } from '../tools/describe-call.js';
import { createClientTerminal } from './client-terminal.js';
import { createSessionFiles, proposedChange, type FsCapabilities } from './client-files.js';
import { RPC, RpcError, type RpcConnection } from './json-rpc.js';
import { mcpEntriesFromClient, withEditorServers } from './mcp-servers.js';
import { createAcpApprover } from './permission.js';
import { promptToTurn } from './prompt-content.js';
import { replayUpdates } from './replay.js';
import { createUpdateBridge } from './session-updates.js';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { availableCommands, slashCommandOf } from './slash.js';

export const MODES = [
  { id: 'normal', name: 'Normal', description: 'Reads freely; writes, deletes and commands as the permission policy says (it may ask).' },
  { id: 'read-only', name: 'Read-only', description: 'Answers and reads only: never writes, deletes or runs a command.' },
] as const;
export type ModeId = (typeof MODES)[number]['id'];

export interface ClientCapabilities {
  readonly fs: FsCapabilities;
  readonly terminal: boolean;
}

export interface SessionOpenDeps {
  readonly peer: RpcConnection;
  readonly client: ClientCapabilities;
  /** `lwyrm acp`'s own flags (-m, --allow, --read-only as the starting mode, --no-save …). */
  readonly base: CliOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly startSession: (cli: CliOptions, config: Config, hooks: SessionHooks) => Promise<LindwyrmEngine>;
  readonly log?: (line: string) => void;
}

export interface AcpSession {
  readonly id: string;
  readonly engine: LindwyrmEngine;
  modeState(): { currentModeId: ModeId; availableModes: { id: string; name: string; description: string }[] };
  setMode(modeId: unknown): void;
  /** Sends the saved conversation as updates (session/load). */
  replay(): void;
  announceCommands(): void;
  prompt(blocks: unknown): Promise<{ stopReason: string }>;
  cancel(): void;
  dispose(): Promise<void>;
}

async function projectDir(cwd: unknown): Promise<string> {
  if (typeof cwd !== 'string' || !path.isAbsolute(cwd)) throw new RpcError(RPC.invalidParams, 'cwd must be an absolute path');
  const info = await stat(cwd).catch(absent);
  if (!info?.isDirectory()) throw new RpcError(RPC.invalidParams, `cwd ${cwd} is not a directory`);
  return cwd;
}

const MODE_NOTES: Readonly<Record<ModeId, string>> = {
  'read-only': '[lindwyrm: this session is in read-only mode now: writing, deleting and running commands are refused. Answer and read only.]',
  normal: '[lindwyrm: this session is back in normal mode: files may be changed and commands run, as the permission policy allows.]',
};

export async function openAcpSession(deps: SessionOpenDeps, params: { cwd: unknown; mcpServers: unknown; resume?: string }): Promise<AcpSession> {
  const cwd = await projectDir(params.cwd);
  const mcp = mcpEntriesFromClient(params.mcpServers);
  // The editor's MCP servers start with the session, as the user's own (src/acp/mcp-servers.ts).
  const { config, notices: mcpNotices } = withEditorServers(await loadConfig({ cwd, env: deps.env }), mcp);
  const preset = findPreset(config, deps.base.model);
  if (!preset.keyOptional && !(await resolveApiKey(preset, deps.env))) throw new RpcError(RPC.authRequired, missingKeyMessage(preset));
  const root = config.projectRoot;
  let sessionId = '';
  const notify = (update: Record<string, unknown>): void => deps.peer.notify('session/update', { sessionId, update });
  const bridge = createUpdateBridge({ notify, projectRoot: root });
  const files = createSessionFiles({ peer: deps.peer, capabilities: deps.client.fs, sessionId: () => sessionId, onWrite: bridge.fileWritten });
  const secretNames = (): string[] => secretEnvNames(config);
  const commands = deps.client.terminal
    ? createClientTerminal({ peer: deps.peer, sessionId: () => sessionId, secretNames, onCreated: bridge.terminalCreated })
    : undefined;
  const approver = createAcpApprover({
    peer: deps.peer,
    sessionId: () => sessionId,
    bridge,
    projectRoot: root,
    proposedDiff: (tool, input, target) => proposedChange(files, target, tool, input),
    ...(deps.log ? { log: deps.log } : {}),
  });
  // The tools are offered whole and the mode is the runtime's read-only switch, so a mode change
  // never changes the tool schemas (the prompt cache) — the gate refuses instead.
  const cli: CliOptions = { ...deps.base, cwd: root, oneShot: false, json: false, readOnly: false, continueLast: false, ...(params.resume ? { resume: params.resume } : {}) };
  let engine: LindwyrmEngine;
  try {
    engine = await deps.startSession(cli, config, { approver, delegates: { files, ...(commands ? { commands } : {}) }, ...(deps.log ? { log: deps.log } : {}) });
  } catch (err) {
    if (err instanceof SessionLookupError) throw new RpcError(RPC.notFound, err.message);
    throw err;
  }
  sessionId = engine.runtime.session.id;
  if (params.resume && !sessionId.startsWith(params.resume)) {
    // assembleSession starts a new session when the saved one is locked: not what load asked for.
    await engine.dispose().catch(ignoreError('close the session'));
    throw new RpcError(RPC.internalError, `session ${params.resume} is open in another lindwyrm; close it there first`);
  }
  engine.session.setReadOnly(deps.base.readOnly);
  let told: boolean = false;
  mcpNotices.forEach((text, i) => engine.store.dispatch({ type: 'notice', blockId: `acp-mcp-${i}`, level: 'warning', text }));
  engine.store.flush();
  engine.store.onEvent(bridge.onEvent);
  const mode = (): ModeId => (engine.runtime.readOnly ? 'read-only' : 'normal');
  // Commands registered later (an MCP server's prompts, once it is up) reach the editor too.
  let announced = false;
  const sendCommands = (): void => notify({ sessionUpdate: 'available_commands_update', availableCommands: availableCommands(engine.slash.list()) });
  const unwatchCommands = engine.slash.onChange(() => announced && sendCommands());

  const stopReason = (status: string, detail: string | undefined): string => {
    if (status === 'finished') return 'end_turn';
    if (status === 'interrupted') return 'cancelled';
    if (status === 'incomplete') return /max_tokens/.test(detail ?? '') ? 'max_tokens' : 'max_turn_requests';
    throw new RpcError(RPC.internalError, detail ?? 'The turn failed.');
  };

  return {
    id: sessionId,
    engine,
    modeState: () => ({ currentModeId: mode(), availableModes: MODES.map((m) => ({ ...m })) }),
    setMode(modeId) {
      if (!MODES.some((m) => m.id === modeId)) throw new RpcError(RPC.invalidParams, `unknown mode ${JSON.stringify(modeId)} (normal or read-only)`);
      engine.session.setReadOnly(modeId === 'read-only');
      notify({ sessionUpdate: 'current_mode_update', currentModeId: mode() });
    },
    replay() {
      for (const update of replayUpdates(engine.runtime.session.history, root, describeToolCall)) notify(update);
    },
    announceCommands() {
      announced = true;
      sendCommands();
      // What the session said while it started (config warnings, the editor's MCP servers), now
      // that the editor knows the session: stderr is not a place an editor shows.
      for (const block of engine.store.current().blocks) {
        if (block.kind === 'notice' && block.level !== 'info') {
          notify({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `lindwyrm: ${escapeForDisplay(block.text)}\n` } });
        }
      }
    },
    async prompt(blocks) {
      if (engine.busy()) throw new RpcError(RPC.invalidRequest, 'a prompt is already running in this session; cancel it first');
      const turn = promptToTurn(blocks, { vision: engine.runtime.preset.vision });
      const command = slashCommandOf(turn.text, engine.slash.list());
      let text = turn.text;
      if (command) {
        const result = await engine.runSlash(command);
        if (result.output) notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: result.output } });
        // A command that expands to a prompt (a custom command, a server's prompt) runs as one.
        if (result.prompt === undefined) return { stopReason: 'end_turn' };
        text = result.prompt;
      }
      // The system prompt was written for normal mode; a change since is said with the prompt.
      const readOnly = engine.runtime.readOnly;
      const note = readOnly !== told ? `${MODE_NOTES[mode()]}\n\n` : '';
      told = readOnly;
      const outcome = await engine.submit(note + text, turn.images.length ? { images: turn.images } : undefined);
      return { stopReason: stopReason(outcome.status, outcome.detail) };
    },
    cancel: () => engine.interrupt(),
    dispose: () => {
      unwatchCommands();
      return engine.dispose();
    },
  };
}
