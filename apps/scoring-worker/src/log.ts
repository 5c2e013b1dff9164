import type { RawEvent } from "@pointwise/rules";
import type { Pool, PoolClient } from "pg";
import type { InboxRow } from "./inbox";
import type { Queryable } from "./pipeline";

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

function toRawEvent(campaignId: string, r: LogRow): RawEvent {
  return {
    id: r.id,
    seq: r.seq,
    campaignId,
    userId: r.user_id,
    regEventId: r.reg_event_id,
    identityType: r.identity_type,
    amount: r.amount,
    occurredAt: r.received_at.toISOString(),
    referrerId: r.referrer_id,
  };
}

const SEP = "\u0000";

const FIND_IDENTITIES = `SELECT i.identity_type, i.account_id, i.user_id FROM identity i
   JOIN unnest($2::text[], $3::text[]) AS t(identity_type, account_id) ON i.identity_type = t.identity_type AND i.account_id = t.account_id
  WHERE i.campaign_id = $1`;

/**
 * Resolves each (identity_type, account_id) of a campaign to its user, creating the identity and a
 * new user for identities nobody has seen. Linked identities resolve to the user they are linked to.
 */
export async function resolveUsers(
  db: Queryable,
  campaignId: string,
  rows: readonly Pick<InboxRow, "identityType" | "accountId">[],
): Promise<Map<string, string>> {
  const keys = [...new Set(rows.map((r) => identityKey(r.identityType, r.accountId)))];
  const split = (list: readonly string[]) => [list.map((k) => k.slice(0, k.indexOf(SEP))), list.map((k) => k.slice(k.indexOf(SEP) + 1))];
  const users = new Map<string, string>();
  const { rows: known } = await db.query<{ identity_type: string; account_id: string; user_id: string }>(FIND_IDENTITIES, [campaignId, ...split(keys)]);
  for (const r of known) users.set(identityKey(r.identity_type, r.account_id), r.user_id);
  // Most identities are known; only the others are inserted (an insert that conflicts costs as much as one that does not).
  const missing = keys.filter((k) => !users.has(k));
  if (missing.length === 0) return users;
  const [types, accounts] = split(missing);
  await db.query(
    `WITH ins AS (
       INSERT INTO identity(campaign_id, identity_type, account_id, user_id)
       SELECT $1, identity_type, account_id, gen_random_uuid() FROM unnest($2::text[], $3::text[]) AS t(identity_type, account_id)
        -- Sorted input keeps concurrent inserters (admin-api links identities too) from deadlocking.
        ORDER BY 2, 3
       ON CONFLICT (campaign_id, identity_type, account_id) DO NOTHING
       RETURNING user_id
     )
     INSERT INTO app_user(id, campaign_id) SELECT user_id, $1 FROM ins`,
    [campaignId, types, accounts],
  );
  // A second statement: it also sees an identity another transaction committed while the insert waited on it.
  const { rows: found } = await db.query<{ identity_type: string; account_id: string; user_id: string }>(FIND_IDENTITIES, [campaignId, types, accounts]);
  for (const r of found) users.set(identityKey(r.identity_type, r.account_id), r.user_id);
  return users;
}

/** The map key of an identity within one campaign. */
export function identityKey(identityType: string, accountId: string): string {
  return `${identityType}${SEP}${accountId}`;
}

/**
 * Appends inbox rows to the append-only log in their order (each gets the next `seq`), stamping each
 * with its user's current referrer. An event id already in the log is skipped. Returns the events
 * that are new to the log, in ascending `seq`, exactly as a later replay will read them.
 */
export async function appendToLog(db: Queryable, campaignId: string, rows: readonly InboxRow[], users: ReadonlyMap<string, string>): Promise<RawEvent[]> {
  if (rows.length === 0) return [];
  const input = JSON.stringify(
    rows.map((r, ord) => ({
      ord,
      id: r.eventId,
      reg_event_id: r.regEventId,
      user_id: users.get(identityKey(r.identityType, r.accountId)),
      identity_type: r.identityType,
      account_id: r.accountId,
      amount: r.amount,
      source: r.source,
      received_at: r.receivedAt,
    })),
  );
  const { rows: logged } = await db.query<LogRow>(
    `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, received_at, referrer_id)
     SELECT t.id, $1, t.reg_event_id, t.user_id, t.identity_type, t.account_id, t.amount::numeric, t.source, t.received_at::timestamptz,
            -- One key lookup per event: a join would read every user of the campaign for each statement.
            (SELECT u.referrer_id FROM app_user u WHERE u.id = t.user_id)
       FROM json_to_recordset($2::json)
            AS t(ord int, id uuid, reg_event_id uuid, user_id uuid, identity_type text, account_id text, amount text, source text, received_at text)
      ORDER BY t.ord
     ON CONFLICT (id) DO NOTHING
     RETURNING seq::text AS seq, id, user_id, reg_event_id, identity_type, trim_scale(amount)::text AS amount, received_at, referrer_id`,
    [campaignId, input],
  );
  return logged.map((r) => toRawEvent(campaignId, r)).sort((a, b) => compareSeq(a.seq, b.seq));
}

/** Orders two bigint strings numerically. */
export function compareSeq(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Reads a campaign's log after `afterSeq` in log order, at most `limit` events, as the engine's
 * input. Each event belongs to the user who owns its identity now, so an identity an operator linked
 * to another user carries its history along; the referrer is the one stored on the event.
 */
export async function readLog(db: Pool | PoolClient, campaignId: string, afterSeq: string, limit: number): Promise<RawEvent[]> {
  const { rows } = await db.query<LogRow>(
    `SELECT e.seq::text AS seq, e.id, coalesce(i.user_id, e.user_id) AS user_id, e.reg_event_id, e.identity_type,
            trim_scale(e.amount)::text AS amount, e.received_at, e.referrer_id
       FROM event_log e
       LEFT JOIN identity i ON i.campaign_id = e.campaign_id AND i.identity_type = e.identity_type AND i.account_id = e.account_id
      WHERE e.campaign_id = $1 AND e.seq > $2
      ORDER BY e.seq
      LIMIT $3`,
    [campaignId, afterSeq, limit],
  );
  return rows.map((r) => toRawEvent(campaignId, r));
}
