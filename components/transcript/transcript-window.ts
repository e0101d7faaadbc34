/** The windowed view over the transcript's rows: which slice is visible, and scrolling. Pure. */
import type { StyledLine } from '../text/styled-line.js';

export interface ScrollState {
  /** Follow the live tail (End). */
  readonly follow: boolean;
  /** First visible row when not following; an absolute index, so new output does not move it. */
  readonly top: number;
}

export const FOLLOW: ScrollState = { follow: true, top: 0 };

export interface TranscriptWindow {
  readonly rows: readonly StyledLine[];
  readonly top: number;
  readonly total: number;
  /** Rows below the window (0 when following the tail). */
  readonly below: number;
}

/** Rows of all blocks, without concatenating them: a 5,000-row history costs O(blocks) per frame. */
export function sliceRows(
  blocks: ReadonlyArray<readonly StyledLine[]>,
  height: number,
  scroll: ScrollState,
): TranscriptWindow {
  let total = 0;
  for (const rows of blocks) total += rows.length;
  const maxTop = Math.max(0, total - height);
  const top = scroll.follow ? maxTop : Math.min(Math.max(0, scroll.top), maxTop);
  const end = Math.min(total, top + height);
  const rows: StyledLine[] = [];
  let offset = 0;
  for (const block of blocks) {
    const next = offset + block.length;
    if (next > top && offset < end) {
      const from = Math.max(0, top - offset);
      const to = Math.min(block.length, end - offset);
      for (let i = from; i < to; i++) rows.push(block[i]!);
    }
    if (next >= end) break;
    offset = next;
  }
  return { rows, top, total, below: total - end };
}

export interface ScrollMetrics {
  readonly total: number;
  readonly height: number;
  readonly top: number;
}

/** Moves the window by `delta` rows; reaching the bottom follows the tail again. */
export function scrollBy(metrics: ScrollMetrics, delta: number): ScrollState {
  const maxTop = Math.max(0, metrics.total - metrics.height);
  const top = Math.min(Math.max(0, metrics.top + delta), maxTop);
  return top >= maxTop ? FOLLOW : { follow: false, top };
}

export function scrollHome(metrics: ScrollMetrics): ScrollState {
  return metrics.total <= metrics.height ? FOLLOW : { follow: false, top: 0 };
}
