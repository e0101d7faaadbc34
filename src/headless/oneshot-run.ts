/**
 * One-shot mode, given a way to open the engine: one turn to completion, then an exit status that
 * says how it ended — 0 finished, 1 API or runtime error, 2 usage, 3 incomplete, 4 finished but
 * the session could not be saved, 130 interrupted.
 */
import { access, constants, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CONFIG_WARNING_PREFIX, STARTUP_HINT_PREFIX } from '../agent/assemble-session.js';
import type { LindwyrmEngine } from '../agent/engine.js';
import { keepStreamedText } from '../agent/reducer.js';
import { CODE_MAP_GRACE_MS } from '../agent/late-code-map.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';
import type { CliOptions } from '../cli/options.js';
import type { Approver } from '../policy/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import { createOneShotApprover } from './oneshot-approver.js';
import { createOneShotOutput } from './oneshot-output.js';
import { createStreamJsonInput, type StreamJsonInput, type UserTurn } from './stream-json-input.js';
import { oneShotDetail } from './oneshot-printer.js';
import { createToolTally, type ToolTally } from './tool-tally.js';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';
import { expandCustomCommand } from '../extensions/custom-commands.js';

export { jsonResult } from './json-result.js';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 128 + the signal's number, as a shell reports a process the signal ended. */
export const SIGNAL_STATUS: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** What the turn's end says a signal stopped it: Ctrl+C is the user; the others name themselves. */
export function stopDetail(signal: StopSignal): string | undefined {
  if (signal === 'SIGTERM') return 'Stopped by SIGTERM (a timeout, or a kill).';
  if (signal === 'SIGHUP') return 'Stopped by SIGHUP (the terminal went away).';
  return undefined;
}

/**
 * The turn's outcome as one-shot mode reports it: with the calls that were denied or failed, and
 * `incomplete` when every change the model tried was denied (the model stopping is not the task done).
 */
function reported(outcome: TurnOutcome, tally: ToolTally, line: (text: string) => void): TurnOutcome {
  const refused = outcome.status === 'finished' ? tally.allChangesDenied() : undefined;
  if (refused) line(`lwyrm: incomplete: ${refused}`);
  return { ...outcome, ...(refused ? { status: 'incomplete' as const, detail: refused } : {}), calls: tally.unsuccessful };
}

export const EXIT_STATUS: Readonly<Record<TurnStatus, number>> = {
  finished: 0,
  error: 1,
  incomplete: 3,
  interrupted: 130,
};

