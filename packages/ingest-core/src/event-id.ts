// Event ids: time-ordered UUIDv7 for new events, and a stable id derived from an event's idempotency_key.
import { createHash, randomFillSync } from "node:crypto";

// One system call fills randomness for 1024 ids; per-id calls showed up in profiles of the batch path.
const POOL_IDS = 1024;
const pool = Buffer.alloc(16 * POOL_IDS);
let offset = pool.length;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered ids keep the
 * event log's unique index append-friendly.
 */
export function newEventId(now: number = Date.now()): string {
  // Stryker disable next-line ConditionalExpression: refilling the pool for every id only costs time; each id is still random
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The event id of an event sent with an `idempotency_key`: a UUIDv8 (RFC 9562) holding the first
 * 122 bits of SHA-256 over the campaign and the key, so the same key in the same campaign always
 * names the same event and the log keeps it once, whichever request, batch or retry carried it.
 */
export function eventIdForKey(campaignId: string, key: string): string {
  const bytes = createHash("sha256").update(`pointwise-event\u0000${campaignId}\u0000${key}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
