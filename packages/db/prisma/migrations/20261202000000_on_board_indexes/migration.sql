-- The board indexes hold only the rows that are on a board: the predicate is ON_BOARD_SQL of
-- packages/db/src/leaderboard.ts, word for word, so every board query and rank count (which all filter
-- by it) can use them, and a rank count is an index-only scan again instead of reading lifetime and
-- spent from the table for every row it counts. Rows of users who only spent are left out of them.
-- Prisma's schema cannot express a partial index; the models keep these names (see scoring.prisma).
DROP INDEX "score_campaign_id_currency_total_reached_at_idx";
CREATE INDEX "score_campaign_id_currency_total_reached_at_idx" ON "score"("campaign_id", "currency", "total" DESC, "reached_at")
    WHERE ("total" <> 0 OR "lifetime" <> 0 OR "spent" = 0);

DROP INDEX "score_balance_idx";
CREATE INDEX "score_balance_idx" ON "score"("campaign_id", "currency", "balance" DESC, "reached_at")
    WHERE ("total" <> 0 OR "lifetime" <> 0 OR "spent" = 0);
