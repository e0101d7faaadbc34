/**
 * For the sandbox tests: whether a sandbox can start on this machine (the tests that need one
 * skip with the reason printed), and the host's view of processes, which a command inside a
 * PID namespace cannot give (its $$ is the namespace's).
 */
import { readdir, readFile } from 'node:fs/promises';
import { probeSandbox } from '../../src/sandbox/probe.js';

let probed: Promise<string | undefined> | undefined;

/** Undefined when a sandbox starts here; otherwise why not, printed once per test file. */
export function sandboxSkipReason(): Promise<string | undefined> {
  probed ??= probeSandbox({ env: process.env }).then(({ status }) => {
    if (status.state === 'on') return undefined;
    const reason = status.state === 'unavailable' ? `${status.cause} (${status.fix})` : 'sandbox off';
    console.warn(`skipping the sandbox tests: ${reason}`);
    return reason;
  });
  return probed;
}

/** PIDs (of this machine) whose command line contains `marker`, zombies excluded. */
export async function hostProcessesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(marker)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat !== '' && !/\) Z /.test(stat)) found.push(Number(entry));
  }
  return found;
}

/** How many processes this machine runs now. */
export async function hostProcessCount(): Promise<number> {
  return (await readdir('/proc').catch(() => [] as string[])).filter((e) => /^\d+$/.test(e)).length;
}
