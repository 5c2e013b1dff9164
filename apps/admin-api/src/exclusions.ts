// Exclusions: adding and lifting them takes effect at once for live scoring and queues a recompute of the past.
import { activeRuleVersion, excludedUsers, type Transaction } from "@pointwise/db";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import { type ScoresChanged, scoresChangeOf } from "@pointwise/schemas";
import { recordAudit } from "./audit";
import type { Deps } from "./deps";
import { queueRecompute } from "./recompute";
import type { OperatorSession } from "./session";

/** What an exclusion names: an identity (normalised) or a user of one campaign. */
export type ExclusionTarget = { identityType: string; accountId: string } | { userId: string };

/** Where an exclusion applies: one campaign, or every campaign of the operator's project (identities only). */
export interface ExclusionScope {
  projectId: string;
  campaignId: string | null;
}

/** An exclusion row as read. */
export interface ExclusionRow {
  id: string;
  campaign_id: string | null;
  identity_type: string | null;
  account_id: string | null;
  user_id: string | null;
  reason: string;
  source: string;
  operator_id: string | null;
  created_at: Date;
}

const COLUMNS = "id, campaign_id, identity_type, account_id, user_id, reason, source, operator_id, created_at";

/** An exclusion on the wire. */
export function exclusionJson(e: ExclusionRow) {
  return {
    id: e.id,
    scope: e.campaign_id === null ? ("project" as const) : ("campaign" as const),
    campaign_id: e.campaign_id,
    identity_type: e.identity_type,
    account_id: e.account_id,
    user_id: e.user_id,
    reason: e.reason,
    source: e.source,
    operator_id: e.operator_id,
    created_at: e.created_at.toISOString(),
  };
}

/** The campaigns an exclusion of this scope applies to, in a fixed order (locks are taken in it). */
async function campaignsOf(tx: Transaction, scope: ExclusionScope): Promise<string[]> {
  if (scope.campaignId !== null) return [scope.campaignId];
  const { rows } = await tx.query<{ id: string }>("SELECT id FROM campaign WHERE project_id = $1 ORDER BY id", [scope.projectId]);
  return rows.map((r) => r.id);
}

/** What making exclusions take effect did in each campaign. */
interface Effect {
  /** The recompute job of each campaign (null where no rule version is active). */
  jobs: Map<string, string | null>;
  /** One score change per campaign whose served rows were removed, to announce once the transaction commits. */
  changes: ScoresChanged[];
}

/**
 * Makes the exclusions of a scope take effect: under each campaign's apply lock (so no live batch is
 * half-way), excluded users' score rows are removed (they are absent from every board at once, and
 * the worker scores none of their events from now on), and a recompute is queued that replays the
 * log without their events (so referral shares and budgets they took are given back to the rest).
 */
async function takeEffect(tx: Transaction, campaigns: readonly string[]): Promise<Effect> {
  const effect: Effect = { jobs: new Map(), changes: [] };
  for (const campaignId of campaigns) {
    const excluded = await excludedUsers(tx, campaignId);
    if (excluded.size > 0) {
      const { rows } = await tx.query<{ user_id: string; currency: string }>(
        "DELETE FROM score WHERE campaign_id = $1 AND user_id = ANY($2::uuid[]) RETURNING user_id, currency",
        [campaignId, [...excluded]],
      );
      const change = rows.length === 0 ? null : await removedRows(tx, campaignId, rows);
      if (change) effect.changes.push(change);
    }
    effect.jobs.set(campaignId, await queueRecompute(tx, campaignId, "exclusion"));
  }
  return effect;
}

/** The score change of removed rows under the campaign's active version (null without one: nothing was served). */
async function removedRows(tx: Transaction, campaignId: string, rows: readonly { user_id: string; currency: string }[]): Promise<ScoresChanged | null> {
  const version = (await activeRuleVersion(tx, campaignId))?.version ?? null;
  if (version === null) return null;
  return scoresChangeOf({
    campaignId,
    reason: "exclusions",
    ruleVersion: version,
    rows: rows.map((r) => ({ userId: r.user_id, currency: r.currency })),
    lastSeq: null,
    now: new Date(),
  });
}

/** Takes the apply lock of every campaign the scope covers, in id order (two operators never deadlock). */
async function lockAll(tx: Transaction, campaigns: readonly string[]): Promise<void> {
  for (const id of campaigns) await tx.lockCampaign("apply", id);
}

/** What adding exclusions did. */
export interface AddOutcome {
  created: ExclusionRow[];
  /** Targets that were excluded already in this scope. */
  existing: number;
  jobs: Map<string, string | null>;
}

