// The order of every leaderboard (public board and operator preview): one SQL definition of the top of a board.
import type { Queryable } from "./statement-queue";

/** What a board ranks by: the stored total (`earned`) or the stored balance, total - spent floored at 0 (`balance`). */
export type RankingColumn = "total" | "balance";

/** A user's place on a board: competition rank (1, 2, 2, 4) by the ranking column. */
export interface BoardPlace {
  user_id: string;
  rank: number;
}

/** The score column a campaign's `leaderboard_ranking` setting ranks by: balance for `balance`, total otherwise. */
export function rankingColumnOf(ranking: string | null | undefined): RankingColumn {
  return ranking === "balance" ? "balance" : "total";
}

/**
 * Which score rows are on a board, as a condition on `score`'s own columns (unqualified, for a WHERE over
 * `score` alone): every row but one that carries nothing earned (own, referral or adjusted: total and
 * lifetime 0) and only a spend. setSpentScores keeps those rows so a spend outlives a recompute that pays
 * the user nothing, but a user with no points paid is on no board (read API) and ranks as nobody.
 * The two board indexes are partial with this very condition (migration 20261202000000_on_board_indexes),
 * which is what lets a rank count be answered from the index alone: change it and them together.
 */
export const ON_BOARD_SQL = "(total <> 0 OR lifetime <> 0 OR spent = 0)";

/**
 * The board order everywhere: the ranking value descending, then earliest to reach it, then user id (a
 * stable last word). Stored values of a currency share one decay factor, so this is also the order of
 * the decayed values. `col` is one of the two column names above, never input. Parameters: campaign id,
 * currency, limit.
 */
export const topOfBoardSql = (col: RankingColumn): string => `
  SELECT t.user_id, rank() OVER (ORDER BY t.total DESC) AS rank
    FROM (SELECT user_id, ${col} AS total, reached_at FROM score
           WHERE campaign_id = $1 AND currency = $2 AND ${ON_BOARD_SQL}
           ORDER BY ${col} DESC, reached_at ASC, user_id ASC
           LIMIT $3) t
   ORDER BY t.total DESC, t.reached_at ASC, t.user_id ASC`;

/**
 * The first `limit` users of a campaign's board in a currency with competition ranks. Only the top rows
 * are read, through the (campaign_id, currency, total DESC, reached_at) index (or its balance twin);
 * ranking inside them is exact because every row with a higher value than a top row is itself a top row.
 */
export async function topOfBoard(q: Queryable, campaignId: string, currency: string, limit: number, col: RankingColumn = "total"): Promise<BoardPlace[]> {
  const { rows } = await q.query<{ user_id: string; rank: string }>(topOfBoardSql(col), [campaignId, currency, limit]);
  return rows.map((r) => ({ user_id: r.user_id, rank: Number(r.rank) }));
}
