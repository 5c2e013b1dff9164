// Admin routes for campaigns: create, list, read, update (new dates queue a recompute), archive, restore and their bad-word lists.
import { randomInt } from "node:crypto";
import { isUniqueViolation, type Prisma, type Transaction } from "@pointwise/db";
import { ConflictError, ValidationError } from "@pointwise/errors";
import { safeParseRuleVersion } from "@pointwise/rules";
import { parseWith } from "@pointwise/runtime";
import { campaignIdSchema, currencyNamesSchema, storedTimeSchema } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { campaignJson, recomputeJobJson } from "../json";
import { queueRecompute } from "../recompute";
import { decayEpochIssues, issueSentence } from "../rule-document";
import { loadCampaign, loadWritableCampaign } from "../scope";
import { sessionOf } from "../session";

// A campaign row under the field names of Prisma's model, for campaignJson inside a db transaction.
const SELECT_CAMPAIGN = `SELECT id, project_id AS "projectId", name, currencies, primary_currency AS "primaryCurrency", starts_at AS "startsAt",
  ends_at AS "endsAt", archived_at AS "archivedAt", bad_words AS "badWords", leaderboard_ranking AS "leaderboardRanking", created_at AS "createdAt" FROM campaign`;

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A random campaign id in the xxxx-xxxx format. */
export function newCampaignId(): string {
  const pick = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${pick()}-${pick()}`;
}

const name = z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters");

const endsAfterStarts = (c: { starts_at?: string | null | undefined; ends_at?: string | null | undefined }) =>
  !c.starts_at || !c.ends_at || Date.parse(c.ends_at) > Date.parse(c.starts_at);
const ENDS_AFTER = { message: "must be later than starts_at", path: ["ends_at"] };

const createCampaignSchema = z
  .strictObject({
    id: campaignIdSchema.optional(),
    name,
    currencies: currencyNamesSchema,
    primary_currency: z.string(),
    starts_at: storedTimeSchema.optional(),
    ends_at: storedTimeSchema.optional(),
  })
  .refine((c) => Object.hasOwn(c.currencies, c.primary_currency), { message: "must be one of the currency keys", path: ["primary_currency"] })
  .refine(endsAfterStarts, ENDS_AFTER);

const updateCampaignSchema = z
  .strictObject({
    name: name.optional(),
    currencies: currencyNamesSchema.optional(),
    primary_currency: z.string().optional(),
    starts_at: storedTimeSchema.nullable().optional(),
    ends_at: storedTimeSchema.nullable().optional(),
    leaderboard_ranking: z.enum(["earned", "balance"], { message: "must be earned or balance" }).optional(),
  })
  .refine((c) => Object.keys(c).length > 0, { message: "must change at least one field" });

interface Dates {
  starts_at: Date | null;
  ends_at: Date | null;
}

const sameTime = (a: Date | null, b: Date | null) => (a === null ? b === null : b !== null && a.getTime() === b.getTime());
const sameDates = (a: Dates, b: Dates) => sameTime(a.starts_at, b.starts_at) && sameTime(a.ends_at, b.ends_at);

/**
 * Why new dates cannot stand, or null: the active rule version, or one being activated, could score the old dates
 * but not the new ones, since its decay range no longer reaches the events that can come or its epoch now lies too
 * far after the first awards (see decayEpochIssues). A version that already could not score the old dates is the
 * worker's held-campaign alert, not a reason to refuse a change.
 */
async function decayRangeRefusal(client: Transaction, campaignId: string, was: Dates, now: Dates, field: "starts_at" | "ends_at"): Promise<string | null> {
  const { rows } = await client.query<{ version: number; status: string; document: unknown }>(
    `SELECT version, status, document FROM rule_version WHERE campaign_id = $1 AND (status = 'active' OR version IN (
       SELECT rule_version FROM recompute_job WHERE campaign_id = $1 AND reason = 'rule-activation' AND status IN ('queued', 'running')))
     ORDER BY version`,
    [campaignId],
  );
  const at = new Date();
  for (const row of rows) {
    const parsed = safeParseRuleVersion(row.document);
    if (!parsed.ok) continue;
    const after = decayEpochIssues(parsed.value, { startsAt: now.starts_at, endsAt: now.ends_at, now: at });
    if (after[0] && decayEpochIssues(parsed.value, { startsAt: was.starts_at, endsAt: was.ends_at, now: at }).length === 0) {
      const which = row.status === "active" ? "the active rule version" : "the rule version being activated";
      return `${field}: ${which} (${row.version}) cannot score these dates: ${issueSentence(after[0])}; activate a version with another epoch first`;
    }
  }
  return null;
}

const badWordsSchema = z.strictObject({
  bad_words: z.array(z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters")).max(1000, "must list at most 1000 words"),
});

/** Campaigns of the operator's project: create, list, read, update, archive and restore, bad words. */
export function campaignRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.get("/api/campaigns", async (_req, res) => {
    const list = await prisma.campaign.findMany({ where: { projectId: sessionOf(res.locals).projectId }, orderBy: { createdAt: "asc" } });
    res.json({ campaigns: list.map(campaignJson) });
  });

  router.post("/api/campaigns", async (req, res) => {
    const body = parseWith(createCampaignSchema, req.body);
    const session = sessionOf(res.locals);
    const id = body.id ?? newCampaignId();
    // Campaign ids are global (events and the public leaderboard name them), so a taken id is a conflict
    // whichever project holds it; the answer says nothing else about that campaign.
    const taken = () => new ConflictError("campaign-exists", `campaign id ${id} is taken`);
    if (await prisma.campaign.findUnique({ where: { id }, select: { id: true } })) throw taken();
    // The read above only spares the usual case a failed insert: two requests for one id can both pass it.
    const campaign = await prisma
      .$transaction(async (tx) => {
        const created = await tx.campaign.create({
          data: {
            id,
            projectId: session.projectId,
            name: body.name,
            currencies: body.currencies,
            primaryCurrency: body.primary_currency,
            startsAt: body.starts_at ? new Date(body.starts_at) : null,
            endsAt: body.ends_at ? new Date(body.ends_at) : null,
          },
        });
        await recordAudit(tx, session, { campaignId: id, action: "campaign.create", target: `campaign:${id}`, after: campaignJson(created) });
        return created;
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err, "campaign_pkey") ? taken() : err;
      });
    deps.logger.info({ campaign_id: id, operator_id: session.operatorId }, "campaign created");
    res.status(201).json(campaignJson(campaign));
  });

  router.get("/api/campaigns/:id", async (req, res) => {
    res.json(campaignJson(await loadCampaign(deps, sessionOf(res.locals), req.params.id)));
  });

  router.patch("/api/campaigns/:id", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(updateCampaignSchema, req.body);
    const currencies = body.currencies ?? (campaign.currencies as Record<string, string>);
    const primary = body.primary_currency ?? campaign.primaryCurrency;
    parseWith(z.object({ primary_currency: z.string().refine((p) => Object.hasOwn(currencies, p), "must be one of the currency keys") }), {
      primary_currency: primary,
    });
    const startsAt = body.starts_at === undefined ? campaign.startsAt?.toISOString() : body.starts_at;
    const endsAt = body.ends_at === undefined ? campaign.endsAt?.toISOString() : body.ends_at;
    parseWith(z.object({ starts_at: z.any(), ends_at: z.any() }).refine(endsAfterStarts, ENDS_AFTER), { starts_at: startsAt, ends_at: endsAt });
    if (body.currencies) {
      const removed = Object.keys(campaign.currencies as Record<string, string>).filter((k) => !Object.hasOwn(currencies, k));
      if (removed.length > 0) {
        const used = await deps.db.query<{ currency: string }>(
          `SELECT DISTINCT currency FROM score WHERE campaign_id = $1 AND currency = ANY($2::text[])
           UNION SELECT DISTINCT currency FROM ledger_entry WHERE campaign_id = $1 AND currency = ANY($2::text[])`,
          [campaign.id, removed],
        );
        // Scores are history: a currency that has points keeps existing (rename it instead).
        if (used.rows.length > 0) {
          throw new ConflictError("currency-in-use", `currencies: ${used.rows.map((r) => r.currency).join(", ")} already has points and cannot be removed`);
        }
      }
    }
    const jobId = await deps.db.transaction(async (client) => {
      // New dates are checked against the versions being scored; taken before the row lock, as an activation takes it
      // before its job row's key lock on the campaign.
      if (body.starts_at !== undefined || body.ends_at !== undefined) await client.lockCampaign("activation", campaign.id);
      // The row lock orders concurrent changes, so each compares the dates with those it replaces.
      const { rows: before } = await client.query<Dates>("SELECT starts_at, ends_at FROM campaign WHERE id = $1 FOR UPDATE", [campaign.id]);
      // PostgreSQL parses and rounds the times (to milliseconds), so "unchanged" means unchanged as stored.
      const { rows: after } = await client.query<Dates>(
        `UPDATE campaign SET name = coalesce($2, name), currencies = coalesce($3::jsonb, currencies), primary_currency = coalesce($4, primary_currency),
                starts_at = CASE WHEN $5 THEN $6::timestamptz ELSE starts_at END, ends_at = CASE WHEN $7 THEN $8::timestamptz ELSE ends_at END,
                leaderboard_ranking = coalesce($9, leaderboard_ranking)
          WHERE id = $1 RETURNING starts_at, ends_at`,
        [
          campaign.id,
          body.name ?? null,
          body.currencies === undefined ? null : JSON.stringify(body.currencies),
          body.primary_currency ?? null,
          body.starts_at !== undefined,
          body.starts_at ?? null,
          body.ends_at !== undefined,
          body.ends_at ?? null,
          body.leaderboard_ranking ?? null,
        ],
      );
      const [was, now] = [before[0], after[0]];
      const changesDates = was !== undefined && now !== undefined && !sameDates(was, now);
      // Checked again on the stored row: a concurrent change of the other date may have come in since the check above.
      if (changesDates && now.starts_at && now.ends_at && now.ends_at <= now.starts_at)
        throw new ValidationError("ends_at: must be later than starts_at", { field: "ends_at" });
      if (changesDates) {
        const refusal = await decayRangeRefusal(client, campaign.id, was, now, body.ends_at !== undefined ? "ends_at" : "starts_at");
        if (refusal) throw new ConflictError("dates-outside-decay-range", refusal);
      }
      const { rows: stored } = await client.query<Prisma.CampaignGetPayload<true>>(`${SELECT_CAMPAIGN} WHERE id = $1`, [campaign.id]);
      await recordAudit(client, session, {
        campaignId: campaign.id,
        action: "campaign.update",
        target: `campaign:${campaign.id}`,
        before: campaignJson(campaign),
        after: stored[0] ? campaignJson(stored[0]) : null,
      });
      // Which events earn depends on the dates, so scores are recomputed from the log like after a rule activation.
      return changesDates ? queueRecompute(client, campaign.id, "campaign-dates") : null;
    });
    if (jobId) deps.logger.info({ campaign_id: campaign.id, job_id: jobId, operator_id: session.operatorId }, "campaign dates changed: recompute queued");
    const [updated, job] = await Promise.all([
      prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } }),
      jobId ? prisma.recomputeJob.findUnique({ where: { id: jobId } }) : null,
    ]);
    res.json({ ...campaignJson(updated), recompute_job: job ? recomputeJobJson(job) : null });
  });

  router.post("/api/campaigns/:id/archive", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadCampaign(deps, session, req.params.id);
    // Archiving hides a campaign from day-to-day work and freezes it; every row it owns stays.
    const archived = await prisma.$transaction(async (tx) => {
      const { count } = await tx.campaign.updateMany({ where: { id: campaign.id, archivedAt: null }, data: { archivedAt: new Date() } });
      const now = await tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
      // Only the request that archived it records it (the row's update decides, not the earlier read).
      if (count > 0)
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "campaign.archive",
          target: `campaign:${campaign.id}`,
          before: campaignJson(campaign),
          after: campaignJson(now),
        });
      return now;
    });
    deps.logger.info({ campaign_id: campaign.id, operator_id: session.operatorId }, "campaign archived");
    res.json(campaignJson(archived));
  });

  router.post("/api/campaigns/:id/restore", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadCampaign(deps, session, req.params.id);
    const updated = await prisma.$transaction(async (tx) => {
      const now = await tx.campaign.update({ where: { id: campaign.id }, data: { archivedAt: null } });
      if (campaign.archivedAt)
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "campaign.restore",
          target: `campaign:${campaign.id}`,
          before: campaignJson(campaign),
          after: campaignJson(now),
        });
      return now;
    });
    res.json(campaignJson(updated));
  });

  router.get("/api/campaigns/:id/bad-words", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    res.json({ bad_words: campaign.badWords });
  });

  router.put("/api/campaigns/:id/bad-words", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(badWordsSchema, req.body);
    // Matching is case-insensitive, so words differing only in case are one word.
    const seen = new Set<string>();
    const words = body.bad_words.map((w) => w.toLowerCase()).filter((w) => !seen.has(w) && seen.add(w));
    const updated = await prisma.$transaction(async (tx) => {
      const now = await tx.campaign.update({ where: { id: campaign.id }, data: { badWords: words } });
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: "campaign.bad-words",
        target: `campaign:${campaign.id}`,
        before: { bad_words: campaign.badWords },
        after: { bad_words: now.badWords },
      });
      return now;
    });
    res.json({ bad_words: updated.badWords });
  });

  return router;
}
