/** The windowed view over the transcript's rows: which slice is visible, and scrolling. Pure. */
import type { StyledLine } from '../text/styled-line.js';

/** A row of a block as laid out at one width. */
export interface AnchorPlace {
  readonly width: number;
  /** Row within the block. */
  readonly line: number;
  /** The block's row count at that width. */
  readonly rows: number;
}

/**
 * Where a scrolled-back view starts, in terms of content: a row of a block. Row indexes change
 * with the width (wrapping), so a resize resolves the anchor again instead of keeping the index.
 * The first place is where the user put it; one per width seen since is added, so coming back to
 * a width is exact and a block growing below the anchor does not move it.
 */
export interface ScrollAnchor {
  readonly id: string;
  readonly places: readonly [AnchorPlace, ...AnchorPlace[]];
}

export interface ScrollState {
  /** Follow the live tail (End). */
  readonly follow: boolean;
  /** First visible row when not following; an absolute index, so new output does not move it. */
  readonly top: number;
  /** The same place as content; wins over `top` while its block exists. */
  readonly anchor?: ScrollAnchor;
}

export const FOLLOW: ScrollState = { follow: true, top: 0 };

export interface TranscriptWindow {
  readonly rows: readonly StyledLine[];
  readonly top: number;
  readonly total: number;
  /** Rows below the window (0 when following the tail). */
  readonly below: number;
}

/** The blocks' rows with their ids and the width they were laid out at, for anchors. */
export interface RowLayout {
  readonly ids: readonly string[];
  readonly width: number;
}

/** The row an anchor points at now, or undefined when its block is gone. */
export function resolveAnchor(
  blocks: ReadonlyArray<readonly StyledLine[]>,
  layout: RowLayout,
  anchor: ScrollAnchor,
): number | undefined {
  let start = 0;
  for (let i = 0; i < blocks.length; i++) {
    const len = blocks[i]!.length;
    if (layout.ids[i] === anchor.id) {
      const same = anchor.places.find((p) => p.width === layout.width);
      const first = anchor.places[0];
      // At a width not seen yet the row is taken proportionally, rounded down: the view starts at
      // or just before what was at its top.
      const line = same ? same.line : first.rows <= 0 ? first.line : Math.floor((first.line * len) / first.rows);
      return start + Math.min(Math.max(0, line), Math.max(0, len - 1));
    }
    start += len;
  }
  return undefined;
}

/** The anchor for row `top`: its block and the row within it. */
export function anchorAt(
  blocks: ReadonlyArray<readonly StyledLine[]>,
  layout: RowLayout,
  top: number,
): ScrollAnchor | undefined {
  let start = 0;
  for (let i = 0; i < blocks.length; i++) {
    const len = blocks[i]!.length;
    const id = layout.ids[i];
    if (top < start + len && id !== undefined) return { id, places: [{ width: layout.width, line: top - start, rows: len }] };
    start += len;
  }
  return undefined;
}

/** Rows of all blocks, without concatenating them: a 5,000-row history costs O(blocks) per frame. */
export function sliceRows(
  blocks: ReadonlyArray<readonly StyledLine[]>,
  height: number,
  scroll: ScrollState,
  layout?: RowLayout,
): TranscriptWindow {
  let total = 0;
  for (const rows of blocks) total += rows.length;
  const maxTop = Math.max(0, total - height);
  const anchored = !scroll.follow && scroll.anchor && layout ? resolveAnchor(blocks, layout, scroll.anchor) : undefined;
  const wanted = anchored ?? scroll.top;
  const top = scroll.follow ? maxTop : Math.min(Math.max(0, wanted), maxTop);
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
  /** What is at a row now, so a scroll position survives a resize; absent in tests of the keys. */
  readonly anchorAt?: (top: number) => ScrollAnchor | undefined;
}

function at(metrics: ScrollMetrics, top: number): ScrollState {
  const anchor = metrics.anchorAt?.(top);
  return anchor ? { follow: false, top, anchor } : { follow: false, top };
}

/** Moves the window by `delta` rows; reaching the bottom follows the tail again. */
export function scrollBy(metrics: ScrollMetrics, delta: number): ScrollState {
  const maxTop = Math.max(0, metrics.total - metrics.height);
  const top = Math.min(Math.max(0, metrics.top + delta), maxTop);
  return top >= maxTop ? FOLLOW : at(metrics, top);
}

/** After a resize: remembers where the anchor landed at the new width (see ScrollAnchor). */
export function reanchor(metrics: ScrollMetrics, scroll: ScrollState): ScrollState {
  const anchor = scroll.anchor;
  if (scroll.follow || !anchor) return scroll;
  const here = metrics.anchorAt?.(metrics.top);
  if (!here || here.id !== anchor.id) return scroll;
  const place = here.places[0];
  if (anchor.places.some((p) => p.width === place.width)) return scroll;
  return { follow: false, top: metrics.top, anchor: { id: anchor.id, places: [...anchor.places, place] } };
}

export function scrollHome(metrics: ScrollMetrics): ScrollState {
  return metrics.total <= metrics.height ? FOLLOW : at(metrics, 0);
}
