import { apiKeyMatches, apiKeyPrefix } from "@pointwise/auth";
import type { Database } from "@pointwise/db";

/** The campaign a presented API key belongs to. */
export interface KeyOwner {
  keyId: string;
  campaignId: string;
}

interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * Resolves API keys and event types with a short in-process cache, so the hot path does not query
 * PostgreSQL per request. A revoked key stops working within `ttlMs`.
 */
export function createLookups(db: Database, ttlMs: number) {
  const keys = new Map<string, Entry<KeyOwner | null>>();
  const eventTypes = new Map<string, Entry<boolean>>();
  const MAX = 10_000;

  function remember<T>(map: Map<string, Entry<T>>, k: string, value: T): T {
    if (map.size >= MAX) map.clear();
    map.set(k, { value, expires: Date.now() + ttlMs });
    return value;
  }

  return {
    /** The owner of a key, or null for a malformed, unknown or revoked key (one answer for all three). */
    async resolveKey(key: string): Promise<KeyOwner | null> {
      const prefix = apiKeyPrefix(key);
      if (!prefix) return null;
      const hit = keys.get(key);
      if (hit && hit.expires > Date.now()) return hit.value;
      const { rows } = await db.pool.query<{ id: string; campaign_id: string; hash: string }>(
        "SELECT id, campaign_id, hash FROM api_key WHERE prefix = $1 AND revoked_at IS NULL",
        [prefix],
      );
      const row = rows[0];
      const owner = row && apiKeyMatches(key, row.hash) ? { keyId: row.id, campaignId: row.campaign_id } : null;
      return remember(keys, key, owner);
    },
    /** True when reg_event_id is registered for the campaign and not retired. */
    async eventTypeActive(campaignId: string, regEventId: string): Promise<boolean> {
      const k = `${campaignId}/${regEventId}`;
      const hit = eventTypes.get(k);
      if (hit && hit.expires > Date.now()) return hit.value;
      const { rowCount } = await db.pool.query("SELECT 1 FROM event_type WHERE id = $1 AND campaign_id = $2 AND retired_at IS NULL", [regEventId, campaignId]);
      return remember(eventTypes, k, rowCount === 1);
    },
  };
}

/** The lookups of one ingest process. */
export type Lookups = ReturnType<typeof createLookups>;
