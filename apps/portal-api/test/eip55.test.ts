// The participant page's EIP-55 code (web/eip55.js, a browser script) against ethers: Keccak-256 of any bytes, across
// block boundaries, and the checksummed form of any address given in lowercase.
import { readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "@jest/globals";
import { getAddress, hexlify, keccak256 } from "ethers";
import fc from "fast-check";

interface Eip55 {
  keccak256(bytes: Uint8Array): Uint8Array;
  checksumAddress(address: string): string;
}

/** The script as the page loads it: it sets globalThis.PointwiseEip55. */
function loadScript(): Eip55 {
  const sandbox: Record<string, unknown> = { TextEncoder, Uint8Array, BigInt, Math, Number, Array, Error };
  sandbox.globalThis = sandbox;
  runInNewContext(readFileSync(path.join(__dirname, "..", "web", "eip55.js"), "utf8"), sandbox);
  return sandbox.PointwiseEip55 as Eip55;
}

const eip55 = loadScript();

describe("web/eip55.js", () => {
  it("hashes any bytes as Keccak-256 does, one block (136 bytes) and more", () => {
    for (const length of [0, 1, 135, 136, 137, 272]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      expect(hexlify(eip55.keccak256(bytes))).toBe(keccak256(bytes));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => hexlify(eip55.keccak256(bytes)) === keccak256(bytes)),
      { numRuns: 200 },
    );
  });

  it("writes any address in its EIP-55 form, whatever case it is given in", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.boolean(), (bytes, upper) => {
        const plain = hexlify(bytes);
        const given = upper ? `0x${plain.slice(2).toUpperCase()}` : plain;
        return eip55.checksumAddress(given) === getAddress(plain);
      }),
      { numRuns: 300 },
    );
    expect(() => eip55.checksumAddress("0x12")).toThrow("not an EVM address: 0x12");
  });
});
