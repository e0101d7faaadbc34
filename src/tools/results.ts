/** ToolResult builders, and what a result says about how the call went. */
import { escapeForDisplay } from '../policy/escape.js';
import type { FailureKind, ToolResult } from './types.js';

export function success(content: string, summary: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ok: true, content, summary: escapeForDisplay(summary), ...extra };
}

/** A failed call: `content` for the model, a one-line summary (default: its first line), and why. */
export function failure(content: string, summary?: string, kind: FailureKind = 'failed'): ToolResult {
  const firstLine = content.split('\n', 1)[0] ?? content;
  return {
    ok: false,
    failure: kind,
    content,
    summary: escapeForDisplay(summary ?? (firstLine.length > 100 ? `${firstLine.slice(0, 97)}...` : firstLine)),
  };
}

/** The same, with the summary taken from the content. */
export function failed(kind: FailureKind, content: string): ToolResult {
  return failure(content, undefined, kind);
}

/**
 * How a call went, for everything downstream (transcript, audit, one-shot, hooks): undefined when
 * it succeeded. Results of tools that predate the field count by their flags.
 */
export function failureOf(result: ToolResult): FailureKind | undefined {
  if (result.interrupted === true || result.quit === true) return 'interrupted';
  if (result.ok) return undefined;
  return result.failure ?? 'failed';
}

export function errnoFailure(error: NodeJS.ErrnoException, subject: string): { message: string; kind: FailureKind } | undefined {
  switch (error.code) {
    case 'ENOENT':
      return { message: `${subject}: no such file or directory`, kind: 'not_found' };
    case 'EACCES':
    case 'EPERM':
      return { message: `${subject}: permission denied by the operating system`, kind: 'failed' };
    case 'EISDIR':
      return { message: `${subject} is a directory`, kind: 'failed' };
    case 'ENOTDIR':
      return { message: `${subject}: a parent is not a directory`, kind: 'not_found' };
    case 'ENOSPC':
      return { message: `${subject}: no space left on device`, kind: 'failed' };
    case 'EROFS':
      return { message: `${subject}: read-only file system`, kind: 'failed' };
    default:
      return undefined;
  }
}
