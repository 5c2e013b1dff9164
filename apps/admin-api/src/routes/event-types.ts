// Admin routes for a campaign's registered event types: register, list and retire.
import { isUniqueViolation } from "@pointwise/db";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { eventTypeJson } from "../json";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

const registerSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_. -]{0,79}$/, "must be 1-80 letters, digits, spaces, _, . or -, starting with a letter or digit"),
  description: z.string().trim().max(500, "must be at most 500 characters").optional(),
});

/** Event types of a campaign: register (-> reg_event_id), list, retire. */
export function eventTypeRoutes(deps: Deps): Router {
  const router = Router();
  const { prisma } = deps.db;

  router.post("/api/campaigns/:id/event-types", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(registerSchema, req.body);
    const exists = await prisma.eventType.findUnique({ where: { campaignId_name: { campaignId: campaign.id, name: body.name } } });
    const taken = () => new ConflictError("event-type-exists", `name: event type ${body.name} is already registered in this campaign`);
    if (exists) throw taken();
    // The read above only spares the usual case a failed insert: two requests for one name can both pass it.
    const row = await prisma
      .$transaction(async (tx) => {
        const created = await tx.eventType.create({ data: { campaignId: campaign.id, name: body.name, description: body.description || null } });
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "event-type.create",
          target: `event-type:${created.id}`,
          after: eventTypeJson(created),
        });
        return created;
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err, "event_type_campaign_id_name_key") ? taken() : err;
      });
    deps.logger.info({ campaign_id: campaign.id, reg_event_id: row.id, name: row.name }, "event type registered");
    res.status(201).json(eventTypeJson(row));
  });

  router.get("/api/campaigns/:id/event-types", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.eventType.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
    res.json({ event_types: rows.map(eventTypeJson) });
  });

  router.post("/api/campaigns/:id/event-types/:regEventId/retire", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = uuidParam(req.params.regEventId, "reg_event_id");
    const row = await prisma.eventType.findFirst({ where: { id, campaignId: campaign.id } });
    if (!row) throw new NotFoundError(`event type ${id} not found`, { code: "event-type-not-found" });
    // Retiring is one-way and keeps the row: logged events keep pointing at it, ingest refuses new ones.
    const after = await prisma.$transaction(async (tx) => {
      const { count } = await tx.eventType.updateMany({ where: { id, retiredAt: null }, data: { retiredAt: new Date() } });
      const now = await tx.eventType.findUniqueOrThrow({ where: { id } });
      // Only the request that retired it records it (the row's update decides, not the earlier read).
      if (count > 0)
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "event-type.retire",
          target: `event-type:${id}`,
          before: eventTypeJson(row),
          after: eventTypeJson(now),
        });
      return now;
    });
    res.json(eventTypeJson(after));
  });

  return router;
}
