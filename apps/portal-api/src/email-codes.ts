// E-mail one-time codes: issued hashed, checked in constant time, void after too many wrong entries.
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";

/** Codes are six digits: easy to type, and at most PORTAL_EMAIL_CODE_ATTEMPTS guesses each. */
export const CODE_DIGITS = 6;

/**
 * What a code is for: signing in as the address, or linking the address to the signed-in user who
 * asked (`userId`). The two are kept apart, so a link code never signs anyone in and asking for one
 * does not void a pending sign-in code.
 */
export type CodePurpose = { kind: "sign-in" } | { kind: "link"; userId: string };

// Keyed by the campaign, address and purpose too, so a stolen table row cannot be matched against another row's code.
function hashCode(campaignId: string, email: string, purpose: CodePurpose, code: string): string {
  const bound = purpose.kind === "link" ? `link\u0000${purpose.userId}` : "sign-in";
  return createHmac("sha256", `${campaignId}\u0000${email}\u0000${bound}`).update(code).digest("hex");
}

/** Issues a new code for `email` in `campaignId` (replacing any pending one of the same purpose) and returns it for sending. */
export async function issueEmailCode(
  db: Queryable,
  campaignId: string,
  email: string,
  ttlS: number,
  purpose: CodePurpose = { kind: "sign-in" },
): Promise<string> {
  const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
  const userId = purpose.kind === "link" ? purpose.userId : null;
  await db.query(
    `INSERT INTO portal_email_code(campaign_id, email, purpose, user_id, code_hash, attempts, expires_at)
     VALUES ($1, $2, $3, $4, $5, 0, now() + make_interval(secs => $6))
     ON CONFLICT (campaign_id, email, purpose) DO UPDATE
       SET user_id = EXCLUDED.user_id, code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at`,
    [campaignId, email, purpose.kind, userId, hashCode(campaignId, email, purpose, code), ttlS],
  );
  return code;
}

/**
 * Checks a code and uses it up. Every failure answers `invalid-code` with one message (unknown
 * address, no code sent, a code of another purpose or asked by another user, wrong code, expired, or
 * too many wrong entries), so nothing tells whether an address has an account; after `maxAttempts`
 * wrong entries the code is void.
 */
export async function consumeEmailCode(
  db: Queryable,
  campaignId: string,
  email: string,
  code: string,
  maxAttempts: number,
  purpose: CodePurpose = { kind: "sign-in" },
): Promise<void> {
  const refused = new AuthError("invalid-code", "the code is wrong or no longer valid; request a new one");
  // Counting first, in one statement, so parallel guesses cannot share one attempt.
  const { rows } = await db.query<{ code_hash: string; attempts: number; expired: boolean }>(
    `UPDATE portal_email_code SET attempts = attempts + 1 WHERE campaign_id = $1 AND email = $2 AND purpose = $3
     RETURNING code_hash, attempts, expires_at <= now() AS expired`,
    [campaignId, email, purpose.kind],
  );
  const row = rows[0];
  if (!row || row.expired || row.attempts > maxAttempts) throw refused;
  // The hash is keyed by the user who asked for a link code: another user's code never matches.
  const given = Buffer.from(hashCode(campaignId, email, purpose, code), "hex");
  const stored = Buffer.from(row.code_hash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw refused;
  const { rowCount } = await db.query("DELETE FROM portal_email_code WHERE campaign_id = $1 AND email = $2 AND purpose = $3 AND code_hash = $4", [
    campaignId,
    email,
    purpose.kind,
    row.code_hash,
  ]);
  // Two right entries at once: only the one that deleted the row goes on.
  if (rowCount === 0) throw refused;
}
