/**
 * Loop detection: the same tool with the same arguments, seen again and again within the last
 * `window` calls, means the model is stuck. Re-reading a file once after editing it is normal, so
 * a call only counts as looping when it already appears twice in the window.
 */

import { createHash } from 'node:crypto';
import { jsonPieces, PIECE_CHARS } from '../io/json-pieces.js';

/** Occurrences already in the window that make the next identical call a loop. */
export const LOOP_REPEATS = 2;

export interface LoopDetector {
  /** Records the call; true when it repeats often enough within the window to be a loop. */
  isLoop(name: string, input: unknown): boolean;
}

/**
 * The arguments with keys sorted, as JSON, fed to a digest in pieces: a call's arguments may be
 * megabytes (write_file's content), and the window keeps a key per call for the whole turn.
 */
function stableJson(value: unknown, out: (text: string) => void): void {
  if (Array.isArray(value)) {
    out('[');
    value.forEach((item, i) => {
      if (i > 0) out(',');
      stableJson(item, out);
    });
    out(']');
    return;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out('{');
    entries.forEach(([k, v], i) => {
      out(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
      stableJson(v, out);
    });
    out('}');
    return;
  }
  if (typeof value === 'string' && value.length > PIECE_CHARS) {
    for (const piece of jsonPieces(value)) out(piece);
    return;
  }
  out(JSON.stringify(value) ?? 'null');
}

function keyOf(name: string, input: unknown): string {
  const hash = createHash('sha256').update(name).update('\u0000');
  stableJson(input, (text) => hash.update(text));
  return hash.digest('base64');
}

export function createLoopDetector(window: number): LoopDetector {
  const recent: string[] = [];
  return {
    isLoop(name, input) {
      if (window <= 0) return false;
      const key = keyOf(name, input);
      const seen = recent.filter((k) => k === key).length;
      recent.push(key);
      if (recent.length > window) recent.shift();
      return seen >= LOOP_REPEATS;
    },
  };
}

export function loopMessage(name: string, window: number): string {
  return (
    `Loop detected: you called ${name} with exactly the same arguments several times within the last ` +
    `${window} tool calls, and it was not run again. The result will not change. Try a different ` +
    `approach, or stop and explain to the user what is blocking you.`
  );
}
