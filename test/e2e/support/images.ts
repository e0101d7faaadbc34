/** Hand-built image files for view_image's checks: valid ones, and ones that lie about themselves. */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export interface PngSpec {
  readonly width: number;
  readonly height: number;
  /** 2 = RGB, 6 = RGBA. */
  readonly colorType?: number;
  /** The IDAT payload; default: the real pixels of a grey image of that size (small sizes only). */
  readonly idat?: Buffer;
  /** Chunks between IHDR and IDAT (acTL, zTXt …). */
  readonly extra?: readonly Buffer[];
}

export function png(spec: PngSpec): Buffer {
  const colorType = spec.colorType ?? 2;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(spec.width, 0);
  ihdr.writeUInt32BE(spec.height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const channels = colorType === 6 ? 4 : 3;
  const idat = spec.idat ?? deflateSync(Buffer.alloc(spec.height * (1 + spec.width * channels), 0x80));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(spec.extra ?? []),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An APNG animation control chunk: `frames` frames. */
export function actl(frames: number): Buffer {
  const data = Buffer.alloc(8);
  data.writeUInt32BE(frames, 0);
  return chunk('acTL', data);
}

/** A zTXt chunk whose text inflates to `bytes` bytes. */
export function ztxt(bytes: number): Buffer {
  return chunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(Buffer.alloc(bytes, 0x41))]));
}

/** A GIF of `frames` 1×1 frames on a `width` × `height` screen. */
export function gif(width: number, height: number, frames: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  head[10] = 0x80; // a global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const frame = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([head, palette, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

/** A JPEG's start: SOI, an APP0 segment and a baseline frame header declaring the size. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof[9] = 3;
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A WebP with a VP8X header declaring the canvas, and `frames` ANMF chunks when animated. */
export function webpX(width: number, height: number, frames = 0): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = frames > 0 ? 0x02 : 0;
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([riffChunk('VP8X', vp8x), ...Array.from({ length: frames }, () => riffChunk('ANMF', Buffer.alloc(16)))]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}
