// Admin routes of a campaign's redemptions: the list with lineage, and fulfilling or rejecting (refunding) a manual reward's redemption.
import { addSpent, REDEMPTION_COLUMNS, type RedemptionRow, redemptionJson } from "@pointwise/db";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import { storedSpend } from "@pointwise/rules";
import { parseWith } from "@pointwise/runtime";
import { type ScoresChanged, scoresChangeOf } from "@pointwise/schemas";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { activeRulesIn } from "../adjustments";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

const STATUSES = ["delivered", "pending", "fulfilled", "rejected", "claimable"] as const;
const listQuery = z.strictObject({
  status: z.enum(STATUSES, { message: `must be one of ${STATUSES.join(", ")}` }).optional(),
  reward_id: z.string().optional(),
  user_id: z.string().optional(),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 500" })
    .int("must be a whole number from 1 to 500")
    .min(1, "must be a whole number from 1 to 500")
    .max(500, "must be a whole number from 1 to 500")
    .optional(),
});
const fulfilBody = z.strictObject({ note: z.string().trim().max(500, "must be at most 500 characters").optional() });
const rejectBody = z.strictObject({
  note: z.string({ message: "must say why (the user sees it)" }).trim().min(1, "must not be empty").max(500, "must be at most 500 characters"),
});

/** Redemptions of a campaign: what was spent, by whom, with its lineage; manual ones are fulfilled or rejected here. */
export function redemptionRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  router.get("/api/campaigns/:id/redemptions", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const query = parseWith(listQuery, req.query);
    const rewardId = query.reward_id === undefined ? null : uuidParam(query.reward_id, "reward_id");
    const userId = query.user_id === undefined ? null : uuidParam(query.user_id, "user_id");
    const { rows } = await db.query<RedemptionRow>(
      `SELECT ${REDEMPTION_COLUMNS} FROM redemption r JOIN reward w ON w.id = r.reward_id
        WHERE r.campaign_id = $1 AND ($2::text IS NULL OR r.status = $2) AND ($3::uuid IS NULL OR r.reward_id = $3) AND ($4::uuid IS NULL OR r.user_id = $4)
        ORDER BY r.created_at DESC, r.id DESC LIMIT $5`,
      [campaign.id, query.status ?? null, rewardId, userId, query.limit ?? 100],
    );
    // Voucher codes are never shown to operators: only their owner sees them (portal API).
    res.json({ redemptions: rows.map((r) => redemptionJson(r)) });
  });

  // Moves a pending (manual) redemption on; a rejection gives the points back and the stock back, under the apply lock.
  async function decide(req: Request<{ id: string; redemptionId: string }>, res: Response, to: "fulfilled" | "rejected") {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = uuidParam(req.params.redemptionId, "redemption_id");
    const note = to === "rejected" ? parseWith(rejectBody, req.body ?? {}).note : (parseWith(fulfilBody, req.body ?? {}).note ?? null);
    const { json, change } = await db.transaction(async (tx) => {
      await tx.lockCampaign("apply", campaign.id);
      const select = `SELECT ${REDEMPTION_COLUMNS} FROM redemption r JOIN reward w ON w.id = r.reward_id WHERE r.id = $1 AND r.campaign_id = $2`;
      const { rows } = await tx.query<RedemptionRow>(`${select} FOR UPDATE OF r`, [id, campaign.id]);
      const before = rows[0];
      if (!before) throw new NotFoundError(`redemption ${id} not found`, { code: "redemption-not-found" });
      if (before.status !== "pending")
        throw new ConflictError("redemption-not-pending", `redemption ${id} is ${before.status}; only pending (manual) redemptions are fulfilled or rejected`);
      await tx.query("UPDATE redemption SET status = $2, status_note = $3, status_at = now() WHERE id = $1", [id, to, note]);
      let change: ScoresChanged | null = null;
      if (to === "rejected") {
        const rules = await activeRulesIn(tx, campaign.id);
        const refund = storedSpend(rules, before.currency, before.price, before.created_at);
        const refunded = await addSpent(tx, campaign.id, before.user_id, before.currency, `-${refund}`);
        await tx.query("UPDATE reward SET stock = stock + 1, updated_at = now() WHERE id = $1 AND stock IS NOT NULL", [before.reward_id]);
        // Score rows exist only under an active version (none is ever deactivated), so a refund without one changed nothing served.
        if (refunded && rules)
          change = scoresChangeOf({
            campaignId: campaign.id,
            reason: "redemptions",
            ruleVersion: rules.version,
            rows: [{ userId: before.user_id, currency: before.currency }],
            lastSeq: null,
            now: new Date(),
          });
      }
      const after = redemptionJson((await tx.query<RedemptionRow>(select, [id, campaign.id])).rows[0] as RedemptionRow);
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: to === "fulfilled" ? "redemption.fulfil" : "redemption.reject",
        target: `redemption:${id}`,
        before: redemptionJson(before),
        after,
      });
      return { json: after, change };
    });
    // After the commit: the user's balance shows the refund at once in the read API.
    deps.ingest.announce(change);
    deps.logger.info({ campaign_id: campaign.id, redemption_id: id, status: to, operator_id: session.operatorId }, "redemption decided");
    res.json(json);
  }

  router.post("/api/campaigns/:id/redemptions/:redemptionId/fulfil", (req, res) => decide(req, res, "fulfilled"));
  router.post("/api/campaigns/:id/redemptions/:redemptionId/reject", (req, res) => decide(req, res, "rejected"));

  return router;
}
