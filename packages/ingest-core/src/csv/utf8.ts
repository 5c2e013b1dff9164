// A pass-through stream that fails on bytes that are not UTF-8, so a CSV file is never decoded with silent U+FFFD.
import { isUtf8 } from "node:buffer";
import { Transform } from "node:stream";
import { firstInvalidUtf8, invalidUtf8 } from "@pointwise/schemas";

const notUtf8 = (offset: number) => invalidUtf8("CSV file", offset);

/** How many bytes at the end of `bytes` start a character that continues in the next chunk (0 to 3). */
function unfinishedTail(bytes: Buffer): number {
  // Walk back over at most three continuation bytes (10xxxxxx) to the lead byte of the last character.
  // Stryker disable next-line MethodExpression: walking further back only meets a lead byte that cannot reach the end, so the answer is 0 either way
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back] as number;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Passes chunks through unchanged and errors with `invalid-utf8` at the first chunk holding bytes
 * that are not UTF-8, naming the file offset where the first bad character starts (everything
 * before it is valid). A character split across chunks is held back until its last byte arrives.
 */
export function utf8Check(): Transform {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: concatenating an empty carry gives the same bytes
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const tail = unfinishedTail(bytes);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: with tail 0 the subarray is all of bytes
      const whole = tail > 0 ? bytes.subarray(0, bytes.length - tail) : bytes;
      // `whole` starts at `offset`, on a character boundary: the bytes before it were valid and the carry is a lead byte
      // and its continuations. The exact scan runs only on failure; isUtf8 is the fast path.
      if (!isUtf8(whole)) return callback(notUtf8(offset + firstInvalidUtf8(whole)));
      offset += whole.length;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: with tail 0 the copied subarray is empty
      carry = tail > 0 ? Buffer.from(bytes.subarray(bytes.length - tail)) : Buffer.alloc(0);
      callback(null, chunk);
    },
    flush(callback) {
      callback(carry.length > 0 ? notUtf8(offset) : null);
    },
  });
}
