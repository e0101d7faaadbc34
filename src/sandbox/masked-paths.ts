/**
 * What a sandboxed command must not see at all: every path a `read = "deny"` rule covers,
 * lindwyrm's own config, data and cache folders, key files and audit log, a default list of
 * credential locations, and the sockets that would hand out more than the sandbox allows
 * (the session bus, container engines).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { appPaths } from '../config/paths.js';
import { expandHome } from '../config/resolve-path.js';
import type { Config } from '../config/types.js';
import { absent as notThere } from '../diagnostics/ignore-error.js';

/** The default credential locations, masked whether or not a rule names them. */
export const CREDENTIAL_PATHS: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.azure',
  '~/.gnupg',
  '~/.kube',
  '~/.netrc',
  '~/.npmrc',
  '~/.pypirc',
  '~/.pgpass',
  '~/.my.cnf',
  '~/.git-credentials',
  '~/.vault-token',
  '~/.docker/config.json',
  '~/.gem/credentials',
  '~/.cargo/credentials',
  '~/.cargo/credentials.toml',
  '~/.terraform.d/credentials.tfrc.json',
  '~/.config/gh',
  '~/.config/hub',
  '~/.config/gcloud',
  '~/.config/git/credentials',
  '~/.config/op',
  '~/.config/rclone',
  '~/.password-store',
  '~/.local/share/keyrings',
  // Shell and REPL histories: tokens typed on a command line end up here.
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
];

/** Unix sockets whose owner would run things for the command outside the sandbox. */
function serviceSockets(env: Readonly<Record<string, string | undefined>>): string[] {
  const uid = process.getuid?.();
  return [
    ...(uid === undefined ? [] : [`/run/user/${uid}`]),
    ...(env['XDG_RUNTIME_DIR']?.startsWith('/') ? [env['XDG_RUNTIME_DIR']] : []),
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/podman',
    '/run/containerd',
    '/run/dbus',
    '/run/snapd.socket',
  ];
}

export interface MaskedPath {
  readonly path: string;
  readonly isDirectory: boolean;
  /**
   * True: made absent where the folder around it can be rebuilt. False: masked in place (an empty
   * folder, an unreadable file), enough for service sockets, and cheaper.
   */
  readonly absent: boolean;
}

/** Every existing path to mask, real, without the ones inside another masked path. */
export async function maskedPaths(config: Config, env: Readonly<Record<string, string | undefined>>, home: string): Promise<MaskedPath[]> {
  const app = appPaths(env);
  const cacheDir = path.dirname(app.codeMapCacheDir);
  const wanted = new Map<string, boolean>();
  const add = (p: string | undefined, absent = true): void => {
    if (p === undefined || p === '') return;
    const full = path.resolve(expandHome(p, home));
    wanted.set(full, (wanted.get(full) ?? false) || absent);
  };
  for (const p of CREDENTIAL_PATHS) add(p);
  for (const p of [app.configDir, app.dataDir, cacheDir, config.auditLog]) add(p);
  for (const preset of config.presets) add(preset.keyFile);
  for (const rules of [config.policy.rules, config.policyFloor?.rules ?? []]) {
    for (const rule of rules) if (rule.read === 'deny') add(rule.path);
  }
  for (const socket of serviceSockets(env)) add(socket, false);

  // Every command pays for this: most candidates do not exist, so only the ones that do are made
  // real (a link is masked where it leads), and all of it runs at once.
  const real = new Map<string, { isDirectory: boolean; absent: boolean }>();
  await Promise.all(
    [...wanted].map(async ([p, absent]) => {
      if ((await lstat(p).catch(notThere)) === undefined) return;
      const target = await realpath(p).catch(notThere);
      const st = target === undefined ? undefined : await stat(target).catch(notThere);
      if (target === undefined || st === undefined) return;
      real.set(target, { isDirectory: st.isDirectory(), absent: (real.get(target)?.absent ?? false) || absent });
    }),
  );
  // "/" or the home folder itself cannot be hidden from a shell that needs them to start.
  real.delete('/');
  real.delete(await realpath(home).catch(() => home));
  const found: MaskedPath[] = [];
  for (const p of [...real.keys()].sort()) {
    if (found.some((m) => p.startsWith(m.path + path.sep))) continue;
    found.push({ path: p, ...(real.get(p) as { isDirectory: boolean; absent: boolean }) });
  }
  return found;
}
