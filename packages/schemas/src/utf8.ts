// Text that must be UTF-8: where the first byte that is not starts, and the error that names it.
import { ValidationError } from "@pointwise/errors";

/** The stable code of bytes that are not valid UTF-8 (a body, a CSV file). */
export const INVALID_UTF8 = "invalid-utf8";

/**
 * Where the first character of `bytes` that is not well-formed UTF-8 starts (Unicode Table 3-7: no overlong
 * form, no surrogate, nothing above U+10FFFF), or `bytes.length` when there is none. A character cut off by
 * the end of `bytes` counts as not well-formed. `bytes` must start at a character boundary.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length of the character and the range its second byte must lie in; the others are 80..BF.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1] as number;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return i;
}

/**
 * The error of text that is not UTF-8: `what` names it ("body", "CSV file"), `offset` is where its first bad
 * character starts (firstInvalidUtf8), so the sender can find it.
 */
export function invalidUtf8(what: string, offset: number): ValidationError {
  return new ValidationError(`${what} must be UTF-8 text: the bytes after byte ${offset} are not valid UTF-8`, { code: INVALID_UTF8 });
}
