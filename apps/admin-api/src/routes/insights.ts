// Admin routes for what operators watch: live leaderboard preview, top users' points chart, user ledgers.
import { rankingColumnOf, topOfBoard } from "@pointwise/db";
import { NotFoundError, ValidationError } from "@pointwise/errors";
import { trimDecimal } from "@pointwise/fixed";
import { parseWith } from "@pointwise/runtime";
import { isBigintId, keysetPage, PG_BIGINT_MAX } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { userLabels } from "../campaign-log";
import { buildSeries, type ChartBucket, type CumulativeRow } from "../chart";
import type { Deps } from "../deps";
import { type Campaign, loadCampaign, uuidParam } from "../scope";
import { activeRules, readableBalance, readableScore, type StoredScore } from "../scores";
import { sessionOf } from "../session";

const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,7}$/, "must be a whole number")
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

const leaderboardQuery = z.strictObject({ currency: z.string().optional(), limit: intParam(1, 1000).optional() });
const chartQuery = z.strictObject({
  currency: z.string().optional(),
  top: intParam(1, 10).optional(),
  bucket: z.enum(["hour", "day"], { message: "must be hour or day" }).optional(),
  points: intParam(2, 400).optional(),
});
const ledgerQuery = z.strictObject({
  limit: intParam(1, 500).optional(),
  // Entry ids are PostgreSQL bigints: a larger number is no entry id, and would fail the query rather than match nothing.
  before: z.string().refine(isBigintId, `must be an entry id from a previous page: a whole number from 1 to ${PG_BIGINT_MAX}`).optional(),
  rule_version: z.union([z.literal("all"), intParam(1, 1_000_000_000)]).optional(),
});

function currencyOf(campaign: Campaign, requested: string | undefined): string {
  const currency = requested ?? campaign.primaryCurrency;
  if (!Object.hasOwn(campaign.currencies as object, currency)) {
    throw new ValidationError(`currency must be one of the campaign's currencies (${Object.keys(campaign.currencies as object).join(", ")})`, {
      field: "currency",
    });
  }
  return currency;
}

