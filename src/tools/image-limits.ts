/**
 * What an image declares before anyone decodes it: its size, its frames, and (PNG) what its
 * compressed chunks inflate to. A 40 KB file can declare 100,000 × 100,000 pixels, or hold a zlib
 * stream that inflates to gigabytes: providers refuse those or choke on them, and a decoder in
 * this process would run out of memory. Nothing here decodes pixels; compressed data is inflated
 * only to count its bytes, in small pieces, stopping at the cap.
 */
import { createInflate } from 'node:zlib';
import type { ImageData } from '../providers/types.js';

/** Anthropic refuses images over 8000 px a side. */
export const MAX_IMAGE_SIDE = 8000;
/** Pixels as decoded (width × height × bytes per pixel × frames). */
export const MAX_DECODED_BYTES = 20 * 1024 * 1024;
/** Providers take still images (OpenAI: "non-animated GIF"); an animation is refused. */
export const MAX_FRAMES = 1;
/** A PNG text or colour-profile chunk is small; one inflating past this is a bomb. */
const MAX_METADATA_INFLATED = 1024 * 1024;

export interface ImageFacts {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
  readonly bytesPerPixel: number;
}

/** Why the image cannot be sent, in words for the model, or undefined when it can. */
export async function checkImage(bytes: Buffer, mediaType: ImageData['mediaType']): Promise<string | undefined> {
  let facts: ImageFacts | string;
  try {
    facts = await readFacts(bytes, mediaType);
  } catch {
    facts = 'its header is cut short or malformed';
  }
  if (typeof facts === 'string') return facts;
  const { width, height, frames, bytesPerPixel } = facts;
  if (width === 0 || height === 0) return `it declares a size of ${width} × ${height} pixels`;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return `it is ${width} × ${height} pixels, over the ${MAX_IMAGE_SIDE} px a side models accept; scale it down first`;
  }
  if (frames > MAX_FRAMES) return `it is animated (${frames} frames); models are sent still images, so extract one frame first`;
  const decoded = width * height * bytesPerPixel * frames;
  if (decoded > MAX_DECODED_BYTES) {
    const mb = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MB`;
    return `it decodes to ${mb(decoded)} of pixels (${width} × ${height}), over the ${mb(MAX_DECODED_BYTES)} limit; scale it down first`;
  }
  return undefined;
}

function readFacts(b: Buffer, type: ImageData['mediaType']): Promise<ImageFacts | string> | ImageFacts | string {
  switch (type) {
    case 'image/png':
      return pngFacts(b);
    case 'image/jpeg':
      return jpegFacts(b);
    case 'image/gif':
      return gifFacts(b);
    case 'image/webp':
      return webpFacts(b);
  }
}

/** Bytes an inflated stream reaches, stopping once past `cap` (then cap + 1 or more). */
function inflatedSize(parts: readonly Buffer[], cap: number): Promise<number | 'corrupt'> {
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: 16 * 1024 });
    let total = 0;
    let done = false;
    const finish = (value: number | 'corrupt'): void => {
      if (done) return;
      done = true;
      inflate.destroy();
      resolve(value);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) finish(total);
    });
    inflate.on('end', () => finish(total));
    inflate.on('error', () => finish(total > cap ? total : 'corrupt'));
    for (const part of parts) {
      if (done) break;
      inflate.write(part);
    }
    inflate.end();
  });
}

const PNG_CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Raw (filtered) bytes a PNG's pixels take: every row of every interlace pass, with its filter byte. */
function pngRawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const row = (w: number): number => (w === 0 ? 0 : Math.ceil((w * bitsPerPixel) / 8) + 1);
  if (!interlaced) return height * row(width);
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) total += h * row(w);
  }
  return total;
}

async function pngFacts(b: Buffer): Promise<ImageFacts | string> {
  let pos = 8;
  let facts: ImageFacts | undefined;
  let interlaced = false;
  let bitsPerPixel = 0;
  const idat: Buffer[] = [];
  while (pos + 8 <= b.length) {
    const length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    const data = b.subarray(pos + 8, pos + 8 + length);
    if (data.length < length) return `its ${type} chunk is cut short`;
    pos += 12 + length;
    if (type === 'IHDR') {
      const channels = PNG_CHANNELS[data[9] ?? -1];
      const depth = data[8] ?? 0;
      if (channels === undefined) return `its header declares an unknown colour type (${data[9]})`;
      bitsPerPixel = channels * depth;
      interlaced = data[12] === 1;
      // A palette image decodes to RGB(A); the rest to their channels at their depth.
      const bytesPerPixel = data[9] === 3 ? 4 : Math.ceil(bitsPerPixel / 8);
      facts = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), frames: 1, bytesPerPixel };
    } else if (type === 'acTL' && facts !== undefined) {
      facts = { ...facts, frames: data.readUInt32BE(0) };
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'zTXt' || type === 'iCCP' || (type === 'iTXt' && compressedItxt(data))) {
      const start = type === 'iTXt' ? itxtTextStart(data) : data.indexOf(0) + 2;
      const size = await inflatedSize([data.subarray(start)], MAX_METADATA_INFLATED);
      if (size !== 'corrupt' && size > MAX_METADATA_INFLATED) return `its ${type} chunk inflates past ${MAX_METADATA_INFLATED / 1024} KB (a decompression bomb)`;
    } else if (type === 'IEND') break;
  }
  if (facts === undefined) return 'it has no IHDR header';
  // The pixel data must inflate to what the header declares, not more.
  const expected = pngRawSize(facts.width, facts.height, bitsPerPixel, interlaced);
  if (expected <= MAX_DECODED_BYTES * 2 && facts.width <= MAX_IMAGE_SIDE && facts.height <= MAX_IMAGE_SIDE) {
    const size = await inflatedSize(idat, expected);
    if (size !== 'corrupt' && size > expected) return `its pixel data inflates past the ${facts.width} × ${facts.height} its header declares (a decompression bomb)`;
  }
  return facts;
}

function compressedItxt(data: Buffer): boolean {
  const nul = data.indexOf(0);
  return nul >= 0 && data[nul + 1] === 1;
}

/** keyword NUL flag method language NUL translated NUL text. */
function itxtTextStart(data: Buffer): number {
  const keyword = data.indexOf(0);
  const language = data.indexOf(0, keyword + 3);
  const translated = data.indexOf(0, language + 1);
  return translated + 1;
}

function jpegFacts(b: Buffer): ImageFacts | string {
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return 'its markers are malformed';
    const marker = b[pos + 1] as number;
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    const length = b.readUInt16BE(pos + 2);
    // Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7), frames: 1, bytesPerPixel: b[pos + 9] ?? 3 };
    }
    if (marker === 0xda || marker === 0xd9) break;
    pos += 2 + length;
  }
  return 'it has no frame header (SOF)';
}

function skipSubBlocks(b: Buffer, pos: number): number {
  while (pos < b.length) {
    const size = b[pos] as number;
    pos += 1 + size;
    if (size === 0) return pos;
  }
  throw new Error('cut short');
}

function gifFacts(b: Buffer): ImageFacts | string {
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  const packed = b[10] as number;
  let pos = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let frames = 0;
  while (pos < b.length) {
    const kind = b[pos];
    if (kind === 0x3b) break;
    if (kind === 0x21) {
      pos = skipSubBlocks(b, pos + 2);
    } else if (kind === 0x2c) {
      frames++;
      const fw = b.readUInt16LE(pos + 5);
      const fh = b.readUInt16LE(pos + 7);
      if (fw > MAX_IMAGE_SIDE || fh > MAX_IMAGE_SIDE) return `a frame of it is ${fw} × ${fh} pixels, over the ${MAX_IMAGE_SIDE} px a side models accept`;
      const local = b[pos + 9] as number;
      pos += 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0);
      pos = skipSubBlocks(b, pos + 1);
    } else return 'its block structure is malformed';
  }
  return { width, height, frames: Math.max(1, frames), bytesPerPixel: 4 };
}

function webpFacts(b: Buffer): ImageFacts | string {
  let pos = 12;
  let facts: ImageFacts | undefined;
  let frames = 0;
  while (pos + 8 <= b.length) {
    const fourcc = b.toString('latin1', pos, pos + 4);
    const size = b.readUInt32LE(pos + 4);
    const data = b.subarray(pos + 8, pos + 8 + size);
    pos += 8 + size + (size % 2);
    if (fourcc === 'VP8X') {
      const alpha = ((data[0] ?? 0) & 0x10) !== 0;
      facts = { width: data.readUIntLE(4, 3) + 1, height: data.readUIntLE(7, 3) + 1, frames: 1, bytesPerPixel: alpha ? 4 : 3 };
    } else if (fourcc === 'ANMF') {
      frames++;
    } else if (fourcc === 'VP8 ' && facts === undefined) {
      if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return 'its VP8 frame header is malformed';
      facts = { width: data.readUInt16LE(6) & 0x3fff, height: data.readUInt16LE(8) & 0x3fff, frames: 1, bytesPerPixel: 3 };
    } else if (fourcc === 'VP8L' && facts === undefined) {
      if (data[0] !== 0x2f) return 'its VP8L header is malformed';
      const bits = data.readUInt32LE(1);
      facts = { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, frames: 1, bytesPerPixel: 4 };
    }
  }
  if (facts === undefined) return 'it has no VP8, VP8L or VP8X header';
  return frames > 0 ? { ...facts, frames } : facts;
}
