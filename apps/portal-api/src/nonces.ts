// Wallet sign-in nonces: issued per campaign, single-use, short-lived.
import { randomBytes } from "node:crypto";
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";

/** A new nonce: 128 random bits as 22 base58-safe letters and digits (EIP-4361 asks for at least 8 alphanumerics). */
function newNonce(): string {
  return randomBytes(16).toString("base64url").replace(/[-_]/g, "x");
}

/** Issues a nonce for a sign-in message of `campaignId`, usable once within `ttlS` seconds. */
export async function issueNonce(db: Queryable, campaignId: string, ttlS: number): Promise<{ nonce: string; issuedAt: Date; expiresAt: Date }> {
  const nonce = newNonce();
  const { rows } = await db.query<{ expires_at: Date }>(
    "INSERT INTO portal_nonce(nonce, campaign_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING expires_at",
    [nonce, campaignId, ttlS],
  );
  const expiresAt = rows[0]?.expires_at as Date;
  // Nonces that ended long ago are no use even as evidence of a replay.
  await db.query("DELETE FROM portal_nonce WHERE expires_at < now() - interval '1 day'");
  // Issued exactly ttlS before the stored expiry (stored to the millisecond, rounded): a message with both times
  // lives exactly as long as it may, where now() read separately could be a millisecond off.
  return { nonce, issuedAt: new Date(expiresAt.getTime() - ttlS * 1000), expiresAt };
}

/**
 * Uses a nonce of `campaignId` up, once: the first caller wins, so a replayed message fails with
 * `nonce-used`; an expired one with `nonce-expired`; one this service never issued (or issued for
 * another campaign) with `nonce-unknown`.
 */
export async function consumeNonce(db: Queryable, campaignId: string, nonce: string): Promise<void> {
  const { rows } = await db.query<{ used: boolean; expired: boolean }>(
    `WITH target AS (SELECT nonce, used_at IS NOT NULL AS used, expires_at <= now() AS expired FROM portal_nonce WHERE nonce = $1 AND campaign_id = $2 FOR UPDATE),
          used AS (UPDATE portal_nonce n SET used_at = now() FROM target t WHERE n.nonce = t.nonce AND NOT t.used AND NOT t.expired RETURNING n.nonce)
     SELECT used, expired FROM target`,
    [nonce, campaignId],
  );
  const row = rows[0];
  if (!row) throw new AuthError("nonce-unknown", "the message's nonce was not issued by this service for this campaign");
  if (row.used) throw new AuthError("nonce-used", "the message's nonce was already used; request a new nonce and sign again");
  if (row.expired) throw new AuthError("nonce-expired", "the message's nonce has expired; request a new nonce and sign again");
}
