// The scores-changed message the worker publishes after a commit, so readers drop stale cache entries.
import type { ApplyResult } from "@pointwise/rules";

/** Above this many users an invalidation names none, meaning "anything in the campaign may have moved". */
export const MAX_USERS_NAMED = 500;

/**
 * What the worker publishes on `<namespace>.scores.<campaign_id>` (core NATS, not JetStream) after
 * a commit changed a campaign's scores, so readers can drop cached leaderboards and user scores at
 * once instead of waiting for their cache window. Delivery is best effort: the cache window stays
 * the upper bound on staleness.
 */
export interface ScoresChanged {
  v: 1;
  campaign_id: string;
  /** `events`: a batch of events was applied; `recompute`: a recompute switched every score of the campaign. */
  reason: "events" | "recompute";
  /** The rule version the scores are now computed under. */
  rule_version: number;
  /** Currencies whose rows changed (every currency of the version after a recompute). */
  currencies: string[];
  /** Users whose rows changed (referrers included); null when there are more than MAX_USERS_NAMED, or after a recompute. */
  user_ids: string[] | null;
  /** The last log seq the scores include. */
  last_seq: string | null;
  at: string;
}

/** The NATS subject of a campaign's score changes. */
export function scoresSubject(namespace: string, campaignId: string): string {
  return `${namespace}.scores.${campaignId}`;
}

/** The message for an applied batch, or null when the batch changed no score row. */
export function batchChange(campaignId: string, ruleVersion: number, result: ApplyResult, lastSeq: string | null, now: Date): ScoresChanged | null {
  if (result.scoreDeltas.length === 0) return null;
  const users = [...new Set(result.scoreDeltas.map((d) => d.userId))].sort();
  return {
    v: 1,
    campaign_id: campaignId,
    reason: "events",
    rule_version: ruleVersion,
    currencies: [...new Set(result.scoreDeltas.map((d) => d.currency))].sort(),
    user_ids: users.length > MAX_USERS_NAMED ? null : users,
    last_seq: lastSeq,
    at: now.toISOString(),
  };
}