export interface OneShotIo {
  /** lindwyrm's version (stream-json's init line names it). */
  readonly version?: string;
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
  const fromStdin = cli.inputFormat === 'stream-json';
  if (!prompt && !fromStdin) {
    io.stderr.write("lwyrm: -p needs a task, e.g. lwyrm -p \"add type hints to utils.py\"\n");
    return 2;
  }
  // Found out only after the turn, a bad --out path would cost the answer and its tokens.
  const outProblem = cli.out === undefined ? undefined : await checkOutPath(cli.out);
  if (outProblem) {
    io.stderr.write(`lwyrm: --out ${cli.out}: ${outProblem}\n`);
    return 2;
  }
  const output = createOneShotOutput(cli, io);
  // No view reads the transcript's text: the answer goes out as it streams (reducer.ts).
  keepStreamedText(false);
  let engine: LindwyrmEngine | undefined;
  let interrupted = false;
  let stopSignal: StopSignal = 'SIGINT';
  const stop = (): void => {
    approvals.close();
    input?.close();
    engine?.interrupt(stopDetail(stopSignal));
  };
  // --input-format stream-json: the turns and the approval answers come as lines on stdin.
  const input = fromStdin
    ? createStreamJsonInput({
        stdin: io.stdin,
        onError: (line, error) => output.inputError(line, error),
        onInterrupt: () => engine?.interrupt(),
      })
    : undefined;
  const approvals = createOneShotApprover({ stdin: io.stdin as never, stderr: io.stderr as never, interactive: !input && io.stdin.isTTY === true });
  // An interrupt before the engine exists (while it starts) still ends the run as interrupted.
  const removeHandler = io.onInterrupt((signal = 'SIGINT') => {
    if (interrupted) {
      // A second signal while the first is being honoured: leave now.
      process.exit(SIGNAL_STATUS[signal]);
    }
    interrupted = true;
    stopSignal = signal;
    stop();
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
    stop();
  });
  io.stderr.on('error', () => undefined);
  try {
    try {
      engine = await open({
        approver: input ? input.approver : approvals.approver,
        takeDenialNote: () => approvals.takeDenialNote(),
        codeMapGraceMs: () => (interrupted ? 0 : CODE_MAP_GRACE_MS),
        ...(cli.verbose ? { log: (line: string) => output.line(`[lwyrm] ${line}`) } : {}),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      io.stderr.write(`lwyrm: ${escapeForDisplay(message)}\n`);
      const status = exitCodeOf(err);
      output.result(undefined, undefined, 'error', status, message);
      return status;
    }
    output.started(engine);
    // The sandbox's startup note (why it cannot start) belongs with the others: wait for the probe.
    await engine.sandbox?.ready();
    await new Promise((resolve) => setImmediate(resolve));
    for (const block of engine.store.current().blocks) {
      if (block.kind !== 'notice' || block.id.startsWith(CONFIG_WARNING_PREFIX)) continue;
      // Hints are for the full screen; a script's stderr gets them only when it asked (--verbose).
      if (block.id.startsWith(STARTUP_HINT_PREFIX) && !cli.verbose) continue;
      output.onEvent({ type: 'notice', blockId: block.id, level: block.level, text: block.text });
    }
    // After a failed stdout, "interrupted by the user" would be wrong: outputFailure says what happened.
    let tally = createToolTally();
    const off = engine.store.onEvent((event) => {
      tally.onEvent(event);
      if (!(outputError && event.type === 'turn.end')) output.onEvent(event);
    });
    let last: TurnOutcome | undefined;
    let told = false;
    for await (const turn of turnsOf(prompt, input)) {
      if (interrupted) break;
      tally = createToolTally();
      // `-p "/release 2.1"` runs a custom command's prompt, as typing it in the full screen does.
      const session = engine;
      const expanded = await expandCustomCommand(turn.text, session.slash, (command) => session.runSlash(command));
      last =
        expanded && 'error' in expanded
          ? { status: 'error', result: '', detail: expanded.error, steps: 0 }
          : reported(await session.submit(expanded?.prompt ?? turn.text, turn.images.length ? { images: turn.images } : undefined), tally, (text) => output.line(text));
      told = false;
      // A conversation driven over stdin goes on after each turn (an interrupt line included)
      // until stdin ends or a signal stops the run.
      if (input && !interrupted) {
        output.result(last, engine, last.status, exitStatusOf(last, stopSignal), last.detail === undefined ? undefined : oneShotDetail(last.detail, cli.save ? 'lwyrm -c -p continue' : undefined));
        told = true;
        continue;
      }
      break;
    }
    off();
    output.finish();
    const resume = cli.save ? 'lwyrm -c -p continue' : undefined;
    const errorOf = (o: TurnOutcome): string | undefined => (o.detail === undefined ? undefined : oneShotDetail(o.detail, resume));
    if (input && !interrupted && last) return outputError ? outputFailure(outputError, io) : exitStatusOf(last, stopSignal);
    // Stopped before a turn ran, or between two of them: the run still ends with its result.
    const outcome: TurnOutcome =
      last && !told
        ? last
        : interrupted
          ? { status: 'interrupted', result: '', detail: stopDetail(stopSignal) ?? 'Interrupted by the user.', steps: 0 }
          : { status: 'finished', result: '', steps: 0 };
    const written = cli.out === undefined ? true : await writeOut(cli.out, outcome, cli.json || output.structured, io, cli.raw === true);
    if (written !== true) {
      output.result(outcome, engine, 'error', 1, written);
      return 1;
    }
    const exit = outputError ? (outputError.code === 'EPIPE' ? 141 : 1) : exitStatusOf(outcome, stopSignal);
    output.result(outcome, engine, outcome.status, exit, errorOf(outcome));
    if (outputError) return outputFailure(outputError, io);
    return exit;
  } finally {
    removeHandler();
    approvals.close();
    input?.close();
    await engine?.dispose().catch(ignoreError('close the session'));
  }
}

/**
 * A run that did its work but could not write its session (a full disk) must not look like a
 * clean one to a script: `-c` would not find it. An error or a signal keeps its own status.
 */
export const NOT_SAVED_STATUS = 4;

function exitStatusOf(outcome: TurnOutcome, signal: StopSignal): number {
  if (outcome.status === 'interrupted') return SIGNAL_STATUS[signal];
  const status = EXIT_STATUS[outcome.status];
  return outcome.saved === false && (status === 0 || status === 3) ? NOT_SAVED_STATUS : status;
}

/** The -p prompt first (when there is one), then whatever stdin brings. */
async function* turnsOf(prompt: string | undefined, input: StreamJsonInput | undefined): AsyncIterable<UserTurn> {
  if (prompt) yield { text: prompt, images: [] };
  if (input) yield* input.turns();
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
async function writeOut(path: string, outcome: TurnOutcome, json: boolean, io: OneShotIo, raw: boolean): Promise<true | string> {
  // On stdout the answer is escaped like the streamed one (unless --raw); the file gets it as sent.
  const shown = (text: string): string => withNewline(raw ? text : escapeForDisplay(text));
  if (outcome.status === 'error' || outcome.status === 'interrupted') {
    // A run cut short must not replace what the file held (often the last good answer) with a fragment.
    const how = outcome.status === 'error' ? 'failed' : 'was interrupted';
    const follows = outcome.result && !json;
    io.stderr.write(`lwyrm: ${path} left as it was: the run ${how}.${follows ? ' The partial answer follows on stdout.' : ''}\n`);
    if (follows) io.stdout.write(shown(outcome.result));
    return true;
  }
  try {
    await writeFile(path, withNewline(outcome.result));
    // Nothing reaches stdout with --out: say where the answer went, so a run never looks silent.
    const lines = outcome.result === '' ? 0 : withNewline(outcome.result).split('\n').length - 1;
    io.stderr.write(`lwyrm: wrote the answer to ${resolve(path)} (${lines === 0 ? 'empty' : `${lines} line${lines === 1 ? '' : 's'}`})\n`);
    return true;
  } catch (err) {
    const message = `could not write ${path}: ${err instanceof Error ? err.message : String(err)}`;
    io.stderr.write(`lwyrm: ${message}\n`);
    if (outcome.result && !json) {
      io.stderr.write('lwyrm: the answer follows on stdout instead.\n');
      io.stdout.write(shown(outcome.result));
    }
    return message;
  }
}

/** Why `path` cannot take the answer, or undefined when it looks writable. */
async function checkOutPath(path: string): Promise<string | undefined> {
  const full = resolve(path);
  const existing = await stat(full).catch(absent);
  if (existing?.isDirectory()) return 'it is a directory; give a file name';
  const dir = dirname(full);
  const parent = await stat(dir).catch(absent);
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
