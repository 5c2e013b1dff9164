// Checks events' reg_event_ids against a campaign's active event types, cached, one query per batch.
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { TtlCache } from "./ttl-cache";

/** Answers which reg_event_ids are registered, active event types of a campaign. */
export interface EventTypeLookup {
  /** The subset of `ids` (lowercase UUIDs) that are active event types of `campaignId`. */
  active(campaignId: string, ids: readonly string[]): Promise<Set<string>>;
}

/**
 * Creates an event-type lookup with a short in-process cache; the distinct ids a request needs that
 * are not cached are fetched in one query, so a batch of 1,000 events costs at most one round trip.
 */
export function createEventTypeLookup(db: Database, ttlMs: number): EventTypeLookup {
  const cache = new TtlCache<boolean>(ttlMs, 50_000);
  return {
    async active(campaignId, ids) {
      const result = new Set<string>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = cache.get(`${campaignId}/${id}`);
        if (hit === undefined) missing.push(id);
        else if (hit) result.add(id);
      }
      if (missing.length === 0) return result;
      let found: Set<string>;
      try {
        const { rows } = await db.query<{ id: string }>(
          "SELECT id::text AS id FROM event_type WHERE campaign_id = $1 AND id = ANY($2::uuid[]) AND retired_at IS NULL",
          [campaignId, missing],
        );
        found = new Set(rows.map((r) => r.id));
      } catch (err) {
        throw new RetryableError("service-unavailable", "event types cannot be checked right now; nothing was accepted, retry later", { cause: err });
      }
      for (const id of missing) {
        const ok = found.has(id);
        cache.set(`${campaignId}/${id}`, ok);
        if (ok) result.add(id);
      }
      return result;
    },
  };
}
