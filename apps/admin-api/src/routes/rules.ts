// Admin routes for rule versions: draft, validate, dry-run, activate, and the recompute jobs they queue.
import { activeRuleVersion } from "@pointwise/db";
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { dryRunDiff, parseRuleVersion, type RuleVersion, safeParseRuleVersion } from "@pointwise/rules";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import { readDryRunInputs, userLabels } from "../campaign-log";
import type { Deps } from "../deps";
import { recomputeJobJson } from "../json";
import { checkRuleDocument, decayEpochIssues, issueSentence, type RuleContext } from "../rule-document";
import { type Campaign, loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

const documentSchema = z.strictObject({ document: z.unknown().refine((d) => d !== undefined, "is required") });
const dryRunSchema = z.strictObject({
  at: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z" }).optional(),
  currency: z.string().optional(),
  limit: z.int().min(1).max(1000).default(100),
});

function versionParam(value: string | undefined): number {
  if (typeof value !== "string" || !/^[1-9][0-9]{0,8}$/.test(value)) throw new ValidationError("version must be a positive integer", { field: "version" });
  return Number(value);
}

/** Rule versions, validation, dry runs, activation and the recompute jobs that activation queues. */
export function ruleRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;
  const { prisma } = db;

  async function context(campaign: Campaign, version: number): Promise<RuleContext> {
    const types = await prisma.eventType.findMany({ where: { campaignId: campaign.id } });
    return {
      campaignId: campaign.id,
      version,
      currencies: campaign.currencies as Record<string, string>,
      primaryCurrency: campaign.primaryCurrency,
      eventTypes: types.map((t) => ({ id: t.id, name: t.name, retired: t.retiredAt !== null })),
      startsAt: campaign.startsAt,
      endsAt: campaign.endsAt,
      now: new Date(),
    };
  }

  async function nextVersion(campaignId: string): Promise<number> {
    const last = await prisma.ruleVersion.findFirst({ where: { campaignId }, orderBy: { version: "desc" }, select: { version: true } });
    return (last?.version ?? 0) + 1;
  }

  async function loadVersion(campaign: Campaign, version: number) {
    const row = await prisma.ruleVersion.findFirst({ where: { campaignId: campaign.id, version } });
    if (!row) throw new NotFoundError(`rule version ${version} not found`, { code: "rule-version-not-found" });
    return row;
  }

  async function versionJson(row: Awaited<ReturnType<typeof loadVersion>>, withDocument: boolean) {
    const job = await prisma.recomputeJob.findFirst({
      where: { campaignId: row.campaignId, ruleVersion: row.version, reason: "rule-activation" },
      orderBy: { createdAt: "desc" },
    });
    const doc = row.document as { rules?: unknown[] };
    return {
      version: row.version,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      activated_at: row.activatedAt?.toISOString() ?? null,
      rule_count: Array.isArray(doc.rules) ? doc.rules.length : 0,
      activation_job: job ? recomputeJobJson(job) : null,
      ...(withDocument ? { document: row.document } : {}),
    };
  }

  router.get("/api/campaigns/:id/rule-versions", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const rows = await prisma.ruleVersion.findMany({ where: { campaignId: campaign.id }, orderBy: { version: "desc" } });
    res.json({ rule_versions: await Promise.all(rows.map((r) => versionJson(r, false))) });
  });

  router.post("/api/campaigns/:id/rule-versions/validate", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const { document } = parseWith(documentSchema, req.body);
    const checked = checkRuleDocument(document, await context(campaign, await nextVersion(campaign.id)));
    res.json(checked.ok ? { valid: true, issues: [], document: checked.document } : { valid: false, issues: checked.issues });
  });

  router.post("/api/campaigns/:id/rule-versions", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const { document } = parseWith(documentSchema, req.body);
    const version = await db.transaction(async (client) => {
      // Versions are numbered per campaign; the lock keeps two saves from taking the same number.
      await client.lockCampaign("rule-version", campaign.id);
      const { rows } = await client.query<{ v: number }>("SELECT coalesce(max(version), 0) + 1 AS v FROM rule_version WHERE campaign_id = $1", [campaign.id]);
      const v = rows[0]?.v ?? 1;
      const checked = checkRuleDocument(document, await context(campaign, v));
      if (!checked.ok) {
        const first = checked.issues[0] ?? { path: "", message: "is invalid" };
        const more = checked.issues.length > 1 ? ` (and ${checked.issues.length - 1} more; POST .../rule-versions/validate lists them all)` : "";
        throw new ValidationError(`${issueSentence(first)}${more}`, {
          code: "rule-version-invalid",
          field: first.path ? `document.${first.path}` : "document",
        });
      }
      await client.query("INSERT INTO rule_version(campaign_id, version, document) VALUES ($1, $2, $3)", [campaign.id, v, JSON.stringify(checked.document)]);
      await recordAudit(client, session, {
        campaignId: campaign.id,
        action: "rule-version.create",
        target: `rule-version:${v}`,
        after: { version: v, document: checked.document },
      });
      return v;
    });
    deps.logger.info({ campaign_id: campaign.id, version, operator_id: session.operatorId }, "rule version created");
    res.status(201).json(await versionJson(await loadVersion(campaign, version), true));
  });

  router.get("/api/campaigns/:id/rule-versions/:version", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    res.json(await versionJson(await loadVersion(campaign, versionParam(req.params.version)), true));
  });

  router.post("/api/campaigns/:id/rule-versions/:version/dry-run", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const candidate = await loadVersion(campaign, versionParam(req.params.version));
    const body = parseWith(dryRunSchema, req.body ?? {});
    const after = parseRuleVersion(candidate.document);
    const reads = await db.transaction((tx) => readDryRunInputs(tx, campaign.id, deps.env.DRY_RUN_MAX_EVENTS), { isolation: "repeatable read" });
    const { active, events } = reads;
    // Without an active version nothing is served, adjustments included: the board before is empty.
    let before: RuleVersion | null;
    try {
      before = active ? parseRuleVersion(active.document) : null;
    } catch (err) {
      throw new ConflictError(
        "active-rule-version-invalid",
        `the active rule version ${active?.version} does not validate, so there is nothing to compare with`,
        {
          cause: err,
        },
      );
    }
    const currency = body.currency ?? campaign.primaryCurrency;
    if (!Object.hasOwn(after.currencies, currency) && !(before !== null && Object.hasOwn(before.currencies, currency))) {
      throw new ValidationError(`currency must be a currency of the rule versions (${Object.keys(after.currencies).join(", ")})`, { field: "currency" });
    }
    const at = body.at ?? new Date().toISOString();
    const diff = dryRunDiff({
      before,
      after,
      events,
      at,
      currency,
      campaignWindow: reads.campaignWindow,
      excludedUsers: reads.excludedUsers,
      adjustments: reads.adjustments,
    });
    const shown = diff.moves.slice(0, body.limit);
    const labels = await userLabels(
      db,
      campaign.id,
      shown.map((m) => m.userId),
    );
    res.json({
      currency: diff.currency,
      at: diff.at,
      before_version: active?.version ?? null,
      after_version: candidate.version,
      events: events.length,
      users_before: diff.usersBefore,
      users_after: diff.usersAfter,
      unchanged: diff.unchanged,
      moves_total: diff.moves.length,
      moves: shown.map((m) => ({
        user_id: m.userId,
        ...(labels.get(m.userId) ?? { display_name: null, identity: null }),
        rank_before: m.rankBefore,
        rank_after: m.rankAfter,
        rank_change: m.rankChange,
        points_before: m.pointsBefore,
        points_after: m.pointsAfter,
        points_change: m.pointsChange,
      })),
    });
  });

  router.post("/api/campaigns/:id/rule-versions/:version/activate", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const version = versionParam(req.params.version);
    const row = await loadVersion(campaign, version);
    const parsed = safeParseRuleVersion(row.document);
    const jobId = await db.transaction(async (client) => {
      await client.lockCampaign("activation", campaign.id);
      // A version saved a while ago may have a decay range that has run out since: refused now, rather than by a
      // held campaign. The dates are read under the lock a date change takes too, so neither misses the other.
      const { rows: dates } = await client.query<{ starts_at: Date | null; ends_at: Date | null }>("SELECT starts_at, ends_at FROM campaign WHERE id = $1", [
        campaign.id,
      ]);
      const [stored] = dates;
      const stale = parsed.ok && stored ? decayEpochIssues(parsed.value, { startsAt: stored.starts_at, endsAt: stored.ends_at, now: new Date() }) : [];
      if (stale[0]) throw new ValidationError(`rule version ${version} cannot be activated: ${issueSentence(stale[0])}`, { code: "rule-version-invalid" });
      const { rows: current } = await client.query<{ status: string }>("SELECT status FROM rule_version WHERE id = $1", [row.id]);
      if (current[0]?.status === "active") throw new ConflictError("rule-version-active", `rule version ${version} is already active`);
      const { rows: running } = await client.query<{ rule_version: number }>(
        "SELECT rule_version FROM recompute_job WHERE campaign_id = $1 AND reason = 'rule-activation' AND status IN ('queued', 'running') LIMIT 1",
        [campaign.id],
      );
      if (running[0]) {
        throw new ConflictError("recompute-in-progress", `rule version ${running[0].rule_version} is being activated; wait until its recompute finishes`);
      }
      // The scoring worker picks the job up, recomputes every score from the log under this version
      // and switches to it atomically; until then the current scores stay served.
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO recompute_job(campaign_id, rule_version, reason, status, events_total)
         SELECT $1, $2, 'rule-activation', 'queued', count(*) FROM event_log WHERE campaign_id = $1 RETURNING id`,
        [campaign.id, version],
      );
      const activeVersion = (await activeRuleVersion(client, campaign.id))?.version ?? null;
      await recordAudit(client, session, {
        campaignId: campaign.id,
        action: "rule-version.activate",
        target: `rule-version:${version}`,
        before: { active_version: activeVersion },
        after: { active_version: version, job_id: rows[0]?.id },
      });
      return rows[0]?.id as string;
    });
    deps.logger.info({ campaign_id: campaign.id, version, job_id: jobId, operator_id: session.operatorId }, "rule version activation queued");
    const job = await prisma.recomputeJob.findUniqueOrThrow({ where: { id: jobId } });
    res.status(202).json({ version, status: row.status, job: recomputeJobJson(job) });
  });

  router.get("/api/campaigns/:id/recompute-jobs", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const jobs = await prisma.recomputeJob.findMany({ where: { campaignId: campaign.id }, orderBy: { queueSeq: "desc" }, take: 50 });
    res.json({ recompute_jobs: jobs.map(recomputeJobJson) });
  });

  router.get("/api/campaigns/:id/recompute-jobs/:jobId", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const id = uuidParam(req.params.jobId, "job_id");
    const job = await prisma.recomputeJob.findFirst({ where: { id, campaignId: campaign.id } });
    if (!job) throw new NotFoundError(`recompute job ${id} not found`, { code: "recompute-job-not-found" });
    res.json(recomputeJobJson(job));
  });

  return router;
}
