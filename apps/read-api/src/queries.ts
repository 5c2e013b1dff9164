// The read API's SQL: top of a board, a user's neighbours, ranks and user records, index-friendly.
import { ON_BOARD_SQL, type Queryable, type RankingColumn, topOfBoard, topOfBoardSql } from "@pointwise/db";
import { fromDatabase } from "./db-errors";
import type { StoredScore } from "./scores";

/** A user's place on a board: competition rank by the primary currency's stored total. */
export interface RankedUser {
  user_id: string;
  rank: number;
}

/** What the display rules and score objects need about one user; never sent as it is. */
export interface UserRecord {
  user_id: string;
  display_name: string | null;
  secret_seed: string;
  scores: StoredScore[];
  identities: { type: string; account_id: string; handle: string | null }[];
}

/** What a board ranks by: the stored total (`earned`) or the stored balance, total - spent floored at 0 (`balance`). */
export type { RankingColumn };

/**
 * The first `limit` users of a campaign's board with competition ranks (1, 2, 2, 4), in the board order
 * every leaderboard shares (@pointwise/db's `topOfBoard`).
 */
export async function topUsers(pool: Queryable, campaignId: string, currency: string, limit: number, col: RankingColumn = "total"): Promise<RankedUser[]> {
  return fromDatabase(() => topOfBoard(pool, campaignId, currency, limit, col));
}

/** The SQL of `topUsers` by total, for plan checks. */
export const TOP_USERS_SQL = topOfBoardSql("total");

// The user's own row is read once; its values are passed on as scalar subqueries (InitPlans), so
// each neighbour branch is an index range scan that starts at the user instead of a filtered walk.
const aroundSql = (col: RankingColumn) => `
  WITH me AS MATERIALIZED (
    SELECT user_id, ${col} AS total, reached_at FROM score WHERE campaign_id = $1 AND currency = $2 AND user_id = $3 AND ${ON_BOARD_SQL}
  ), above AS (
    SELECT * FROM (
      (SELECT s.user_id, s.${col} AS total, s.reached_at FROM score s
        WHERE s.campaign_id = $1 AND s.currency = $2 AND ${ON_BOARD_SQL} AND s.${col} = (SELECT total FROM me)
          AND (s.reached_at, s.user_id) < (SELECT reached_at, user_id FROM me)
        ORDER BY s.reached_at DESC, s.user_id DESC LIMIT $4)
      UNION ALL
      (SELECT s.user_id, s.${col} AS total, s.reached_at FROM score s
        WHERE s.campaign_id = $1 AND s.currency = $2 AND ${ON_BOARD_SQL} AND s.${col} > (SELECT total FROM me)
        ORDER BY s.${col} ASC, s.reached_at DESC, s.user_id DESC LIMIT $4)
    ) a ORDER BY a.total ASC, a.reached_at DESC, a.user_id DESC LIMIT $4
  ), below AS (
    SELECT * FROM (
      (SELECT s.user_id, s.${col} AS total, s.reached_at FROM score s
        WHERE s.campaign_id = $1 AND s.currency = $2 AND ${ON_BOARD_SQL} AND s.${col} = (SELECT total FROM me)
          AND (s.reached_at, s.user_id) > (SELECT reached_at, user_id FROM me)
        ORDER BY s.reached_at ASC, s.user_id ASC LIMIT $4)
      UNION ALL
      (SELECT s.user_id, s.${col} AS total, s.reached_at FROM score s
        WHERE s.campaign_id = $1 AND s.currency = $2 AND ${ON_BOARD_SQL} AND s.${col} < (SELECT total FROM me)
        ORDER BY s.${col} DESC, s.reached_at ASC, s.user_id ASC LIMIT $4)
    ) b ORDER BY b.total DESC, b.reached_at ASC, b.user_id ASC LIMIT $4
  ), win AS MATERIALIZED (
    SELECT * FROM above UNION ALL SELECT * FROM me UNION ALL SELECT * FROM below
  ), counts AS MATERIALIZED (
    SELECT t.top,
           (SELECT count(*) FROM score WHERE campaign_id = $1 AND currency = $2 AND ${ON_BOARD_SQL} AND ${col} > t.top) AS greater,
           (SELECT count(*) FROM score WHERE campaign_id = $1 AND currency = $2 AND ${ON_BOARD_SQL} AND ${col} = t.top) AS equal
      FROM (SELECT max(total) AS top FROM win) t
  )
  SELECT w.user_id,
         CASE WHEN w.total = c.top THEN c.greater + 1
              ELSE c.greater + c.equal + (SELECT count(*) FROM win x WHERE x.total > w.total AND x.total < c.top) + 1
         END AS rank
    FROM win w, counts c
   ORDER BY w.total DESC, w.reached_at ASC, w.user_id ASC`;

