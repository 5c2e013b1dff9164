// The PostgreSQL Idempotency-Key store: claims, request fingerprints, replayed answers and expiry.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { newEventId } from "./event-id";
import type { EventTimeRights } from "./event-time";

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** What makes two requests "the same": endpoint, event source and the body byte for byte. */
export function requestFingerprint(endpoint: string, source: string, body: Buffer | string): string {
  return createHash("sha256").update(endpoint).update("\n").update(source).update("\n").update(body).digest("hex");
}

/** The outcome of claiming a key. */
export type Claim =
  | {
      kind: "owner";
      /** One event id per item of the request; the same ids on every retry. */
      eventIds: string[];
      receivedAt: string;
      /** The campaign's dates and the key's backfill right when the request was first received: what it is judged by. */
      rights: EventTimeRights;
      /** Stores the answer (its exact JSON text): later requests with the key get it back. */
      complete(response: string): Promise<void>;
      /** Gives the key up without an answer, so the next retry publishes the same events again. */
      release(): Promise<void>;
      /**
       * Forgets the key: the request was refused for what it says, so the key is free for a corrected one.
       * A claim taken over from an earlier attempt is only released instead: that attempt may have published
       * under its event ids, so the key keeps them.
       */
      forget(): Promise<void>;
    }
  | { kind: "replay" /** The stored answer, the exact JSON text first sent. */; response: string }
  | { kind: "reused" }
  | { kind: "in-progress" };

/** Settings of the store. */
export interface IdempotencyOptions {
  /** How long a claim protects a request in flight; past it, a retry takes over (ms). */
  leaseMs: number;
  /** How long a request waits for another one with the same key before answering in-progress (ms). */
  waitMs: number;
  ttlMs?: number;
}

/** The PostgreSQL-backed Idempotency-Key store: survives restarts of every process. */
export interface IdempotencyStore {
  /** Claims `key` for a request of `count` items; `rights` are kept with a new claim, so a retry that takes it over is judged by them. */
  claim(campaignId: string, key: string, fingerprint: string, count: number, rights: EventTimeRights): Promise<Claim>;
  /** Deletes records older than the ttl; returns how many went. */
  purge(): Promise<number>;
}

interface ClaimRow {
  event_ids: string[];
  received_at: Date;
  backfill: boolean | null;
  starts_at: Date | null;
  ends_at: Date | null;
}

const CLAIM_COLUMNS = "event_ids::text[] AS event_ids, received_at, backfill, starts_at, ends_at";

/** The rights a claim was first judged by; a record from before they were kept (backfill null) has `current`. */
function keptRights(row: ClaimRow, current: EventTimeRights): EventTimeRights {
  if (row.backfill === null) return current;
  return { backfill: row.backfill, startsAt: row.starts_at?.getTime() ?? null, endsAt: row.ends_at?.getTime() ?? null };
}

function unavailable(err: unknown): RetryableError {
  return new RetryableError("service-unavailable", "Idempotency-Key records cannot be read right now; nothing was accepted, retry later", {
    cause: err,
  });
}

/**
 * Creates the store. A key is claimed with an INSERT that only one request can win; the winner
 * publishes and then stores its answer. Others with the same body wait for that answer (or take the
 * claim over when its lease ran out, publishing the same event ids again); others with a different
 * body are told the key was reused.
 */
