/** view_image: shows an image to a model that can see; the type comes from the bytes, not the name. */
import { open, stat } from 'node:fs/promises';
import type { ImageData } from '../providers/types.js';
import { arg } from './args.js';
import { defineTool } from './define-tool.js';
import { openGated } from './path-access.js';
import { failure, success } from './results.js';
import { checkImage } from './image-limits.js';
import { formatBytes } from './text-file.js';
import { fsPath } from '../io/byte-names.js';

/** Providers refuse larger images (Anthropic: 5 MB per image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function sniffImage(bytes: Uint8Array): ImageData['mediaType'] | undefined {
  const at = (i: number) => bytes[i];
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 && at(4) === 0x0d && at(5) === 0x0a && at(6) === 0x1a && at(7) === 0x0a) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export const viewImageTool = defineTool({
  name: 'view_image',
  description: 'Look at an image file (PNG, JPEG, GIF or WebP): a screenshot, diagram or chart.',
  args: { path: arg.string('Image path, relative to the project root or absolute.', { nonEmpty: true }) },
  kind: 'read',
  offered: (session) => session.vision,
  async run(args, ctx) {
    if (!ctx.vision) return failure('view_image: the current model cannot see images (set vision = true on a preset whose model can).', undefined, 'unavailable');
    const opened = await openGated(ctx, 'view_image', args.path, { kind: 'read', summary: (shown) => `view image ${shown}`, want: 'file', wrongType: 'is a folder.' });
    if (!opened.ok) return opened.result;
    const { access, shown } = opened;
    const size = (await stat(fsPath(access.resolved.realPath))).size;
    if (size > MAX_IMAGE_BYTES) {
      return failure(`view_image: ${shown} is ${formatBytes(size)}; the limit is ${formatBytes(MAX_IMAGE_BYTES)}. Scale it down first.`);
    }
    const handle = await open(fsPath(access.resolved.realPath), 'r');
    let bytes: Buffer;
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    const mediaType = sniffImage(bytes);
    if (mediaType === undefined) return failure(`view_image: ${shown} is not a PNG, JPEG, GIF or WebP image (judged from its contents).`);
    // Declared size, frames and inflated chunks are checked before anything is decoded or sent.
    const refused = await checkImage(bytes, mediaType);
    if (refused !== undefined) return failure(`view_image: ${shown} was not sent: ${refused}.`, `refused image ${shown}`);
    return success(`Image ${shown} (${mediaType}, ${formatBytes(size)}).`, `image ${shown}`, {
      images: [{ mediaType, base64: bytes.toString('base64') }],
    });
  },
});
