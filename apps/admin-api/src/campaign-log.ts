import { ConflictError } from "@pointwise/errors";
import type { RawEvent } from "@pointwise/rules";
import type { Pool } from "pg";

interface LogRow {
  seq: string;
  id: string;
  user_id: string;
  reg_event_id: string;
  identity_type: string;
  amount: string;
  received_at: Date;
  referrer_id: string | null;
}

/**
 * Reads a campaign's event log in log order as the engine's input, the way the scoring worker replays
 * it: each event belongs to the user who owns its identity now (so a linked or moved identity carries
 * its history along), and earns a referral share for the referrer stamped on the event when it was logged.
 * Refuses logs longer than `maxEvents`: the caller holds them in memory.
 */
export async function readCampaignLog(pool: Pool, campaignId: string, maxEvents: number): Promise<RawEvent[]> {
  const { rows: count } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM event_log WHERE campaign_id = $1", [campaignId]);
  const total = Number(count[0]?.n ?? 0);
  if (total > maxEvents) {
    throw new ConflictError("log-too-large", `the campaign log has ${total} events; a dry run replays at most ${maxEvents} (DRY_RUN_MAX_EVENTS)`);
  }
  const { rows } = await pool.query<LogRow>(
    `SELECT e.seq::text AS seq, e.id, coalesce(i.user_id, e.user_id) AS user_id, e.reg_event_id, e.identity_type, e.amount::text AS amount,
            e.received_at, e.referrer_id
       FROM event_log e
       LEFT JOIN identity i ON i.campaign_id = e.campaign_id AND i.identity_type = e.identity_type AND i.account_id = e.account_id
      WHERE e.campaign_id = $1
      ORDER BY e.seq`,
    [campaignId],
  );
  return rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    campaignId,
    userId: r.user_id,
    regEventId: r.reg_event_id,
    identityType: r.identity_type,
    amount: r.amount,
    occurredAt: r.received_at.toISOString(),
    referrerId: r.referrer_id,
  }));
}

/** How the dashboard names a user: the name they set, else their first identity. */
export interface UserLabel {
  display_name: string | null;
  identity: { identity_type: string; account_id: string; handle: string | null } | null;
}

/** Looks up labels for users of one campaign (operators may see identities; the public board never does). */
export async function userLabels(pool: Pool, campaignId: string, userIds: readonly string[]): Promise<Map<string, UserLabel>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await pool.query<{
    id: string;
    display_name: string | null;
    identity_type: string | null;
    account_id: string | null;
    handle: string | null;
  }>(
    `SELECT u.id, u.display_name, i.identity_type, i.account_id, i.handle
       FROM app_user u
       LEFT JOIN LATERAL (SELECT identity_type, account_id, handle FROM identity WHERE user_id = u.id ORDER BY created_at, id LIMIT 1) i ON true
      WHERE u.campaign_id = $1 AND u.id = ANY($2::uuid[])`,
    [campaignId, [...userIds]],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        display_name: r.display_name,
        identity: r.identity_type && r.account_id ? { identity_type: r.identity_type, account_id: r.account_id, handle: r.handle } : null,
      },
    ]),
  );
}
