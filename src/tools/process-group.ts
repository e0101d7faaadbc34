/**
 * Runs a command as the leader of its own process group, so that on timeout or interrupt the
 * whole tree can be killed: SIGTERM to the group, then SIGKILL after a short grace for anything
 * that ignored it. Processes that leave the group on purpose (setsid) are out of its reach; in
 * the sandbox they die with its PID namespace when the group's bwrap goes.
 */
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** The program and its arguments: `[shell, '-c', command]`, or what the sandbox wrapped it in. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Interleaved stdout + stderr, in arrival order, as it comes. */
  readonly onData: (text: string) => void;
  readonly graceMs?: number;
}

/** A shell command line instead of an argv: what a CommandRunner (the editor's terminal) takes. */
export interface ShellRunOptions extends Omit<RunOptions, 'argv' | 'graceMs'> {
  readonly shell: string;
  readonly command: string;
}

export interface RunOutcome {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly interrupted: boolean;
  readonly pid: number | undefined;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM the group, wait up to `graceMs` for it to empty, then SIGKILL whatever is left. */
export async function killGroup(pid: number, graceMs: number): Promise<void> {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return; // the group is already gone
  }
  const deadline = Date.now() + graceMs;
  // No event tells us a group emptied; poll, soon at first: after a command ends, what is left
  // (a sandbox's init on its way out) is usually gone within a millisecond or two.
  for (let wait = 1; Date.now() < deadline; wait = Math.min(wait * 2, 20)) {
    await new Promise((r) => setTimeout(r, wait));
    if (!groupAlive(pid)) return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    return; // gone between the check and the kill
  }
  // SIGKILL is delivered asynchronously: on a loaded machine a member can still be running for a
  // moment. Wait (briefly, bounded) until the group is empty so the result never beats the kill.
  const killDeadline = Date.now() + graceMs;
  while (Date.now() < killDeadline && groupAlive(pid)) await new Promise((r) => setTimeout(r, 20));
}

export function runInGroup(opts: RunOptions): Promise<RunOutcome> {
  const grace = opts.graceMs ?? 1000;
  return new Promise((resolve) => {
    // A small shell points stderr at the stdout pipe, then becomes the real program: one pipe
    // means one order, so the two streams interleave exactly as they were written.
    const child = spawn('/bin/sh', ['-c', 'exec 2>&1; exec "$@"', 'sh', ...opts.argv], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    let timedOut = false;
    let interrupted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let killing: Promise<void> | undefined;
    let settled = false;

    const stopGroup = () => {
      if (pid !== undefined && killing === undefined) killing = killGroup(pid, grace);
      return killing ?? Promise.resolve();
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      void (killing ?? Promise.resolve()).then(() => resolve({ exitCode, exitSignal, timedOut, interrupted, pid }));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      void stopGroup().then(() => setTimeout(forceClose, 2000).unref());
    }, opts.timeoutMs);
    const onAbort = () => {
      interrupted = true;
      void stopGroup().then(() => setTimeout(forceClose, 2000).unref());
    };
    // If a process that escaped the group still holds the pipe, stop waiting for it.
    const forceClose = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish();
    };
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (d: string) => opts.onData(d));
    child.stderr?.on('data', (d: string) => opts.onData(d));
    child.on('error', (error) => {
      opts.onData(`could not start ${opts.argv[0] ?? 'the command'}: ${error.message}\n`);
      finish();
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Background jobs left behind would hold the pipe open and outlive the command: end them.
      void stopGroup().then(() => setTimeout(forceClose, 2000).unref());
    });
    child.on('close', finish);
  });
}
