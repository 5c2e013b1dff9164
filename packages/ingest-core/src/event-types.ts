// Checks events' reg_event_ids against a campaign's event types as they were at a time of receipt, cached, one query per batch.
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { TtlCache } from "./ttl-cache";

/** Answers which reg_event_ids were registered, not yet retired event types of a campaign at a time of receipt. */
export interface EventTypeLookup {
  /**
   * The subset of `ids` (lowercase UUIDs) that are event types of `campaignId` not retired at `receivedAt` (ms):
   * a retry that takes over an earlier attempt is judged as that attempt was, so a type retired since still counts.
   */
  active(campaignId: string, ids: readonly string[], receivedAt: number): Promise<Set<string>>;
}

/**
 * Creates an event-type lookup with a short in-process cache; the distinct ids a request needs that
 * are not cached are fetched in one query, so a batch of 1,000 events costs at most one round trip.
 */
export function createEventTypeLookup(db: Database, ttlMs: number): EventTypeLookup {
  // Per campaign and id: when the type was retired (ms; Infinity while it is not), or null when the campaign has no such type.
  const cache = new TtlCache<number | null>(ttlMs, 50_000);
  return {
    async active(campaignId, ids, receivedAt) {
      const result = new Set<string>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const retiredAt = cache.get(`${campaignId}/${id}`);
        if (retiredAt === undefined) missing.push(id);
        else if (retiredAt !== null && retiredAt > receivedAt) result.add(id);
      }
      if (missing.length === 0) return result;
      let found: Map<string, number>;
      try {
        const { rows } = await db.query<{ id: string; retired_at: Date | null }>(
          "SELECT id::text AS id, retired_at FROM event_type WHERE campaign_id = $1 AND id = ANY($2::uuid[])",
          [campaignId, missing],
        );
        found = new Map(rows.map((r) => [r.id, r.retired_at === null ? Number.POSITIVE_INFINITY : r.retired_at.getTime()]));
      } catch (err) {
        throw new RetryableError("service-unavailable", "event types cannot be checked right now; nothing was accepted, retry later", { cause: err });
      }
      for (const id of missing) {
        const retiredAt = cache.set(`${campaignId}/${id}`, found.get(id) ?? null);
        if (retiredAt !== null && retiredAt > receivedAt) result.add(id);
      }
      return result;
    },
  };
}
