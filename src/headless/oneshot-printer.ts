/**
 * Plain one-shot output: the answer streams to stdout; tool activity, notices and (on a
 * terminal) dimmed reasoning go to stderr, so `lwyrm -p … > out.txt` captures only the answer.
 */
import type { Writable } from 'node:stream';
import type { EngineEvent } from '../agent/events.js';
import { escapeForDisplay } from '../policy/escape.js';

export interface PrinterIo {
  /** Where the answer goes; undefined with --json or --out. */
  readonly answer?: Writable;
  /** stdout is a terminal (the answer and stderr then share one cursor). */
  readonly answerIsTty: boolean;
  /**
   * --raw: the answer's bytes as the model sent them. Otherwise control sequences are shown as
   * escapes on a pipe too: `lwyrm -p … | less -R`, `> out.txt; cat out.txt` or a CI log replay
   * them on a terminal later (an OSC 52 clipboard write, an OSC 8 link, a screen clear).
   */
  readonly raw?: boolean;
  readonly stderr: Writable;
  readonly stderrIsTty: boolean;
  /** How to pick up a turn stopped short, as a command; undefined when nothing was saved (--no-save). */
  readonly resumeCommand?: string;
}

/** The full screen's advice; one-shot mode has no prompt to send it to. */
const SEND_CONTINUE = /\s*Send "continue" to pick up where it stopped\./;

/** A turn's detail as one-shot mode words it (no prompt to send "continue" to: the command instead). */
export function oneShotDetail(detail: string, resumeCommand?: string): string {
  const said = detail.replace(SEND_CONTINUE, '');
  const hint = said !== detail && resumeCommand ? ` To pick up where it stopped: ${resumeCommand}` : '';
  return `${said}${hint}`;
}

const DIM = '\x1b[2m';
const UNDIM = '\x1b[22m';

export interface OneShotPrinter {
  onEvent(event: EngineEvent): void;
  /** A line for stderr (the verbose log), started on a fresh line so it never splits reasoning. */
  line(text: string): void;
  finish(): void;
}

export function createPrinter(io: PrinterIo): OneShotPrinter {
  let answerLast = '\n';
  let answerBlock: string | undefined;
  let errLast = '\n';
  // Both on the terminal, the two streams share one cursor: a tool line must not continue the
  // answer's open line ("Let me look.→ read_file a.txt").
  const shared = io.answer !== undefined && io.answerIsTty && io.stderrIsTty;
  let answerLineOpen = false;
  const err = (text: string): void => {
    if (!text) return;
    io.stderr.write(text);
    errLast = text.at(-1)!;
  };
  const errLine = (text: string): void => {
    const fresh = errLast === '\n' && !answerLineOpen;
    answerLineOpen = false;
    err(`${fresh ? '' : '\n'}${text}\n`);
  };
  const out = (text: string): void => {
    if (!io.answer || !text) return;
    io.answer.write(text);
    answerLast = text.at(-1)!;
    answerLineOpen = shared && answerLast !== '\n';
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case 'assistant.delta':
          if (answerBlock !== event.blockId) {
            // A new reply after tool calls starts on its own paragraph.
            if (answerBlock !== undefined && answerLast !== '\n') out('\n');
            answerBlock = event.blockId;
          }
          out(io.raw === true ? event.text : escapeForDisplay(event.text));
          break;
        case 'reasoning.delta':
          if (io.stderrIsTty) err(`${DIM}${escapeForDisplay(event.text)}${UNDIM}`);
          break;
        case 'block.end':
          if (errLast !== '\n' && io.stderrIsTty) err('\n');
          break;
        case 'tool.start':
          errLine(`→ ${escapeForDisplay(event.title)}`);
          break;
        case 'tool.end': {
          const summary = escapeForDisplay(event.summary);
          // Denials and interruptions already say so ("denied: bash"): no "denied: denied: bash".
          const labelled = event.status === 'ok' || summary.toLowerCase().startsWith(event.status);
          errLine(labelled ? `  ${event.status === 'ok' ? 'ok ' : ''}${summary}` : `  ${event.status}: ${summary}`);
          break;
        }
        case 'notice':
          // A retry is news for the verbose log (-v) and machine interfaces; the plain output stays as it was.
          if (event.kind === 'retry') break;
          errLine(`lwyrm: ${event.level === 'info' ? '' : `${event.level}: `}${escapeForDisplay(event.text)}`);
          break;
        case 'turn.end':
          if (event.status !== 'finished' && event.detail) {
            errLine(`lwyrm: ${event.status}: ${escapeForDisplay(oneShotDetail(event.detail, io.resumeCommand))}`);
          }
          break;
        default:
          break;
      }
    },
    line(text) {
      errLine(text);
    },
    finish() {
      if (answerLast !== '\n') out('\n');
    },
  };
}
