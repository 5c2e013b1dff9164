// Voucher codes at rest: round trip, tamper and wrong-key refusal, key rules, hash against an independent vector.
import { decryptVoucherCode, encryptVoucherCode, hashVoucherCode, voucherKeyProblem } from "./voucher-code";

const KEY = "3f1a9c0e5b7d2468ace13579bdf02468ace13579bdf02468ace13579bdf0246a";

describe("voucher codes at rest", () => {
  it("decrypts what it encrypted, and the stored text holds no plaintext", () => {
    const stored = encryptVoucherCode(KEY, "GIFT-2026-ABCD");
    expect(stored).not.toContain("GIFT");
    expect(Buffer.from(stored, "base64").toString("latin1")).not.toContain("GIFT");
    expect(decryptVoucherCode(KEY, stored)).toBe("GIFT-2026-ABCD");
  });

  it("encrypts the same code differently each time (random IV)", () => {
    expect(encryptVoucherCode(KEY, "A")).not.toBe(encryptVoucherCode(KEY, "A"));
  });

  it("refuses an altered ciphertext and a wrong key", () => {
    const raw = Buffer.from(encryptVoucherCode(KEY, "GIFT-1"), "base64");
    raw[13] = (raw[13] ?? 0) ^ 1;
    expect(() => decryptVoucherCode(KEY, raw.toString("base64"))).toThrow(/authenticate/);
    const other = `${KEY.slice(0, 63)}b`;
    expect(() => decryptVoucherCode(other, encryptVoucherCode(KEY, "GIFT-1"))).toThrow(/authenticate/);
  });

  it("hashes with SHA-256 (the published digest of 'abc')", () => {
    expect(hashVoucherCode("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it.each([
    ["0".repeat(64), "must be random bytes, not one repeated digit"],
    ["ab", "must be 64 lowercase hex digits (32 random bytes, e.g. `openssl rand -hex 32`)"],
    [KEY.toUpperCase(), "must be 64 lowercase hex digits (32 random bytes, e.g. `openssl rand -hex 32`)"],
  ])("refuses the key %s", (key, message) => {
    expect(voucherKeyProblem(key)).toBe(message);
    expect(() => encryptVoucherCode(key, "x")).toThrow(`voucher key ${message}`);
  });
});
