/**
 * Fault injection for the crash-consistency tests: `LWYRM_FAULT_KILL=<point>[@<subject>][#<n>]`
 * makes the process SIGKILL itself the nth time (default the first) it reaches that point, for
 * that subject when one is given (a file's name), so a test can kill a real run at an exact moment
 * — half a temp file written, between write and rename, in the middle of a session append — instead
 * of at a random one. Unset, a point costs one comparison.
 */
interface Armed {
  readonly point: string;
  readonly subject: string | undefined;
  readonly nth: number;
}

const armed = parseSpec(process.env['LWYRM_FAULT_KILL']);
let reached = 0;

function parseSpec(text: string | undefined): Armed | undefined {
  if (text === undefined || text === '') return undefined;
  const hash = text.lastIndexOf('#');
  const n = hash === -1 ? 1 : Number(text.slice(hash + 1));
  const rest = hash === -1 ? text : text.slice(0, hash);
  const at = rest.indexOf('@');
  return {
    point: at === -1 ? rest : rest.slice(0, at),
    subject: at === -1 ? undefined : rest.slice(at + 1),
    nth: Number.isInteger(n) && n >= 1 ? n : 1,
  };
}

function matches(point: string, subject: string | undefined): boolean {
  return armed !== undefined && armed.point === point && (armed.subject === undefined || armed.subject === subject);
}

/**
 * Counts a pass through `point`; true on the pass a test armed. The caller may do half its work
 * (half a file) before `faultKill()`.
 */
export function faultHere(point: string, subject?: string): boolean {
  if (!matches(point, subject)) return false;
  reached++;
  return reached === armed!.nth;
}

export function faultKill(): void {
  process.kill(process.pid, 'SIGKILL');
}

/** Kills the process here when a test armed this point (and this is the nth pass). */
export function faultPoint(point: string, subject?: string): void {
  if (faultHere(point, subject)) faultKill();
}
