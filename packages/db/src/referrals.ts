// Referral links between users of a campaign: set once, and never into a cycle.
import type { Queryable } from "./statement-queue";

// The referrer's own chain of referrers, upwards; the depth bound ends the walk should a cycle exist already.
const CHAIN_HOLDS_SQL = `WITH RECURSIVE chain(id, referrer_id, depth) AS (
  SELECT id, referrer_id, 1 FROM app_user WHERE id = $1
  UNION ALL SELECT u.id, u.referrer_id, c.depth + 1 FROM app_user u JOIN chain c ON u.id = c.referrer_id WHERE c.depth < 100000
) SELECT 1 FROM chain WHERE id = $2 LIMIT 1`;

/**
 * Makes `referrerId` the referrer of `userId` (with `referred_at` now) and returns true, unless the user is the
 * referrer or one of the referrer's referrers, directly or through others: then it changes nothing and returns
 * false (the caller answers with its own error). Call it in a transaction holding `lockCampaign(client, "users",
 * campaign)`, as admin-api and portal-api both do, so two links made at once cannot close a cycle together; the
 * other checks (a referrer already set, the referrer in the campaign) are the caller's.
 */
export async function linkReferrer(q: Queryable, userId: string, referrerId: string): Promise<boolean> {
  const { rows: cycle } = await q.query(CHAIN_HOLDS_SQL, [referrerId, userId]);
  if (cycle.length > 0) return false;
  await q.query("UPDATE app_user SET referrer_id = $2, referred_at = now() WHERE id = $1", [userId, referrerId]);
  return true;
}
