/**
 * Where a file stops being UTF-8. TOML is UTF-8 by definition; a decoder that silently turns a
 * bad byte into U+FFFD would let a key or a path mean something other than what the file shows,
 * so a config with one is refused, naming the byte.
 */
import { isUtf8 } from 'node:buffer';

/** The offset of the first byte that is not part of valid UTF-8, or -1 when all of it is. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte: how many continuation bytes, and the smallest second byte that avoids an
    // overlong form, a surrogate or a code point past U+10FFFF.
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c === undefined || c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}
