/**
 * `lwyrm acp` (the built CLI) as a child process, driven by the official ACP TypeScript library's
 * client side over its stdio, in a sandbox whose model is the fake provider. The test decides
 * how the "editor" answers permission requests and whether it offers fs/terminal methods.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { Env } from '../../e2e/support/cli.js';

/** 'held': the question stays open until releaseHeld(), then is answered cancelled (as after session/cancel). */
export type PermissionAnswer = 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled' | 'held';

export interface EditorOptions {
  /** How each permission request is answered, in order (the last one repeats). */
  readonly answers?: readonly PermissionAnswer[];
  /** Offer fs/read_text_file and fs/write_text_file; `buffers` holds unsaved editor text by path. */
  readonly fs?: boolean;
  readonly buffers?: Map<string, string>;
  readonly terminal?: boolean;
  readonly args?: readonly string[];
}

export interface Editor {
  readonly child: ChildProcess;
  readonly updates: acp.SessionNotification[];
  readonly permissions: acp.RequestPermissionRequest[];
  readonly fsCalls: { method: string; path: string; content?: string }[];
  /** Terminals the agent asked for (with terminal: true), as the editor ran them. */
  readonly terminals: { command: string; args: string[]; cwd?: string; released: boolean }[];
  /** Every line the agent wrote to stdout, parsed, in order (the wire as it was). */
  readonly wire: Record<string, unknown>[];
  stderr(): string;
  /** Answers the held permission questions: cancelled. */
  releaseHeld(): void;
  /** Runs `op` with a connected client; the agent is killed afterwards. */
  run<T>(op: (ctx: acp.ClientContext) => Promise<T>): Promise<T>;
  /**
   * Resolves once every session/update already on the wire has reached the handler: the library
   * hands notifications over asynchronously, so a response can overtake the updates before it.
   */
  drained(): Promise<void>;
  /** Resolves at the first update `match` accepts (already received, from index `from` on, or still to come). */
  waitForUpdate(match: (u: acp.SessionUpdate) => boolean, from?: number): Promise<acp.SessionUpdate>;
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
}

export function startEditor(cli: string, e: Env, opts: EditorOptions = {}): Editor {
  const child = spawn(process.execPath, [cli, 'acp', ...(opts.args ?? [])], { cwd: e.project, env: e.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((res) => child.on('close', (status, signal) => res({ status, signal })));
  const updates: acp.SessionNotification[] = [];
  const wire: Record<string, unknown>[] = [];
  let partial = '';
  child.stdout!.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line) wire.push(JSON.parse(line) as Record<string, unknown>);
  });
  const permissions: acp.RequestPermissionRequest[] = [];
  const fsCalls: { method: string; path: string; content?: string }[] = [];
  const watchers: { match: (u: acp.SessionUpdate) => boolean; resolve: (u: acp.SessionUpdate) => void }[] = [];
  const answers = opts.answers ?? ['allow_once'];
  const held: (() => void)[] = [];
  const buffers = opts.buffers ?? new Map<string, string>();

  const terminals: Editor['terminals'] = [];
  const running = new Map<string, { output: string; exit: Promise<acp.TerminalExitStatus>; status?: acp.TerminalExitStatus; proc: ChildProcess }>();
  const term = (id: string) => {
    const t = running.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  };
  const app = acp
    .client({ name: 'lindwyrm-test-editor' })
    .onRequest('terminal/create', async ({ params }) => {
      // The editor's own environment (it has the API key, as a real editor's may).
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? e.project, env: e.env, stdio: ['ignore', 'pipe', 'pipe'] });
      const id = `term-${terminals.length + 1}`;
      terminals.push({ command: params.command, args: params.args ?? [], ...(params.cwd ? { cwd: params.cwd } : {}), released: false });
      const entry = { output: '', proc, exit: new Promise<acp.TerminalExitStatus>((res) => proc.on('close', (code, signal) => res({ exitCode: code, signal }))) } as {
        output: string; exit: Promise<acp.TerminalExitStatus>; status?: acp.TerminalExitStatus; proc: ChildProcess;
      };
      void entry.exit.then((s) => (entry.status = s));
      const add = (c: Buffer) => (entry.output += c.toString());
      proc.stdout!.on('data', add);
      proc.stderr!.on('data', add);
      running.set(id, entry);
      return { terminalId: id };
    })
    .onRequest('terminal/output', async ({ params }) => {
      const t = term(params.terminalId);
      return { output: t.output, truncated: false, ...(t.status ? { exitStatus: t.status } : {}) };
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => term(params.terminalId).exit)
    .onRequest('terminal/kill', async ({ params }) => {
      term(params.terminalId).proc.kill('SIGKILL');
      return {};
    })
    .onRequest('terminal/release', async ({ params }) => {
      term(params.terminalId).proc.kill('SIGKILL');
      running.delete(params.terminalId);
      terminals[Number(params.terminalId.slice(5)) - 1]!.released = true;
      return {};
    })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const w of [...watchers]) {
        if (w.match(params.update)) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(params.update);
        }
      }
    })
    .onRequest('session/request_permission', async ({ params }) => {
      permissions.push(params);
      const answer = answers[Math.min(permissions.length - 1, answers.length - 1)]!;
      if (answer === 'held') await new Promise<void>((release) => held.push(release));
      if (answer === 'cancelled' || answer === 'held') return { outcome: { outcome: 'cancelled' } };
      return { outcome: { outcome: 'selected', optionId: answer } };
    })
    .onRequest('fs/read_text_file', async ({ params }) => {
      fsCalls.push({ method: 'read', path: params.path });
      return { content: buffers.get(params.path) ?? (await readFile(params.path, 'utf8')) };
    })
    .onRequest('fs/write_text_file', async ({ params }) => {
      fsCalls.push({ method: 'write', path: params.path, content: params.content });
      // An editor writes its buffer; this one saves it too, as Zed does.
      buffers.set(params.path, params.content);
      await writeFile(params.path, params.content);
      return {};
    });

  return {
    child,
    updates,
    permissions,
    fsCalls,
    terminals,
    wire,
    stderr: () => stderr,
    releaseHeld: () => held.splice(0).forEach((release) => release()),
    exited,
    async drained() {
      const sent = () => wire.filter((m) => m['method'] === 'session/update').length;
      while (updates.length < sent()) await new Promise((r) => setTimeout(r, 5));
    },
    waitForUpdate(match, from = 0) {
      const seen = updates.slice(from).find((n) => match(n.update));
      if (seen) return Promise.resolve(seen.update);
      return new Promise((resolve) => watchers.push({ match, resolve }));
    },
    async run(op) {
      const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
      try {
        return await app.connectWith(stream, async (ctx) => {
          const result = await op(ctx);
          await this.drained();
          return result;
        });
      } finally {
        child.kill('SIGTERM');
      }
    },
  };
}

export function initializeParams(opts: EditorOptions = {}): acp.InitializeRequest {
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: opts.fs === true, writeTextFile: opts.fs === true }, terminal: opts.terminal === true },
  };
}

export const textOf = (updates: readonly acp.SessionNotification[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string =>
  updates
    .map((n) => n.update)
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? [u.content.text] : []))
    .join('');