export function createIdempotencyStore(db: Database, options: IdempotencyOptions): IdempotencyStore {
  const ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;

  function owner(campaignId: string, key: string, fingerprint: string, row: ClaimRow, rights: EventTimeRights, fresh: boolean): Claim {
    const release = async () => {
      await db.query("UPDATE idempotency_key SET lease_until = now() WHERE campaign_id = $1 AND key = $2 AND fingerprint = $3 AND status = 'pending'", [
        campaignId,
        key,
        fingerprint,
      ]);
    };
    return {
      kind: "owner",
      eventIds: row.event_ids,
      receivedAt: row.received_at.toISOString(),
      rights: keptRights(row, rights),
      async complete(response) {
        await db
          .query(
            `UPDATE idempotency_key SET status = 'done', response = $4, completed_at = now(), lease_until = NULL
              WHERE campaign_id = $1 AND key = $2 AND fingerprint = $3`,
            [campaignId, key, fingerprint, response],
          )
          .catch((err: unknown) => {
            throw unavailable(err);
          });
      },
      release,
      async forget() {
        if (!fresh) return release();
        // A key left claimed by a refused body would refuse the corrected one as reused for a day: say so instead.
        await db
          .query("DELETE FROM idempotency_key WHERE campaign_id = $1 AND key = $2 AND fingerprint = $3 AND status = 'pending'", [campaignId, key, fingerprint])
          .catch((err: unknown) => {
            throw unavailable(err);
          });
      },
    };
  }

  async function attempt(campaignId: string, key: string, fingerprint: string, count: number, rights: EventTimeRights): Promise<Claim | "wait"> {
    const ids = Array.from({ length: count }, () => newEventId());
    const at = (ms: number | null) => (ms === null ? null : new Date(ms));
    // A new key, or one whose record is older than the ttl: this request owns it.
    const inserted = await db.query<ClaimRow>(
      `INSERT INTO idempotency_key AS k (campaign_id, key, fingerprint, event_ids, received_at, status, lease_until, created_at, backfill, starts_at, ends_at)
       VALUES ($1, $2, $3, $4::uuid[], now(), 'pending', now() + make_interval(secs => $5), now(), $7, $8, $9)
       ON CONFLICT (campaign_id, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, event_ids = EXCLUDED.event_ids, received_at = EXCLUDED.received_at, status = 'pending',
              lease_until = EXCLUDED.lease_until, response = NULL, created_at = EXCLUDED.created_at, completed_at = NULL,
              backfill = EXCLUDED.backfill, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at
        WHERE k.created_at < now() - make_interval(secs => $6)
       RETURNING ${CLAIM_COLUMNS}`,
      [campaignId, key, fingerprint, ids, options.leaseMs / 1000, ttlMs / 1000, rights.backfill, at(rights.startsAt), at(rights.endsAt)],
    );
    if (inserted.rows[0]) return owner(campaignId, key, fingerprint, inserted.rows[0], rights, true);

    // The same request whose earlier attempt failed or died: take it over with the ids it was given.
    const taken = await db.query<ClaimRow>(
      `UPDATE idempotency_key SET lease_until = now() + make_interval(secs => $4)
        WHERE campaign_id = $1 AND key = $2 AND fingerprint = $3 AND status = 'pending' AND lease_until <= now()
       RETURNING ${CLAIM_COLUMNS}`,
      [campaignId, key, fingerprint, options.leaseMs / 1000],
    );
    if (taken.rows[0]) return owner(campaignId, key, fingerprint, taken.rows[0], rights, false);

    const { rows } = await db.query<{ fingerprint: string; status: string; response: string | null }>(
      "SELECT fingerprint, status, response FROM idempotency_key WHERE campaign_id = $1 AND key = $2",
      [campaignId, key],
    );
    const row = rows[0];
    if (row === undefined) return "wait"; // purged between our statements: try again
    if (row.fingerprint !== fingerprint) return { kind: "reused" };
    if (row.status === "done" && row.response !== null) return { kind: "replay", response: row.response };
    return "wait";
  }

  return {
    async claim(campaignId, key, fingerprint, count, rights) {
      const deadline = Date.now() + options.waitMs;
      let pause = 20;
      for (;;) {
        let result: Claim | "wait";
        try {
          result = await attempt(campaignId, key, fingerprint, count, rights);
        } catch (err) {
          throw unavailable(err);
        }
        if (result !== "wait") return result;
        if (Date.now() >= deadline) return { kind: "in-progress" };
        await sleep(pause);
        pause = Math.min(pause * 2, 200);
      }
    },
    async purge() {
      const { rowCount } = await db.query("DELETE FROM idempotency_key WHERE created_at < now() - make_interval(secs => $1)", [ttlMs / 1000]);
      return rowCount ?? 0;
    },
  };
}