/**
 * Adds exclusions (one or a whole list) in one transaction with their audit entry; targets excluded
 * already are left as they are. A user target must be a user of the scope's campaign.
 */
export async function addExclusions(
  deps: Deps,
  session: OperatorSession,
  scope: ExclusionScope,
  targets: readonly ExclusionTarget[],
  opts: { reason: (i: number) => string; source: "manual" | "csv"; audit: "exclusion.create" | "exclusion.import" },
): Promise<AddOutcome> {
  const { outcome, changes } = await deps.db.transaction(async (tx) => {
    const campaigns = await campaignsOf(tx, scope);
    await lockAll(tx, campaigns);
    const created: ExclusionRow[] = [];
    let existing = 0;
    for (const [i, t] of targets.entries()) {
      if ("userId" in t) {
        const { rows } = await tx.query("SELECT 1 FROM app_user WHERE id = $1 AND campaign_id = $2", [t.userId, scope.campaignId]);
        if (rows.length === 0) throw new NotFoundError(`user ${t.userId} not found`, { code: "user-not-found" });
      }
      const { rows } = await tx.query<ExclusionRow>(
        `INSERT INTO exclusion(project_id, campaign_id, identity_type, account_id, user_id, reason, source, operator_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [
          scope.projectId,
          scope.campaignId,
          "userId" in t ? null : t.identityType,
          "userId" in t ? null : t.accountId,
          "userId" in t ? t.userId : null,
          opts.reason(i),
          opts.source,
          session.operatorId,
        ],
      );
      if (rows[0]) created.push(rows[0]);
      else existing += 1;
    }
    const { jobs, changes } = created.length > 0 ? await takeEffect(tx, campaigns) : { jobs: new Map<string, string | null>(), changes: [] };
    if (created.length > 0) {
      const after =
        opts.source === "csv"
          ? { count: created.length, already_excluded: existing, sample: created.slice(0, 20).map(exclusionJson) }
          : exclusionJson(created[0] as ExclusionRow);
      await recordAudit(tx, session, {
        campaignId: scope.campaignId,
        action: opts.audit,
        target: opts.source === "csv" ? null : `exclusion:${created[0]?.id}`,
        after,
      });
    }
    return { outcome: { created, existing, jobs }, changes };
  });
  // After the commit: readers drop what they cached of the excluded users only once the rows are gone.
  for (const change of changes) deps.ingest.announce(change);
  return outcome;
}

/** Lifts one exclusion of the scope: the row goes (the trail keeps it), and the same recompute gives the user their points back. */
export async function liftExclusion(deps: Deps, session: OperatorSession, scope: ExclusionScope, id: string) {
  const { lifted, jobs, changes } = await deps.db.transaction(async (tx) => {
    const campaigns = await campaignsOf(tx, scope);
    await lockAll(tx, campaigns);
    const { rows } = await tx.query<ExclusionRow>(
      `DELETE FROM exclusion WHERE id = $1 AND project_id = $2 AND campaign_id IS NOT DISTINCT FROM $3 RETURNING ${COLUMNS}`,
      [id, scope.projectId, scope.campaignId],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(`exclusion ${id} not found`, { code: "exclusion-not-found" });
    const effect = await takeEffect(tx, campaigns);
    await recordAudit(tx, session, { campaignId: scope.campaignId, action: "exclusion.lift", target: `exclusion:${row.id}`, before: exclusionJson(row) });
    return { lifted: row, ...effect };
  });
  // As when adding; usually there is nothing to announce, since excluded users' rows went when they were excluded.
  for (const change of changes) deps.ingest.announce(change);
  return { lifted, jobs };
}

/** The exclusions in force for a scope: a campaign's own and its project's (which apply to it too), or the project's. */
export async function listExclusions(deps: Deps, scope: ExclusionScope, limit: number): Promise<{ rows: ExclusionRow[]; total: number }> {
  const where = scope.campaignId === null ? "project_id = $1 AND campaign_id IS NULL" : "project_id = $1 AND (campaign_id = $2 OR campaign_id IS NULL)";
  const params = scope.campaignId === null ? [scope.projectId] : [scope.projectId, scope.campaignId];
  const [list, count] = await Promise.all([
    deps.db.query<ExclusionRow>(`SELECT ${COLUMNS} FROM exclusion WHERE ${where} ORDER BY created_at DESC, id LIMIT ${limit}`, params),
    deps.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM exclusion WHERE ${where}`, params),
  ]);
  return { rows: list.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Refuses a second exclusion of the same target in the same scope with a clear conflict. */
export function alreadyExcluded(): ConflictError {
  return new ConflictError("exclusion-exists", "this identity or user is already excluded in this scope");
}
