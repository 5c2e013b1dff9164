// firstInvalidUtf8 and invalidUtf8: where text stops being UTF-8, checked against the WHATWG decoder, and the error naming it.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { firstInvalidUtf8, invalidUtf8 } from "./utf8";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

describe("firstInvalidUtf8", () => {
  it.each([
    ["valid text, ASCII and multi-byte", bytes("aé€😀"), 10],
    ["a stray continuation byte", bytes("ab", [0x80], "c"), 2],
    ["an overlong two-byte form of '/'", bytes("x", [0xc0, 0xaf]), 1],
    ["an overlong three-byte form", bytes([0xe0, 0x80, 0xaf]), 0],
    ["an encoded surrogate half", bytes("ok", [0xed, 0xa0, 0x80]), 2],
    ["a code point past U+10FFFF", bytes([0xf4, 0x90, 0x80, 0x80]), 0],
    ["a character cut off by the end", bytes("abc", [0xe2, 0x82]), 3],
    ["0xFF, which UTF-8 never uses", bytes("é", [0xff]), 2],
  ])("%s: %i", (_name, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
  });

  it("agrees with the WHATWG decoder: the bytes before it are the longest prefix that decodes", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true });
    const decodes = (b: Uint8Array) => {
      try {
        fatal.decode(b);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (input) => {
        const at = firstInvalidUtf8(input);
        expect(decodes(input.subarray(0, at))).toBe(true);
        // No longer prefix decodes: an offset reported too early would leave one that does.
        for (let end = at + 1; end <= input.length; end++) expect(decodes(input.subarray(0, end))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

it("names what is not UTF-8 and where, with code invalid-utf8", () => {
  expect(invalidUtf8("CSV file", 7)).toMatchObject({
    code: "invalid-utf8",
    message: "CSV file must be UTF-8 text: the bytes after byte 7 are not valid UTF-8",
  });
});
