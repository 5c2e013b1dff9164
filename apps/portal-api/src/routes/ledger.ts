// The signed-in participant's own ledger: what earned them what (event awards) and the operators' grants and deductions.
import { ACTIVE_RULE_VERSION_SQL, excludedUsers } from "@pointwise/db";
import { trimDecimal } from "@pointwise/fixed";
import { parseWith } from "@pointwise/runtime";
import { isBigintId, keysetPage } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { participantOf } from "../bearer";
import type { Deps } from "../deps";

const pageSchema = z.strictObject({
  limit: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(200, "must be at most 200").optional(),
  // Ids are PostgreSQL bigints: 19 digits may still be past 2^63 - 1, which the query could not take.
  before: z.string().refine(isBigintId, "must be an entry id").optional(),
});

/**
 * Routes under /me (mounted behind the participant's token by meRoutes): the ledger entries and the
 * adjustments, each paged newest first, each saying whether the user is excluded.
 */
export function ledgerRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  // A user is excluded when the user or any identity they own is (docs/decisions.md, Fair play). Only
  // the fact is told: which identity, the scope and the reason are the operators' and stay with them.
  const isExcluded = async (campaignId: string, userId: string) => (await excludedUsers(db, campaignId, [userId])).has(userId);

  router.get("/me/ledger", async (req, res) => {
    const me = participantOf(res.locals);
    const query = parseWith(pageSchema, req.query);
    const limit = query.limit ?? 50;
    // The entries of the rule version in force; a referral entry's event is the referred user's, so it shows no identity.
    const { rows } = await db.query<{
      id: string;
      currency: string;
      kind: string;
      rule_id: string;
      paid: string;
      event_id: string;
      event_type: string | null;
      amount: string | null;
      occurred_at: Date | null;
    }>(
      `SELECT l.id::text AS id, l.currency, l.kind, l.rule_id, (l.points - l.capped_points)::text AS paid, l.event_id,
              t.name AS event_type, e.amount::text AS amount, e.occurred_at
         FROM ledger_entry l
         LEFT JOIN event_log e ON e.id = l.event_id
         LEFT JOIN event_type t ON t.id = e.reg_event_id
        WHERE l.campaign_id = $1 AND l.user_id = $2
          AND l.rule_version = ${ACTIVE_RULE_VERSION_SQL}
          AND ($3::bigint IS NULL OR l.id < $3)
        ORDER BY l.id DESC LIMIT $4`,
      [me.campaignId, me.userId, query.before ?? null, limit + 1],
    );
    const { page, nextBefore } = keysetPage(rows, limit);
    res.json({
      user_id: me.userId,
      excluded: await isExcluded(me.campaignId, me.userId),
      entries: page.map((r) => ({
        id: r.id,
        currency: r.currency,
        kind: r.kind,
        rule_id: r.rule_id,
        points: trimDecimal(r.paid),
        event: {
          id: r.event_id,
          event_type: r.event_type,
          amount: r.kind === "referral" || r.amount === null ? null : trimDecimal(r.amount),
          occurred_at: r.occurred_at?.toISOString() ?? null,
        },
      })),
      next_before: nextBefore,
    });
  });

  // Grants and deductions: the amount, currency and time, and which reverses which. The operator who
  // made one and the reason they wrote are for the audit trail, not for the participant.
  router.get("/me/adjustments", async (req, res) => {
    const me = participantOf(res.locals);
    const query = parseWith(pageSchema, req.query);
    const limit = query.limit ?? 50;
    const { rows } = await db.query<{
      id: string;
      currency: string;
      points: string;
      reverses_id: string | null;
      reversed_by_id: string | null;
      created_at: Date;
    }>(
      `SELECT a.id::text, a.currency, a.points::text, a.reverses_id::text,
              (SELECT r.id::text FROM score_adjustment r WHERE r.reverses_id = a.id) AS reversed_by_id, a.created_at
         FROM score_adjustment a
        WHERE a.campaign_id = $1 AND a.user_id = $2 AND ($3::bigint IS NULL OR a.id < $3)
        ORDER BY a.id DESC LIMIT $4`,
      [me.campaignId, me.userId, query.before ?? null, limit + 1],
    );
    const { page, nextBefore } = keysetPage(rows, limit);
    res.json({
      user_id: me.userId,
      excluded: await isExcluded(me.campaignId, me.userId),
      adjustments: page.map((r) => ({
        id: r.id,
        currency: r.currency,
        kind: r.points.startsWith("-") ? "deduction" : "grant",
        points: trimDecimal(r.points),
        reverses_id: r.reverses_id,
        reversed_by_id: r.reversed_by_id,
        created_at: r.created_at.toISOString(),
      })),
      next_before: nextBefore,
    });
  });

  return router;
}
