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
  /**
   * An allowlisted command asked about again because a build file it runs changed this session
   * (build-file-watch.ts): a grant narrower than the whole bash kind must not cover it.
   */
  readonly askedAgain?: boolean;
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
  /**
   * For bash: exactly what [a]lways grants for the rest of the session (`npm test …`, `rm x`), and
   * the parts of the command it cannot cover, with why. Absent for the path kinds.
   */
  readonly always?: AlwaysPreview;
  /** [e]very command for the rest of the session is offered (bash). */
  readonly every?: boolean;
  /** [s]ave is offered: the block that would be appended to the user config, and which file. */
  readonly save?: { readonly file: string; readonly block: string };
  /** Things the person approving must know about the text (one line each, escaped). */
  readonly warnings?: readonly string[];
  /** What the text hides or disguises, one line each (mixed-script words); escaped. */
  readonly flags?: readonly string[];
  /** For the title: 'contains control characters: ESC ×2, CR' (they are shown as escapes). */
  readonly titleNote?: string;
  /**
   * The command and diff with lines too long to read clipped (head and tail kept), for the first
   * view; `command` and `diff` keep the whole text, one key away. Absent when nothing was clipped.
   */
  readonly clipped?: { readonly command?: string; readonly diff?: string; readonly note: string };
}

export interface AlwaysPreview {
  /** What is granted, one entry per grant: 'npm test …' (then plain arguments), 'rm x' (exactly). */
  readonly grants: readonly { readonly text: string; readonly exact: boolean }[];
  /** Parts no grant can cover: 'env X=1 seq 1 3: env runs another command (a wrapper)'. */
  readonly refused: readonly string[];
}

/**
 * y (yes, once) / n (no) / a (always: this kind inside the project, or for bash the grants the
 * request's `always` lists) / every (every command this session, bash) / save (always, and the
 * rule saved in the user config) / q (stop the turn).
 */
export type ApprovalDecision = 'yes' | 'no' | 'always' | 'every' | 'save' | 'quit';

/** An answer with words for the model: a no with what to do instead. */
export interface ApprovalAnswer {
  readonly decision: ApprovalDecision;
  /** What the user typed, sent to the model with the denial. */
  readonly note?: string;
}

export type ApprovalReply = ApprovalDecision | ApprovalAnswer;

export function answerOf(reply: ApprovalReply): ApprovalAnswer {
  return typeof reply === 'string' ? { decision: reply } : reply;
}

/** Whether the answer lets the call go ahead. */
export function approves(decision: ApprovalDecision): boolean {
  return decision === 'yes' || decision === 'always' || decision === 'every' || decision === 'save';
}

/** Answers approval requests; the engine implements it over its store, one-shot over a prompt. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalReply>;
