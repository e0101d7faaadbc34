/**
 * One-shot mode, given a way to open the engine: one turn to completion, then an exit status that
 * says how it ended — 0 finished, 1 API or runtime error, 2 usage, 3 incomplete, 130 interrupted.
 */
import { access, constants, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CONFIG_WARNING_PREFIX, STARTUP_HINT_PREFIX } from '../agent/assemble-session.js';
import type { LindwyrmEngine } from '../agent/engine.js';
import { CODE_MAP_GRACE_MS } from '../agent/late-code-map.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';
import type { CliOptions } from '../cli/options.js';
import type { Approver } from '../policy/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import { createOneShotApprover } from './oneshot-approver.js';
import { jsonResult } from './json-result.js';
import { createPrinter, oneShotDetail } from './oneshot-printer.js';

export { jsonResult } from './json-result.js';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 128 + the signal's number, as a shell reports a process the signal ended. */
export const SIGNAL_STATUS: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export const EXIT_STATUS: Readonly<Record<TurnStatus, number>> = {
  finished: 0,
  error: 1,
  incomplete: 3,
  interrupted: 130,
};

export interface OneShotIo {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /**
   * Registers the handler for SIGINT (and, on a real process, SIGTERM and SIGHUP: `timeout` or a
   * closed terminal must stop the turn the same way, killing a running command's process group,
   * not leave it orphaned); returns the function that removes it.
   */
  onInterrupt(handler: (signal?: StopSignal) => void): () => void;
}

export type OpenEngine = (hooks: {
  approver: Approver;
  takeDenialNote: () => string | undefined;
  /** The verbose log (-v), written to the run's stderr between other output; absent without -v. */
  log?: (line: string) => void;
  /**
   * Asked when the run ends: how long it may wait for a code map still indexing to write its
   * cache (none after an interrupt: the user wants out).
   */
  codeMapGraceMs: () => number;
}) => Promise<LindwyrmEngine>;

