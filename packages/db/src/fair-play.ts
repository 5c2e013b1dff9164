// Exclusions and operator adjustments as the scoring worker and admin-api both read and write them.
import type { Adjustment, AdjustmentDelta } from "@pointwise/rules";
import type { Queryable } from "./statement-queue";

// Users of a campaign that are excluded: by an exclusion of the user itself, or of any identity they
// own (an exclusion of the campaign, or of every campaign of its project). $1 is the campaign id.
const EXCLUDED_BY_IDENTITY = `
  SELECT i.user_id FROM identity i
    JOIN exclusion e ON e.identity_type = i.identity_type AND e.account_id = i.account_id AND e.user_id IS NULL
   WHERE i.campaign_id = $1
     AND (e.campaign_id = $1 OR (e.campaign_id IS NULL AND e.project_id = (SELECT project_id FROM campaign WHERE id = $1)))`;

/**
 * The excluded users of a campaign. With `candidates`, only those among them and their referrers
 * (the scoring worker's batch: a few index probes however long the exclusion lists are); without,
 * every excluded user of the campaign (a recompute, once per job and at the switch).
 */
export async function excludedUsers(q: Queryable, campaignId: string, candidates?: readonly string[]): Promise<Set<string>> {
  if (candidates === undefined) {
    const { rows } = await q.query<{ user_id: string }>(
      `SELECT user_id FROM exclusion WHERE campaign_id = $1 AND user_id IS NOT NULL UNION ${EXCLUDED_BY_IDENTITY}`,
      [campaignId],
    );
    return new Set(rows.map((r) => r.user_id));
  }
  if (candidates.length === 0) return new Set();
  const { rows } = await q.query<{ user_id: string }>(
    `WITH cand AS (
       SELECT unnest($2::uuid[]) AS id
       UNION SELECT referrer_id FROM app_user WHERE id = ANY($2::uuid[]) AND referrer_id IS NOT NULL
     )
     SELECT c.id AS user_id FROM cand c
      WHERE EXISTS (SELECT 1 FROM exclusion e WHERE e.campaign_id = $1 AND e.user_id = c.id)
         OR c.id IN (${EXCLUDED_BY_IDENTITY} AND i.user_id = c.id)`,
    [campaignId, candidates],
  );
  return new Set(rows.map((r) => r.user_id));
}

/**
 * Adds adjustments to the served score rows of a campaign (creating rows that do not exist), in one
 * statement. An adjustment changes score, total and lifetime, never the tier or the referral score.
 */
export async function addAdjustmentScores(q: Queryable, campaignId: string, deltas: readonly AdjustmentDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const rows = deltas.map((d) => ({ user_id: d.userId, currency: d.currency, score: d.score, lifetime: d.lifetime, reached_at: d.at }));
  await q.query(
    `INSERT INTO score AS s (campaign_id, user_id, currency, score, referral_score, total, lifetime, tier, reached_at, updated_at)
     SELECT $1, d.user_id, d.currency, d.score, 0, d.score, d.lifetime, NULL, d.reached_at, now()
       FROM json_to_recordset($2::json) AS d(user_id uuid, currency text, score numeric, lifetime numeric, reached_at timestamptz)
      ORDER BY d.user_id, d.currency
     ON CONFLICT (campaign_id, user_id, currency) DO UPDATE SET
       score = s.score + EXCLUDED.score,
       total = s.total + EXCLUDED.score,
       lifetime = s.lifetime + EXCLUDED.lifetime,
       reached_at = GREATEST(s.reached_at, EXCLUDED.reached_at),
       updated_at = now()`,
    [campaignId, JSON.stringify(rows)],
  );
}

/** Every adjustment of a campaign, oldest first, a reversal with the time of the adjustment it reverses. */
export async function readAdjustments(q: Queryable, campaignId: string): Promise<Adjustment[]> {
  const { rows } = await q.query<{ user_id: string; currency: string; points: string; created_at: Date; reversed_at: Date | null }>(
    `SELECT a.user_id, a.currency, a.points::text, a.created_at, o.created_at AS reversed_at
       FROM score_adjustment a LEFT JOIN score_adjustment o ON o.id = a.reverses_id
      WHERE a.campaign_id = $1 ORDER BY a.id`,
    [campaignId],
  );
  return rows.map((r) => ({
    userId: r.user_id,
    currency: r.currency,
    points: r.points,
    createdAt: r.created_at,
    ...(r.reversed_at ? { decaysFrom: r.reversed_at } : {}),
  }));
}
