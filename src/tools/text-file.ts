/** Reading files as text: binary detection from the bytes, lenient UTF-8 decoding. */

const SNIFF_BYTES = 8192;

/** A NUL in the first 8 KB, or mostly non-text bytes, means binary (the same rule git uses, roughly). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  if (n === 0) return false;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) odd++;
  }
  return odd / n > 0.3;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Invalid sequences become U+FFFD instead of an exception; a BOM stays, so writing back keeps it. */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The file's line ending: CRLF when any line ends that way and none end with a lone LF. */
export function detectEol(text: string): '\r\n' | '\n' {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  if (crlf === 0) return '\n';
  const lf = (text.match(/\n/g) ?? []).length;
  return crlf * 2 >= lf ? '\r\n' : '\n';
}
