// Admin routes that read the audit trail: the project's whole trail and one campaign's part of it, newest first.
import { parseWith } from "@pointwise/runtime";
import { isBigintId, keysetPage, PG_BIGINT_MAX } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { AUDIT_ACTIONS, type AuditRow, auditJson } from "../audit";
import type { Deps } from "../deps";
import { loadCampaign } from "../scope";
import { type OperatorSession, sessionOf } from "../session";

const listQuery = z.strictObject({
  action: z.enum(AUDIT_ACTIONS, { message: `must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ message: "must be a whole number from 1 to 200" })
    .int("must be a whole number from 1 to 200")
    .min(1, "must be a whole number from 1 to 200")
    .max(200, "must be a whole number from 1 to 200")
    .optional(),
  before: z.string().refine(isBigintId, `must be an entry id from a previous page: a whole number from 1 to ${PG_BIGINT_MAX}`).optional(),
});

async function readTrail(deps: Deps, session: OperatorSession, campaignId: string | null, query: z.infer<typeof listQuery>) {
  const limit = query.limit ?? 50;
  const { rows } = await deps.db.query<AuditRow>(
    `SELECT id::text, campaign_id, operator_id, operator_email, action, target, before, after, created_at FROM audit_event
      WHERE project_id = $1 AND ($2::text IS NULL OR campaign_id = $2) AND ($3::text IS NULL OR action = $3) AND ($4::bigint IS NULL OR id < $4)
      ORDER BY audit_event.id DESC LIMIT $5`,
    [session.projectId, campaignId, query.action ?? null, query.before ?? null, limit + 1],
  );
  const { page, nextBefore } = keysetPage(rows, limit);
  return { entries: page.map(auditJson), next_before: nextBefore };
}

/** The audit trail: read-only by construction (the table refuses UPDATE, DELETE and TRUNCATE). */
export function auditRoutes(deps: Deps): Router {
  const router = Router();

  router.get("/api/audit", async (req, res) => {
    res.json(await readTrail(deps, sessionOf(res.locals), null, parseWith(listQuery, req.query)));
  });

  router.get("/api/campaigns/:id/audit", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadCampaign(deps, session, req.params.id);
    res.json(await readTrail(deps, session, campaign.id, parseWith(listQuery, req.query)));
  });

  return router;
}
