// Test support for moving identities whose points were spent: an identity's events and its holder's redemptions, as the services write them.
import { seedEventType, seedRedemption as seedRedemptionRow, seedReward, seedRuleVersion } from "@pointwise/testkit";
import type { Harness } from "./harness";

const EVENT_TYPE = "00000000-0000-4000-8000-00000000e7e7";

/**
 * Appends one event of an identity to the campaign's log under the identity's current owner and pays its owner 1 xp
 * for it in the live ledger, as the scoring worker logs and scores it (a rule version 1 with xp is made active first
 * when the campaign has none).
 */
export async function logEventOf(h: Harness, identityType: string, accountId: string, campaignId: string = h.campaignId): Promise<void> {
  const regEventId = await seedEventType(h.deps.db, campaignId, { id: EVENT_TYPE, name: "spent-test" });
  const { rows: active } = await h.deps.db.query<{ version: number }>("SELECT version FROM rule_version WHERE campaign_id = $1 AND status = 'active'", [
    campaignId,
  ]);
  const version = active[0]?.version ?? 1;
  if (active.length === 0) {
    await seedRuleVersion(h.deps.db, campaignId, {
      campaignId,
      version,
      primaryCurrency: "xp",
      currencies: { xp: { name: "Experience", decimals: 2 } },
      rules: [],
    });
  }
  await h.deps.db.query(
    `WITH logged AS (
       INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, occurred_at, received_at)
       SELECT gen_random_uuid(), $1, $2, i.user_id, i.identity_type, i.account_id, 1, 'api', now(), now()
         FROM identity i WHERE i.campaign_id = $1 AND i.identity_type = $3 AND i.account_id = $4
       RETURNING id, user_id)
     INSERT INTO ledger_entry(campaign_id, user_id, event_id, rule_version, rule_id, currency, kind, points)
     SELECT $1, user_id, id, $5, 'spent-test', 'xp', 'base', 1 FROM logged`,
    [campaignId, regEventId, identityType, accountId, version],
  );
}

/** A redemption of a user as portal-api leaves it (pending, `price` xp of a balance of `price`), without touching score rows. */
export async function seedRedemption(h: Harness, userId: string, price = "10", campaignId: string = h.campaignId): Promise<string> {
  return seedRedemptionRow(h.deps.db, campaignId, userId, await seedReward(h.deps.db, campaignId, { price }), { price });
}

/** Who holds an identity of the campaign now. */
export async function ownerOf(h: Harness, identityType: string, accountId: string, campaignId: string = h.campaignId): Promise<string | undefined> {
  const { rows } = await h.deps.db.query<{ user_id: string }>(
    "SELECT user_id FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3",
    [campaignId, identityType, accountId],
  );
  return rows[0]?.user_id;
}
