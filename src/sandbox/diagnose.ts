/**
 * Why bubblewrap could not start, in words a user can act on: the cause and the one fix that
 * applies. The known failures (ROUND2-ANCHORS §sandbox): no bwrap; user namespaces disabled;
 * Ubuntu's AppArmor restriction on unprivileged user namespaces ("loopback: Failed RTM_NEWADDR");
 * a container without CAP_SYS_ADMIN ("Failed to make / slave").
 */
import { existsSync, readFileSync } from 'node:fs';
import { escapeForDisplay } from '../policy/escape.js';

export interface Diagnosis {
  readonly cause: string;
  readonly fix: string;
}

/** Reads a sysctl as text (undefined when the file does not exist); tests pass their own. */
export type SysctlReader = (name: string) => string | undefined;

export const readSysctl: SysctlReader = (name) => {
  try {
    return readFileSync(`/proc/sys/${name.replaceAll('.', '/')}`, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const OFF_SWITCH = 'or set sandbox = "off" in your config to run commands unsandboxed without this note';

export const NO_BWRAP: Diagnosis = {
  cause: 'bubblewrap (bwrap) is not installed',
  fix: `install it (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), ${OFF_SWITCH}`,
};

export function inContainer(env: Readonly<Record<string, string | undefined>>): boolean {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return true;
  if (env['container'] !== undefined && env['container'] !== '') return true;
  try {
    return /docker|kubepods|containerd|libpod|lxc/.test(readFileSync('/proc/1/cgroup', 'utf8'));
  } catch {
    return false;
  }
}

export function diagnoseBwrap(
  stderr: string,
  opts: { sysctl?: SysctlReader; container?: boolean; env?: Readonly<Record<string, string | undefined>> } = {},
): Diagnosis {
  const sysctl = opts.sysctl ?? readSysctl;
  const said = firstLine(stderr);
  const apparmor = sysctl('kernel.apparmor_restrict_unprivileged_userns') === '1';
  if (/RTM_NEWADDR/.test(stderr) || (apparmor && /permission denied|operation not permitted/i.test(stderr))) {
    return {
      cause: `AppArmor does not let bwrap create user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1; bwrap said: ${said})`,
      fix:
        'give bwrap an AppArmor profile that allows them: write /etc/apparmor.d/bwrap containing ' +
        '`abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }` ' +
        'and run sudo apparmor_parser -r /etc/apparmor.d/bwrap (or, for the whole system, ' +
        `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0), ${OFF_SWITCH}`,
    };
  }
  const cloneOff = sysctl('kernel.unprivileged_userns_clone') === '0';
  const maxZero = sysctl('user.max_user_namespaces') === '0';
  if (cloneOff || maxZero) {
    const setting = cloneOff ? 'kernel.unprivileged_userns_clone = 0' : 'user.max_user_namespaces = 0';
    const command = cloneOff ? 'sudo sysctl -w kernel.unprivileged_userns_clone=1' : 'sudo sysctl -w user.max_user_namespaces=15000';
    return {
      cause: `unprivileged user namespaces are disabled (${setting}; bwrap said: ${said})`,
      fix: `enable them: ${command}, and add that setting to a file in /etc/sysctl.d/ to keep it after a reboot, ${OFF_SWITCH}`,
    };
  }
  const container = opts.container ?? inContainer(opts.env ?? process.env);
  if (/make \/ slave|mount proc|Can't mount|creat(e|ing) new namespace|No permissions/i.test(stderr) || container) {
    return {
      cause: `${container ? 'this runs inside a container that does not allow' : 'the system does not allow'} the mounts and namespaces bwrap needs (bwrap said: ${said})`,
      fix:
        'start the container with --cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined ' +
        '--security-opt systempaths=unconfined (or --privileged); if the container is your sandbox, set sandbox = "off"',
    };
  }
  return { cause: `bwrap failed to start a sandbox (it said: ${said})`, fix: `check that bwrap ${'--ro-bind / / --unshare-all true'} works for your user, ${OFF_SWITCH}` };
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '(nothing)';
  // It is shown to the user: no control characters, and not a whole screen.
  const clean = escapeForDisplay(line);
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
