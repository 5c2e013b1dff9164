// Admin routes for operator adjustments of a campaign: list, grant or deduct, reverse, and bulk upload by CSV.
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { IDENTITY_TYPES, type IdentityType, isBigintId, isIdentityType, keysetPage, normalizeAccountId, ZERO_EVM_ADDRESS } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { adjustmentRequestHash, rememberAnswer, rememberedAnswer } from "../adjustment-requests";
import {
  ADJUSTMENT_COLUMNS,
  type AdjustmentRow,
  activeRulesIn,
  adjustmentJson,
  appendAdjustments,
  checkAdjustment,
  currencyProblem,
  type NewAdjustment,
  pointsProblem,
} from "../adjustments";
import { recordAudit } from "../audit";
import { type ListRowError, nulProblem, parseList } from "../csv-list";
import type { Deps } from "../deps";
import { idempotencyKeyOf } from "../idempotency-key";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";
import { readCsvBody } from "./exclusions";

const ANSWER_ROW_ERRORS = 1000;
const ID_MESSAGE = "must be an adjustment id: a whole number from 1 to 9223372036854775807";
const adjustmentId = z.string({ message: ID_MESSAGE }).refine(isBigintId, ID_MESSAGE);
const reason = z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters");
const createBody = z.union(
  [
    z.strictObject({
      user_id: z.string(),
      currency: z.string().min(1, "must not be empty"),
      points: z.string({ message: "must be a decimal string" }),
      reason,
    }),
    z.strictObject({ reverses: adjustmentId, reason }),
  ],
  { message: "must give user_id, currency, points and reason (a grant or deduction), or reverses and reason (a reversal)" },
);
const listQuery = z.strictObject({
  user_id: z.string().optional(),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 500" })
    .int("must be a whole number from 1 to 500")
    .min(1, "must be a whole number from 1 to 500")
    .max(500, "must be a whole number from 1 to 500")
    .optional(),
  before: adjustmentId.optional(),
});
const importQuery = z.strictObject({ mode: z.enum(["all-or-nothing", "accept-valid"], { message: "must be all-or-nothing or accept-valid" }).optional() });

