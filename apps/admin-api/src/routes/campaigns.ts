import { randomInt } from "node:crypto";
import { generateApiKey } from "@pointwise/auth";
import type { Prisma } from "@pointwise/db";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { campaignIdSchema, currencyNamesSchema } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import type { Deps } from "../deps";
import { type OperatorSession, sessionOf } from "../session";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A random campaign id in the xxxx-xxxx format. */
export function newCampaignId(): string {
  const pick = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${pick()}-${pick()}`;
}

const createCampaignSchema = z
  .object({
    id: campaignIdSchema.optional(),
    name: z.string().min(1).max(120),
    currencies: currencyNamesSchema,
    primary_currency: z.string(),
    starts_at: z.iso.datetime().optional(),
    ends_at: z.iso.datetime().optional(),
  })
  .strict()
  .refine((c) => Object.hasOwn(c.currencies, c.primary_currency), { message: "primary_currency must be one of the currency keys", path: ["primary_currency"] });

const eventTypeSchema = z.object({ name: z.string().min(1).max(80), description: z.string().max(500).optional() }).strict();
const apiKeySchema = z.object({ label: z.string().max(80).optional() }).strict();
const ruleVersionSchema = z.object({ document: z.record(z.string(), z.unknown()) }).strict();

function campaignJson(c: { id: string; name: string; currencies: Prisma.JsonValue; primaryCurrency: string; startsAt: Date | null; endsAt: Date | null; archivedAt: Date | null; createdAt: Date }) {
  return {
    id: c.id,
    name: c.name,
    currencies: c.currencies,
    primary_currency: c.primaryCurrency,
    starts_at: c.startsAt?.toISOString() ?? null,
    ends_at: c.endsAt?.toISOString() ?? null,
    archived_at: c.archivedAt?.toISOString() ?? null,
    created_at: c.createdAt.toISOString(),
  };
}

/** Loads a campaign of the operator's project; another project's campaign is "not found", never "forbidden". */
export async function loadCampaign(deps: Deps, session: OperatorSession, id: string) {
  const campaign = await deps.db.prisma.campaign.findFirst({ where: { id, projectId: session.projectId } });
  if (!campaign) throw new NotFoundError(`campaign ${id} not found`, { code: "campaign-not-found" });
  return campaign;
}

/** Campaigns, their API keys, event types and rule versions. */
export function campaignRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.get("/api/campaigns", async (_req, res) => {
    const list = await prisma.campaign.findMany({ where: { projectId: sessionOf(res.locals).projectId }, orderBy: { createdAt: "asc" } });
    res.json({ campaigns: list.map(campaignJson) });
  });

  router.post("/api/campaigns", async (req, res) => {
    const body = parseWith(createCampaignSchema, req.body);
    const id = body.id ?? newCampaignId();
    if (await prisma.campaign.findUnique({ where: { id } })) throw new ConflictError("campaign-exists", `campaign ${id} already exists`);
    const campaign = await prisma.campaign.create({
      data: {
        id,
        projectId: sessionOf(res.locals).projectId,
        name: body.name,
        currencies: body.currencies,
        primaryCurrency: body.primary_currency,
        startsAt: body.starts_at ? new Date(body.starts_at) : null,
        endsAt: body.ends_at ? new Date(body.ends_at) : null,
      },
    });
    res.status(201).json(campaignJson(campaign));
  });

  router.get("/api/campaigns/:id", async (req, res) => {
    res.json(campaignJson(await loadCampaign(deps, sessionOf(res.locals), req.params.id)));
  });

  router.post("/api/campaigns/:id/api-keys", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const body = parseWith(apiKeySchema, req.body ?? {});
    const generated = generateApiKey();
    const row = await prisma.apiKey.create({ data: { campaignId: campaign.id, prefix: generated.prefix, hash: generated.hash, label: body.label ?? null } });
    // The only time the whole key is ever returned.
    res.status(201).json({ id: row.id, key: generated.key, prefix: row.prefix, label: row.label, created_at: row.createdAt.toISOString() });
  });

  router.get("/api/campaigns/:id/api-keys", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.apiKey.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
    res.json({
      api_keys: rows.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        label: k.label,
        created_at: k.createdAt.toISOString(),
        last_used_at: k.lastUsedAt?.toISOString() ?? null,
        revoked_at: k.revokedAt?.toISOString() ?? null,
      })),
    });
  });

  router.post("/api/campaigns/:id/api-keys/:keyId/revoke", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const updated = await prisma.apiKey.updateMany({ where: { id: req.params.keyId, campaignId: campaign.id, revokedAt: null }, data: { revokedAt: new Date() } });
    const key = await prisma.apiKey.findFirst({ where: { id: req.params.keyId, campaignId: campaign.id } });
    if (!key) throw new NotFoundError("API key not found", { code: "api-key-not-found" });
    res.json({ id: key.id, revoked_at: key.revokedAt?.toISOString() ?? null, changed: updated.count === 1 });
  });

  router.post("/api/campaigns/:id/event-types", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const body = parseWith(eventTypeSchema, req.body);
    const exists = await prisma.eventType.findUnique({ where: { campaignId_name: { campaignId: campaign.id, name: body.name } } });
    if (exists) throw new ConflictError("event-type-exists", `event type ${body.name} is already registered`);
    const row = await prisma.eventType.create({ data: { campaignId: campaign.id, name: body.name, description: body.description ?? null } });
    res.status(201).json({ reg_event_id: row.id, name: row.name, description: row.description, created_at: row.createdAt.toISOString() });
  });

  router.get("/api/campaigns/:id/event-types", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.eventType.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
    res.json({
      event_types: rows.map((t) => ({ reg_event_id: t.id, name: t.name, description: t.description, created_at: t.createdAt.toISOString(), retired_at: t.retiredAt?.toISOString() ?? null })),
    });
  });

  router.post("/api/campaigns/:id/rule-versions", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const body = parseWith(ruleVersionSchema, req.body);
    const row = await prisma.$transaction(async (tx) => {
      const last = await tx.ruleVersion.findFirst({ where: { campaignId: campaign.id }, orderBy: { version: "desc" } });
      return tx.ruleVersion.create({ data: { campaignId: campaign.id, version: (last?.version ?? 0) + 1, document: body.document as Prisma.InputJsonValue } });
    });
    res.status(201).json({ id: row.id, version: row.version, status: row.status });
  });

  router.post("/api/campaigns/:id/rule-versions/:version/activate", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const version = Number(req.params.version);
    const row = await prisma.ruleVersion.findFirst({ where: { campaignId: campaign.id, version } });
    if (!row) throw new NotFoundError(`rule version ${req.params.version} not found`, { code: "rule-version-not-found" });
    await prisma.$transaction([
      prisma.ruleVersion.updateMany({ where: { campaignId: campaign.id, status: "active" }, data: { status: "superseded" } }),
      prisma.ruleVersion.update({ where: { id: row.id }, data: { status: "active", activatedAt: new Date() } }),
    ]);
    res.json({ version, status: "active" });
  });

  return router;
}
