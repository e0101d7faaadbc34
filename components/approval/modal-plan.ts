/**
 * How the approval modal shares its rows. Pure. Everything is shown when it fits; otherwise, in
 * order: the main answer row (and the reason field), the question's first row, at least a few rows
 * of the body (it is what is being approved: never hidden), the other answers, then the rest of
 * the head by importance (what [a]lways grants, the warnings, the rest of the question, the
 * reason), then the rest of the body, which scrolls.
 */
import type { StyledLine } from '../text/styled-line.js';

export interface HeadRow {
  readonly line: StyledLine;
  /** Lower is kept first: 0 the question's first row and what [a]lways grants, 1 what it cannot, 2 warnings, 3 the rest. */
  readonly priority: number;
}

export interface ModalPlanInput {
  readonly head: readonly HeadRow[];
  readonly bodyLength: number;
  readonly innerRows: number;
  /** Rows that are always shown under the body: the main answer row, the reason field. */
  readonly fixedRows: number;
  /** Key rows shown when there is room (the other answers), for a body that scrolls or not. */
  readonly optionalRows: (scrollable: boolean) => number;
}

export interface ModalPlan {
  /** The head rows to show, in their order. */
  readonly head: readonly StyledLine[];
  readonly bodyRows: number;
  /** How many optional key rows fit. */
  readonly optionalRows: number;
  readonly scrollable: boolean;
}

/** Fewest body rows on any screen that has them: the marker and two lines. */
const MIN_BODY_ROWS = 3;

export function planModal(input: ModalPlanInput): ModalPlan {
  const { head, bodyLength, innerRows, fixedRows } = input;
  const calm = input.optionalRows(false);
  if (head.length + bodyLength + fixedRows + calm <= innerRows) {
    return { head: head.map((h) => h.line), bodyRows: innerRows - head.length - fixedRows - calm, optionalRows: calm, scrollable: false };
  }
  let left = Math.max(0, innerRows - fixedRows);
  const byPriority = head.map((h, i) => ({ ...h, i })).sort((a, b) => a.priority - b.priority || a.i - b.i);
  const keep = new Set<number>();
  const take = (n: number, from: number): void => {
    for (const h of byPriority.slice(from, from + n)) keep.add(h.i);
  };
  // Priority 0 is what the question cannot be answered without: its first row, what [a]lways grants.
  // Never so many that the body gets fewer than its minimum rows.
  const title = Math.min(head.filter((h) => h.priority === 0).length, Math.max(Math.min(1, left), left - Math.min(bodyLength, MIN_BODY_ROWS)));
  take(title, 0);
  left -= title;
  // Two thirds of what is left, at least MIN_BODY_ROWS: on a small screen the text being
  // approved comes before the explanations around it.
  const bodyMin = Math.min(bodyLength, Math.max(MIN_BODY_ROWS, Math.ceil((left * 2) / 3)), left);
  left -= bodyMin;
  const optional = Math.min(input.optionalRows(true), left);
  left -= optional;
  const rest = Math.min(head.length - title, left);
  take(rest, title);
  left -= rest;
  return {
    head: head.filter((_, i) => keep.has(i)).map((h) => h.line),
    bodyRows: bodyMin + left,
    optionalRows: optional,
    scrollable: bodyMin + left < bodyLength,
  };
}
