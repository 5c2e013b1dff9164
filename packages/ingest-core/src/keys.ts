// Resolves Bearer API keys to their campaign through a short cache, throttling last_used_at writes.
import { apiKeyMatches, apiKeyPrefix, hashApiKey } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { TtlCache } from "./ttl-cache";

/** The campaign a presented API key belongs to. */
export interface KeyOwner {
  keyId: string;
  campaignId: string;
  /** The key's non-secret prefix (`pw_xxxxxxxx`), safe to log. */
  prefix: string;
  /** True when the campaign is archived: the key is genuine but no event is accepted. */
  archived: boolean;
  /** The key may report events back to the campaign's start (older than OCCURRED_AT_MAX_AGE_MS). */
  backfill: boolean;
  /** The campaign's starts_at (ms) or null. */
  startsAt: number | null;
  /** The campaign's ends_at (ms) or null. */
  endsAt: number | null;
}

/** Settings of the key resolver. */
export interface KeyResolverOptions {
  /** How long a resolved (or refused) key is trusted before PostgreSQL is asked again; a revocation takes effect within this. */
  ttlMs: number;
  /** `last_used_at` is written at most this often per key and process. */
  touchIntervalMs: number;
  logger: Logger;
}

/** Resolves Bearer API keys to their campaign (a change of the key's rights or the campaign's dates is seen within `ttlMs`). */
export interface KeyResolver {
  /** The owner of a key, or null for a malformed, unknown or revoked key (one answer for all three). */
  resolve(key: string): Promise<KeyOwner | null>;
  /** Records that a key was used, writing `last_used_at` at most once per `touchIntervalMs`. */
  markUsed(owner: KeyOwner): void;
}

interface KeyRow {
  id: string;
  campaign_id: string;
  hash: string;
  archived: boolean;
  backfill: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
}

/**
 * Creates a key resolver with a short in-process cache, so the hot path neither queries PostgreSQL
 * nor writes to it per request. The cache is keyed by the key's SHA-256, never by the key itself, and
 * the presented key is compared with the stored hash in constant time.
 */
export function createKeyResolver(db: Database, options: KeyResolverOptions): KeyResolver {
  const cache = new TtlCache<KeyOwner | null>(options.ttlMs);
  const touched = new Map<string, number>();

  return {
    async resolve(key) {
      const prefix = apiKeyPrefix(key);
      if (prefix === null) return null;
      const cacheKey = hashApiKey(key);
      const hit = cache.get(cacheKey);
      if (hit !== undefined) return hit;
      let rows: KeyRow[];
      try {
        ({ rows } = await db.query<KeyRow>(
          `SELECT k.id, k.campaign_id, k.hash, (c.archived_at IS NOT NULL) AS archived, k.backfill, c.starts_at, c.ends_at
             FROM api_key k JOIN campaign c ON c.id = k.campaign_id
            WHERE k.prefix = $1 AND k.revoked_at IS NULL`,
          [prefix],
        ));
      } catch (err) {
        throw new RetryableError("service-unavailable", "API keys cannot be checked right now; nothing was accepted, retry later", { cause: err });
      }
      const row = rows[0];
      const owner =
        row && apiKeyMatches(key, row.hash)
          ? {
              keyId: row.id,
              campaignId: row.campaign_id,
              prefix,
              archived: row.archived,
              backfill: row.backfill,
              startsAt: row.starts_at?.getTime() ?? null,
              endsAt: row.ends_at?.getTime() ?? null,
            }
          : null;
      return cache.set(cacheKey, owner);
    },
    markUsed(owner) {
      const now = Date.now();
      const last = touched.get(owner.keyId);
      if (last !== undefined && now - last < options.touchIntervalMs) return;
      if (touched.size >= 10_000) touched.clear();
      touched.set(owner.keyId, now);
      // Other replicas touch the same key too; the WHERE keeps it to one write per interval overall
      // as far as the clock allows, and a lost write only makes last_used_at a little older.
      db.query("UPDATE api_key SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))", [
        owner.keyId,
        options.touchIntervalMs / 1000,
      ]).catch((err: unknown) => options.logger.warn({ err, key_prefix: owner.prefix }, "could not record API key use"));
    },
  };
}
