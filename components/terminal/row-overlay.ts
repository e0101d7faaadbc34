/**
 * Rows the transcript hands the frame writer directly, past Ink's output. Ink turns every frame's
 * text back into styled characters (tokenize, re-style, re-encode, measure each line's width):
 * for a 120x40 transcript at 20 frames a second that was most of the CPU the view spent while an
 * answer streamed. The transcript's rows are already wrapped to the width and encoded (cached per
 * row), so Ink lays out only the rows around it (header, status, input: its frame is that much
 * shorter, and Ink builds a grid of styled cells for every row of it), and the writer inserts the
 * transcript's rows where its box would have been.
 *
 * Each set() replaces the rows array, so a frame takes the overlay as it was when Ink wrote it.
 */
import { createContext } from 'react';

export interface OverlayRows {
  /** Screen row of the first overlay row: the frame's rows from here on move down by `height`. */
  readonly top: number;
  readonly height: number;
  /** At most `height`; the rest of the band is blank. */
  readonly rows: readonly string[];
}

export class RowOverlay {
  private current: OverlayRows | undefined;

  /** Called while the transcript renders, before Ink writes the frame that holds its box. */
  set(top: number, height: number, rows: readonly string[]): void {
    this.current = { top, height, rows };
  }

  clear(): void {
    this.current = undefined;
  }

  snapshot(): OverlayRows | undefined {
    return this.current;
  }
}

/** Inserts the overlay's band (its rows, then blank ones up to its height) into a frame's lines. */
export function applyOverlay(lines: readonly string[], overlay: OverlayRows | undefined): readonly string[] {
  if (overlay === undefined) return lines;
  const top = Math.min(Math.max(0, overlay.top), lines.length);
  const out = lines.slice(0, top);
  for (let i = 0; i < overlay.height; i++) out.push(overlay.rows[i] ?? '');
  for (let i = top; i < lines.length; i++) out.push(lines[i]!);
  return out;
}

/** Present under runTui; absent (tests rendering the app alone) the transcript draws through Ink. */
export const RowOverlayContext = createContext<RowOverlay | undefined>(undefined);
