/**
 * Response bodies sent compressed. lindwyrm asks for no compression, but proxies, CDNs and some
 * gateways compress anyway (error pages especially), and undici's request() hands the bytes over
 * as they came: read raw, a gzip stream is "an unreadable stream event" and an error page is
 * binary noise. gzip, deflate (zlib-wrapped or raw) and br are decoded, zstd where Node has it;
 * anything else is named in the error instead of being misread.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import type { HeaderBag } from './retry.js';
import { header } from './retry.js';

/** A body in an encoding lindwyrm cannot decode. */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`the provider sent its answer compressed as "${encoding}", which lindwyrm cannot decode`);
  }
}

/** The content-encodings applied to a body, in the order the server applied them. */
export function contentEncodings(headers: HeaderBag): string[] {
  const value = header(headers, 'content-encoding') ?? '';
  return value
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.length > 0 && e !== 'identity');
}

// A truncated compressed stream ends what was decoded so far instead of throwing: the
// assembler then reports the missing end marker, which says what happened.
const LENIENT = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const LENIENT_BR = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

function decoderFor(encoding: string): Transform {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(LENIENT);
    case 'br':
      return zlib.createBrotliDecompress(LENIENT_BR);
    case 'deflate':
      return new DeflateEitherWay();
    case 'zstd': {
      // Node 22.15+ only; typed loosely because @types/node for Node 20 does not know it.
      const make = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;
      if (make) return make();
      throw new UnsupportedEncodingError(encoding);
    }
    default:
      throw new UnsupportedEncodingError(encoding);
  }
}

/**
 * `body` decoded (outermost encoding last in the header, so undone first). Throws
 * UnsupportedEncodingError before reading anything when an encoding is unknown.
 */
export function decodeBody(body: Readable, encodings: readonly string[]): Readable {
  if (encodings.length === 0) return body;
  const decoders = [...encodings].reverse().map(decoderFor);
  let stream: Readable = body;
  for (const d of decoders) {
    const source = stream;
    source.on('error', (err: Error) => d.destroy(err));
    stream = source.pipe(d);
  }
  return stream;
}

/** The whole (decoded) body as text; '' when it cannot be read. */
export async function bodyText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  } catch {
    // what arrived before the failure is still worth quoting
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * "deflate" is meant as zlib-wrapped (RFC 1950) but some servers send raw deflate (RFC 1951):
 * the first two bytes tell them apart.
 */
class DeflateEitherWay extends Transform {
  private inner: Transform | undefined;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.inner) {
      const [b0 = 0, b1 = 0] = chunk;
      const wrapped = chunk.length >= 2 && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
      this.inner = wrapped ? zlib.createInflate(LENIENT) : zlib.createInflateRaw(LENIENT);
      this.inner.on('data', (d: Buffer) => this.push(d));
      this.inner.on('error', (err: Error) => this.destroy(err));
    }
    this.inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    const inner = this.inner;
    if (!inner) return done();
    inner.once('end', () => done());
    inner.end();
  }
}

/** Whether an error came from decompression (zlib's codes), to say so rather than "connection". */
export function isDecodeError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR_ZSTD'));
}
