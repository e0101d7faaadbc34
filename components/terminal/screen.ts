/** Entering and leaving the alternate screen, and putting the terminal back however we leave. */

/**
 * Alternate screen, cleared, cursor home and hidden, bracketed paste on (a pasted block arrives
 * marked, so its newlines are not Enter). No mouse reporting: selecting text keeps working.
 */
export const ENTER_SCREEN = '\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?2004h';

/** End any half-written synchronized frame, reset colours and scroll region, show the cursor, paste as before, leave. */
export const LEAVE_SCREEN = '\x1b[?2026l\x1b[0m\x1b[r\x1b[?25h\x1b[?2004l\x1b[?1049l';

/** Signals that end a full-screen session, and the exit status each leaves (128 + the number). */
export const SIGNAL_STATUS = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const;

export interface ScreenTarget {
  write(data: string): unknown;
}

export interface Screen {
  enter(): void;
  /** Idempotent: safe to call from every exit path. */
  leave(): void;
  readonly active: boolean;
}

/** `entered`: the screen was entered already (the early first frame); leaving still restores it. */
export function createScreen(out: ScreenTarget, opts: { entered?: boolean } = {}): Screen {
  let active = opts.entered ?? false;
  return {
    enter() {
      if (active) return;
      active = true;
      out.write(ENTER_SCREEN);
    },
    leave() {
      if (!active) return;
      active = false;
      out.write(LEAVE_SCREEN);
    },
    get active() {
      return active;
    },
  };
}
