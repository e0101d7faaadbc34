/**
 * The environment inside the sandbox: the caller's (keys already gone), the private temp
 * folder as TMPDIR, and the proxy variables pointing at the egress proxy — or none at all when
 * there is no network, so a tool fails at once instead of waiting on a proxy it cannot reach.
 */
import { listedLoopback } from './host-patterns.js';

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'FTP_PROXY', 'RSYNC_PROXY'];

export function sandboxEnv(base: NodeJS.ProcessEnv, opts: { tmpDir: string; proxyUrl?: string; allowed: readonly string[] }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of PROXY_VARIABLES) {
    delete env[name];
    delete env[name.toLowerCase()];
  }
  env['TMPDIR'] = opts.tmpDir;
  if (opts.proxyUrl === undefined) return env;
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = opts.proxyUrl;
    env[name.toLowerCase()] = opts.proxyUrl;
  }
  // Node's own fetch and http follow the proxy variables only when asked (Node 22.21+, 24+).
  env['NODE_USE_ENV_PROXY'] = '1';
  // Loopback is the sandbox's own unless the allowlist names it: then it means the host's.
  const named = new Set(listedLoopback(opts.allowed));
  const direct = ['localhost', '127.0.0.1', '::1'].filter((h) => !named.has(h));
  if (direct.length > 0) {
    env['NO_PROXY'] = direct.join(',');
    env['no_proxy'] = env['NO_PROXY'];
  }
  return env;
}
