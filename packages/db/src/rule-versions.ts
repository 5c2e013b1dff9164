// Switching a campaign's active rule version: the one write of status 'active', which the database allows one version per campaign.
import { ConflictError } from "@pointwise/errors";
import { isUniqueViolation } from "./errors";
import type { Transaction } from "./transaction";

// The partial unique index on rule_version(campaign_id) WHERE status = 'active' (migration 20261202000100_one_active_rule_version).
const ONE_ACTIVE_RULE_VERSION_INDEX = "rule_version_one_active_key";

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
