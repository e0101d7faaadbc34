/**
 * An MCP call's content as a tool result: text for the model (large results are offloaded by
 * the context manager like any bulk tool's), images when the model can see, a note for the rest.
 * What the transcript shows is escaped; a fault becomes one line for the user.
 */
import { escapeForDisplay } from '../policy/escape.js';
import type { ImageData } from '../providers/types.js';
import type { ToolResult } from '../tools/types.js';
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
  const first = escapeForDisplay((lines[0] ?? '').slice(0, 80));
  if (result.isError) return { ok: false, content: `${full} reported an error:\n${text}`, summary: `error: ${first}` };
  return { ok: true, content: text, summary: `${lines.length} line${lines.length === 1 ? '' : 's'}: ${first}`, ...(images.length ? { images } : {}) };
}

/** A failure before or during the call: the model gets the error, the user one line. */
export function faultResult(full: string, server: string, error: unknown): ToolResult {
  if (error instanceof McpFault && error.kind === 'closed' && error.message === 'interrupted') {
    return { ok: false, content: `${full} was interrupted.`, summary: 'interrupted', interrupted: true };
  }
  if (error instanceof RpcError) {
    const msg = escapeForDisplay(error.message);
    return { ok: false, content: `${full} failed: the server answered with error ${error.code}: ${error.message}`, summary: `error ${error.code}: ${msg.slice(0, 80)}` };
  }
  const msg = error instanceof Error ? error.message : String(error);
  const restart = error instanceof McpFault && error.kind !== 'auth' ? ' It will be restarted on the next call.' : '';
  return {
    ok: false,
    content: `${full} failed: MCP server ${server} ${msg}.${restart} Other tools still work; try another approach or call it again later.`,
    summary: escapeForDisplay(`MCP server ${server}: ${msg}`).slice(0, 120),
  };
}
