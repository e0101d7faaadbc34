/**
 * An MCP call's content as a tool result: text for the model (large results are offloaded by
 * the context manager like any bulk tool's), images when the model can see, a note for the rest.
 * What the transcript shows is escaped; a fault becomes one line for the user.
 */
import { escapeForDisplay } from '../policy/escape.js';
import type { ImageData } from '../providers/types.js';
import { failure, success } from '../tools/results.js';
import type { FailureKind, ToolResult } from '../tools/types.js';
import { McpFault, RpcError, type McpCallResult, type McpContent } from './protocol.js';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes > 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

export function contentText(items: readonly McpContent[], vision: boolean, images: ImageData[]): string {
  const parts: string[] = [];
  for (const c of items) {
    if (c.type === 'text') parts.push(c.text);
    else if (c.type === 'image' && vision && IMAGE_TYPES.has(c.mimeType)) {
      images.push({ mediaType: c.mimeType as ImageData['mediaType'], base64: c.data });
      parts.push(`[image ${c.mimeType}, ${sizeOf(c.data)}, attached]`);
    } else if (c.type === 'image' || c.type === 'audio') parts.push(`[${c.type} ${c.mimeType}, ${sizeOf(c.data)}, not shown]`);
    else if (c.type === 'resource') {
      const r = c.resource;
      parts.push(typeof r.text === 'string' ? `[resource ${r.uri}]\n${r.text}` : `[binary resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}${r.blob ? `, ${sizeOf(r.blob)}` : ''}]`);
    } else if (c.type === 'resource_link') parts.push(`[resource link ${c.name ? `${c.name}: ` : ''}${c.uri}] (read it with read_resource)`);
    else parts.push(`[${String((c as { type: string }).type)} content]`);
  }
  return parts.join('\n');
}

export function toToolResult(full: string, result: McpCallResult, vision: boolean, onOutput?: (text: string) => void): ToolResult {
  const images: ImageData[] = [];
  let text = contentText(result.content, vision, images);
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent, null, 2);
  if (text === '') text = '(no content)';
  // The transcript shows the first lines, escaped: a server's text is as untrusted as a file's.
  const lines = text.split('\n');
  onOutput?.(escapeForDisplay(lines.slice(0, 12).join('\n') + (lines.length > 12 ? `\n… ${lines.length - 12} more lines` : '')));
  const first = (lines[0] ?? '').slice(0, 80);
  if (result.isError) return failure(`${full} reported an error:\n${text}`, `error: ${first}`);
  return success(text, `${lines.length} line${lines.length === 1 ? '' : 's'}: ${first}`, images.length ? { images } : {});
}

/** JSON-RPC's own error codes, as the failure kinds other code reads. */
const RPC_FAILURES: Readonly<Record<number, FailureKind>> = { [-32602]: 'invalid_args', [-32601]: 'not_found', [-32002]: 'not_found' };

/** How a fault fails: a server that cannot be reached is unavailable; a call out of time timed out. */
function faultKind(fault: McpFault): FailureKind {
  if (fault.kind === 'timeout') return 'timeout';
  if (fault.kind === 'start' || fault.kind === 'auth') return 'unavailable';
  return 'failed';
}

/** A failure before or during the call: the model gets the error, the user one line. */
export function faultResult(full: string, server: string, error: unknown): ToolResult {
  if (error instanceof McpFault && error.kind === 'closed' && error.message === 'interrupted') {
    return { ...failure(`${full} was interrupted.`, 'interrupted', 'interrupted'), interrupted: true };
  }
  if (error instanceof RpcError) {
    return failure(`${full} failed: the server answered with error ${error.code}: ${error.message}`, `error ${error.code}: ${error.message.slice(0, 80)}`, RPC_FAILURES[error.code] ?? 'failed');
  }
  const msg = error instanceof Error ? error.message : String(error);
  const restart = error instanceof McpFault && error.kind !== 'auth' ? ' It will be restarted on the next call.' : '';
  return failure(
    `${full} failed: MCP server ${server} ${msg}.${restart} Other tools still work; try another approach or call it again later.`,
    `MCP server ${server}: ${msg}`.slice(0, 120),
    error instanceof McpFault ? faultKind(error) : 'failed',
  );
}
