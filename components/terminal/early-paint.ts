/**
 * Paints the first frame before the view is loaded (see components/first-frame.ts for why), and
 * keeps the terminal safe until the view takes over: typed keys are read in raw mode and echoed
 * into the frame's input (early-input.ts), and a signal, a crash or an exit in between still puts
 * the user's screen back. No Ink, no React: this runs on the CLI's path.
 */
import type { SessionState } from '../../src/agent/state.js';
import { startingSnapshot } from '../../hooks/starting-engine.js';
import { firstFrame } from '../first-frame.js';
import { BSU, ESU, diffFrame } from './frame-diff.js';
import { NOTHING_TYPED, startEarlyInput, type EarlyInput, type EarlyStdin, type EarlyTyped } from './early-input.js';
import { ENTER_SCREEN, LEAVE_SCREEN, SIGNAL_STATUS } from './screen.js';
import { holdStrayOutput, type StrayOutput } from './stray-output.js';

export interface EarlyTerminal {
  readonly stdout: { write(data: string): unknown; readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };
  /** Read for the early input when it is a stream (a real terminal's stdin is). */
  readonly stdin: { readonly isTTY?: boolean; setRawMode?(mode: boolean): unknown } & Partial<EarlyStdin>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
}

export interface EarlyFrame {
  readonly columns: number;
  readonly rows: number;
  /** The rows on screen, as Ink would write them (with the text typed so far in the input). */
  readonly lines: readonly string[];
  /** Where the real cursor was put: the input's caret (see the FrameWriter's setCursor). */
  readonly cursor: { readonly row: number; readonly column: number };
  /** Other output held back since the frame was drawn; the view keeps holding it. */
  readonly stray?: StrayOutput;
  /**
   * The view owns the screen, the keys and the exit paths now: the interim handlers go, keys not
   * taken yet go back into stdin, and what was typed is returned for the view's input.
   */
  handOver(): EarlyTyped;
  /** Start-up failed before the view took over: the user's screen and terminal mode come back. */
  abandon(): void;
}

/** The CLI's call: the process's own terminal, with stray output held back from the frame. */
export function paintEarlyFrameOnProcess(state: SessionState, env: EarlyTerminal['env']): EarlyFrame | undefined {
  return paintEarlyFrame(state, { stdout: process.stdout, stdin: process.stdin, env }, { holdStray: holdStrayOutput });
}

/** Draws the session's first frame now; undefined when this terminal is left to Ink. */
export function paintEarlyFrame(
  state: SessionState,
  term: EarlyTerminal,
  opts: { readonly holdStray?: () => StrayOutput } = {},
): EarlyFrame | undefined {
  const { stdout, stdin, env } = term;
  if (!stdout.isTTY || !stdin.isTTY || typeof stdin.setRawMode !== 'function') return undefined;
  if (inkIsNotLive(env) || !inkColorsAreOn(env, term.platform ?? process.platform)) return undefined;
  const columns = stdout.columns ?? 0;
  const rows = stdout.rows ?? 0;
  const snapshot = startingSnapshot(state);
  const frame = firstFrame(snapshot, columns, rows);
  if (frame === undefined) return undefined;
  let { lines, cursor } = frame;

  // From here on, a library's warning must not scribble over the frame: it waits for the normal screen.
  const stray = opts.holdStray?.();
  const write = stray ? stray.writeStdout : (data: string): unknown => stdout.write(data);
  let owned = true;
  const restore = (): void => {
    if (!owned) return;
    owned = false;
    write(LEAVE_SCREEN);
    try {
      stdin.setRawMode?.(false);
    } catch {
      // The terminal may already be gone (SIGHUP); there is nothing left to restore.
    }
    const held = stray?.release();
    if (held?.stdout) process.stdout.write(held.stdout);
    if (held?.stderr) process.stderr.write(held.stderr);
  };
  const onSignal = (signal: keyof typeof SIGNAL_STATUS): void => {
    restore();
    process.exit(SIGNAL_STATUS[signal]);
  };
  const handlers = (Object.keys(SIGNAL_STATUS) as (keyof typeof SIGNAL_STATUS)[]).map((sig) => [sig, () => onSignal(sig)] as const);
  const release = (): void => {
    for (const [sig, handler] of handlers) process.off(sig, handler);
    process.off('exit', restore);
  };

  stdin.setRawMode(true);
  // The cursor is shown at the input's caret, as the view will.
  const place = (): string => `\x1b[${cursor.row + 1};${cursor.column + 1}H\x1b[?25h`;
  write(ENTER_SCREEN + BSU + diffFrame([], lines, rows, true).bytes + place() + ESU);
  for (const [sig, handler] of handlers) process.on(sig, handler);
  process.on('exit', restore);

  // Typed text is drawn into this frame until the view takes it over; only at the size painted
  // (after a resize the view repaints everything anyway).
  const echo = (typed: Parameters<typeof firstFrame>[3]): boolean => {
    if (!owned || stdout.columns !== columns || stdout.rows !== rows) return false;
    const next = firstFrame(snapshot, columns, rows, typed);
    if (next === undefined) return false;
    const bytes = diffFrame(lines, next.lines, rows, false).bytes;
    lines = next.lines;
    cursor = next.cursor;
    write(BSU + bytes + place() + ESU);
    return true;
  };
  const input: EarlyInput | undefined = isStream(stdin) ? startEarlyInput(stdin, { echo, interrupt: () => onSignal('SIGINT') }) : undefined;

  return {
    columns,
    rows,
    get lines() {
      return lines;
    },
    get cursor() {
      return cursor;
    },
    ...(stray ? { stray } : {}),
    handOver() {
      const typed = input?.handOver() ?? NOTHING_TYPED;
      release();
      owned = false;
      return typed;
    },
    abandon() {
      input?.handOver();
      release();
      restore();
    },
  };
}

function isStream(stdin: EarlyTerminal['stdin']): stdin is EarlyTerminal['stdin'] & EarlyStdin {
  return typeof stdin.on === 'function' && typeof stdin.off === 'function' && typeof stdin.read === 'function' && typeof stdin.unshift === 'function';
}

/** Ink draws only the last frame, at exit, in CI (its is-in-ci check), and differently for screen readers. */
function inkIsNotLive(env: EarlyTerminal['env']): boolean {
  const set = (key: string): boolean => env[key] !== undefined && env[key] !== '0' && env[key] !== 'false';
  return set('CI') || set('CONTINUOUS_INTEGRATION') || env['INK_SCREEN_READER'] === 'true';
}

/**
 * Whether Ink's colour library will colour this terminal: the early frame carries colour codes,
 * so it is drawn only where that is certain (a subset of chalk's supports-color rules); elsewhere
 * Ink draws the first frame itself.
 */
export function inkColorsAreOn(env: EarlyTerminal['env'], platform: NodeJS.Platform): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  const term = env['TERM'] ?? '';
  if (term === 'dumb') return false;
  if (platform === 'win32') return true;
  if (env['TEAMCITY_VERSION'] !== undefined || env['TF_BUILD'] !== undefined) return false;
  if (env['COLORTERM'] !== undefined) return true;
  if (['xterm-kitty', 'xterm-ghostty', 'wezterm'].includes(term)) return true;
  if (env['TERM_PROGRAM'] === 'iTerm.app' || env['TERM_PROGRAM'] === 'Apple_Terminal') return true;
  return /-256(color)?$/i.test(term) || /^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(term);
}
