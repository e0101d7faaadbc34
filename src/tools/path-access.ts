/** Path tools' common steps: resolve, decide, ask, and re-check right before the operation. */
import path from 'node:path';
import type { PathKind } from '../config/types.js';
import { authorize, decideForPath, type GateResult } from '../policy/gate.js';
import { escapeFileName, unescapeFileName } from '../policy/escape.js';
import { resolvePath, type ResolvedPath } from '../policy/resolve-path.js';
import type { Decision } from '../policy/types.js';
import { arg } from './args.js';
import { failure } from './results.js';
import type { ToolContext, ToolResult } from './types.js';

/** The `path` argument of the file tools. */
export const FILE_PATH_ARG = arg.string('File path, relative to the project root or absolute.', { nonEmpty: true });

export interface PathAccess {
  readonly resolved: ResolvedPath;
  readonly decision: Decision;
}

export async function accessPath(
  ctx: ToolContext,
  kind: PathKind,
  input: string,
  opts: { followFinal?: boolean } = {},
): Promise<PathAccess> {
  const resolved = await resolveTyped(input, ctx.projectRoot, opts);
  return { resolved, decision: decideForPath(ctx, kind, resolved) };
}

/**
 * The path as typed; when nothing is there and it holds the escapes tool results show for odd
 * names (`\x1b`, `\u202e`, `\n`), the file with the unescaped name, if that one exists. Every
 * check then runs on the path found, as on any other.
 */
async function resolveTyped(input: string, root: string, opts: { followFinal?: boolean }): Promise<ResolvedPath> {
  const typed = await resolvePath(input, root, { followFinal: opts.followFinal });
  if (typed.exists || !input.includes('\\')) return typed;
  const raw = unescapeFileName(input);
  if (raw === input) return typed;
  const named = await resolvePath(raw, root, { followFinal: opts.followFinal });
  return named.exists ? named : typed;
}

/** Project-relative when inside, absolute otherwise: what the model and the user should read. */
export function displayPath(resolved: ResolvedPath): string {
  if (!resolved.inside) return resolved.realPath;
  const rel = path.relative(resolved.root, resolved.realPath);
  return rel === '' ? '.' : rel;
}

/** Why a path that exists cannot be opened as a file, or undefined when it can. */
export function specialFileError(tool: string, resolved: ResolvedPath): string | undefined {
  if (!resolved.isSpecial) return undefined;
  return `${tool}: ${displayPath(resolved)} is not a regular file (a pipe, socket or device); it is not opened, since reading it could block or never end.`;
}

export function gatePath(
  ctx: ToolContext,
  tool: string,
  kind: PathKind,
  access: PathAccess,
  summary: string,
  diff?: string,
): Promise<GateResult> {
  // The summary names the path as displayPath gives it; a newline or tab in it is shown escaped,
  // as the approval's path is, so one name never reads as two lines.
  const shown = displayPath(access.resolved);
  const escaped = escapeFileName(shown);
  const line = escaped === shown ? summary : summary.split(shown).join(escaped);
  return authorize(ctx, { kind, tool, decision: access.decision, path: access.resolved, summary: line, diff });
}

export interface OpenOptions {
  readonly kind: PathKind;
  /** The approval's one line for the path as shown: (shown) => `read ${shown}`. */
  readonly summary: (shown: string) => string;
  /** What must be there: a file (not a folder), a folder, or anything that exists. */
  readonly want: 'file' | 'folder' | 'any';
  /** Added after "<tool>: <path> does not exist." ('Use glob or list_dir to find the right path.'). */
  readonly missingHint?: string;
  /** The rest of the sentence when it is the other type ('is a directory; use list_dir …'). */
  readonly wrongType?: string;
}

export type Opened = { readonly ok: true; readonly access: PathAccess; readonly shown: string } | { readonly ok: false; readonly result: ToolResult };

/**
 * The steps every path tool starts with, in this order: resolve, ask the policy (and the user),
 * then check that what is there is what the tool can open. A refusal is the result to return.
 */
export async function openGated(ctx: ToolContext, tool: string, typed: string, opts: OpenOptions): Promise<Opened> {
  const access = await accessPath(ctx, opts.kind, typed);
  const shown = displayPath(access.resolved);
  const gate = await gatePath(ctx, tool, opts.kind, access, opts.summary(shown));
  if (!gate.ok) return gate;
  const refuse = (content: string, kind: 'not_found' | 'failed' = 'failed'): Opened => ({ ok: false, result: failure(content, undefined, kind) });
  if (!access.resolved.exists) return refuse(`${tool}: ${shown} does not exist.${opts.missingHint ? ` ${opts.missingHint}` : ''}`, 'not_found');
  if (opts.want === 'file' && access.resolved.isDirectory) return refuse(`${tool}: ${shown} ${opts.wrongType ?? 'is a directory.'}`);
  if (opts.want === 'folder' && !access.resolved.isDirectory) return refuse(`${tool}: ${shown} ${opts.wrongType ?? 'is not a folder.'}`);
  const special = specialFileError(tool, access.resolved);
  if (special !== undefined) return refuse(special);
  return { ok: true, access, shown };
}

/**
 * Check, then use: resolve again just before writing or deleting. If the path now leads somewhere
 * else (a link swapped in while the user was reading the prompt), the operation is refused.
 */
export async function recheckPath(
  ctx: ToolContext,
  input: string,
  approved: ResolvedPath,
  opts: { followFinal?: boolean } = {},
): Promise<string | undefined> {
  const now = await resolveTyped(input, ctx.projectRoot, opts);
  if (now.realPath !== approved.realPath) {
    return `refused: ${input} now resolves to ${now.realPath}, not ${approved.realPath} as approved (a link changed); nothing was written`;
  }
  if (now.multiLinked && !approved.multiLinked) {
    return `refused: ${input} gained another hard link since it was approved; nothing was written`;
  }
  return undefined;
}
