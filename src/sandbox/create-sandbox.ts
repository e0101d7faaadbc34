/**
 * The session's command sandbox: probed once, a private temp folder for the session, and a wrap
 * for every command. The config is read at each wrap, so a /perm deny rule masks its path for the
 * next command. Callers: the bash tool now; the `!cmd` passthrough, hooks and MCP stdio servers
 * through the same `wrap`.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { writeAudit } from '../policy/audit-log.js';
import { deniedContentRedactor } from './denied-content.js';
import { removeAtExit, sweepDeadOwners } from './exit-cleanup.js';
import { describeSandbox, sandboxStartupNotes, type StartupNotes } from './describe-sandbox.js';
import type { EgressEvent } from './egress-proxy.js';
import { hostsNamedIn, networkNotes, writeNotes } from './failure-notes.js';
import { wrapForPlatform } from './platform-wrap.js';
import { probeSandbox, type ProbeResult } from './probe.js';
import { SandboxRefusal, type CommandSandbox, type SandboxStatus, type WrappedCommand, type WrapSpec } from './types.js';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionSandbox extends CommandSandbox {
  /** What to say at startup, once the probe has answered. */
  startupNotes(): Promise<StartupNotes>;
}

export interface SandboxOptions {
  /** The config in force now (slash commands replace it). */
  readonly config: () => Config;
  readonly env: Env;
  readonly sessionId: () => string;
  /** Names of variables whose values the audit log must not show. */
  readonly secretNames?: () => readonly string[];
  /** A probe result to use instead of probing (tests). */
  readonly probe?: ProbeResult;
}

let serial = 0;
/** The private temp folders: `lindwyrm-sandbox-<pid>-XXXXXX` (the PID finds the ones left by a SIGKILL). */
const TMP_PREFIX = 'lindwyrm-sandbox-';

/** Until the probe answers (it runs beside the session's start, which does not wait for it). */
const CHECKING: SandboxStatus = { state: 'unavailable', cause: 'the check whether it can start has not finished', fix: 'ask again in a moment' };

export function createSandbox(opts: SandboxOptions): SessionSandbox {
  const initial = opts.config();
  let probe: ProbeResult | undefined;
  const probing: Promise<ProbeResult> = (
    initial.sandbox.mode === 'off'
      ? Promise.resolve<ProbeResult>({ status: { state: 'off' } })
      : opts.probe
        ? Promise.resolve(opts.probe)
        : probeSandbox({ env: opts.env }).catch((error: unknown): ProbeResult => ({
            status: { state: 'unavailable', cause: `the check failed: ${error instanceof Error ? error.message : String(error)}`, fix: 'report it; meanwhile set sandbox = "off"' },
          }))
  ).then((result) => (probe = result));
  const home = opts.env['HOME'] || homedir();
  let privateTmp: Promise<string> | undefined;
  let forgetTmp = (): void => undefined;
  let lastEmptied: readonly string[] = [];

  const audit = (config: Config, tool: string, event: EgressEvent, reason: string): void => {
    void writeAudit(
      config.auditLog,
      {
        session: opts.sessionId(),
        tool,
        event: 'network',
        target: event.port === 0 ? event.host : `${event.host}:${event.port}`,
        decision: event.allowed ? 'allow' : 'deny',
        reason,
      },
      opts.secretNames?.() ?? [],
    );
  };

  const passthrough = async (spec: WrapSpec, config: Config): Promise<WrappedCommand> => {
    const redact = await deniedContentRedactor(config);
    return { argv: [...spec.argv], env: spec.env, cwd: spec.cwd, sandboxed: false, failureNotes: () => [], redact, cleanup: async () => undefined };
  };

  return {
    get status() {
      return probe?.status ?? CHECKING;
    },
    ready: async () => (await probing).status,
    startupNotes: async () => sandboxStartupNotes((await probing).status, opts.config().sandbox),
    describe: () => describeSandbox(probe?.status ?? CHECKING, opts.config().sandbox, lastEmptied),
    async wrap(spec) {
      const { status, limit } = await probing;
      const config = opts.config();
      if (config.sandbox.mode === 'off' || status.state === 'off') return passthrough(spec, config);
      if (status.state === 'unavailable') {
        if (config.sandbox.mode === 'required') {
          throw new SandboxRefusal(`sandbox = "required", but the sandbox cannot start here: ${status.cause}. Fix: ${status.fix}.`);
        }
        return passthrough(spec, config);
      }
      // Owner-only, removed when the session ends; every command of the session shares it.
      // Real, because macOS profiles match real paths (/private/var/folders/…, not /var/…).
      privateTmp ??= mkdtemp(path.join(tmpdir(), `${TMP_PREFIX}${process.pid}-`)).then(async (dir) => {
        void sweepDeadOwners(tmpdir(), TMP_PREFIX, 'tree');
        // A run ended by a signal never reaches dispose(): the folder goes when the process does.
        forgetTmp = removeAtExit(dir, 'tree');
        return realpath(dir);
      });
      const tmp = await privateTmp;
      const [redact, wrapped] = await Promise.all([
        deniedContentRedactor(config),
        wrapForPlatform({
          engine: status.engine,
          program: status.program,
          spec,
          config,
          privateTmp: tmp,
          home,
          appEnv: opts.env,
          limit: limit ?? { method: 'none', prepare: async () => ({ prelude: '', innerPrelude: '', cleanup: async () => undefined }) },
          onEgress: (event) => audit(config, spec.tool, event, event.allowed ? 'in sandbox_network' : 'not in sandbox_network'),
          serial: ++serial,
        }),
      ]);
      lastEmptied = wrapped.emptied;
      const allowed = config.sandbox.network;
      return {
        argv: wrapped.argv,
        env: wrapped.env,
        cwd: spec.cwd,
        sandboxed: true,
        redact,
        failureNotes: (output) => {
          const refused = wrapped.proxy?.refused() ?? [];
          const ctx = { allowed, refused, projectRoot: config.projectRoot };
          const network = networkNotes(output, ctx);
          // No proxy saw these (DNS, ssh, ping): the error output names them; they go to the log too.
          if (refused.length === 0 && network.length > 0) {
            for (const host of hostsNamedIn(output)) audit(config, spec.tool, { host, port: 0, allowed: false }, 'no network in the sandbox (named in the error output)');
          }
          return [...network, ...writeNotes(output, ctx)];
        },
        cleanup: () => wrapped.cleanup(),
      };
    },
    async dispose() {
      await probe?.limit?.settle?.();
      if (privateTmp === undefined) return;
      const dir = await privateTmp.catch(absent);
      if (dir !== undefined) await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(ignoreError('remove the sandbox\'s private temp folder'));
      forgetTmp();
    },
  };
}

/**
 * For callers with no session sandbox (a single tool run outside a session): unsandboxed, but
 * sandbox = "required" still refuses and read-denied contents are still cut from the output.
 */
export function noSandbox(config: () => Config): CommandSandbox {
  const status: SandboxStatus = { state: 'unavailable', cause: 'no sandbox was set up for this run', fix: 'run the command in a lindwyrm session' };
  return {
    status,
    ready: async () => status,
    describe: () => describeSandbox(status, config().sandbox),
    async wrap(spec) {
      if (config().sandbox.mode === 'required') throw new SandboxRefusal(`sandbox = "required", but ${status.cause}.`);
      const redact = await deniedContentRedactor(config());
      return { argv: [...spec.argv], env: spec.env, cwd: spec.cwd, sandboxed: false, failureNotes: () => [], redact, cleanup: async () => undefined };
    },
    dispose: async () => undefined,
  };
}