function exitCodeOf(err: unknown): number {
  const code = (err as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' ? code : 1;
}

export async function runOneShotWith(cli: CliOptions, open: OpenEngine, io: OneShotIo): Promise<number> {
  const prompt = cli.prompt?.trim();
  if (!prompt) {
    io.stderr.write("lwyrm: -p needs a task, e.g. lwyrm -p \"add type hints to utils.py\"\n");
    return 2;
  }
  // Found out only after the turn, a bad --out path would cost the answer and its tokens.
  const outProblem = cli.out === undefined ? undefined : await checkOutPath(cli.out);
  if (outProblem) {
    io.stderr.write(`lwyrm: --out ${cli.out}: ${outProblem}\n`);
    return 2;
  }
  const approvals = createOneShotApprover({ stdin: io.stdin as never, stderr: io.stderr as never, interactive: io.stdin.isTTY === true });
  const quiet = cli.json || cli.out !== undefined;
  const printer = createPrinter({
    ...(quiet ? {} : { answer: io.stdout as never }),
    answerIsTty: io.stdout.isTTY === true,
    stderr: io.stderr as never,
    stderrIsTty: io.stderr.isTTY === true,
    ...(cli.save ? { resumeCommand: 'lwyrm -c -p continue' } : {}),
  });

  let engine: LindwyrmEngine | undefined;
  let interrupted = false;
  let stopSignal: StopSignal = 'SIGINT';
  // An interrupt before the engine exists (while it starts) still ends the run as interrupted.
  const removeHandler = io.onInterrupt((signal = 'SIGINT') => {
    if (interrupted) {
      // A second signal while the first is being honoured: leave now.
      process.exit(SIGNAL_STATUS[signal]);
    }
    interrupted = true;
    stopSignal = signal;
    approvals.close();
    engine?.interrupt();
  });
  // The reader went away (`lwyrm -p … | head`) or the disk is full: stop the turn as an interrupt
  // would (the running command killed, the session saved) instead of dying on an unhandled
  // 'error' event with a stack trace. The listeners stay: a late write may fail the same way.
  let outputError: NodeJS.ErrnoException | undefined;
  io.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (outputError) return;
    outputError = err;
    if (interrupted) return;
    interrupted = true;
    approvals.close();
    engine?.interrupt();
  });
  io.stderr.on('error', () => undefined);
  try {
    try {
      engine = await open({
        approver: approvals.approver,
        takeDenialNote: () => approvals.takeDenialNote(),
        codeMapGraceMs: () => (interrupted ? 0 : CODE_MAP_GRACE_MS),
        ...(cli.verbose ? { log: (line: string) => printer.line(`[lwyrm] ${line}`) } : {}),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      io.stderr.write(`lwyrm: ${escapeForDisplay(message)}\n`);
      if (cli.json) io.stdout.write(`${JSON.stringify(jsonResult(undefined, undefined, 'error', message))}\n`);
      return exitCodeOf(err);
    }
    for (const block of engine.store.current().blocks) {
      if (block.kind !== 'notice' || block.id.startsWith(CONFIG_WARNING_PREFIX)) continue;
      // Hints are for the full screen; a script's stderr gets them only when it asked (--verbose).
      if (block.id.startsWith(STARTUP_HINT_PREFIX) && !cli.verbose) continue;
      printer.onEvent({ type: 'notice', blockId: block.id, level: block.level, text: block.text });
    }
    // After a failed stdout, "interrupted by the user" would be wrong: outputFailure says what happened.
    const off = engine.store.onEvent((event) => (outputError && event.type === 'turn.end' ? undefined : printer.onEvent(event)));
    const outcome: TurnOutcome = interrupted
      ? { status: 'interrupted', result: '', detail: 'Interrupted by the user.', steps: 0 }
      : await engine.submit(prompt);
    off();
    printer.finish();
    const written = cli.out === undefined ? true : await writeOut(cli.out, outcome, cli.json, io);
    if (written !== true) {
      if (cli.json) io.stdout.write(`${JSON.stringify(jsonResult(outcome, engine, 'error', written))}\n`);
      return 1;
    }
    const resume = cli.save ? 'lwyrm -c -p continue' : undefined;
    const error = outcome.detail === undefined ? undefined : oneShotDetail(outcome.detail, resume);
    if (cli.json) io.stdout.write(`${JSON.stringify(jsonResult(outcome, engine, outcome.status, error))}\n`);
    if (outputError) return outputFailure(outputError, io);
    return outcome.status === 'interrupted' ? SIGNAL_STATUS[stopSignal] : EXIT_STATUS[outcome.status];
  } finally {
    removeHandler();
    approvals.close();
    await engine?.dispose().catch(() => undefined);
  }
}

/** A closed pipe is the reader's choice: quiet, with the status a shell gives SIGPIPE. */
function outputFailure(err: NodeJS.ErrnoException, io: OneShotIo): number {
  if (err.code === 'EPIPE') return 141;
  io.stderr.write(`lwyrm: could not write to stdout (${err.code ?? err.message}); the turn was stopped\n`);
  return 1;
}

const withNewline = (text: string): string => (text.endsWith('\n') || !text ? text : `${text}\n`);

/**
 * --out: the answer into the file (true), or why it could not be (the message stderr got). What
 * --out kept off stdout is never lost: it goes to stdout when the file cannot take it, or in the
 * --json object.
 */
async function writeOut(path: string, outcome: TurnOutcome, json: boolean, io: OneShotIo): Promise<true | string> {
  if (outcome.status === 'error' || outcome.status === 'interrupted') {
    // A run cut short must not replace what the file held (often the last good answer) with a fragment.
    const how = outcome.status === 'error' ? 'failed' : 'was interrupted';
    const follows = outcome.result && !json;
    io.stderr.write(`lwyrm: ${path} left as it was: the run ${how}.${follows ? ' The partial answer follows on stdout.' : ''}\n`);
    if (follows) io.stdout.write(withNewline(outcome.result));
    return true;
  }
  try {
    await writeFile(path, withNewline(outcome.result));
    return true;
  } catch (err) {
    const message = `could not write ${path}: ${err instanceof Error ? err.message : String(err)}`;
    io.stderr.write(`lwyrm: ${message}\n`);
    if (outcome.result && !json) {
      io.stderr.write('lwyrm: the answer follows on stdout instead.\n');
      io.stdout.write(withNewline(outcome.result));
    }
    return message;
  }
}

/** Why `path` cannot take the answer, or undefined when it looks writable. */
async function checkOutPath(path: string): Promise<string | undefined> {
  const full = resolve(path);
  const existing = await stat(full).catch(() => undefined);
  if (existing?.isDirectory()) return 'it is a directory; give a file name';
  const dir = dirname(full);
  const parent = await stat(dir).catch(() => undefined);
  if (!parent) return `no directory ${dir}; create it first`;
  if (!parent.isDirectory()) return `${dir} is not a directory`;
  try {
    await access(existing ? full : dir, constants.W_OK);
  } catch {
    return `cannot write ${existing ? 'it' : `in ${dir}`} (permission denied)`;
  }
  return undefined;
}

export const processIo: OneShotIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  onInterrupt(handler) {
    const signals: StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const listeners = signals.map((signal) => [signal, () => handler(signal)] as const);
    for (const [signal, listener] of listeners) process.on(signal, listener);
    return () => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
    };
  },
};
