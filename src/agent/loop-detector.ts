/**
 * Loop detection: the same tool with the same arguments, seen again and again within the last
 * `window` calls, means the model is stuck. Re-reading a file once after editing it is normal, so
 * a call only counts as looping when it already appears twice in the window.
 */

/** Occurrences already in the window that make the next identical call a loop. */
export const LOOP_REPEATS = 2;

export interface LoopDetector {
  /** Records the call; true when it repeats often enough within the window to be a loop. */
  isLoop(name: string, input: unknown): boolean;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function createLoopDetector(window: number): LoopDetector {
  const recent: string[] = [];
  return {
    isLoop(name, input) {
      if (window <= 0) return false;
      const key = `${name}\u0000${stableJson(input)}`;
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
