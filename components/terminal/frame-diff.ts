/**
 * Turns "the screen showed these rows, now it should show those" into the bytes to send. Pure.
 *
 * Rows are addressed absolutely (CUP), so nothing depends on where the cursor was left, nothing is
 * ever written below the last row (no scrolling), and an unchanged row costs nothing. When a band
 * of rows moved up (a streaming transcript following its tail), the band is scrolled by the
 * terminal inside a scroll region and only the rows that came into view are written.
 */

export const BSU = '\x1b[?2026h';
export const ESU = '\x1b[?2026l';

const at = (row: number): string => `\x1b[${row + 1};1H`;
const ERASE_LINE = '\x1b[2K';

/** The shift that turns most of prev[a+k..b) into next[a..b-k), if it pays; 0 otherwise. */
export function findShift(prev: readonly string[], next: readonly string[], a: number, b: number): number {
  const span = b - a;
  if (span < 6) return 0;
  let best = 0;
  let bestHits = 0;
  for (let k = 1; k <= Math.min(span - 3, 24); k++) {
    let hits = 0;
    for (let i = a; i < b - k; i++) if (next[i] === prev[i + k] && next[i] !== '') hits++;
    if (hits > bestHits) {
      best = k;
      bestHits = hits;
    }
  }
  // Worth it only when most of the band is reused.
  return bestHits >= (span - best) * 0.6 ? best : 0;
}

export interface DiffResult {
  readonly bytes: string;
  /** What the screen shows afterwards. */
  readonly screen: readonly string[];
}

export function diffFrame(prev: readonly string[], nextFrame: readonly string[], rows: number, full: boolean): DiffResult {
  const next = nextFrame.length > rows ? nextFrame.slice(0, rows) : nextFrame;
  if (full) {
    let out = '\x1b[H\x1b[2J';
    next.forEach((line, i) => {
      if (line !== '') out += at(i) + line;
    });
    return { bytes: out, screen: next };
  }
  const height = Math.max(prev.length, next.length);
  let a = 0;
  while (a < height && prev[a] === next[a]) a++;
  if (a === height) return { bytes: '', screen: prev };
  let b = height;
  while (b > a && prev[b - 1] === next[b - 1]) b--;

  let out = '';
  let shown: (string | undefined)[] = prev.slice();
  const k = findShift(prev, next, a, b);
  if (k > 0) {
    // Scroll rows a..b-1 up by k: set the region, feed k line feeds at its bottom, reset.
    out += `\x1b[${a + 1};${b}r${at(b - 1)}${'\n'.repeat(k)}\x1b[r`;
    for (let i = a; i < b; i++) shown[i] = i + k < b ? prev[i + k] : '';
  }
  for (let i = a; i < b; i++) {
    const line = next[i] ?? '';
    if (shown[i] === line) continue;
    out += at(i) + ERASE_LINE + line;
  }
  shown = next.slice();
  return { bytes: out, screen: shown as string[] };
}
