// Identity moves between users: queueing the recompute that follows them, and the X handle rule.
import type { Queryable } from "@pointwise/db";

/**
 * Queues a recompute after an identity moved between users, so every score follows the events to
 * their new owner. One queued job covers any number of moves made before the worker starts it.
 * Returns the job id, or null when no rule version is active (no scores exist to recompute).
 */
export async function queueIdentityRecompute(client: Queryable, campaignId: string): Promise<string | null> {
  const { rows: active } = await client.query<{ version: number }>("SELECT version FROM rule_version WHERE campaign_id = $1 AND status = 'active'", [
    campaignId,
  ]);
  const version = active[0]?.version;
  if (version === undefined) return null;
  const { rows: queued } = await client.query<{ id: string }>(
    "SELECT id FROM recompute_job WHERE campaign_id = $1 AND reason = 'identity-link' AND status = 'queued' AND rule_version = $2 ORDER BY queue_seq LIMIT 1",
    [campaignId, version],
  );
  if (queued[0]) return queued[0].id;
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO recompute_job(campaign_id, rule_version, reason, status, events_total)
     SELECT $1, $2, 'identity-link', 'queued', count(*) FROM event_log WHERE campaign_id = $1 RETURNING id`,
    [campaignId, version],
  );
  return rows[0]?.id ?? null;
}

/** X usernames: 1-15 letters, digits or underscores (X's own rule), stored without the @. */
export const X_HANDLE_PATTERN = /^[A-Za-z0-9_]{1,15}$/;
