// The "scores changed" message: what the scoring worker announces after a commit, and readers act on.
import { z } from "zod";

/**
 * What the scoring worker publishes (core NATS, best effort) after a commit changed a campaign's
 * scores, so readers can drop cached leaderboards and user scores at once instead of waiting for their
 * cache window (version 1). Not strict: a reader ignores fields a newer worker may add.
 */
export const scoresChangedSchema = z.object({
  v: z.literal(1),
  campaign_id: z.string().min(1),
  /** `events`: a batch of events was applied; `recompute`: a recompute switched every score of the campaign. */
  reason: z.enum(["events", "recompute"]),
  /** The rule version the scores are now computed under. */
  rule_version: z.number().int().positive(),
  /** Currencies whose rows changed (every currency of the version after a recompute). */
  currencies: z.array(z.string()),
  /** Users whose rows changed (referrers included); null when too many to name, or after a recompute. */
  user_ids: z.array(z.string()).nullable(),
  /** The last log seq the scores include. */
  last_seq: z.string().nullable(),
  at: z.iso.datetime(),
});

/** A "scores changed" message. */
export type ScoresChanged = z.infer<typeof scoresChangedSchema>;
