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
}

export const MAX_COMPOSER_ROWS = 8;

/** Below this many rows the approval modal may take every row between the header and the status. */
export const SHORT_SCREEN_ROWS = 16;

/** The most rows the approval modal asks for: most of a tall screen, all it can get on a short one. */
export function modalMaxRows(rows: number): number {
  return rows >= SHORT_SCREEN_ROWS ? Math.max(6, Math.floor(rows * 0.6)) : Math.max(1, rows);
}

export function computeLayout(input: LayoutInput): Layout {
  const rows = Math.max(1, input.rows);
  const header = rows >= 12 ? 2 : rows >= 6 ? 1 : 0;
  const status = rows >= 4 ? 1 : 0;
  // The live reasoning: five rows, three on a short screen, none where every row is needed.
  const reasoning = !input.reasoning ? 0 : rows >= 20 ? 5 : rows >= 14 ? 3 : 0;
  const room = rows - header - status - reasoning;
  let bottom: number;
  let composerRows = 0;
  if (input.modalRows !== undefined) {
    // The transcript keeps a few rows on a tall screen; on a short one what is being approved
    // matters more than the history above it.
    const keep = rows >= SHORT_SCREEN_ROWS ? 3 : 0;
    bottom = Math.min(input.modalRows, Math.max(1, room - keep));
  } else {
    composerRows = Math.max(1, Math.min(input.composerRows, MAX_COMPOSER_ROWS, Math.floor(rows / 4)));
    bottom = Math.min(1 + input.composerExtras + composerRows, Math.max(1, room - 1));
    composerRows = Math.min(composerRows, bottom);
  }
  const transcript = Math.max(0, room - bottom);
  return { header, transcript, reasoning, status, bottom, composerRows };
}
