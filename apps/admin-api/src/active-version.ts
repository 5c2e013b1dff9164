// A campaign's active rule version: the one read of it that exclusions, activations, adjustments and dry runs share.
import type { Queryable } from "@pointwise/db";

/** The active rule version of a campaign as stored: its number and its document, not yet parsed. */
export interface ActiveVersion {
  version: number;
  document: unknown;
}

/**
 * The campaign's active rule version, or null when none is active. Read through the caller's connection,
 * so inside a transaction it is that transaction's snapshot. The database holds a campaign to one active
 * version (the unique index rule_version_one_active_key).
 */
export async function activeRuleVersionIn(q: Queryable, campaignId: string): Promise<ActiveVersion | null> {
  const { rows } = await q.query<ActiveVersion>(
    "SELECT version, document FROM rule_version WHERE campaign_id = $1 AND status = 'active' ORDER BY version DESC LIMIT 1",
    [campaignId],
  );
  return rows[0] ?? null;
}

/** The number of the campaign's active rule version, or null when none is active. */
export async function activeVersionIn(q: Queryable, campaignId: string): Promise<number | null> {
  return (await activeRuleVersionIn(q, campaignId))?.version ?? null;
}
