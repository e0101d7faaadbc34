/**
 * The recursion marker: every command the bash tool runs carries LINDWYRM_NESTED (the depth), so
 * a lindwyrm started from there knows it is inside another one. It then never opens a full
 * screen — over the running session's screen, or on a terminal borrowed through /dev/tty — and
 * past a few levels it refuses to run at all: agents starting agents is a loop that costs money.
 */

export const NESTING_VARIABLE = 'LINDWYRM_NESTED';

/** One-shot runs nested this deep are refused. */
export const MAX_NESTING = 3;

export function nestingDepth(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env[NESTING_VARIABLE]);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

export function fullScreenRefusal(depth: number): string {
  return (
    `started from lindwyrm's own bash tool (${NESTING_VARIABLE}=${depth}), so the full screen is not opened ` +
    'inside the running session; run a task once with lwyrm -p "…" instead'
  );
}

export function nestedNote(depth: number): string {
  return `note: running inside lindwyrm's own bash tool (${NESTING_VARIABLE}=${depth})`;
}

export function tooDeepRefusal(depth: number): string {
  return `refusing to run: started ${depth} levels deep inside lindwyrm's own bash tool (${NESTING_VARIABLE}=${depth}; at most ${MAX_NESTING - 1}), which looks like agents starting agents in a loop`;
}
