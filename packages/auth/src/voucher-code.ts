// Voucher codes at rest: a SHA-256 hash for uniqueness and AES-256-GCM under the deployment's key, never the code itself.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { ValidationError } from "@pointwise/errors";

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Checks a voucher-code key: 64 hex digits (32 bytes), not all one repeated digit (such as the
 * all-zero key of the docs' examples). Returns the message naming the rule, or null when it is fine.
 */
export function voucherKeyProblem(hex: string): string | null {
  if (!KEY_PATTERN.test(hex)) return "must be 64 lowercase hex digits (32 random bytes, e.g. `openssl rand -hex 32`)";
  if (/^(.)\1*$/.test(hex)) return "must be random bytes, not one repeated digit";
  return null;
}

/** The SHA-256 hash (hex) of a voucher code, as the uniqueness of a pool is checked. */
export function hashVoucherCode(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}

function keyOf(hex: string): Buffer {
  const problem = voucherKeyProblem(hex);
  if (problem) throw new ValidationError(`voucher key ${problem}`, { field: "VOUCHER_CODE_KEY" });
  return Buffer.from(hex, "hex");
}

/** Encrypts a voucher code with AES-256-GCM: base64 of a random 12-byte IV, the ciphertext and the 16-byte tag. */
export function encryptVoucherCode(keyHex: string, code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(keyHex), iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

/** Decrypts what encryptVoucherCode wrote; throws when the key is wrong or the text was altered. */
export function decryptVoucherCode(keyHex: string, stored: string): string {
  const raw = Buffer.from(stored, "base64");
  if (raw.length < 28) throw new ValidationError("voucher ciphertext is too short", { field: "ciphertext" });
  const decipher = createDecipheriv("aes-256-gcm", keyOf(keyHex), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
}
