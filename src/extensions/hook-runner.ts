/**
 * Runs one hook command: bash in the project root, the event as JSON on stdin, stdout and stderr
 * kept apart (stdout may be a JSON answer, stderr is the reason a block gives), a time limit that
 * kills the whole process group. The environment is the bash tool's (provider keys removed), and
 * the command goes through the same sandbox as the bash tool's when the session has one (`wrap`).
 */
import { spawn } from 'node:child_process';
import type { Config } from '../config/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import { commandEnv } from '../tools/bash.js';
import { findOnPath } from '../tools/find-on-path.js';
import { killGroup } from '../tools/process-group.js';

/** What a sandbox makes of a command (the bash tool's sandbox; see src/sandbox/ where it exists). */
export interface WrappedHookCommand {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  redact(text: string): string;
  cleanup(): Promise<void>;
}

export type WrapCommand = (spec: { argv: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; tool: string }) => Promise<WrappedHookCommand>;

export interface HookRun {
  readonly command: string;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Extra variables for the hook (the event's name, the project folder). */
  readonly vars: Readonly<Record<string, string>>;
}

export interface HookOutcome {
  /** null when it did not exit by itself (killed, or could not start). */
  readonly exitCode: number | null;
  /** Escaped for display and capped; redacted by the sandbox where one ran it. */
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly interrupted: boolean;
  /** Set when it could not be started at all. */
  readonly startError?: string;
}

/** A hook's answer is a line of JSON or a short reason: more than this is cut, not kept in memory. */
const MAX_STREAM_CHARS = 64 * 1024;

export interface HookRunnerOptions {
  readonly config: Config;
  readonly wrap?: WrapCommand;
}

export type HookRunner = (run: HookRun) => Promise<HookOutcome>;

export function createHookRunner(opts: HookRunnerOptions): HookRunner {
  let shell: Promise<string> | undefined;
  return async (run) => {
    shell ??= findOnPath('bash').then((found) => found ?? '/bin/sh');
    const env = { ...commandEnv(opts.config), ...run.vars };
    const base = { argv: [await shell, '-c', run.command], cwd: opts.config.projectRoot, env };
    const wrapped: WrappedHookCommand = opts.wrap
      ? await opts.wrap({ ...base, tool: 'hook' })
      : { ...base, redact: (text) => text, cleanup: async () => undefined };
    try {
      const raw = await spawnHook(wrapped, run);
      return { ...raw, stdout: escapeForDisplay(wrapped.redact(raw.stdout)), stderr: escapeForDisplay(wrapped.redact(raw.stderr)) };
    } finally {
      await wrapped.cleanup();
    }
  };
}

function spawnHook(cmd: WrappedHookCommand, run: HookRun): Promise<HookOutcome> {
  return new Promise((resolve) => {
    const [program = '/bin/sh', ...args] = cmd.argv;
    const child = spawn(program, args, { cwd: cmd.cwd, env: cmd.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = capped();
    const err = capped();
    let timedOut = false;
    let interrupted = false;
    let killing: Promise<void> | undefined;
    let startError: string | undefined;
    let exitCode: number | null = null;
    const stop = (): void => {
      if (child.pid === undefined || killing) return;
      killing = killGroup(child.pid, 500);
      // A process that left the group can still hold the pipes: stop waiting for it.
      void killing.then(() => setTimeout(() => (child.stdout.destroy(), child.stderr.destroy()), 2000).unref());
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = (): void => {
      interrupted = true;
      stop();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.signal?.aborted) onAbort();
    child.stdout.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => err.push(d));
    // A hook that never reads its stdin closes the pipe early: that is its business, not a failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.stdin);
    child.on('error', (error) => {
      startError = error.message;
    });
    child.on('exit', (code) => {
      exitCode = code;
      // Whatever it left running in the background would hold the pipes open: end it.
      stop();
    });
    child.on('close', () => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      void (killing ?? Promise.resolve()).then(() =>
        resolve({
          exitCode: timedOut || interrupted ? null : exitCode,
          stdout: out.text(),
          stderr: err.text(),
          timedOut,
          interrupted,
          ...(startError ? { startError } : {}),
        }),
      );
    });
  });
}

function capped(): { push(text: string): void; text(): string } {
  let text = '';
  let cut = false;
  return {
    push(chunk) {
      if (cut) return;
      text += chunk;
      if (text.length > MAX_STREAM_CHARS) {
        text = `${text.slice(0, MAX_STREAM_CHARS)}\n[cut: the hook wrote more than ${MAX_STREAM_CHARS / 1024} K characters]`;
        cut = true;
      }
    },
    text: () => text,
  };
}
