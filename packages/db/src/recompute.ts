// Queueing the recompute that follows a change of what scores depend on besides the rules: who owns an identity, when a campaign runs, who is excluded (admin-api and portal-api).
import type { Queryable } from "./statement-queue";

/** Why a recompute is queued here (a rule activation queues its own job, in admin-api). */
export type RecomputeReason = "identity-link" | "campaign-dates" | "exclusion";

/**
 * Queues a recompute of a campaign's scores under the rules in force when the worker starts it, so
 * they follow a change made outside the rules (an identity moved between users, new campaign dates).
 * One queued job of a reason covers any number of changes made before the worker starts it: it reads
 * the campaign as it is then. Returns the job id, or null when there are no scores to recompute: no
 * rule version is active and none is being activated right now.
 */
export async function queueRecompute(client: Queryable, campaignId: string, reason: RecomputeReason): Promise<string | null> {
  // A running activation may already have read the campaign as it was before the change, so the
  // change needs its own job after it; a merely queued activation will read the campaign when it starts.
  const { rows: versions } = await client.query<{ version: number }>(
    `SELECT version FROM (
       SELECT version, 0 AS pref FROM rule_version WHERE campaign_id = $1 AND status = 'active'
       UNION ALL
       SELECT rule_version, 1 FROM recompute_job WHERE campaign_id = $1 AND reason = 'rule-activation' AND status = 'running'
     ) v ORDER BY pref LIMIT 1`,
    [campaignId],
  );
  const version = versions[0]?.version;
  if (version === undefined) return null;
  const { rows: queued } = await client.query<{ id: string }>(
    "SELECT id FROM recompute_job WHERE campaign_id = $1 AND reason = $2 AND status = 'queued' ORDER BY queue_seq LIMIT 1",
    [campaignId, reason],
  );
  if (queued[0]) return queued[0].id;
  // rule_version names the version in force now; the worker runs the job under whichever is active when it starts.
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO recompute_job(campaign_id, rule_version, reason, status, events_total)
     SELECT $1, $2, $3, 'queued', count(*) FROM event_log WHERE campaign_id = $1 RETURNING id`,
    [campaignId, version, reason],
  );
  return rows[0]?.id ?? null;
}
