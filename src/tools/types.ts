/** The tool boundary: every tool describes itself as data and reports failures as results. */
import type { Config, ToolKind } from '../config/types.js';
import type { ImageData, JsonSchemaObject } from '../providers/types.js';
import type { Approver } from '../policy/types.js';
import type { SessionGrants } from '../policy/session-grants.js';
import type { BuildFileWatch } from '../policy/build-file-watch.js';
import type { Args } from './args.js';
import type { RunOutcome, ShellRunOptions } from './process-group.js';
import type { CommandSandbox } from '../sandbox/types.js';

/**
 * Why a call failed, as data: other code (the transcript's status, the audit log, one-shot's
 * summary, hooks) reads this, never the result's text.
 * - denied: the policy, --read-only or the user said no
 * - invalid_args: the arguments were missing, mistyped or named nothing unique
 * - not_found: the file, folder, ref, symbol or tool does not exist
 * - timeout: the call ran out of time
 * - interrupted: the user stopped it (an interrupt, [q]uit at a prompt)
 * - unavailable: the tool cannot work right now (the code map could not be built)
 * - failed: anything else (a command's non-zero exit, an I/O error, a bug in a plugin)
 */
export type FailureKind = 'denied' | 'invalid_args' | 'not_found' | 'timeout' | 'interrupted' | 'unavailable' | 'failed';

/**
 * What a tool needs the policy to allow, and so whether it is audited and withheld under
 * --read-only: read, write, delete and bash are the policy's kinds; 'other' is audited but not
 * path-gated (a protocol tool, a skill); 'none' touches nothing (read_offloaded).
 */
export type ToolCallKind = ToolKind | 'other' | 'none';

/** What a call that changed a file did: the transcript's one-line summary and the diff behind it. */
export interface FileChange {
  readonly verb: 'edit' | 'create' | 'write';
  /** The path as shown to the user (escaped). */
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** The unified diff; absent where it was not kept (a resumed session's history has only the counts). */
  readonly diff?: string;
}

export interface ToolResult {
  /** False for any failure: bad arguments, denial, missing file, timeout, non-zero exit. */
  readonly ok: boolean;
  /** Why it failed (absent when ok; a failure without one counts as 'failed'). */
  readonly failure?: FailureKind;
  /** The resolved path or escaped command the call acted on, for the audit log. */
  readonly target?: string;
  /** What the model sees. */
  readonly content: string;
  /**
   * The complete result when `content` was clipped for the context (max_tool_output_chars): what
   * the offload snapshot keeps, so the snapshot is never missing what the context could not hold.
   */
  readonly whole?: string;
  /** Set when even `whole` had to be cut (the on-disk cap): says how much went, for the stub. */
  readonly wholeCut?: string;
  readonly images?: readonly ImageData[];
  /** A one-line summary for the transcript ('Edited prices.py', 'exit 0, 12 lines'). */
  readonly summary: string;
  /** True when the call was cut short by an interrupt. */
  readonly interrupted?: boolean;
  /** True when the user answered [q]uit at a prompt: the engine stops the turn. */
  readonly quit?: boolean;
  /** Set by write_file and edit_file when they changed a file. */
  readonly change?: FileChange;
}

/** Resolves offloaded results by ref (the context manager's store implements it). */
export interface OffloadReader {
  /** An offloaded result (off_0001) or an archived turn (arc_0001). */
  read(ref: string): Promise<string | undefined>;
  /** The turns summaries replaced, oldest first (recall searches them); absent: none are kept. */
  archived?(): Promise<readonly { readonly ref: string; readonly text: string }[]>;
}

export interface ToolContext {
  readonly config: Config;
  readonly projectRoot: string;
  readonly sessionId: string;
  readonly signal: AbortSignal;
  readonly readOnly: boolean;
  /** Kinds pre-approved for this run by --allow. */
  readonly preApproved: ReadonlySet<ToolKind>;
  /** Session grants from answering [a]lways (kinds inside the project, bash grants). Added to by the gate. */
  readonly sessionGrants: SessionGrants;
  /**
   * Appends a rule block to the user config ([s]ave at an approval) and tells the user how it
   * went. Absent where nothing may be saved (tests, no user config).
   */
  readonly saveRule?: (block: string) => Promise<void>;
  readonly approve: Approver;
  readonly offload: OffloadReader;
  /** Live output (bash), already escaped, one or more whole lines at a time. */
  readonly onOutput?: (text: string) => void;
  /** The build files changed this session, for allowlisted commands that run them (build-file-watch.ts). */
  readonly buildFiles?: BuildFileWatch;
  /** Called after a tool changed a file, so indexes (the code map) can refresh it. */
  readonly onFileChanged?: (absolutePath: string) => void;
  readonly vision: boolean;
  /**
   * This call's note for the audit log: the gate writes the target it judged here (the registry
   * makes one per call). Tests that call a tool directly may leave it out.
   */
  readonly audit?: AuditNote;
  /**
   * Where file text is read and written when someone else owns the files (an editor over ACP,
   * which has unsaved buffers). The policy has already judged the resolved path; absent: the disk.
   */
  readonly files?: FileAccess;
  /** Where bash commands run when someone else owns the terminal (ACP); absent: a local process group. */
  readonly commands?: CommandRunner;
  /** The session's command sandbox; without one, bash runs unsandboxed (or refuses, if required). */
  readonly sandbox?: CommandSandbox;
}

export interface AuditNote {
  target?: string;
}

export interface FileAccess {
  /** The text of a file at its real, absolute path. Throws when it cannot be read. */
  readText(absolutePath: string): Promise<string>;
  /** Replaces (or creates) the file's text. Throws when it cannot be written. */
  writeText(absolutePath: string, content: string): Promise<void>;
}

/** Runs a command somewhere else than a local process group, with the same options and outcome. */
export interface CommandRunner {
  run(opts: ShellRunOptions): Promise<Omit<RunOutcome, 'pid' | 'exitSignal'> & { readonly exitSignal: NodeJS.Signals | string | null }>;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  /** The permission kind it needs; 'none' for tools that touch nothing (read_offloaded). */
  readonly kind: ToolCallKind;
  /** Eligible for offloading on arrival (read_file, bash, grep, glob, list_dir). */
  readonly bulk: boolean;
  /** Whether calls may change something; default: from `kind` (write, delete, bash do). */
  readonly changes?: boolean;
  /** The call's detail for the transcript ('src/a.ts' → "edit_file src/a.ts"), from its raw input. */
  title?(input: Args): string | undefined;
  /** The call's whole text for the transcript and /export when the title clips it (bash's command), raw. */
  detail?(input: Args): string | undefined;
  /** Whether a session offers it at all (view_image needs a model that can see). Default yes. */
  offered?(session: { readonly vision: boolean }): boolean;
  /**
   * Callable but left out of the schemas: MCP tools deferred behind the search tools, which the
   * model finds with mcp_search_tools and calls by name.
   */
  readonly hidden?: boolean;
  /** Never throws: every failure is a ToolResult with ok = false. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
