// A campaign's active rule version: reading it, and the one write of status 'active', which the database allows one version per campaign.
import { ConflictError } from "@pointwise/errors";
import { isUniqueViolation } from "./errors";
import type { Queryable } from "./statement-queue";
import type { Transaction } from "./transaction";

// The partial unique index on rule_version(campaign_id) WHERE status = 'active' (migration 20261202000100_one_active_rule_version).
const ONE_ACTIVE_RULE_VERSION_INDEX = "rule_version_one_active_key";

/** A campaign's active rule version as stored: its row id, its number and its document, not yet parsed. */
export interface ActiveRuleVersion {
  id: string;
  version: number;
  document: unknown;
}

/**
 * The campaign's active rule version, or null when none is active. Read through the caller's connection, so
 * inside a transaction it is that transaction's snapshot.
 */
export async function activeRuleVersion(q: Queryable, campaignId: string): Promise<ActiveRuleVersion | null> {
  // No ORDER BY or LIMIT: the unique index holds a campaign to one active row.
  const { rows } = await q.query<ActiveRuleVersion>("SELECT id, version, document FROM rule_version WHERE campaign_id = $1 AND status = 'active'", [
    campaignId,
  ]);
  return rows[0] ?? null;
}

/**
 * The number of the campaign's active rule version as a scalar subquery (NULL when none is active), for use
 * inside a larger statement: the statement must pass the campaign id as its parameter $1.
 */
export const ACTIVE_RULE_VERSION_SQL = "(SELECT version FROM rule_version WHERE campaign_id = $1 AND status = 'active')";

/**
 * Makes `version` the campaign's active rule version (stamping `activated_at`) and retires the one active
 * before it as `superseded`, both inside the caller's transaction. Callers serialize switches of one campaign
 * (the scoring worker holds the campaign's apply lock); a switch that was not serialized with another and
 * loses to it throws ConflictError `concurrent-activation` instead of leaving two versions active.
 */
export async function activateRuleVersion(tx: Transaction, campaignId: string, version: number): Promise<void> {
  // Retire first, in its own statement: the unique index is checked row by row and cannot be deferred, so
  // one UPDATE that flips both rows could meet the new active row before the old one is retired and fail.
  await tx.query("UPDATE rule_version SET status = 'superseded' WHERE campaign_id = $1 AND status = 'active' AND version <> $2", [campaignId, version]);
  try {
    await tx.query("UPDATE rule_version SET status = 'active', activated_at = now() WHERE campaign_id = $1 AND version = $2", [campaignId, version]);
  } catch (err) {
    if (!isUniqueViolation(err, ONE_ACTIVE_RULE_VERSION_INDEX)) throw err;
    throw new ConflictError(
      "concurrent-activation",
      `rule version ${version} of campaign ${campaignId} cannot become active: another version of the campaign became active at the same time, and a campaign has at most one active rule version`,
      { cause: err },
    );
  }
}
