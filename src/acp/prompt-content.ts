/**
 * An ACP prompt (content blocks) as one user turn: text as it is, resource links as mentions the
 * model can read with its tools, embedded resources (an editor's selection or open file) inline,
 * images for a preset that can see. Anything else is refused with a reason, not dropped.
 */
import type { ImageData } from '../providers/types.js';
import { RPC, RpcError } from './json-rpc.js';

const MEDIA = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** file:///a/b.ts → /a/b.ts; other URIs as they are. */
function shownUri(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

export function promptToTurn(prompt: unknown, opts: { vision: boolean }): { text: string; images: ImageData[] } {
  if (!Array.isArray(prompt)) throw new RpcError(RPC.invalidParams, 'prompt must be an array of content blocks');
  const parts: string[] = [];
  const images: ImageData[] = [];
  for (const block of prompt) {
    if (!isObject(block)) throw new RpcError(RPC.invalidParams, 'every prompt block must be an object');
    switch (block['type']) {
      case 'text':
        if (typeof block['text'] !== 'string') throw new RpcError(RPC.invalidParams, 'a text block needs "text"');
        parts.push(block['text']);
        break;
      case 'resource_link': {
        const uri = String(block['uri'] ?? '');
        if (!uri) throw new RpcError(RPC.invalidParams, 'a resource_link needs "uri"');
        parts.push(`@${shownUri(uri)}`);
        break;
      }
      case 'resource': {
        const res = block['resource'];
        if (!isObject(res) || typeof res['uri'] !== 'string') throw new RpcError(RPC.invalidParams, 'a resource block needs resource.uri');
        if (typeof res['text'] !== 'string') {
          parts.push(`@${shownUri(res['uri'])} (binary content not included)`);
          break;
        }
        parts.push(`<context uri="${shownUri(res['uri'])}">\n${res['text']}\n</context>`);
        break;
      }
      case 'image': {
        if (!opts.vision) throw new RpcError(RPC.invalidParams, 'this preset cannot see images (vision = false); switch to one that can with /model');
        const mime = String(block['mimeType'] ?? '');
        if (!MEDIA.has(mime) || typeof block['data'] !== 'string') {
          throw new RpcError(RPC.invalidParams, 'an image block needs base64 "data" and a mimeType of image/png, jpeg, gif or webp');
        }
        images.push({ mediaType: mime as ImageData['mediaType'], base64: block['data'] });
        break;
      }
      default:
        throw new RpcError(RPC.invalidParams, `prompt blocks of type ${JSON.stringify(block['type'])} are not supported (text, resource_link, resource, image are)`);
    }
  }
  const text = parts.join('\n');
  if (!text.trim() && images.length === 0) throw new RpcError(RPC.invalidParams, 'the prompt is empty');
  return { text, images };
}
