// What the worker announces after an applied batch; the message's schema is @pointwise/schemas' ScoresChanged.
import type { ApplyResult } from "@pointwise/rules";
import type { ScoresChanged } from "@pointwise/schemas";

/** Above this many users an invalidation names none, meaning "anything in the campaign may have moved". */
export const MAX_USERS_NAMED = 500;

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
