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

  it("refuses a file that ends in the middle of a character", async () => {
    expect(await run(Uint8Array.from([0x61, 0xe2, 0x82]), [2])).toEqual({ ok: false, code: "invalid-utf8" });
  });
});
