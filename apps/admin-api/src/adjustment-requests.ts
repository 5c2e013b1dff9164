// Idempotency-Key of adjustment requests: a retry of a request that made adjustments gets the first answer back instead of granting twice.
import type { Transaction } from "@pointwise/db";
import { ConflictError } from "@pointwise/errors";
import { requestFingerprint } from "@pointwise/ingest-core";

/** The fingerprint of what a request asks: which endpoint, and its parsed body or file (the rule of ingest's keys). */
export function adjustmentRequestHash(endpoint: "single" | "csv", what: string | Buffer): string {
  return requestFingerprint("adjustments", endpoint, what);
}

/**
 * The JSON text first answered for the key in the campaign, or null when the key is new. The caller holds
 * the campaign's apply lock, so a request with the same key in flight has committed or rolled back.
 * The key with another request is `409 idempotency-key-reused`.
 */
export async function rememberedAnswer(tx: Transaction, campaignId: string, key: string, hash: string): Promise<string | null> {
  const { rows } = await tx.query<{ request_hash: string; response: string }>(
    "SELECT request_hash, response FROM adjustment_request WHERE campaign_id = $1 AND idempotency_key = $2",
    [campaignId, key],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.request_hash !== hash) throw new ConflictError("idempotency-key-reused", `Idempotency-Key ${key} was used for another adjustment request`);
  return row.response;
}

/** Remembers the answer of a request that made adjustments, in the transaction that made them. */
export async function rememberAnswer(tx: Transaction, campaignId: string, key: string, hash: string, response: string): Promise<void> {
  await tx.query("INSERT INTO adjustment_request(campaign_id, idempotency_key, request_hash, response) VALUES ($1, $2, $3, $4)", [
    campaignId,
    key,
    hash,
    response,
  ]);
}
