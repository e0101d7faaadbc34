/**
 * The startup probe: can a sandbox start here, with which program, and if not, why and what
 * fixes it. It runs the same kind of sandbox a command gets (namespaces, mounts, no network, no
 * capabilities), so "on" means commands will really run in one.
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { findOnPath } from '../tools/find-on-path.js';
import { diagnoseBwrap, NO_BWRAP, type SysctlReader } from './diagnose.js';
import { chooseProcessLimit, type ProcessLimit } from './process-limit.js';
import type { SandboxStatus } from './types.js';

export interface ProbeResult {
  readonly status: SandboxStatus;
  /** Present when the status is on. */
  readonly limit?: ProcessLimit;
}

export interface ProbeOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  readonly sysctl?: SysctlReader;
}

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

function runQuietly(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 5000, env, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
}

/** The namespaces and mounts every command gets; the probe asks for the same. */
export const BWRAP_BASE_FLAGS: readonly string[] = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];

async function probeBwrap(opts: ProbeOptions): Promise<ProbeResult> {
  const program = await findOnPath('bwrap', opts.env['PATH']);
  if (program === undefined) return { status: { state: 'unavailable', ...NO_BWRAP } };
  const env = { PATH: opts.env['PATH'] ?? '/usr/bin:/bin' };
  const trialArgs = [...BWRAP_BASE_FLAGS, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--remount-ro', '/tmp', '--', '/bin/sh', '-c', 'exit 0'];
  const [version, trial] = await Promise.all([runQuietly(program, ['--version'], env), runQuietly(program, trialArgs, env)]);
  if (trial.code !== 0) {
    const said = trial.stderr.trim() || `exit status ${trial.code ?? 'none (timed out)'}`;
    return { status: { state: 'unavailable', ...diagnoseBwrap(said, { ...(opts.sysctl ? { sysctl: opts.sysctl } : {}), env: opts.env }) } };
  }
  const limit = await chooseProcessLimit();
  return {
    status: {
      state: 'on',
      engine: 'bwrap',
      version: version.stdout.trim() || 'bubblewrap (version unknown)',
      program,
      processLimit: limit.method,
      ...(limit.note ? { processLimitNote: limit.note } : {}),
    },
    limit,
  };
}

async function probeSeatbelt(opts: ProbeOptions): Promise<ProbeResult> {
  const present = await access(SANDBOX_EXEC, constants.X_OK).then(() => true, () => false);
  if (!present) {
    return { status: { state: 'unavailable', cause: `${SANDBOX_EXEC} is missing`, fix: 'it ships with macOS; check that your system is intact, or set sandbox = "off"' } };
  }
  const trial = await runQuietly(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { PATH: opts.env['PATH'] ?? '/usr/bin:/bin' });
  if (trial.code !== 0) {
    return {
      status: {
        state: 'unavailable',
        cause: `sandbox-exec could not start a sandbox (it said: ${trial.stderr.trim().split('\n')[0] ?? ''})`,
        fix: 'sandbox-exec cannot run inside another sandbox (an app sandbox, some CI runners); run lindwyrm from a plain terminal, or set sandbox = "off"',
      },
    };
  }
  const limit = await chooseProcessLimit({ platform: 'darwin' });
  return {
    status: { state: 'on', engine: 'sandbox-exec', version: 'macOS Seatbelt', program: SANDBOX_EXEC, processLimit: limit.method, ...(limit.note ? { processLimitNote: limit.note } : {}) },
    limit,
  };
}

export async function probeSandbox(opts: ProbeOptions): Promise<ProbeResult> {
  const platform = opts.platform ?? process.platform;
  if (platform === 'linux') return probeBwrap(opts);
  if (platform === 'darwin') return probeSeatbelt(opts);
  return {
    status: {
      state: 'unavailable',
      cause: `lindwyrm has no sandbox for ${platform} (it uses bubblewrap on Linux and sandbox-exec on macOS)`,
      fix: 'run lindwyrm under WSL2 or in a Linux container, or set sandbox = "off"',
    },
  };
}
