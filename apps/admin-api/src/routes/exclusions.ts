// Admin routes for exclusions of a campaign and of the whole project: list, add one, import a CSV list, lift.
import { ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { IDENTITY_TYPES, type IdentityType, isIdentityType, normalizeAccountId } from "@pointwise/schemas";
import express, { type Request, type Response, Router } from "express";
import { z } from "zod";
import { type ListRowError, nulProblem, parseList } from "../csv-list";
import type { Deps } from "../deps";
import { addExclusions, alreadyExcluded, type ExclusionScope, type ExclusionTarget, exclusionJson, liftExclusion, listExclusions } from "../exclusions";
import { recomputeJobJson } from "../json";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { type OperatorSession, sessionOf } from "../session";

/** Most bad rows an upload's answer lists. */
const ANSWER_ROW_ERRORS = 1000;
const LIST_LIMIT = 1000;

const identityType = z.enum(IDENTITY_TYPES, { message: `must be one of ${IDENTITY_TYPES.join(", ")}` });
const reason = z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters");
const identityBody = z.strictObject({ identity_type: identityType, account_id: z.string().min(1, "must not be empty"), reason });
const campaignBody = z.union([identityBody, z.strictObject({ user_id: z.string(), reason })], {
  message: "must name either identity_type and account_id, or user_id, and give a reason",
});
const importQuery = z.strictObject({
  mode: z.enum(["all-or-nothing", "accept-valid"], { message: "must be all-or-nothing or accept-valid" }).optional(),
  reason: reason.optional(),
});

/** Reads the raw bytes of a CSV upload of at most 5 MB, with our error codes for a wrong type or size. */
export function readCsvBody(req: Request, res: Response): Promise<Buffer> {
  if (!req.is("text/csv"))
    return Promise.reject(new ValidationError("Content-Type must be text/csv (the file's bytes as the request body)", { code: "unsupported-media-type" }));
  return new Promise((resolve, reject) => {
    express.raw({ type: "text/csv", limit: "5mb" })(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large")
        return reject(new ValidationError("the file is larger than 5 MB; split it", { code: "payload-too-large" }));
      if (err) return reject(err);
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}

function targetOf(body: z.infer<typeof campaignBody>): ExclusionTarget {
  if ("user_id" in body) return { userId: uuidParam(body.user_id, "user_id") };
  return { identityType: body.identity_type, accountId: normalizeAccountId(body.identity_type, body.account_id) };
}

async function jobsJson(deps: Deps, jobs: Map<string, string | null>) {
  const ids = [...jobs.values()].filter((id): id is string => id !== null);
  const rows = ids.length ? await deps.db.prisma.recomputeJob.findMany({ where: { id: { in: ids } }, orderBy: { campaignId: "asc" } }) : [];
  return rows.map(recomputeJobJson);
}

/** Reads an uploaded list of identities into targets and per-row errors. */
function readIdentityList(body: Buffer, defaultReason: string | undefined) {
  const rows = parseList(body, ["identity_type", "account_id"], ["reason"]);
  const targets: ExclusionTarget[] = [];
  const reasons: string[] = [];
  const errors: ListRowError[] = [];
  for (const row of rows) {
    const type = row.values.identity_type ?? "";
    const rowReason = (row.values.reason ?? "").trim() || defaultReason;
    const nul = nulProblem(row);
    if (nul) {
      errors.push({ line: row.line, code: "validation-failed", message: nul });
      continue;
    }
    if (!isIdentityType(type)) {
      errors.push({ line: row.line, code: "validation-failed", message: `identity_type: must be one of ${IDENTITY_TYPES.join(", ")}` });
      continue;
    }
    if (!rowReason) {
      errors.push({ line: row.line, code: "validation-failed", message: "reason: must not be empty (give a reason column or the reason query parameter)" });
      continue;
    }
    if (rowReason.length > 500) {
      errors.push({ line: row.line, code: "validation-failed", message: "reason: must be at most 500 characters" });
      continue;
    }
    try {
      targets.push({ identityType: type, accountId: normalizeAccountId(type as IdentityType, row.values.account_id ?? "") });
      reasons.push(rowReason);
    } catch (err) {
      const e = err as { code?: string; message: string };
      errors.push({ line: row.line, code: e.code ?? "validation-failed", message: e.message });
    }
  }
  return { rowsRead: rows.length, targets, reasons, errors };
}

async function importList(deps: Deps, session: OperatorSession, scope: ExclusionScope, body: Buffer, query: z.infer<typeof importQuery>) {
  const list = readIdentityList(body, query.reason);
  const mode = query.mode ?? "all-or-nothing";
  const rejected = mode === "all-or-nothing" && list.errors.length > 0;
  const outcome = rejected
    ? null
    : await addExclusions(deps, session, scope, list.targets, { reason: (i) => list.reasons[i] as string, source: "csv", audit: "exclusion.import" });
  return {
    status: rejected ? ("rejected" as const) : ("done" as const),
    rows_read: list.rowsRead,
    rows_valid: list.targets.length,
    rows_invalid: list.errors.length,
    created: outcome?.created.length ?? 0,
    already_excluded: outcome?.existing ?? 0,
    invalid_rows: list.errors.slice(0, ANSWER_ROW_ERRORS),
    invalid_rows_truncated: list.errors.length > ANSWER_ROW_ERRORS,
    recompute_jobs: outcome ? await jobsJson(deps, outcome.jobs) : [],
  };
}

/** Exclusions: per campaign (identities and users) and per project (identities, every campaign). */
export function exclusionRoutes(deps: Deps): Router {
  const router = Router();

  router.get("/api/campaigns/:id/exclusions", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadCampaign(deps, session, req.params.id);
    const { rows, total } = await listExclusions(deps, { projectId: session.projectId, campaignId: campaign.id }, LIST_LIMIT);
    res.json({ exclusions: rows.map(exclusionJson), total });
  });

  router.post("/api/campaigns/:id/exclusions", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(campaignBody, req.body);
    const outcome = await addExclusions(deps, session, { projectId: session.projectId, campaignId: campaign.id }, [targetOf(body)], {
      reason: () => body.reason,
      source: "manual",
      audit: "exclusion.create",
    });
    const created = outcome.created[0];
    if (!created) throw alreadyExcluded();
    deps.logger.info({ campaign_id: campaign.id, exclusion_id: created.id, operator_id: session.operatorId }, "exclusion added");
    res.status(201).json({ exclusion: exclusionJson(created), recompute_job: (await jobsJson(deps, outcome.jobs))[0] ?? null });
  });

  router.post("/api/campaigns/:id/exclusions/csv", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const query = parseWith(importQuery, req.query);
    const body = await readCsvBody(req, res);
    res.json(await importList(deps, session, { projectId: session.projectId, campaignId: campaign.id }, body, query));
  });

  router.delete("/api/campaigns/:id/exclusions/:exclusionId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = uuidParam(req.params.exclusionId, "exclusion_id");
    const outcome = await liftExclusion(deps, session, { projectId: session.projectId, campaignId: campaign.id }, id);
    res.json({ lifted: exclusionJson(outcome.lifted), recompute_job: (await jobsJson(deps, outcome.jobs))[0] ?? null });
  });

  router.get("/api/exclusions", async (_req, res) => {
    const session = sessionOf(res.locals);
    const { rows, total } = await listExclusions(deps, { projectId: session.projectId, campaignId: null }, LIST_LIMIT);
    res.json({ exclusions: rows.map(exclusionJson), total });
  });

  router.post("/api/exclusions", async (req, res) => {
    const session = sessionOf(res.locals);
    const body = parseWith(identityBody, req.body);
    const target = { identityType: body.identity_type, accountId: normalizeAccountId(body.identity_type, body.account_id) };
    const outcome = await addExclusions(deps, session, { projectId: session.projectId, campaignId: null }, [target], {
      reason: () => body.reason,
      source: "manual",
      audit: "exclusion.create",
    });
    const created = outcome.created[0];
    if (!created) throw alreadyExcluded();
    res.status(201).json({ exclusion: exclusionJson(created), recompute_jobs: await jobsJson(deps, outcome.jobs) });
  });

  router.post("/api/exclusions/csv", async (req, res) => {
    const session = sessionOf(res.locals);
    const query = parseWith(importQuery, req.query);
    const body = await readCsvBody(req, res);
    res.json(await importList(deps, session, { projectId: session.projectId, campaignId: null }, body, query));
  });

  router.delete("/api/exclusions/:exclusionId", async (req, res) => {
    const session = sessionOf(res.locals);
    const id = uuidParam(req.params.exclusionId, "exclusion_id");
    const outcome = await liftExclusion(deps, session, { projectId: session.projectId, campaignId: null }, id);
    res.json({ lifted: exclusionJson(outcome.lifted), recompute_jobs: await jobsJson(deps, outcome.jobs) });
  });

  return router;
}