/** Adjustments of a campaign: append-only, so a mistake is undone by a reversal, never by an edit. */
export function adjustmentRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  router.get("/api/campaigns/:id/adjustments", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const query = parseWith(listQuery, req.query);
    const userId = query.user_id === undefined ? null : uuidParam(query.user_id, "user_id");
    const limit = query.limit ?? 100;
    const { rows } = await db.query<AdjustmentRow>(
      `SELECT ${ADJUSTMENT_COLUMNS} FROM score_adjustment a
        WHERE a.campaign_id = $1 AND ($2::uuid IS NULL OR a.user_id = $2) AND ($3::bigint IS NULL OR a.id < $3)
        ORDER BY a.id DESC LIMIT $4`,
      [campaign.id, userId, query.before ?? null, limit + 1],
    );
    const { page, nextBefore } = keysetPage(rows, limit);
    res.json({ adjustments: page.map(adjustmentJson), next_before: nextBefore });
  });

  router.post("/api/campaigns/:id/adjustments", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const key = idempotencyKeyOf(req);
    const body = parseWith(createBody, req.body);
    const hash = adjustmentRequestHash("single", JSON.stringify(body));
    const outcome = await db.transaction(async (tx) => {
      await tx.lockCampaign("apply", campaign.id);
      const replay = key === undefined ? null : await rememberedAnswer(tx, campaign.id, key, hash);
      if (replay !== null) return { replay };
      let item: NewAdjustment;
      if ("reverses" in body) {
        const { rows } = await tx.query<AdjustmentRow>(`SELECT ${ADJUSTMENT_COLUMNS} FROM score_adjustment a WHERE a.id = $1 AND a.campaign_id = $2`, [
          body.reverses,
          campaign.id,
        ]);
        const original = rows[0];
        if (!original) throw new NotFoundError(`adjustment ${body.reverses} not found`, { code: "adjustment-not-found" });
        if (original.reversed_by_id)
          throw new ConflictError("adjustment-already-reversed", `adjustment ${original.id} was already reversed by adjustment ${original.reversed_by_id}`);
        if (original.reverses_id)
          throw new ConflictError("adjustment-is-reversal", `adjustment ${original.id} is itself a reversal; make a new adjustment instead`);
        const negated = original.points.startsWith("-") ? original.points.slice(1) : `-${original.points}`;
        item = {
          userId: original.user_id,
          currency: original.currency,
          points: negated,
          reason: body.reason,
          reversesId: original.id,
          reversesAt: original.created_at,
        };
      } else {
        const userId = uuidParam(body.user_id, "user_id");
        const { rows } = await tx.query<{ zero: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM identity i WHERE i.user_id = u.id AND i.identity_type = 'EVM_ADDRESS' AND i.account_id = $3) AS zero
             FROM app_user u WHERE u.id = $1 AND u.campaign_id = $2`,
          [userId, campaign.id, ZERO_EVM_ADDRESS],
        );
        const user = rows[0];
        if (!user) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
        // As in a CSV list: the zero address earned points only before ingest refused it, and gets no adjustment now.
        if (user.zero)
          throw new ValidationError(`user_id: user ${userId} holds the EVM zero address, which no wallet holds; exclude the user instead`, {
            field: "user_id",
          });
        item = { userId, currency: body.currency, points: body.points.trim(), reason: body.reason };
        checkAdjustment(item, campaign, await activeRulesIn(tx, campaign.id));
      }
      const { created, change } = await appendAdjustments(tx, session, campaign, [item]);
      const json = adjustmentJson(created[0] as AdjustmentRow);
      await recordAudit(tx, session, { campaignId: campaign.id, action: "adjustment.create", target: `user:${json.user_id}`, after: json });
      const text = JSON.stringify(json);
      if (key !== undefined) await rememberAnswer(tx, campaign.id, key, hash, text);
      return { id: json.id, text, change };
    });
    if ("replay" in outcome) {
      res.status(200).set("Idempotent-Replayed", "true").type("application/json").send(outcome.replay);
      return;
    }
    // After the commit, never inside the transaction: readers must not drop a cache and rebuild it before the change is visible.
    deps.ingest.announce(outcome.change);
    deps.logger.info({ campaign_id: campaign.id, adjustment_id: outcome.id, operator_id: session.operatorId }, "adjustment made");
    res.status(201).type("application/json").send(outcome.text);
  });

  router.post("/api/campaigns/:id/adjustments/csv", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const query = parseWith(importQuery, req.query);
    const key = idempotencyKeyOf(req);
    const file = await readCsvBody(req, res);
    const list = parseList(file, ["identity_type", "account_id", "currency", "points", "reason"], []);
    const mode = query.mode ?? "all-or-nothing";
    const hash = adjustmentRequestHash("csv", Buffer.concat([Buffer.from(`${mode}\n`), file]));
    const outcome = await db.transaction(async (tx) => {
      await tx.lockCampaign("apply", campaign.id);
      const replay = key === undefined ? null : await rememberedAnswer(tx, campaign.id, key, hash);
      if (replay !== null) return { replay };
      const rules = await activeRulesIn(tx, campaign.id);
      const errors: ListRowError[] = [];
      const items: NewAdjustment[] = [];
      for (const row of list) {
        const v = row.values as Record<"identity_type" | "account_id" | "currency" | "points" | "reason", string>;
        const fail = (message: string, code = "validation-failed") => errors.push({ line: row.line, code, message });
        const nul = nulProblem(row);
        if (nul) {
          fail(nul);
          continue;
        }
        if (!isIdentityType(v.identity_type)) {
          fail(`identity_type: must be one of ${IDENTITY_TYPES.join(", ")}`);
          continue;
        }
        let accountId: string;
        try {
          // An adjustment brings new points in: an identity nobody can hold (the EVM zero address) gets none; exclude it instead.
          accountId = normalizeAccountId(v.identity_type as IdentityType, v.account_id, { entry: true });
        } catch (err) {
          fail((err as Error).message, (err as { code?: string }).code);
          continue;
        }
        const problem = currencyProblem(v.currency, campaign) ?? pointsProblem(v.points, v.currency, rules);
        if (problem) {
          fail(problem);
          continue;
        }
        if (!v.reason || v.reason.length > 500) {
          fail(v.reason ? "reason: must be at most 500 characters" : "reason: must not be empty");
          continue;
        }
        const { rows } = await tx.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3", [
          campaign.id,
          v.identity_type,
          accountId,
        ]);
        const userId = rows[0]?.user_id;
        if (!userId) {
          fail(`no user has the ${v.identity_type} ${accountId} in this campaign`, "user-not-found");
          continue;
        }
        items.push({ userId, currency: v.currency, points: v.points, reason: v.reason });
      }
      const answer = (status: "rejected" | "done", created: number, importId: string | null) =>
        JSON.stringify({
          status,
          import_id: importId,
          rows_read: list.length,
          rows_valid: list.length - errors.length,
          rows_invalid: errors.length,
          created,
          invalid_rows: errors.slice(0, ANSWER_ROW_ERRORS),
          invalid_rows_truncated: errors.length > ANSWER_ROW_ERRORS,
        });
      if (mode === "all-or-nothing" && errors.length > 0) return { text: answer("rejected", 0, null), change: null };
      const { rows: ids } = await tx.query<{ id: string }>("SELECT gen_random_uuid() AS id");
      const importId = ids[0]?.id as string;
      const { created, change } = await appendAdjustments(tx, session, campaign, items, { importId });
      // An upload that made nothing is not remembered: sent again, it is checked again.
      if (created.length === 0) return { text: answer("done", 0, null), change };
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: "adjustment.import",
        target: `adjustment-import:${importId}`,
        after: { count: created.length, rows_invalid: errors.length, sample: created.slice(0, 20).map(adjustmentJson) },
      });
      const text = answer("done", created.length, importId);
      if (key !== undefined) await rememberAnswer(tx, campaign.id, key, hash, text);
      return { text, change };
    });
    if ("replay" in outcome) {
      res.set("Idempotent-Replayed", "true").type("application/json").send(outcome.replay);
      return;
    }
    deps.ingest.announce(outcome.change);
    res.type("application/json").send(outcome.text);
  });

  return router;
}