/** What operators look at: a fresh leaderboard preview, points over time of the top users, and each user's ledger. */
export function insightRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  // The preview reads the score table directly rather than the public read API: operators want it
  // fresh (no minute-long cache), with identities, for any currency and for archived campaigns too.
  router.get("/api/campaigns/:id/leaderboard", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const query = parseWith(leaderboardQuery, req.query);
    const currency = currencyOf(campaign, query.currency);
    // The public board's order for the campaign's ranking setting (earned total or balance), from the one shared definition.
    const ranking = campaign.leaderboardRanking === "balance" ? "balance" : "earned";
    const rows = await topOfBoard(db, campaign.id, currency, query.limit ?? 50, rankingColumnOf(campaign.leaderboardRanking));
    const userIds = rows.map((r) => r.user_id);
    const [scores, labels, active] = await Promise.all([
      db.query<StoredScore & { user_id: string; spent: string; balance: string }>(
        "SELECT user_id, currency, score::text, referral_score::text, total::text, lifetime::text, tier, spent::text, balance::text FROM score WHERE campaign_id = $1 AND user_id = ANY($2::uuid[])",
        [campaign.id, userIds],
      ),
      userLabels(db, campaign.id, userIds),
      activeRules(deps.db, campaign.id),
    ]);
    const now = new Date();
    const scoresOf = new Map<string, Record<string, StoredScore>>();
    const balancesOf = new Map<string, Record<string, { spent: string; balance: string }>>();
    for (const { user_id, spent, balance, ...s } of scores.rows) {
      const m = scoresOf.get(user_id) ?? {};
      m[s.currency] = readableScore(s, active?.rules ?? null, now);
      scoresOf.set(user_id, m);
      const b = balancesOf.get(user_id) ?? {};
      b[s.currency] = readableBalance({ currency: s.currency, spent, balance }, active?.rules ?? null, now);
      balancesOf.set(user_id, b);
    }
    res.json({
      campaign_id: campaign.id,
      currency,
      currency_names: campaign.currencies,
      ranking,
      rule_version: active?.version ?? null,
      at: now.toISOString(),
      entries: rows.map((r) => ({
        rank: r.rank,
        user_id: r.user_id,
        ...(labels.get(r.user_id) ?? { display_name: null, identity: null }),
        scores: scoresOf.get(r.user_id) ?? {},
        balances: balancesOf.get(r.user_id) ?? {},
      })),
    });
  });

  router.get("/api/campaigns/:id/chart", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const query = parseWith(chartQuery, req.query);
    const currency = currencyOf(campaign, query.currency);
    const bucket: ChartBucket = query.bucket ?? "day";
    const count = query.points ?? (bucket === "day" ? 30 : 48);
    const active = await activeRules(deps.db, campaign.id);
    const now = new Date();
    const from = new Date(now.getTime() - (count - 1) * (bucket === "day" ? 86_400_000 : 3_600_000));
    // The top users of the campaign's board, in its order (earned total or balance), like the preview above.
    const top = await topOfBoard(db, campaign.id, currency, query.top ?? 5, rankingColumnOf(campaign.leaderboardRanking));
    const userIds = top.map((t) => t.user_id);
    // Points are placed at the time their event happened (occurred_at: what "activity on that day" means, and
    // what the rules evaluated it at; a backfilled event lands on its own day, not on the day it arrived), not
    // when the ledger row was written, which a recompute changes. Each user's running total is kept from before
    // the window so lines start at the right height.
    const { rows } = await db.query<{ user_id: string; bucket: Date; cumulative: string }>(
      `WITH per_bucket AS (
         SELECT l.user_id, date_trunc($4, e.occurred_at, 'UTC') AS bucket, sum(l.points - l.capped_points) AS paid
           FROM ledger_entry l JOIN event_log e ON e.id = l.event_id
          WHERE l.campaign_id = $1 AND l.currency = $2 AND l.user_id = ANY($3::uuid[]) AND ($5::int IS NULL OR l.rule_version = $5)
          GROUP BY 1, 2
       ), running AS (
         SELECT user_id, bucket, sum(paid) OVER (PARTITION BY user_id ORDER BY bucket) AS cumulative,
                lead(bucket) OVER (PARTITION BY user_id ORDER BY bucket) AS next
           FROM per_bucket
       )
       SELECT user_id, bucket, cumulative::text AS cumulative FROM running WHERE bucket >= $6 OR next IS NULL OR next > $6`,
      [campaign.id, currency, userIds, bucket, active?.version ?? null, from],
    );
    const series = buildSeries(
      rows.map((r): CumulativeRow => ({ userId: r.user_id, bucket: r.bucket, cumulative: trimDecimal(r.cumulative) })),
      userIds,
      bucket,
      count,
      now,
    );
    const labels = await userLabels(db, campaign.id, userIds);
    res.json({
      campaign_id: campaign.id,
      currency,
      bucket,
      buckets: series.buckets,
      series: series.series.map((s) => ({ user_id: s.userId, ...(labels.get(s.userId) ?? { display_name: null, identity: null }), values: s.values })),
    });
  });

  router.get("/api/campaigns/:id/users/:userId/ledger", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const userId = uuidParam(req.params.userId, "user_id");
    const query = parseWith(ledgerQuery, req.query);
    const { rows: users } = await db.query("SELECT 1 FROM app_user WHERE id = $1 AND campaign_id = $2", [userId, campaign.id]);
    if (users.length === 0) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
    const active = await activeRules(deps.db, campaign.id);
    // By default the entries of the rule version in force; older versions' entries stay for history.
    const version = query.rule_version === "all" ? null : (query.rule_version ?? active?.version ?? null);
    const limit = query.limit ?? 50;
    const { rows } = await db.query(
      `SELECT l.id::text AS id, l.event_id, l.rule_version, l.rule_id, l.currency, l.kind, l.points::text AS points, l.capped_points::text AS capped_points,
              (l.points - l.capped_points)::text AS paid, l.lineage, l.created_at,
              e.reg_event_id, t.name AS event_type, e.amount::text AS amount, e.identity_type, e.account_id, e.source, e.occurred_at, e.received_at
         FROM ledger_entry l
         LEFT JOIN event_log e ON e.id = l.event_id
         LEFT JOIN event_type t ON t.id = e.reg_event_id
        WHERE l.campaign_id = $1 AND l.user_id = $2 AND ($3::int IS NULL OR l.rule_version = $3) AND ($4::bigint IS NULL OR l.id < $4)
        ORDER BY l.id DESC LIMIT $5`,
      [campaign.id, userId, version, query.before ?? null, limit + 1],
    );
    const { page, nextBefore } = keysetPage(rows, limit);
    res.json({
      user_id: userId,
      rule_version: version,
      entries: page.map((r) => ({
        id: r.id,
        rule_version: r.rule_version,
        rule_id: r.rule_id,
        kind: r.kind,
        currency: r.currency,
        points: trimDecimal(r.points),
        capped_points: trimDecimal(r.capped_points),
        paid: trimDecimal(r.paid),
        lineage: r.lineage,
        created_at: (r.created_at as Date).toISOString(),
        event: r.reg_event_id
          ? {
              id: r.event_id,
              reg_event_id: r.reg_event_id,
              event_type: r.event_type,
              amount: trimDecimal(r.amount),
              identity_type: r.identity_type,
              account_id: r.account_id,
              source: r.source,
              occurred_at: (r.occurred_at as Date).toISOString(),
              received_at: (r.received_at as Date).toISOString(),
            }
          : { id: r.event_id },
      })),
      next_before: nextBefore,
    });
  });

  return router;
}
