// Admin routes for a campaign's ingest API keys: create (shown once), list, change (label, backfill) and revoke.
import { generateApiKey } from "@pointwise/auth";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { apiKeyJson } from "../json";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

const label = z.string().trim().max(80, "must be at most 80 characters");
const backfill = z.boolean({ message: "must be true or false" });
const createKeySchema = z.strictObject({ label: label.optional(), backfill: backfill.optional() });
const updateKeySchema = z
  .strictObject({ label: label.nullable().optional(), backfill: backfill.optional() })
  .refine((b) => b.label !== undefined || b.backfill !== undefined, { message: "must change label or backfill" });

/** API keys of a campaign: create (the key is returned once), list, change label or backfill, revoke. */
export function apiKeyRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.post("/api/campaigns/:id/api-keys", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(createKeySchema, req.body ?? {});
    const generated = generateApiKey();
    const row = await prisma.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: { campaignId: campaign.id, prefix: generated.prefix, hash: generated.hash, label: body.label || null, backfill: body.backfill ?? false },
      });
      await recordAudit(tx, session, { campaignId: campaign.id, action: "api-key.create", target: `api-key:${created.id}`, after: apiKeyJson(created) });
      return created;
    });
    deps.logger.info({ campaign_id: campaign.id, key_prefix: row.prefix, backfill: row.backfill, operator_id: session.operatorId }, "api key created");
    // The only time the whole key is ever returned; only its hash is stored.
    res.status(201).json({ ...apiKeyJson(row), key: generated.key });
  });

  router.get("/api/campaigns/:id/api-keys", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.apiKey.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
    res.json({ api_keys: rows.map(apiKeyJson) });
  });

  router.patch("/api/campaigns/:id/api-keys/:keyId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const keyId = uuidParam(req.params.keyId, "key_id");
    const body = parseWith(updateKeySchema, req.body ?? {});
    const key = await prisma.apiKey.findFirst({ where: { id: keyId, campaignId: campaign.id } });
    if (!key) throw new NotFoundError(`API key ${keyId} not found`, { code: "api-key-not-found" });
    const after = await prisma.$transaction(async (tx) => {
      // The revoked_at condition sits in the update itself, so a revoke that wins a race is never undone by a change.
      const { count } = await tx.apiKey.updateMany({
        where: { id: key.id, revokedAt: null },
        data: {
          ...(body.label === undefined ? {} : { label: body.label || null }),
          ...(body.backfill === undefined ? {} : { backfill: body.backfill }),
        },
      });
      const now = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id } });
      if (count === 0) {
        throw new ConflictError("api-key-revoked", `API key ${key.prefix} was revoked at ${now.revokedAt?.toISOString()}; a revoked key cannot be changed`);
      }
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: "api-key.update",
        target: `api-key:${key.id}`,
        before: apiKeyJson(key),
        after: apiKeyJson(now),
      });
      return now;
    });
    if (after.backfill !== key.backfill) {
      deps.logger.info(
        { campaign_id: campaign.id, key_prefix: key.prefix, backfill: after.backfill, operator_id: session.operatorId },
        "api key backfill changed",
      );
    }
    res.json(apiKeyJson(after));
  });

  router.post("/api/campaigns/:id/api-keys/:keyId/revoke", async (req, res) => {
    const session = sessionOf(res.locals);
    // Revoking stays possible on an archived campaign: taking a leaked key out of service must always work.
    const campaign = await loadCampaign(deps, session, req.params.id);
    const keyId = uuidParam(req.params.keyId, "key_id");
    const key = await prisma.apiKey.findFirst({ where: { id: keyId, campaignId: campaign.id } });
    if (!key) throw new NotFoundError(`API key ${keyId} not found`, { code: "api-key-not-found" });
    const { after, revoked } = await prisma.$transaction(async (tx) => {
      const { count } = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
      const now = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id } });
      // Only the request that revoked it records it (the row's update decides, not the earlier read).
      if (count > 0)
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "api-key.revoke",
          target: `api-key:${key.id}`,
          before: apiKeyJson(key),
          after: apiKeyJson(now),
        });
      return { after: now, revoked: count > 0 };
    });
    if (revoked) deps.logger.info({ campaign_id: campaign.id, key_prefix: key.prefix, operator_id: session.operatorId }, "api key revoked");
    res.json(apiKeyJson(after));
  });

  return router;
}
