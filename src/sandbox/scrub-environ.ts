/**
 * /proc/PID/environ shows the environment block a process was started with, for as long as it
 * runs: any command could read lindwyrm's keys from /proc/$PPID/environ. Inside the sandbox its
 * own PID namespace hides lindwyrm; for commands run without one, this overwrites the keys'
 * values in that block (through /proc/self/mem, which a process may write for itself) once they
 * have been copied to the heap, where process.env keeps finding them.
 *
 * Measured at well under a millisecond; the alternative, re-executing without the keys, would
 * cost a second Node start and leave the first process (and its block) waiting as the parent.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

export interface ScrubOutcome {
  /** Variables whose values were overwritten. */
  readonly scrubbed: readonly string[];
  /** Why nothing could be done, when something should have been. */
  readonly error?: string;
}

/** env_start and env_end: fields 50 and 51 of /proc/self/stat (counted from 1; comm may hold spaces). */
function environBounds(): { start: number; end: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state).
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) throw new Error('no environment bounds in /proc/self/stat');
  return { start, end };
}

export function scrubExecEnvironment(names: readonly string[], env: NodeJS.ProcessEnv = process.env): ScrubOutcome {
  if (process.platform !== 'linux' || names.length === 0) return { scrubbed: [] };
  const wanted = new Set(names);
  let block: Buffer;
  try {
    block = readFileSync('/proc/self/environ');
  } catch (error) {
    return { scrubbed: [], error: `cannot read /proc/self/environ: ${(error as Error).message}` };
  }
  const targets: { name: string; offset: number; length: number }[] = [];
  for (let at = 0; at < block.length; ) {
    let end = block.indexOf(0, at);
    if (end === -1) end = block.length;
    const entry = block.subarray(at, end).toString('latin1');
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq) : '';
    if (wanted.has(name) && end - at > eq + 1) targets.push({ name, offset: at + eq + 1, length: end - at - eq - 1 });
    at = end + 1;
  }
  if (targets.length === 0) return { scrubbed: [] };
  // Set again, each value moves to the heap: the C library points environ at the new copy, so
  // the block can be overwritten without process.env (or a child's env) losing it.
  for (const t of targets) {
    const value = env[t.name];
    if (value !== undefined) env[t.name] = value;
  }
  let fd: number | undefined;
  try {
    const { start } = environBounds();
    fd = openSync('/proc/self/mem', 'r+');
    for (const t of targets) writeSync(fd, Buffer.alloc(t.length, '*'), 0, t.length, start + t.offset);
  } catch (error) {
    return { scrubbed: [], error: `cannot overwrite the start-up environment: ${(error as Error).message}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const after = readFileSync('/proc/self/environ');
  const left = targets.filter((t) => {
    const value = env[t.name];
    return value !== undefined && value.length > 0 && after.includes(Buffer.from(`${t.name}=${value}`));
  });
  if (left.length > 0) return { scrubbed: [], error: `the values of ${left.map((t) => t.name).join(', ')} are still in /proc/self/environ` };
  return { scrubbed: targets.map((t) => t.name) };
}
