/** ToolResult builders and the wrapper that turns any thrown error into a result. */
import { escapeForDisplay } from '../policy/escape.js';
import { ArgumentError } from './args.js';
import type { ToolResult } from './types.js';

export function success(content: string, summary: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ok: true, content, summary: escapeForDisplay(summary), ...extra };
}

export function failure(content: string, summary?: string): ToolResult {
  const firstLine = content.split('\n', 1)[0] ?? content;
  return { ok: false, content, summary: escapeForDisplay(summary ?? (firstLine.length > 100 ? `${firstLine.slice(0, 97)}...` : firstLine)) };
}

function errnoMessage(error: NodeJS.ErrnoException, subject: string): string | undefined {
  switch (error.code) {
    case 'ENOENT':
      return `${subject}: no such file or directory`;
    case 'EACCES':
    case 'EPERM':
      return `${subject}: permission denied by the operating system`;
    case 'EISDIR':
      return `${subject} is a directory`;
    case 'ENOTDIR':
      return `${subject}: a parent is not a directory`;
    case 'ENOSPC':
      return `${subject}: no space left on device`;
    case 'EROFS':
      return `${subject}: read-only file system`;
    default:
      return undefined;
  }
}

/** Runs a tool body; anything it throws becomes a clear failed result. */
export async function guarded(tool: string, subject: () => string, body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ArgumentError) return failure(`${tool}: ${error.message}`, `bad arguments: ${error.message}`);
    const err = error as NodeJS.ErrnoException;
    const known = typeof err?.code === 'string' ? errnoMessage(err, subject()) : undefined;
    return failure(`${tool} failed: ${known ?? (err instanceof Error ? err.message : String(error))}`);
  }
}
