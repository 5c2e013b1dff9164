import { NotFoundError } from "@pointwise/errors";
import type { LeaderboardResponse } from "@pointwise/schemas";
import type { Deps } from "./deps";
import { displayOf } from "./privacy";

/** The default bad-word list every campaign starts with; campaigns add their own. */
export const DEFAULT_BAD_WORDS: readonly string[] = ["admin", "moderator", "support", "fuck", "shit", "bitch", "cunt", "nigger", "faggot", "nazi"];

interface Row {
  user_id: string;
  rank: string;
  display_name: string | null;
  secret_seed: string;
}

/**
 * Builds the leaderboard of a campaign from PostgreSQL: ordered by the primary currency's total,
 * ties share a rank (competition ranking) and are listed earliest-to-reach first.
 */
export async function buildLeaderboard(deps: Deps, campaignId: string, limit: number, now: Date = new Date()): Promise<LeaderboardResponse> {
  const { pool } = deps.db;
  const { rows: campaigns } = await pool.query<{ currencies: Record<string, string>; primary_currency: string; bad_words: string[] }>(
    "SELECT currencies, primary_currency, bad_words FROM campaign WHERE id = $1",
    [campaignId],
  );
  const campaign = campaigns[0];
  if (!campaign) throw new NotFoundError(`campaign ${campaignId} not found`, { code: "campaign-not-found" });
  const { rows } = await pool.query<Row>(
    `SELECT s.user_id, rank() OVER (ORDER BY s.total DESC) AS rank, u.display_name, u.secret_seed
       FROM score s JOIN app_user u ON u.id = s.user_id
      WHERE s.campaign_id = $1 AND s.currency = $2
      ORDER BY s.total DESC, s.reached_at ASC, s.user_id ASC
      LIMIT $3`,
    [campaignId, campaign.primary_currency, limit],
  );
  const userIds = rows.map((r) => r.user_id);
  const { rows: scoreRows } = await pool.query<{ user_id: string; currency: string; score: string; referral_score: string; total: string }>(
    "SELECT user_id, currency, score, referral_score, total FROM score WHERE campaign_id = $1 AND user_id = ANY($2::uuid[])",
    [campaignId, userIds],
  );
  const { rows: xRows } = await pool.query<{ user_id: string; account_id: string }>(
    "SELECT user_id, account_id FROM identity WHERE campaign_id = $1 AND identity_type = 'X_USERNAME' AND user_id = ANY($2::uuid[])",
    [campaignId, userIds],
  );
  const xOf = new Map(xRows.map((r) => [r.user_id, r.account_id]));
  const scoresOf = new Map<string, Record<string, { score: number; referral_score: number; total: number }>>();
  for (const s of scoreRows) {
    const m = scoresOf.get(s.user_id) ?? {};
    m[s.currency] = { score: Number(s.score), referral_score: Number(s.referral_score), total: Number(s.total) };
    scoresOf.set(s.user_id, m);
  }
  const badWords = [...DEFAULT_BAD_WORDS, ...campaign.bad_words];
  const urls = { avatarProxyUrl: deps.env.AVATAR_PROXY_URL, generatedAvatarUrl: deps.env.GENERATED_AVATAR_URL };
  return {
    campaign_id: campaignId,
    cached_at: now.toISOString(),
    currency_names: campaign.currencies,
    entries: rows.map((r) => ({
      rank: Number(r.rank),
      user_id: r.user_id,
      ...displayOf({ displayName: r.display_name, xUsername: xOf.get(r.user_id) ?? null, secretSeed: r.secret_seed }, badWords, urls),
      scores: scoresOf.get(r.user_id) ?? {},
    })),
  };
}
