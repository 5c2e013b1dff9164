// The "scores changed" message: what a writer of served scores announces after a commit, and readers act on.
import { z } from "zod";

/**
 * Why scores changed. `events`: the scoring worker applied a batch of events; `recompute`: a recompute
 * switched every score of the campaign; `adjustments`: an operator's adjustments were added to the
 * named users' scores; `redemptions`: a redemption spent from (or a rejected one refunded to) the named
 * users' balances; `exclusions`: the named users were excluded and their score rows removed.
 */
export const SCORES_CHANGED_REASONS = ["events", "recompute", "adjustments", "redemptions", "exclusions"] as const;

/** Why scores changed (see SCORES_CHANGED_REASONS). */
export type ScoresChangedReason = (typeof SCORES_CHANGED_REASONS)[number];

/**
 * What a writer of served scores (the scoring worker, admin-api, portal-api) publishes (core NATS,
 * best effort) after a commit changed a campaign's scores, so readers can drop cached leaderboards and
 * user scores at once instead of waiting for their cache window (version 1; a reason added later is
 * refused by an older reader, which then falls back on its cache window). Not strict: a reader ignores
 * fields a newer writer may add.
 */
export const scoresChangedSchema = z.object({
  v: z.literal(1),
  campaign_id: z.string().min(1),
  reason: z.enum(SCORES_CHANGED_REASONS),
  /** The rule version the scores are now computed under. */
  rule_version: z.number().int().positive(),
  /** Currencies whose rows changed (every currency of the version after a recompute). */
  currencies: z.array(z.string()),
  /** Users whose rows changed (referrers included); null when too many to name, or after a recompute. */
  user_ids: z.array(z.string()).nullable(),
  /** The last log seq the scores include (null when the change did not come from the log). */
  last_seq: z.string().nullable(),
  at: z.iso.datetime(),
});

/** A "scores changed" message. */
export type ScoresChanged = z.infer<typeof scoresChangedSchema>;

/** Above this many users a message names none, meaning "anything in the campaign may have moved". */
export const MAX_USERS_NAMED = 500;

/** What a writer changed, for `scoresChangeOf`. */
export interface ChangedScoreRows {
  campaignId: string;
  reason: Exclude<ScoresChangedReason, "recompute">;
  ruleVersion: number;
  /** Every score row written, in any order and with repeats. */
  rows: readonly { userId: string; currency: string }[];
  lastSeq: string | null;
  now: Date;
}

/**
 * The message announcing changed score rows: users and currencies once each, sorted; user_ids null
 * past MAX_USERS_NAMED users. Null when no row changed, so a writer never announces nothing.
 */
export function scoresChangeOf(change: ChangedScoreRows): ScoresChanged | null {
  if (change.rows.length === 0) return null;
  const users = [...new Set(change.rows.map((r) => r.userId))].sort();
  return {
    v: 1,
    campaign_id: change.campaignId,
    reason: change.reason,
    rule_version: change.ruleVersion,
    currencies: [...new Set(change.rows.map((r) => r.currency))].sort(),
    user_ids: users.length > MAX_USERS_NAMED ? null : users,
    last_seq: change.lastSeq,
    at: change.now.toISOString(),
  };
}
