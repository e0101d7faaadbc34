/**
 * The command sandbox's interface: what a caller hands in (a command line, a folder, an
 * environment) and what it gets back (the argv and environment to spawn, and what to do after).
 * The bash tool uses it; the `!cmd` passthrough, hooks and MCP stdio servers are meant to as well.
 */

/** Which program does the sandboxing. */
export type SandboxEngine = 'bwrap' | 'sandbox-exec';

/** How the per-sandbox process limit is enforced (root is exempt from RLIMIT_NPROC). */
export type ProcessLimitMethod = 'rlimit' | 'cgroup' | 'none';

export type SandboxStatus =
  | {
      readonly state: 'on';
      readonly engine: SandboxEngine;
      /** e.g. "bubblewrap 0.8.0". */
      readonly version: string;
      readonly program: string;
      readonly processLimit: ProcessLimitMethod;
      /** Why the process limit is what it is, when it is not plain rlimit. */
      readonly processLimitNote?: string;
    }
  /** Turned off by the user (sandbox = "off"). */
  | { readonly state: 'off' }
  /** Wanted but it cannot start here: the cause and the fix, each one sentence. */
  | { readonly state: 'unavailable'; readonly cause: string; readonly fix: string };

export interface WrapSpec {
  /** The program and its arguments, as they would be spawned without a sandbox. */
  readonly argv: readonly string[];
  /** Real path of the folder it runs in (normally the project root). */
  readonly cwd: string;
  /** The environment it would get unsandboxed (keys already removed by the caller). */
  readonly env: NodeJS.ProcessEnv;
  /** Who runs it, for the audit lines of the hosts it contacts: "bash", "hook", "mcp:NAME". */
  readonly tool: string;
  /**
   * Files it must read outside the project (an MCP server's program and script): where they lie
   * under the host's /tmp, which the private /tmp would hide, they are shown read-only. Masks win.
   */
  readonly readable?: readonly string[];
}

export interface WrappedCommand {
  /** Spawn this instead of spec.argv (argv[0] is the program). */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** False when it runs unsandboxed (sandbox = "off", or "auto" where it cannot start). */
  readonly sandboxed: boolean;
  /**
   * Notes for the result of a command that failed, so the model can tell the user: a host the
   * network policy refused (naming sandbox_network), a write outside the writable folders.
   */
  failureNotes(output: string): string[];
  /** Replaces the contents of read-denied files in output with a marker. */
  redact(text: string): string;
  /** After the command and all its processes are gone: stops the proxy, removes the cgroup. */
  cleanup(): Promise<void>;
}

export interface CommandSandbox {
  /** As known now; until the startup probe has answered, "unavailable" saying so. */
  readonly status: SandboxStatus;
  /** The status once the probe has answered: read this before deciding how a command runs. */
  ready(): Promise<SandboxStatus>;
  /**
   * The command to spawn. Throws SandboxRefusal when sandbox = "required" and it cannot start;
   * otherwise never throws (an unsandboxed run is what "auto" means where it cannot start).
   */
  wrap(spec: WrapSpec): Promise<WrappedCommand>;
  /** Lines for /policy: the state, what is writable, masked, reachable. */
  describe(): string[];
  /** Stops session-wide parts (the private temp folder is removed). */
  dispose(): Promise<void>;
}

/** sandbox = "required" and no sandbox: the command is refused, with the cause and the fix. */
export class SandboxRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxRefusal';
  }
}
