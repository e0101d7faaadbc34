/**
 * What a one-shot run prints, by --output-format: text (the answer on stdout, activity on
 * stderr), json (the same stderr, one object at the end), or stream-json (every event a line on
 * stdout; stderr keeps only start-up errors and the -v log).
 */
import type { EngineEvent } from '../agent/events.js';
import type { LindwyrmEngine } from '../agent/engine.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';
import type { CliOptions } from '../cli/options.js';
import { jsonLine, writeJsonLine } from './json-line.js';
import { jsonResult } from './json-result.js';
import { createPrinter } from './oneshot-printer.js';
import { claimStdout } from './protocol-stdout.js';
import { createStreamJsonWriter } from './stream-json-writer.js';

export interface OneShotOutput {
  /** True when stdout carries JSON (json, stream-json): the answer is never printed bare. */
  readonly structured: boolean;
  started(engine: LindwyrmEngine): void;
  onEvent(event: EngineEvent): void;
  /** A line of the verbose log. */
  line(text: string): void;
  /** A stdin line (--input-format stream-json) that could not be used. */
  inputError(line: number, error: string): void;
  /** How a turn (or a run that never got to one) ended, with the exit status it gives. */
  result(outcome: TurnOutcome | undefined, engine: LindwyrmEngine | undefined, status: TurnStatus, exitStatus: number, error?: string): void;
  finish(): void;
}

interface Io {
  /** lindwyrm's version, for stream-json's init line. */
  readonly version?: string;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createOneShotOutput(cli: CliOptions, io: Io): OneShotOutput {
  const printer = createPrinter({
    ...(cli.json || cli.out !== undefined || cli.outputFormat === 'stream-json' ? {} : { answer: io.stdout as never }),
    answerIsTty: io.stdout.isTTY === true,
    ...(cli.raw === true ? { raw: true } : {}),
    stderr: io.stderr as never,
    stderrIsTty: io.stderr.isTTY === true,
    ...(cli.save ? { resumeCommand: 'lwyrm -c -p continue' } : {}),
  });
  if (cli.outputFormat !== 'stream-json') {
    return {
      structured: cli.json,
      started: () => undefined,
      onEvent: (event) => printer.onEvent(event),
      line: (text) => printer.line(text),
      inputError: (line, error) => printer.line(`lwyrm: stdin line ${line}: ${error}`),
      result(outcome, engine, status, _exitStatus, error) {
        // In pieces: the result may be a reply of many megabytes.
        if (cli.json) writeJsonLine(jsonResult(outcome, engine, status, error), (piece) => void io.stdout.write(piece));
      },
      finish: () => printer.finish(),
    };
  }
  // stdout is the protocol now: a stray write from anything else goes to stderr instead.
  const real = io.stdout === process.stdout ? claimStdout() : undefined;
  const write = (line: string): void => void (real ? real.write(line) : io.stdout.write(line));
  const writer = createStreamJsonWriter({ write, includePartial: cli.includePartial === true, version: io.version ?? '' });
  return {
    structured: true,
    started: (engine) => writer.start(engine),
    onEvent: (event) => writer.onEvent(event),
    line: (text) => printer.line(text),
    inputError(line, error) {
      write(jsonLine({ type: 'system', subtype: 'input_error', line, error }));
    },
    result(outcome, engine, status, exitStatus, error) {
      writer.result(outcome, engine, status, exitStatus, error);
    },
    finish: () => undefined,
  };
}
