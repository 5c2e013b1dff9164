// The streaming UTF-8 check of CSV uploads: whatever the chunking, it fails exactly the byte strings a fatal decoder refuses.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import fc from "fast-check";
import { utf8Check } from "./utf8";

/** Streams `bytes` in chunks cut at `cuts` through the check; the bytes it passed on, or the error code. */
async function run(bytes: Uint8Array, cuts: number[]): Promise<{ ok: true; out: Buffer } | { ok: false; code: string }> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    if (p > from) chunks.push(Buffer.from(bytes.subarray(from, p)));
    from = Math.max(from, p);
  }
  const out: Buffer[] = [];
  try {
    await pipeline(Readable.from(chunks), utf8Check(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    return { ok: true, out: Buffer.concat(out) };
  } catch (err) {
    return { ok: false, code: (err as { code: string }).code };
  }
}

/** Streams `chunks` through the check: "passed", or the error's message. */
async function message(chunks: number[][]): Promise<string> {
  try {
    await pipeline(Readable.from(chunks.map((c) => Buffer.from(c))), utf8Check(), async (source: AsyncIterable<Buffer>) => {
      for await (const _ of source);
    });
  } catch (err) {
    return (err as Error).message;
  }
  return "passed";
}

/** The independent verdict: WHATWG's fatal UTF-8 decoder over the whole input at once. */
function decodes(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe("utf8Check", () => {
  it("passes any UTF-8 text unchanged however it is cut, even inside a character", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 40 }), fc.array(fc.nat(200), { maxLength: 8 }), async (text, cuts) => {
        const bytes = Buffer.from(text, "utf8");
        expect(await run(bytes, cuts)).toEqual({ ok: true, out: bytes });
      }),
      { numRuns: 300 },
    );
  });

  it("refuses with invalid-utf8 exactly the byte strings a fatal decoder refuses, however they are cut", async () => {
    // Bytes biased toward the interesting ones: ASCII, continuation bytes, lead bytes, and ones never valid.
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xbf }), fc.integer({ min: 0xc0, max: 0xff }));
    await fc.assert(
      fc.asyncProperty(fc.array(byte, { maxLength: 24 }), fc.array(fc.nat(64), { maxLength: 6 }), async (list, cuts) => {
        const bytes = Uint8Array.from(list);
        const result = await run(bytes, cuts);
        if (decodes(bytes)) expect(result).toEqual({ ok: true, out: Buffer.from(bytes) });
        else expect(result).toEqual({ ok: false, code: "invalid-utf8" });
      }),
      { numRuns: 1000 },
    );
  });

  it("says after which byte the bad bytes start, counting every byte of the chunks that passed", async () => {
    const at = (n: number) => `CSV file must be UTF-8 text: the bytes after byte ${n} are not valid UTF-8`;
    // "abc", "d", then a byte never valid in UTF-8.
    expect(await message([[0x61, 0x62, 0x63], [0x64], [0xff]])).toBe(at(4));
    // "a€" with the euro sign (e2 82 ac) cut after its second byte: "a" passes, then the whole sign.
    expect(await message([[0x61, 0xe2, 0x82], [0xac], [0xff]])).toBe(at(4));
    // A file ending inside a character: after "a", the e2 82 never completes.
    expect(await message([[0x61, 0xe2, 0x82]])).toBe(at(1));
    expect(await message([[0x61, 0xe2, 0x82, 0xac]])).toBe("passed");
  });

  it("names the first bad byte of a later chunk, not the start of its chunk", async () => {
    const at = (n: number) => `CSV file must be UTF-8 text: the bytes after byte ${n} are not valid UTF-8`;
    // "abc", then "de", ff, "f": the ff is byte 5 of the file (0-based), the 6th byte.
    expect(
      await message([
        [0x61, 0x62, 0x63],
        [0x64, 0x65, 0xff, 0x66],
      ]),
    ).toBe(at(5));
    // The same within one chunk, deep inside it: 232 valid bytes, then ff (the audit's file shape).
    expect(await message([[...Array.from({ length: 232 }, () => 0x61), 0xff, 0x0a]])).toBe(at(232));
    // A stray continuation byte (80) after "é" (c3 a9) in the second chunk: "ab" + "é" + "c" is 5 bytes.
    expect(
      await message([
        [0x61, 0x62],
        [0xc3, 0xa9, 0x63, 0x80],
      ]),
    ).toBe(at(5));
  });

  it("names the first bad byte at a chunk boundary: the last byte of a chunk, or the first after a held-back character", async () => {
    const at = (n: number) => `CSV file must be UTF-8 text: the bytes after byte ${n} are not valid UTF-8`;
    // A continuation byte (80) that is the last byte of the second chunk: "abc" + "de" is 5 bytes.
    expect(
      await message([
        [0x61, 0x62, 0x63],
        [0x64, 0x65, 0x80],
      ]),
    ).toBe(at(5));
    // ff as the last byte of a chunk (held back like a lead byte), then more text: after "abc" + "de".
    expect(await message([[0x61, 0x62, 0x63], [0x64, 0x65, 0xff], [0x66]])).toBe(at(5));
    // ff as the first byte of the chunk after a fully valid one.
    expect(
      await message([
        [0x61, 0x62, 0x63],
        [0xff, 0x64],
      ]),
    ).toBe(at(3));
    // A character that does not continue across the boundary (e2 82, then "x"): the error names where it starts.
    expect(
      await message([
        [0x68, 0x65, 0x6c, 0x6c, 0x6f, 0xe2],
        [0x82, 0x78],
      ]),
    ).toBe(at(5));
  });

  it("counts a valid character split between chunks as valid when naming a later bad byte", async () => {
    const at = (n: number) => `CSV file must be UTF-8 text: the bytes after byte ${n} are not valid UTF-8`;
    // "a", then the euro sign (e2 82 ac) cut after its first byte, then "bc" and ff: 1 + 3 + 2 = byte 6.
    expect(
      await message([
        [0x61, 0xe2],
        [0x82, 0xac, 0x62, 0x63, 0xff],
      ]),
    ).toBe(at(6));
    // U+1F600 (f0 9f 98 80) cut after each of its first three bytes, then "z" and c0 (never valid): 1 + 4 + 1 = byte 6.
    expect(await message([[0x41, 0xf0], [0x9f], [0x98], [0x80, 0x7a, 0xc0, 0x80]])).toBe(at(6));
  });

  it("names the offset of the longest prefix a fatal decoder accepts, however the bytes are cut (property)", async () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xbf }), fc.integer({ min: 0xc0, max: 0xff }));
    // Everything before the first ill-formed (or unfinished) character decodes; no longer prefix does.
    const validPrefix = (bytes: Uint8Array) => {
      for (let n = bytes.length; n > 0; n--) if (decodes(bytes.subarray(0, n))) return n;
      return 0;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(byte, { maxLength: 24 }), fc.array(fc.nat(64), { maxLength: 6 }), async (list, cuts) => {
        const bytes = Uint8Array.from(list);
        fc.pre(!decodes(bytes));
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: number[][] = [];
        let from = 0;
        for (const p of [...points, bytes.length]) {
          if (p > from) chunks.push(list.slice(from, p));
          from = Math.max(from, p);
        }
        expect(await message(chunks)).toBe(`CSV file must be UTF-8 text: the bytes after byte ${validPrefix(bytes)} are not valid UTF-8`);
      }),
      { numRuns: 1000 },
    );
  });

  it("holds back a four-byte character cut after each of its first three bytes", async () => {
    // U+1F600 is f0 9f 98 80.
    const bytes = Uint8Array.from([0x41, 0xf0, 0x9f, 0x98, 0x80, 0x42]);
    for (const cut of [2, 3, 4]) expect(await run(bytes, [cut])).toEqual({ ok: true, out: Buffer.from(bytes) });
    expect(await run(bytes, [2, 3, 4])).toEqual({ ok: true, out: Buffer.from(bytes) });
    // E0 is the lowest three-byte lead: U+0800 is e0 a0 80, cut after its second byte.
    const lowest = Uint8Array.from([0xe0, 0xa0, 0x80]);
    expect(await run(lowest, [2])).toEqual({ ok: true, out: Buffer.from(lowest) });
  });

  it("refuses a file that ends in the middle of a character", async () => {
    expect(await run(Uint8Array.from([0x61, 0xe2, 0x82]), [2])).toEqual({ ok: false, code: "invalid-utf8" });
  });
  it("holds back a chunk's last byte by its lead-byte bit pattern, C0 (110xxxxx) included, so the error names the byte it starts at", async () => {
    // "a", then C0 80 (an overlong encoding of NUL, never valid) cut after the C0: "a" passes, the error is after byte 1.
    expect(await message([[0x61, 0xc0], [0x80]])).toBe("CSV file must be UTF-8 text: the bytes after byte 1 are not valid UTF-8");
    // C2 80 (U+0080, the lowest valid two-byte character) cut the same way passes.
    expect(await message([[0x61, 0xc2], [0x80]])).toBe("passed");
  });
});