/**
 * The user and up to `n` neighbours on each side, in board order with competition ranks; empty when
 * the user has no score in the currency. Ranks need two counts at the window's highest value (rows
 * above it, rows equal to it); every other rank follows from the rows inside the window.
 */
export async function usersAround(
  pool: Queryable,
  campaignId: string,
  currency: string,
  userId: string,
  n: number,
  col: RankingColumn = "total",
): Promise<RankedUser[]> {
  const { rows } = await fromDatabase(() => pool.query<{ user_id: string; rank: string }>(aroundSql(col), [campaignId, currency, userId, n]));
  return rows.map((r) => ({ user_id: r.user_id, rank: Number(r.rank) }));
}

/** Competition rank of a user in a currency; a user without a row counts as 0. */
export async function rankOf(pool: Queryable, campaignId: string, currency: string, userId: string, col: RankingColumn = "total"): Promise<number> {
  const { rows } = await fromDatabase(() =>
    pool.query<{ rank: string }>(
      `SELECT count(*) + 1 AS rank FROM score
        WHERE campaign_id = $1 AND currency = $2 AND ${ON_BOARD_SQL}
          AND ${col} > COALESCE((SELECT ${col} FROM score WHERE campaign_id = $1 AND currency = $2 AND user_id = $3 AND ${ON_BOARD_SQL}), 0)`,
      [campaignId, currency, userId],
    ),
  );
  return Number(rows[0]?.rank ?? 1);
}

/** Names, seeds, identities and every score row of the given users of a campaign, keyed by user id. */
export async function loadUsers(pool: Queryable, campaignId: string, userIds: readonly string[]): Promise<Map<string, UserRecord>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await fromDatabase(() =>
    pool.query<UserRecord>(
      `SELECT u.id AS user_id, u.display_name, u.secret_seed,
              COALESCE((SELECT json_agg(json_build_object('currency', s.currency, 'score', s.score::text,
                          'referral_score', s.referral_score::text, 'total', s.total::text, 'spent', s.spent::text,
                          'balance', s.balance::text, 'tier', s.tier))
                          FROM score s WHERE s.campaign_id = u.campaign_id AND s.user_id = u.id), '[]') AS scores,
              COALESCE((SELECT json_agg(json_build_object('type', i.identity_type, 'account_id', i.account_id, 'handle', i.handle)
                          ORDER BY i.created_at, i.id)
                          FROM identity i WHERE i.campaign_id = u.campaign_id AND i.user_id = u.id), '[]') AS identities
         FROM app_user u
        WHERE u.campaign_id = $1 AND u.id = ANY($2::uuid[])`,
      [campaignId, userIds],
    ),
  );
  return new Map(rows.map((r) => [r.user_id, r]));
}

/** The campaign a user belongs to, or null for an unknown user. */
export async function campaignOfUser(pool: Queryable, userId: string): Promise<string | null> {
  const { rows } = await fromDatabase(() => pool.query<{ campaign_id: string }>("SELECT campaign_id FROM app_user WHERE id = $1", [userId]));
  return rows[0]?.campaign_id ?? null;
}
