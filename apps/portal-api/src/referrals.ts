// Referral codes: every user's own code, and setting a referrer by code once, before the first event.
import { randomInt } from "node:crypto";
import { type Database, linkReferrer, type Queryable, UniqueConstraintError } from "@pointwise/db";
import { ConflictError, ValidationError } from "@pointwise/errors";

// Crockford's base32 without I, L, O, U: nothing to misread when a code is typed from a screen.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 8;

/** How a referral code is written: 8 of 0-9 and A-Z without I, L, O, U (case-insensitive on entry). */
export const REFERRAL_CODE_PATTERN = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/;

function newCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** The user's referral code, given out on first request and the same ever after. */
export async function referralCodeOf(db: Queryable, campaignId: string, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { rows } = await db.query<{ code: string }>("SELECT code FROM portal_referral_code WHERE user_id = $1", [userId]);
    if (rows[0]) return rows[0].code;
    try {
      await db.query("INSERT INTO portal_referral_code(user_id, campaign_id, code) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING", [
        userId,
        campaignId,
        newCode(),
      ]);
    } catch (err) {
      // Another user drew the same code (1 in 32^8 per pair): draw again.
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
  }
  throw new ConflictError("referral-code-unavailable", "no referral code could be drawn; try again");
}

/**
 * Sets the referrer of `userId` to the owner of `code`, once. Refused: an unknown code (400
 * `invalid-referral-code`), the user's own code (400 `self-referral`), a code whose owner is referred
 * by this user directly or through others (400 `referral-cycle`), a referrer already set (409
 * `referrer-already-set`), or a user who already has an event (409 `referral-too-late`: their points
 * so far were computed without the link).
 */
export async function setReferrerByCode(db: Database, campaignId: string, userId: string, code: string): Promise<string> {
  const normalized = code.trim().toUpperCase();
  if (!REFERRAL_CODE_PATTERN.test(normalized)) {
    throw new ValidationError("referral_code must be 8 letters and digits", { code: "invalid-referral-code", field: "referral_code" });
  }
  return db.transaction(async (client) => {
    // The admin API's referrer changes take the same lock: cycles are checked against the whole chain.
    await client.lockCampaign("users", campaignId);
    const { rows: users } = await client.query<{ referrer_id: string | null }>(
      "SELECT referrer_id FROM app_user WHERE id = $1 AND campaign_id = $2 FOR UPDATE",
      [userId, campaignId],
    );
    const user = users[0];
    if (!user) throw new ValidationError("the signed-in user is not in this campaign", { code: "invalid-referral-code" });
    if (user.referrer_id !== null) throw new ConflictError("referrer-already-set", "a referrer is already set and cannot be changed");
    const { rows: owners } = await client.query<{ user_id: string }>("SELECT user_id FROM portal_referral_code WHERE campaign_id = $1 AND code = $2", [
      campaignId,
      normalized,
    ]);
    const referrer = owners[0]?.user_id;
    if (!referrer) throw new ValidationError("no user of this campaign has this referral code", { code: "invalid-referral-code", field: "referral_code" });
    if (referrer === userId) throw new ValidationError("a user cannot refer themselves", { code: "self-referral", field: "referral_code" });
    // Both indexed: events logged for this user, and points credited to them (which covers events of
    // identities merged in from another user once the recompute has run).
    const { rows: events } = await client.query(
      `SELECT 1 FROM event_log WHERE campaign_id = $1 AND user_id = $2
       UNION ALL SELECT 1 FROM ledger_entry WHERE campaign_id = $1 AND user_id = $2 LIMIT 1`,
      [campaignId, userId],
    );
    if (events.length > 0) throw new ConflictError("referral-too-late", "a referrer can only be set before the user's first event");
    if (!(await linkReferrer(client, userId, referrer)))
      throw new ValidationError("this code's owner is referred by you, directly or through others", { code: "referral-cycle", field: "referral_code" });
    return referrer;
  });
}
