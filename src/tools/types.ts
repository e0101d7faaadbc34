/** The tool boundary: every tool describes itself as data and reports failures as results. */
import type { Config, ToolKind } from '../config/types.js';
import type { ImageData, JsonSchemaObject } from '../providers/types.js';
import type { Approver } from '../policy/types.js';

export interface ToolResult {
  /** False for any failure: bad arguments, denial, missing file, timeout, non-zero exit. */
  readonly ok: boolean;
  /** What the model sees. */
  readonly content: string;
  readonly images?: readonly ImageData[];
  /** A one-line summary for the transcript ('Edited prices.py', 'exit 0, 12 lines'). */
  readonly summary: string;
  /** True when the call was cut short by an interrupt. */
  readonly interrupted?: boolean;
  /** True when the user answered [q]uit at a prompt: the engine stops the turn. */
  readonly quit?: boolean;
}

/** Resolves offloaded results by ref (the context manager's store implements it). */
export interface OffloadReader {
  read(ref: string): Promise<string | undefined>;
}

export interface ToolContext {
  readonly config: Config;
  readonly projectRoot: string;
  readonly sessionId: string;
  readonly signal: AbortSignal;
  readonly readOnly: boolean;
  /** Kinds pre-approved for this run by --allow. */
  readonly preApproved: ReadonlySet<ToolKind>;
  /** Session grants from answering [a]lways (inside the project only). Mutated by the policy layer. */
  readonly sessionGrants: Set<ToolKind>;
  readonly approve: Approver;
  readonly offload: OffloadReader;
  /** Live output (bash), already escaped, one or more whole lines at a time. */
  readonly onOutput?: (text: string) => void;
  /** Called after a tool changed a file, so indexes (the code map) can refresh it. */
  readonly onFileChanged?: (absolutePath: string) => void;
  readonly vision: boolean;
  /**
   * Where file text is read and written when someone else owns the files (an editor over ACP,
   * which has unsaved buffers). The policy has already judged the resolved path; absent: the disk.
   */
  readonly files?: FileAccess;
  /** Where bash commands run when someone else owns the terminal (ACP); absent: a local process group. */
  readonly commands?: CommandRunner;
}

export interface FileAccess {
  /** The text of a file at its real, absolute path. Throws when it cannot be read. */
  readText(absolutePath: string): Promise<string>;
  /** Replaces (or creates) the file's text. Throws when it cannot be written. */
  writeText(absolutePath: string, content: string): Promise<void>;
}

export interface CommandRunner {
  run(opts: {
    readonly shell: string;
    readonly command: string;
    readonly cwd: string;
    readonly env: NodeJS.ProcessEnv;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
    readonly onData: (text: string) => void;
  }): Promise<{ exitCode: number | null; exitSignal: NodeJS.Signals | string | null; timedOut: boolean; interrupted: boolean }>;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  /** The permission kind it needs; 'none' for tools that touch nothing (read_offloaded). */
  readonly kind: ToolKind | 'none';
  /** Eligible for offloading on arrival (read_file, bash, grep, glob, list_dir). */
  readonly bulk: boolean;
  /** Never throws: every failure is a ToolResult with ok = false. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
