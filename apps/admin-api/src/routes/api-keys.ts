// Admin routes for a campaign's ingest API keys: create (shown once), list and revoke.
import { generateApiKey } from "@pointwise/auth";
import { NotFoundError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import type { Deps } from "../deps";
import { apiKeyJson } from "../json";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

const createKeySchema = z.strictObject({ label: z.string().trim().max(80, "must be at most 80 characters").optional() });

/** API keys of a campaign: create (the key is returned once), list, revoke. */
export function apiKeyRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.post("/api/campaigns/:id/api-keys", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(createKeySchema, req.body ?? {});
    const generated = generateApiKey();
    const row = await prisma.apiKey.create({ data: { campaignId: campaign.id, prefix: generated.prefix, hash: generated.hash, label: body.label || null } });
    deps.logger.info({ campaign_id: campaign.id, key_prefix: row.prefix, operator_id: session.operatorId }, "api key created");
    // The only time the whole key is ever returned; only its hash is stored.
    res.status(201).json({ ...apiKeyJson(row), key: generated.key });
  });

  router.get("/api/campaigns/:id/api-keys", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.apiKey.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
    res.json({ api_keys: rows.map(apiKeyJson) });
  });

  router.post("/api/campaigns/:id/api-keys/:keyId/revoke", async (req, res) => {
    const session = sessionOf(res.locals);
    // Revoking stays possible on an archived campaign: taking a leaked key out of service must always work.
    const campaign = await loadCampaign(deps, session, req.params.id);
    const keyId = uuidParam(req.params.keyId, "key_id");
    const key = await prisma.apiKey.findFirst({ where: { id: keyId, campaignId: campaign.id } });
    if (!key) throw new NotFoundError(`API key ${keyId} not found`, { code: "api-key-not-found" });
    await prisma.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
    const after = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    if (!key.revokedAt) deps.logger.info({ campaign_id: campaign.id, key_prefix: key.prefix, operator_id: session.operatorId }, "api key revoked");
    res.json(apiKeyJson(after));
  });

  return router;
}
