/**
 * One command in the sandbox, per platform: the bwrap (Linux) or sandbox-exec (macOS) command
 * line, the environment, and the egress proxy when sandbox_network lists hosts. Both start with
 * a small /bin/sh prelude that applies the process limit, then exec the sandbox program, so the
 * limit holds from the first process on.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { startEgressProxy, type EgressEvent, type EgressProxy } from './egress-proxy.js';
import { FORWARDER_SOURCE, SANDBOX_PROXY_PORT } from './forwarder.js';
import { planMounts } from './linux-mounts.js';
import { maskedPaths } from './masked-paths.js';
import type { ProcessLimit } from './process-limit.js';
import { BWRAP_BASE_FLAGS } from './probe.js';
import { projectProtections } from './protected-paths.js';
import { sandboxEnv } from './sandbox-env.js';
import { seatbeltProfile } from './seatbelt-profile.js';
import { upstreamFromConfig } from './upstream-tunnel.js';
import type { SandboxEngine, WrapSpec } from './types.js';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';

export interface PlatformWrapInput {
  readonly engine: SandboxEngine;
  readonly program: string;
  readonly spec: WrapSpec;
  readonly config: Config;
  /** The session's private temp folder on the host. */
  readonly privateTmp: string;
  readonly home: string;
  /** lindwyrm's own environment (where its config and data folders are). */
  readonly appEnv: Readonly<Record<string, string | undefined>>;
  readonly limit: ProcessLimit;
  readonly onEgress: (event: EgressEvent) => void;
  /** Distinguishes this command's proxy socket from others running at the same time. */
  readonly serial: number;
}

export interface PlatformWrap {
  readonly argv: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly proxy?: EgressProxy;
  /** Masked paths shown empty rather than absent (for /policy). */
  readonly emptied: readonly string[];
  cleanup(): Promise<void>;
}

/** Existing sandbox_writable entries, real; a missing one cannot be bound and is left out. */
async function existingWritable(config: Config): Promise<string[]> {
  const found: string[] = [];
  for (const p of config.sandbox.writable) {
    const real = await realpath(p).catch(absent);
    if (real !== undefined && (await stat(real).catch(absent)) !== undefined) found.push(real);
  }
  return found;
}

const PRELUDE_NAME = 'lindwyrm-sandbox';

export async function wrapForPlatform(input: PlatformWrapInput): Promise<PlatformWrap> {
  const { config, spec } = input;
  const allowed = config.sandbox.network;
  const [masked, protections, writable, limit] = await Promise.all([
    maskedPaths(config, input.appEnv, input.home),
    projectProtections(config.projectRoot),
    existingWritable(config),
    input.limit.prepare().catch(() => ({ prelude: '', innerPrelude: '', cleanup: async () => undefined })),
  ]);
  const writableAll = [...new Set([...writable, ...protections.writable])];
  // The egress proxy goes out the way model traffic does: proxy, no_proxy, "system".
  const upstream = upstreamFromConfig(config, input.appEnv);
  let proxy: EgressProxy | undefined;
  const cleanup = async (): Promise<void> => {
    await proxy?.close().catch(ignoreError('close the egress proxy'));
    await limit.cleanup();
  };
  try {
    if (input.engine === 'bwrap') {
      const plan = await planMounts({
        projectRoot: config.projectRoot,
        writable: writableAll,
        privateTmp: input.privateTmp,
        home: input.home,
        masked,
        readOnly: protections.readOnly,
        ...(spec.readable ? { visible: spec.readable } : {}),
      });
      let inner = [...spec.argv];
      let proxyUrl: string | undefined;
      if (allowed.length > 0) {
        const name = `.lindwyrm-proxy-${process.pid}-${input.serial}.sock`;
        proxy = await startEgressProxy({ listen: { socketPath: path.join(input.privateTmp, name) }, allowed, onEvent: input.onEgress, upstream });
        inner = [process.execPath, '-e', FORWARDER_SOURCE, `/tmp/${name}`, String(SANDBOX_PROXY_PORT), ...inner];
        proxyUrl = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
      }
      // The limit is set first thing inside, so it covers the bridge and every process after it.
      if (limit.innerPrelude) inner = ['/bin/sh', '-c', `${limit.innerPrelude}exec "$@"`, PRELUDE_NAME, ...inner];
      const argv = ['/bin/sh', '-c', `${limit.prelude}exec "$@"`, PRELUDE_NAME, input.program, ...BWRAP_BASE_FLAGS, ...plan.args, '--chdir', spec.cwd, '--', ...inner];
      return { argv, env: sandboxEnv(spec.env, { tmpDir: '/tmp', ...(proxyUrl ? { proxyUrl } : {}), allowed }), ...(proxy ? { proxy } : {}), emptied: plan.emptied, cleanup };
    }
    if (allowed.length > 0) proxy = await startEgressProxy({ listen: { port: 0 }, allowed, onEvent: input.onEgress, upstream });
    const profile = seatbeltProfile({
      writable: [config.projectRoot, input.privateTmp, ...writableAll],
      masked: masked.map((m) => m.path),
      readOnly: protections.readOnly,
      ...(proxy?.port !== undefined ? { proxyPort: proxy.port } : {}),
    });
    const proxyUrl = proxy?.port !== undefined ? `http://127.0.0.1:${proxy.port}` : undefined;
    const argv = ['/bin/sh', '-c', `${limit.prelude}exec "$@"`, PRELUDE_NAME, input.program, '-p', profile, ...spec.argv];
    return { argv, env: sandboxEnv(spec.env, { tmpDir: input.privateTmp, ...(proxyUrl ? { proxyUrl } : {}), allowed }), ...(proxy ? { proxy } : {}), emptied: [], cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
