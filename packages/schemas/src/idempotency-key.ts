// The Idempotency-Key header every service takes (ingest, admin adjustments and uploads, portal redemptions): one rule for all.

/** Longest accepted Idempotency-Key, and longest `idempotency_key` of an event. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const KEY_PATTERN = /^[\x21-\x7e]+$/;

/** True for a usable Idempotency-Key: 1 to 255 printable ASCII characters, no spaces. */
export function isValidIdempotencyKey(key: string): boolean {
  // The pattern needs at least one character: an empty key fails it.
  return key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && KEY_PATTERN.test(key);
}

/** Why an Idempotency-Key header cannot be used, or null when it can; the message every service answers with `invalid-idempotency-key`. */
export function idempotencyKeyProblem(key: string): string | null {
  return isValidIdempotencyKey(key) ? null : `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`;
}
