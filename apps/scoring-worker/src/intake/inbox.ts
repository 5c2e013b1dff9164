// The inbox table: bus messages staged durably before they are applied, read and removed by the applier, dead-lettered after repeated failures.
import { copyRow, type Database, type Queryable, UniqueConstraintError } from "@pointwise/db";
import type { RawEventMessage } from "@pointwise/schemas";

/** A decoded bus message with where it sits in the stream. */
export interface StagedMessage {
  stream: string;
  streamSeq: number;
  subject: string;
  event: RawEventMessage;
}

/** An inbox row as the applier reads it. */
export interface InboxRow {
  streamSeq: string;
  subject: string;
  eventId: string;
  campaignId: string;
  regEventId: string;
  identityType: string;
  accountId: string;
  amount: string;
  receivedAt: string;
  /** Null for a version-1 message: it happened when received. */
  occurredAt: string | null;
  source: string;
  attempts: number;
}

const INBOX_COPY =
  "COPY event_inbox(stream, stream_seq, subject, event_id, campaign_id, reg_event_id, identity_type, account_id, amount, received_at, occurred_at, source) FROM STDIN";

/**
 * Puts messages into the inbox (a message staged before, e.g. redelivered after a crash, is a no-op).
 * After this commits the messages may be acknowledged: the inbox holds them until they are applied.
 * The usual batch goes in with one COPY; when a message of it is staged already, COPY refuses the
 * whole batch, and the batch is inserted again by one INSERT … ON CONFLICT DO NOTHING.
 */
export async function stageMessages(db: Database, messages: readonly StagedMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  let data = "";
  for (const m of messages) {
    const e = m.event;
    data += copyRow([
      m.stream,
      m.streamSeq,
      m.subject,
      e.event_id,
      e.campaign_id,
      e.reg_event_id,
      e.identity_type,
      e.account_id,
      e.amount,
      e.received_at,
      e.occurred_at ?? null,
      e.source,
    ]);
  }
  // Outside any transaction: a refused COPY leaves nothing behind that the INSERT would wait for.
  try {
    return await db.copy(INBOX_COPY, data);
  } catch (err) {
    if (!(err instanceof UniqueConstraintError)) throw err;
    return insertMessages(db, messages);
  }
}

async function insertMessages(db: Queryable, messages: readonly StagedMessage[]): Promise<number> {
  const col = <T>(f: (m: StagedMessage) => T) => messages.map(f);
  const { rowCount } = await db.query(
    `INSERT INTO event_inbox(stream, stream_seq, subject, event_id, campaign_id, reg_event_id, identity_type, account_id, amount, received_at, occurred_at, source)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::uuid[], $5::text[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
     ON CONFLICT (stream, stream_seq) DO NOTHING`,
    [
      col((m) => m.stream),
      col((m) => m.streamSeq),
      col((m) => m.subject),
      col((m) => m.event.event_id),
      col((m) => m.event.campaign_id),
      col((m) => m.event.reg_event_id),
      col((m) => m.event.identity_type),
      col((m) => m.event.account_id),
      col((m) => m.event.amount),
      col((m) => m.event.received_at),
      col((m) => m.event.occurred_at ?? null),
      col((m) => m.event.source),
    ],
  );
  return rowCount ?? 0;
}

/** Campaigns with inbox rows at or below `floor`, the one waiting longest first. */
export async function campaignsWaiting(db: Queryable, stream: string, floor: number): Promise<string[]> {
  const { rows } = await db.query<{ campaign_id: string }>(
    `SELECT campaign_id FROM event_inbox WHERE stream = $1 AND stream_seq <= $2 GROUP BY campaign_id ORDER BY min(stream_seq)`,
    [stream, floor],
  );
  return rows.map((r) => r.campaign_id);
}

/** The campaign's next inbox rows in stream order, at most `limit`, none above `floor`. */
export async function nextInboxRows(client: Queryable, stream: string, campaignId: string, floor: number, limit: number): Promise<InboxRow[]> {
  const { rows } = await client.query<InboxRow>(
    `SELECT stream_seq::text AS "streamSeq", subject, event_id AS "eventId", campaign_id AS "campaignId", reg_event_id AS "regEventId",
            identity_type AS "identityType", account_id AS "accountId", amount, received_at AS "receivedAt", occurred_at AS "occurredAt", source, attempts
       FROM event_inbox WHERE stream = $1 AND campaign_id = $2 AND stream_seq <= $3
      ORDER BY stream_seq LIMIT $4`,
    [stream, campaignId, floor, limit],
  );
  return rows;
}

/**
 * Removes the campaign's applied rows from the inbox (in the transaction that applied them): those
 * from `firstSeq` to `lastSeq`, which are exactly the rows nextInboxRows returned. Every message at or
 * below the floor is staged already, and a message staged again later either is one of these rows
 * (its insert is a no-op) or was applied in an earlier batch, below `firstSeq`; so a range needs no
 * list of thousands of seqs.
 */
export async function removeInboxRows(client: Queryable, stream: string, campaignId: string, firstSeq: string, lastSeq: string): Promise<void> {
  await client.query("DELETE FROM event_inbox WHERE stream = $1 AND campaign_id = $2 AND stream_seq BETWEEN $3 AND $4", [
    stream,
    campaignId,
    firstSeq,
    lastSeq,
  ]);
}

/** The raw event message an inbox row came from, as it travelled on the bus. */
export function inboxPayload(row: InboxRow): string {
  return JSON.stringify({
    v: row.occurredAt === null ? 1 : 2,
    event_id: row.eventId,
    campaign_id: row.campaignId,
    reg_event_id: row.regEventId,
    identity_type: row.identityType,
    account_id: row.accountId,
    amount: row.amount,
    received_at: row.receivedAt,
    ...(row.occurredAt === null ? {} : { occurred_at: row.occurredAt }),
    source: row.source,
  });
}

/**
 * Records a failed attempt to apply an inbox row; once it has failed `maxAttempts` times the row
 * moves to the dead-letter table instead, so the campaign behind it moves on. Returns true when
 * the row was dead-lettered.
 */
export async function recordApplyFailure(db: Database, stream: string, row: InboxRow, error: string, maxAttempts: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ attempts: number }>(
      "UPDATE event_inbox SET attempts = attempts + 1, last_error = $3 WHERE stream = $1 AND stream_seq = $2 RETURNING attempts",
      [stream, row.streamSeq, error],
    );
    const attempts = rows[0]?.attempts;
    const dead = attempts !== undefined && attempts >= maxAttempts;
    if (dead) {
      await tx.query(
        `INSERT INTO dead_letter(stream, stream_seq, subject, payload, error, deliveries) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (stream, stream_seq) DO NOTHING`,
        [stream, row.streamSeq, row.subject, inboxPayload(row), error, attempts],
      );
      await tx.query("DELETE FROM event_inbox WHERE stream = $1 AND stream_seq = $2", [stream, row.streamSeq]);
    }
    return dead;
  });
}
