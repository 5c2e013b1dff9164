// The event log: resolving identities to users and appending events with their seq, in the form a replay reads back.
import { copyRow, type Queryable, type StatementQueue } from "@pointwise/db";
import { ValidationError } from "@pointwise/errors";
import type { RawEvent } from "@pointwise/rules";
import type { InboxRow } from "../intake/inbox";

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

const AMOUNT = /^(\d+?)(?:\.(\d{1,18}))?$/;
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * An amount as the log returns it (`trim_scale(amount)::text`): no leading zeros before the point,
 * no trailing zeros after it. The bus schema allows at most 18 decimals, so NUMERIC(48,18) stores the
 * value unrounded and this is exactly what a replay reads back.
 */
export function logAmount(amount: string): string {
  const m = AMOUNT.exec(amount);
  if (!m) throw new ValidationError(`amount ${amount.slice(0, 60)} is not a decimal with at most 18 digits after the point`, { code: "event-invalid" });
  const whole = (m[1] as string).replace(/^0+(?=\d)/, "");
  const fraction = (m[2] ?? "").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A time of the message (`received_at`, `occurred_at`) as the log returns it (TIMESTAMPTZ(3), read back as an ISO string). */
export function logTime(time: string, field = "received_at"): string {
  const date = UTC_TIME.test(time) ? new Date(time) : null;
  const iso = date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
  // Date rolls a day that does not exist (February 30) over into the next month; PostgreSQL refuses it.
  if (iso === null || iso.slice(0, 19) !== time.slice(0, 19)) {
    throw new ValidationError(`${field} ${time.slice(0, 60)} is not a UTC time with at most millisecond precision`, { code: "event-invalid" });
  }
  return iso;
}

// What the log needs to know before rows are written: which event ids it holds already, each user's
// referrer now, and one new seq per row (in ascending order; unused ones leave gaps, as seqs may).
const BEFORE_APPEND = `SELECT
  (SELECT coalesce(array_agg(id::text), '{}') FROM event_log WHERE id = ANY($1::uuid[])) AS logged,
  (SELECT coalesce(json_object_agg(id, referrer_id), '{}') FROM app_user WHERE id = ANY($2::uuid[]) AND referrer_id IS NOT NULL) AS referrers,
  (SELECT array_agg(nextval('event_log_seq_seq')::text ORDER BY g) FROM generate_series(1, $3::int) AS g) AS seqs`;

const LOG_COPY =
  "COPY event_log(seq, id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, received_at, occurred_at, referrer_id) FROM STDIN";

/**
 * Appends inbox rows to the append-only log in their order (each gets the next `seq`), stamping each
 * with its user's current referrer. An event id already in the log is skipped. Returns the events
 * that are new to the log, in ascending `seq`, exactly as a later replay will read them. The rows go
 * in with COPY (several times cheaper than an INSERT of a decoded document); the caller's statement queue
 * runs it while the engine scores the returned events, and a refused row fails the transaction.
 */
export async function appendToLog(p: StatementQueue, campaignId: string, rows: readonly InboxRow[], users: ReadonlyMap<string, string>): Promise<RawEvent[]> {
  if (rows.length === 0) return [];
  const userOf = rows.map((r) => users.get(identityKey(r.identityType, r.accountId)) as string);
  const { rows: found } = await p.query<{ logged: string[]; referrers: Record<string, string>; seqs: string[] }>(BEFORE_APPEND, [
    rows.map((r) => r.eventId),
    [...new Set(userOf)],
    rows.length,
  ]);
  const { logged, referrers, seqs } = found[0] as { logged: string[]; referrers: Record<string, string>; seqs: string[] };
  const seen = new Set(logged);
  seqs.sort(compareSeq);
  const events: RawEvent[] = [];
  let data = "";
  for (const [i, r] of rows.entries()) {
    if (seen.has(r.eventId)) continue;
    const seq = seqs[i] as string;
    const userId = userOf[i] as string;
    const referrerId = referrers[userId] ?? null;
    const event: RawEvent = {
      id: r.eventId,
      seq,
      campaignId,
      userId,
      regEventId: r.regEventId,
      identityType: r.identityType,
      amount: logAmount(r.amount),
      occurredAt: logTime(r.occurredAt ?? r.receivedAt, r.occurredAt === null ? "received_at" : "occurred_at"),
      referrerId,
    };
    // The amount goes in as received: PostgreSQL refuses one too large for NUMERIC(48,18).
    data += copyRow([
      seq,
      r.eventId,
      campaignId,
      r.regEventId,
      userId,
      r.identityType,
      r.accountId,
      r.amount,
      r.source,
      logTime(r.receivedAt),
      event.occurredAt,
      referrerId,
    ]);
    events.push(event);
  }
  if (data) p.copy(LOG_COPY, data);
  return events;
}

/** Orders two bigint strings numerically. */
export function compareSeq(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
