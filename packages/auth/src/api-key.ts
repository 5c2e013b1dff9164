// Campaign API keys: generation, the non-secret lookup prefix, storage hash and constant-time checks.
import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every campaign API key starts with this; a key without it is rejected before any lookup. */
export const API_KEY_PREFIX = "pw_";

const BODY = /^pw_([a-z2-7]{8})([a-z2-7]{32})$/;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A freshly generated key: `key` is shown once, the rest is what is stored. */
export interface GeneratedApiKey {
  key: string;
  /** Non-secret lookup id shown in listings, e.g. `pw_k3j5x2ab`. */
  prefix: string;
  /** Hex SHA-256 of the whole key. */
  hash: string;
}

function base32(bytes: Buffer): string {
  let out = "";
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

/**
 * Hashes a key for storage. Keys carry 200 random bits, so a fast hash is enough (no KDF needed).
 * The one-shot `crypto.hash` costs about a third of createHash().update().digest() for a key this
 * short, and read-api hashes the presented key on every API-key request.
 */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** Generates a key `pw_` + 40 base32 characters (8 for the prefix, 32 secret). */
export function generateApiKey(): GeneratedApiKey {
  const key = API_KEY_PREFIX + base32(randomBytes(40));
  return { key, prefix: key.slice(0, 11), hash: hashApiKey(key) };
}

/** The stored prefix of a well-formed key, or null when the string cannot be a key of ours. */
export function apiKeyPrefix(key: string): string | null {
  return BODY.test(key) ? key.slice(0, 11) : null;
}

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
