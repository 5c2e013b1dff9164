// The recompute stage: replays a campaign's log into shadow tables in the background, then switches them in under the apply lock.
import {
  activateRuleVersion,
  activeRuleVersion,
  addAdjustmentScores,
  type Database,
  excludedUsers,
  type Queryable,
  readAdjustments,
  readCampaignLog,
  readCampaignWindow,
  readSpends,
  setSpentScores,
  type Transaction,
} from "@pointwise/db";
import { BaseError, ValidationError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { adjustmentDeltas, type CampaignWindow, type RuleVersion, spendDeltas, withoutExcluded } from "@pointwise/rules";
import type { ScoresChanged } from "@pointwise/schemas";
import { describeFailure, isTransient } from "../failures";
import type { Target } from "../scoring/result-store";
import type { RuleVersionCache } from "../scoring/rule-version-cache";
import { scoreEvents } from "../scoring/score-slices";

/** A claimed recompute job. */
export interface RecomputeJob {
  id: string;
  campaignId: string;
  ruleVersion: number;
  reason: string;
  /** Claim token: every write of the job checks it, so a job whose lease another replica took over stops. */
  claimedBy: string;
  /** The last log seq the shadow rows include. */
  appliedSeq: string;
  eventsDone: string;
}

/** What recomputing needs. */
export interface RecomputeDeps {
  db: Database;
  logger: Logger;
  rules: RuleVersionCache;
  /** Events per background chunk (one transaction each). */
  chunkSize: number;
  /** Events per engine call and per ledger statement within a chunk (default SLICE). */
  sliceSize?: number;
  /** How long a claim lasts without a heartbeat; each chunk renews it. */
  leaseMs: number;
  /** Called after the switch committed. */
  onSwitched?(change: ScoresChanged): void;
  /** Test hook: runs after each background chunk committed, before the next one. */
  afterChunk?(job: RecomputeJob): Promise<void>;
}

/** The job lost its claim (its lease ran out and another replica took it over). */
class LostClaimError extends BaseError {}

const SHADOW_TABLES = ["recompute_score", "recompute_user_state", "recompute_campaign_state", "recompute_ledger_entry"] as const;

// Unlocked catch-up passes before the switch; each pass reads what arrived during the previous one.
const CATCH_UP_PASSES = 3;

interface JobRow {
  id: string;
  campaign_id: string;
  rule_version: number;
  reason: string;
  claimed_by: string;
  applied_seq: string;
  events_done: string;
}

/**
 * Claims the oldest runnable job: queued, or running with an expired lease (its replica died; the job
 * resumes from its checkpoint). One job per campaign at a time, in the order they were queued.
 */
export async function claimJob(db: Database, leaseMs: number): Promise<RecomputeJob | null> {
  return db.transaction(async (client) => {
    // Claims are rare: one lock makes "no other job of this campaign is running" hold between replicas.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('pointwise-recompute-claim:' || current_schema(), 0))");
    const { rows } = await client.query<{ id: string }>(
      `SELECT j.id FROM recompute_job j
        WHERE (j.status = 'queued' OR (j.status = 'running' AND (j.lease_until IS NULL OR j.lease_until < now())))
          AND NOT EXISTS (SELECT 1 FROM recompute_job r WHERE r.campaign_id = j.campaign_id AND r.id <> j.id AND r.status = 'running' AND r.lease_until >= now())
          AND NOT EXISTS (SELECT 1 FROM recompute_job o WHERE o.campaign_id = j.campaign_id AND o.status IN ('queued', 'running') AND o.queue_seq < j.queue_seq)
        ORDER BY j.queue_seq
        LIMIT 1
        FOR UPDATE SKIP LOCKED`,
    );
    const id = rows[0]?.id;
    if (!id) return null;
    const { rows: claimed } = await client.query<JobRow>(
      `UPDATE recompute_job SET status = 'running', claimed_by = gen_random_uuid(), lease_until = now() + $2 * interval '1 millisecond',
              started_at = coalesce(started_at, now())
        WHERE id = $1
        RETURNING id, campaign_id, rule_version, reason, claimed_by, applied_seq::text, events_done::text`,
      [id, leaseMs],
    );
    const r = claimed[0] as JobRow;
    return {
      id: r.id,
      campaignId: r.campaign_id,
      ruleVersion: r.rule_version,
      reason: r.reason,
      claimedBy: r.claimed_by,
      appliedSeq: r.applied_seq,
      eventsDone: r.events_done,
    };
  });
}

/**
 * Saves the job's checkpoint and renews its lease (or marks it done), but only while this worker
 * still holds the claim; otherwise throws LostClaimError and the caller's transaction rolls back.
 */
async function saveProgress(db: Queryable, job: RecomputeJob, leaseMs: number, opts: { eventsTotal?: string; finish?: boolean } = {}): Promise<void> {
  const params: unknown[] = [job.id, job.claimedBy, job.appliedSeq, job.eventsDone];
  const sets = ["applied_seq = $3", "events_done = $4"];
  if (opts.finish) sets.push("status = 'done'", "events_total = $4", "finished_at = now()", "lease_until = NULL");
  else {
    params.push(leaseMs);
    sets.push(`lease_until = now() + $${params.length} * interval '1 millisecond'`);
  }
  if (opts.eventsTotal !== undefined) {
    params.push(opts.eventsTotal);
    sets.push(`events_total = $${params.length}`);
  }
  const { rowCount } = await db.query(`UPDATE recompute_job SET ${sets.join(", ")} WHERE id = $1 AND claimed_by = $2 AND status = 'running'`, params);
  if (rowCount !== 1) throw new LostClaimError("recompute-claim-lost", `recompute job ${job.id} was taken over by another worker`);
}

async function clearShadow(client: Queryable, jobId: string): Promise<void> {
  for (const table of SHADOW_TABLES) await client.query(`DELETE FROM ${table} WHERE job_id = $1`, [jobId]);
}

/** Applies the next chunk of the log after the job's checkpoint to its shadow rows; returns how many events it read. */
async function applyChunk(
  client: Transaction,
  job: RecomputeJob,
  rules: RuleVersion,
  window: CampaignWindow,
  excluded: ReadonlySet<string>,
  limit: number,
  sliceSize?: number,
): Promise<number> {
  const events = await readCampaignLog(client, job.campaignId, { afterSeq: job.appliedSeq, limit });
  const last = events.at(-1);
  if (!last) return 0;
  const target: Target = { kind: "shadow", campaignId: job.campaignId, jobId: job.id };
  await scoreEvents(client, target, rules, withoutExcluded(events, excluded), { window, ...(sliceSize === undefined ? {} : { sliceSize }) });
  job.appliedSeq = last.seq;
  job.eventsDone = (BigInt(job.eventsDone) + BigInt(events.length)).toString();
  return events.length;
}

async function switchIn(client: Transaction, job: RecomputeJob, rules: RuleVersion): Promise<void> {
  const args = [job.campaignId, job.id, rules.version];
  await client.query("DELETE FROM score WHERE campaign_id = $1", [job.campaignId]);
  await client.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, referral_score, total, lifetime, tier, reached_at, updated_at)
     SELECT $1, user_id, currency, score, referral_score, total, lifetime, tier, reached_at, now() FROM recompute_score WHERE job_id = $2`,
    [job.campaignId, job.id],
  );
  // Operator adjustments are not events of the log: the switch adds every one of them back on top of
  // the replay, and excluded users (read now, under the apply lock) keep no score rows at all.
  const excluded = await excludedUsers(client, job.campaignId);
  const adjustments = (await readAdjustments(client, job.campaignId)).filter((a) => !excluded.has(a.userId));
  await addAdjustmentScores(client, job.campaignId, adjustmentDeltas(rules, adjustments));
  // Redemptions are not events either: every counted one is spent again from the recomputed rows, so a
  // recompute never undoes a spend (where the replay earns less than was spent, the row shows a shortfall).
  const spends = (await readSpends(client, job.campaignId)).filter((s) => !excluded.has(s.userId));
  await setSpentScores(client, job.campaignId, spendDeltas(rules, spends));
  if (excluded.size > 0) await client.query("DELETE FROM score WHERE campaign_id = $1 AND user_id = ANY($2::uuid[])", [job.campaignId, [...excluded]]);
  await client.query("DELETE FROM user_state WHERE campaign_id = $1", [job.campaignId]);
  await client.query(
    "INSERT INTO user_state(campaign_id, user_id, rule_version, state) SELECT $1, user_id, $3, state FROM recompute_user_state WHERE job_id = $2",
    args,
  );
  await client.query("DELETE FROM campaign_state WHERE campaign_id = $1", [job.campaignId]);
  await client.query("INSERT INTO campaign_state(campaign_id, rule_version, state) SELECT $1, $3, state FROM recompute_campaign_state WHERE job_id = $2", args);
  // Entries of other versions stay as history; this version's entries are replaced by the recomputed ones.
  await client.query("DELETE FROM ledger_entry WHERE campaign_id = $1 AND rule_version = $2", [job.campaignId, rules.version]);
  await client.query(
    `INSERT INTO ledger_entry(campaign_id, rule_version, entry_key, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage)
     SELECT $1, $3, entry_key, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage
       FROM recompute_ledger_entry WHERE job_id = $2 ORDER BY seq, ord`,
    args,
  );
  // The previous version is retired before this one turns active, under the apply lock that every switch of the campaign takes.
  if (job.reason === "rule-activation") await activateRuleVersion(client, job.campaignId, rules.version);
  await saveProgress(client, job, 0, { finish: true });
  await clearShadow(client, job.id);
}

/** Finishes a job that has nothing to recompute (no active rule version for an identity-link job). */
async function finishEmpty(db: Database, job: RecomputeJob): Promise<void> {
  await saveProgress(db, job, 0, { finish: true });
}

async function rulesFor(deps: RecomputeDeps, job: RecomputeJob): Promise<RuleVersion | null> {
  const { db } = deps;
  let version = job.ruleVersion;
  if (job.reason !== "rule-activation") {
    // Scores are recomputed under whatever is active when the job runs (an activation may have come in between).
    const active = (await activeRuleVersion(db, job.campaignId))?.version;
    if (active === undefined) return null;
    version = active;
    job.ruleVersion = active;
    await db.query("UPDATE recompute_job SET rule_version = $2 WHERE id = $1 AND claimed_by = $3", [job.id, active, job.claimedBy]);
  }
  try {
    const rules = await deps.rules.version(db, job.campaignId, version);
    if (!rules)
      throw new ValidationError(`rule version ${version} of campaign ${job.campaignId} does not exist`, {
        code: "rule-version-not-found",
        field: "rule_version",
      });
    return rules;
  } catch (err) {
    // An unreadable document will not become readable by waiting: the job fails and says why.
    if (err instanceof BaseError && err.code === "rule-version-unusable") throw new ValidationError(err.message, { code: err.code, cause: err });
    throw err;
  }
}

/**
 * Runs a claimed job to the end: replays the campaign's log into shadow rows in the background
 * (progress in events_done), catches up with events logged meanwhile, then takes the campaign's
 * apply lock, applies the last few events and switches scores, states, ledger and the active
 * version in one transaction. Readers see the old scores until that commit and the new ones after.
 */
export async function runJob(deps: RecomputeDeps, job: RecomputeJob): Promise<void> {
  const { db, logger } = deps;
  const rules = await rulesFor(deps, job);
  if (!rules) {
    await finishEmpty(db, job);
    logger.info({ job_id: job.id, campaign_id: job.campaignId }, "recompute skipped: no active rule version");
    return;
  }
  if (job.appliedSeq === "0") await clearShadow(db, job.id);
  // The dates as they are now; a change while the job runs queues another job, which replays again.
  const window = await readCampaignWindow(db, job.campaignId);
  // Likewise the exclusions: a change while the job runs queues another job.
  const excluded = await excludedUsers(db, job.campaignId);
  const { rows } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM event_log WHERE campaign_id = $1", [job.campaignId]);
  await saveProgress(db, job, deps.leaseMs, { eventsTotal: rows[0]?.n ?? "0" });
  logger.info(
    { job_id: job.id, campaign_id: job.campaignId, rule_version: rules.version, reason: job.reason, resume_from: job.appliedSeq },
    "recompute started",
  );

  for (let pass = 0; pass < CATCH_UP_PASSES; pass++) {
    const { rows: top } = await db.query<{ max: string | null }>("SELECT max(seq)::text AS max FROM event_log WHERE campaign_id = $1", [job.campaignId]);
    const target = BigInt(top[0]?.max ?? "0");
    if (BigInt(job.appliedSeq) >= target) break;
    while (BigInt(job.appliedSeq) < target) {
      await db.transaction(async (client) => {
        await applyChunk(client, job, rules, window, excluded, deps.chunkSize, deps.sliceSize);
        await saveProgress(client, job, deps.leaseMs);
      });
      await deps.afterChunk?.(job);
    }
  }

  await db.transaction(async (client) => {
    // Live batches of this campaign wait from here to the commit, so nothing is logged that the switch misses.
    await client.lockCampaign("apply", job.campaignId);
    while ((await applyChunk(client, job, rules, window, excluded, deps.chunkSize, deps.sliceSize)) > 0);
    await switchIn(client, job, rules);
  });
  logger.info({ job_id: job.id, campaign_id: job.campaignId, rule_version: rules.version, events: job.eventsDone }, "recompute switched in");
  deps.onSwitched?.({
    v: 1,
    campaign_id: job.campaignId,
    reason: "recompute",
    rule_version: rules.version,
    currencies: Object.keys(rules.currencies).sort(),
    user_ids: null,
    last_seq: job.appliedSeq === "0" ? null : job.appliedSeq,
    at: new Date().toISOString(),
  });
}

/**
 * Claims and runs one job if there is one; returns whether it did. A failure that will repeat marks
 * the job failed (old scores stay served); a transient one releases the claim so the job resumes.
 */
export async function runNextJob(deps: RecomputeDeps): Promise<boolean> {
  const job = await claimJob(deps.db, deps.leaseMs);
  if (!job) return false;
  try {
    await runJob(deps, job);
  } catch (err) {
    if (err instanceof LostClaimError) {
      deps.logger.warn({ job_id: job.id }, err.message);
    } else if (isTransient(err)) {
      deps.logger.warn({ job_id: job.id, err }, "recompute interrupted; it resumes from its checkpoint");
      await deps.db.query("UPDATE recompute_job SET lease_until = now() WHERE id = $1 AND claimed_by = $2", [job.id, job.claimedBy]).catch(() => undefined);
    } else {
      const error = describeFailure(err);
      deps.logger.error({ job_id: job.id, campaign_id: job.campaignId, error }, "recompute failed; the current scores stay served");
      await deps.db.transaction(async (client) => {
        await client.query(
          "UPDATE recompute_job SET status = 'failed', error = $3, finished_at = now(), lease_until = NULL WHERE id = $1 AND claimed_by = $2",
          [job.id, job.claimedBy, error],
        );
        await clearShadow(client, job.id);
      });
    }
  }
  return true;
}
