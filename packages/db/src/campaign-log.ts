// Reads a campaign's append-only event log, in log order, as its events' current owners see it.
import type { RawEvent } from "@pointwise/rules";
import type { Queryable } from "./statement-queue";

/** Which part of the log to read: events after `afterSeq`, at most `limit` of them (all when absent). */
export interface ReadCampaignLogOptions {
  afterSeq?: string;
  limit?: number;
}

interface LogRow {
  seq: string;
  id: string;
  user_id: string;
  reg_event_id: string;
  identity_type: string;
  amount: string;
  occurred_at: Date;
  referrer_id: string | null;
}

// trim_scale matches what the scoring worker's live path hands the engine, so a replay of the log
// scores exactly what was scored live. LIMIT NULL means no limit.
const READ_LOG = `SELECT e.seq::text AS seq, e.id, coalesce(i.user_id, e.user_id) AS user_id, e.reg_event_id, e.identity_type,
        trim_scale(e.amount)::text AS amount, e.occurred_at, e.referrer_id
   FROM event_log e
   LEFT JOIN identity i ON i.campaign_id = e.campaign_id AND i.identity_type = e.identity_type AND i.account_id = e.account_id
  WHERE e.campaign_id = $1 AND e.seq > $2
  ORDER BY e.seq
  LIMIT $3`;

/**
 * Reads a campaign's event log in log order as the engine's input: each event belongs to the user
 * who owns its identity now (so an identity linked to another user carries its history along) and
 * keeps the referrer stored on it.
 */
export async function readCampaignLog(db: Queryable, campaignId: string, options: ReadCampaignLogOptions = {}): Promise<RawEvent[]> {
  const { rows } = await db.query<LogRow>(READ_LOG, [campaignId, options.afterSeq ?? "0", options.limit ?? null]);
  return rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    campaignId,
    userId: r.user_id,
    regEventId: r.reg_event_id,
    identityType: r.identity_type,
    amount: r.amount,
    occurredAt: r.occurred_at.toISOString(),
    referrerId: r.referrer_id,
  }));
}
