/** Permission decisions and approval requests: plain data shared by the policy, tools and view. */
import type { Level, ToolKind } from '../config/types.js';

/** A tagged decision with the reason it was reached (shown to the user and the model). */
export interface Decision {
  readonly level: Level;
  /** e.g. 'rule ~/work/generated write=allow', 'default write=confirm', 'denylist: curl'. */
  readonly reason: string;
  /**
   * Ask even when --allow or an [a]lways grant would otherwise skip the prompt: files that make
   * other programs run code, and paths that may be outside the project.
   */
  readonly alwaysAsk?: boolean;
}

/**
 * What an approval asks for: one of the policy's kinds, or 'mcp' — a tool of an MCP server, judged
 * by its server's allow/deny patterns (src/mcp/mcp-policy.ts): [a]lways grants that one tool for
 * the session, and --allow never covers it.
 */
export type ApprovalKind = ToolKind | 'mcp';

/** What the user is asked to approve. Every string here is already escaped for display. */
export interface ApprovalRequest {
  readonly id: string;
  readonly kind: ApprovalKind;
  readonly tool: string;
  /** The real destination (links and `..` resolved), for path kinds. */
  readonly path?: string;
  /** The command, control characters shown as escapes, for bash. */
  readonly command?: string;
  /** A unified diff, for write_file and edit_file. */
  readonly diff?: string;
  /** One line: 'edit src/a.ts (+3 -1)'. */
  readonly summary: string;
  /** Why it is being asked: the decision's reason. */
  readonly reason: string;
  /**
   * False when [a]lways can only answer this once: the path is outside the project, or a file in
   * it with several hard links (it may be outside too). Absent: decided by the path, as before.
   */
  readonly alwaysGrants?: boolean;
}

/** y / n / a (always, this kind, inside the project, this session) / q (stop the turn). */
export type ApprovalDecision = 'yes' | 'no' | 'always' | 'quit';

/** Answers approval requests; the engine implements it over its store, one-shot over a prompt. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;
