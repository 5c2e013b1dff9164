// E-mail one-time codes: issued hashed, checked in constant time, void after too many wrong entries.
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";

/** Codes are six digits: easy to type, and at most PORTAL_EMAIL_CODE_ATTEMPTS guesses each. */
export const CODE_DIGITS = 6;

// Keyed by the campaign and address too, so a stolen table row cannot be matched against another row's code.
function hashCode(campaignId: string, email: string, code: string): string {
  return createHmac("sha256", `${campaignId}\u0000${email}`).update(code).digest("hex");
}

/** Issues a new code for `email` in `campaignId` (replacing any pending one) and returns it for sending. */
export async function issueEmailCode(db: Queryable, campaignId: string, email: string, ttlS: number): Promise<string> {
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  await db.query(
    `INSERT INTO portal_email_code(campaign_id, email, code_hash, attempts, expires_at) VALUES ($1, $2, $3, 0, now() + make_interval(secs => $4))
     ON CONFLICT (campaign_id, email) DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at`,
    [campaignId, email, hashCode(campaignId, email, code), ttlS],
  );
  return code;
}

/**
 * Checks a code and uses it up. Every failure answers `invalid-code` with one message (unknown
 * address, no code sent, wrong code, expired, or too many wrong entries), so nothing tells whether
 * an address has an account; after `maxAttempts` wrong entries the code is void.
 */
export async function consumeEmailCode(db: Queryable, campaignId: string, email: string, code: string, maxAttempts: number): Promise<void> {
  const refused = new AuthError("invalid-code", "the code is wrong or no longer valid; request a new one");
  // Counting first, in one statement, so parallel guesses cannot share one attempt.
  const { rows } = await db.query<{ code_hash: string; attempts: number; expired: boolean }>(
    `UPDATE portal_email_code SET attempts = attempts + 1 WHERE campaign_id = $1 AND email = $2
     RETURNING code_hash, attempts, expires_at <= now() AS expired`,
    [campaignId, email],
  );
  const row = rows[0];
  if (!row || row.expired || row.attempts > maxAttempts) throw refused;
  const given = Buffer.from(hashCode(campaignId, email, code), "hex");
  const stored = Buffer.from(row.code_hash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw refused;
  const { rowCount } = await db.query("DELETE FROM portal_email_code WHERE campaign_id = $1 AND email = $2 AND code_hash = $3", [
    campaignId,
    email,
    row.code_hash,
  ]);
  // Two right entries at once: only the one that deleted the row signs in.
  if (rowCount === 0) throw refused;
}
