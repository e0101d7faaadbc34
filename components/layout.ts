/** Pane heights for a terminal of `rows`: the total is always exactly `rows`. Pure. */

export interface LayoutInput {
  readonly rows: number;
  readonly reasoning: boolean;
  /** Rows the composer's text needs (before capping). */
  readonly composerRows: number;
  /** Extra rows above the composer: a flash message, the completion hint. */
  readonly composerExtras: number;
  /** Rows the approval modal wants, when it is open. */
  readonly modalRows?: number;
}

export interface Layout {
  readonly header: number;
  readonly transcript: number;
  readonly reasoning: number;
  readonly status: number;
  /** The composer area (separator + extras + text) or the modal. */
  readonly bottom: number;
  readonly composerRows: number;
  /** The approval has the whole screen (a short terminal). */
  readonly fullScreen?: boolean;
}

export const MAX_COMPOSER_ROWS = 8;

/** Below this many rows the approval modal may take every row between the header and the status. */
export const SHORT_SCREEN_ROWS = 16;

/**
 * The fewest rows the approval modal works with beside the rest of the screen: below this, an
 * approval that needs more takes the whole screen (what is approved matters more than the rest).
 */
export const MIN_MODAL_ROWS = 10;

/** The most rows the approval modal asks for: the whole screen (the layout decides what it gets). */
export function modalMaxRows(rows: number): number {
  return Math.max(1, rows);
}

export function computeLayout(input: LayoutInput): Layout {
  const rows = Math.max(1, input.rows);
  const modal = input.modalRows;
  const header = rows >= 12 ? 2 : rows >= 6 ? 1 : 0;
  const status = rows >= 4 ? 1 : 0;
  // The live reasoning: five rows, three on a short screen, none where every row is needed (an
  // approval: the reasoning before it has ended).
  const reasoning = !input.reasoning || modal !== undefined ? 0 : rows >= 20 ? 5 : rows >= 14 ? 3 : 0;
  const room = rows - header - status - reasoning;
  let bottom: number;
  let composerRows = 0;
  if (modal !== undefined) {
    // The modal takes the free rows; the transcript keeps a few on a tall screen. When that
    // leaves the modal fewer than it needs and fewer than MIN_MODAL_ROWS, the approval takes the
    // whole screen: header, transcript and status give way.
    const keep = rows >= 30 ? 3 : rows >= SHORT_SCREEN_ROWS ? 2 : 0;
    const free = Math.max(1, room - keep);
    if (modal > free && free < MIN_MODAL_ROWS) return { header: 0, transcript: 0, reasoning: 0, status: 0, bottom: rows, composerRows: 0, fullScreen: true };
    bottom = Math.min(modal, free);
  } else {
    composerRows = Math.max(1, Math.min(input.composerRows, MAX_COMPOSER_ROWS, Math.floor(rows / 4)));
    bottom = Math.min(1 + input.composerExtras + composerRows, Math.max(1, room - 1));
    composerRows = Math.min(composerRows, bottom);
  }
  const transcript = Math.max(0, room - bottom);
  return { header, transcript, reasoning, status, bottom, composerRows };
}
