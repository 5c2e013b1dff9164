// Redis-backed cache of built response bodies: one build per window, last good copy during outages.
import type { Cache } from "@pointwise/cache";
import { BaseError, isRetryable, NotFoundError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { sharedInFlight } from "./in-flight";

/** Cache settings of the read responses. */
export interface ResponseCacheOptions {
  cache: Cache;
  logger: Logger;
  /** How long a built response is served as it is. */
  ttlMs: number;
  /** How long the last good copy is kept for outages. */
  staleTtlMs: number;
  /** Told how each request was answered (metrics): from a cached copy, built, the last good copy, or without Redis. */
  onLookup?(outcome: LookupOutcome): void;
}

/** How a request's body was found: `hit` (a cached copy), `miss` (built now), `stale` (the last good copy), `bypass` (built without Redis). */
export type LookupOutcome = "hit" | "miss" | "stale" | "bypass";

/** A response body, whether it was built without the cache (Redis unreachable: `X-Cache: bypass`), and when its cached copy ends. */
export interface CachedBody {
  body: string;
  bypass: boolean;
  /** When this body stops being served (ms since the epoch): the end of its window, or of a stale copy's short retry time. */
  expiresAt: number;
}

/** Serves built response bodies from Redis: one build per key and window, and the last good copy in an outage. */
export interface ResponseCache {
  /**
   * The body under `parts`, built by `build` on a miss (once across every process). A NotFoundError
   * from `build` is cached like a body, so unknown ids do not reach PostgreSQL on every request.
   * When `build` fails with a retryable error (PostgreSQL down) the last good copy is served instead.
   * Concurrent calls for one key in a process share one lookup and so the first caller's `build`.
   * While Redis cannot be reached, `build` answers every call that no local copy covers (PostgreSQL
   * instead of the cache), and the answer says so (`bypass`).
   */
  get(parts: readonly string[], build: () => Promise<string>): Promise<CachedBody>;
  /**
   * Drops every fresh entry whose parts start with `prefix` (in Redis and in this process's local
   * copies); the last good copies stay for outages.
   */
  drop(prefix: readonly string[]): Promise<number>;
}

// A cached "not found" starts with a byte no JSON body starts with.
const NOT_FOUND_MARK = "!";
// Characters of response bodies a process keeps beside Redis; past it the local copies are dropped.
const LOCAL_CHARS = 64 * 1024 * 1024;
// While serving a stale copy, how soon to try PostgreSQL again.
const STALE_RETRY_MS = 5000;
// How many of the latest drops a build checks its key against; a build older than all of them stores nothing.
const MAX_REMEMBERED_DROPS = 1000;

// A stored value (a body or a marked not-found), whether it was built without the cache, and when it expires.
interface Lookup {
  value: string;
  bypass: boolean;
  outcome: LookupOutcome;
  expiresAt: number;
}

const isCacheUnavailable = (err: unknown) => err instanceof BaseError && err.code === "cache-unavailable";

/** Creates the response cache over a shared Redis cache. */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const { cache, logger, ttlMs, staleTtlMs } = options;
  // A local copy lives exactly as long as the shared one had left when it was read, so every process
  // still serves the same bytes within a window; the hot path then needs no Redis round trip.
  const local = new Map<string, { value: string; expires: number }>();
  let localChars = 0;
  // Bumped by every drop: a read that started before a drop must not store what it read locally.
  let epoch = 0;
  // The prefixes (key heads) of the latest drops, by the epoch each one made: a build that began before one of them
  // covering its key may have read what the drop is about, and does not store it. Older drops than the list holds
  // count as covering every key.
  const drops: { epoch: number; head: string }[] = [];
  const droppedSince = (seen: number, key: string): boolean => {
    if (drops.length > 0 && (drops[0] as { epoch: number }).epoch > seen + 1) return true;
    return drops.some((d) => d.epoch > seen && (key === d.head || key.startsWith(`${d.head}:`)));
  };
  // Lookups in flight, by key; a drop forgets the ones it covers so later requests look up afresh.
  const pending = new Map<string, Promise<Lookup>>();
  // Whether the last lookup found Redis unreachable: logged once when it starts and once when it ends.
  let bypassing = false;

  function noteRedis(reachable: boolean, err?: unknown): void {
    if (reachable === !bypassing) return;
    bypassing = !reachable;
    if (bypassing) logger.warn({ err }, "Redis unreachable: answering from PostgreSQL without the cache (X-Cache: bypass)");
    else logger.info("Redis reachable again: answering from the cache");
  }

  function remember(key: string, value: string, ttlLeftMs: number): void {
    if (localChars + value.length > LOCAL_CHARS) {
      local.clear();
      localChars = 0;
    }
    local.set(key, { value, expires: Date.now() + ttlLeftMs });
    localChars += value.length;
  }

  // The value under `key` and when it expires, from the local copy or from Redis (null: neither has it).
  async function shared(key: string): Promise<{ value: string; expiresAt: number } | null> {
    const hit = local.get(key);
    if (hit && hit.expires > Date.now()) return { value: hit.value, expiresAt: hit.expires };
    if (hit) {
      local.delete(key);
      localChars -= hit.value.length;
    }
    const seen = epoch;
    const reply = await cache.getWithTtl(key).catch(() => null);
    if (reply === null) return null;
    if (reply.ttlMs > 0 && seen === epoch) remember(key, reply.value, reply.ttlMs);
    // Every value is stored with an expiry; one without (ttlMs -1) is not promised any time left.
    return { value: reply.value, expiresAt: Date.now() + Math.max(0, reply.ttlMs) };
  }

  // The raw stored value under `key` (a body or a marked not-found), read or built; see `get`.
  async function lookUp(key: string, parts: readonly string[], build: () => Promise<string>): Promise<Lookup> {
    const known = await shared(key);
    if (known !== null) return { ...known, bypass: false, outcome: "hit" };
    const staleKey = cache.key("read-stale", ...parts);
    let servedStale = false;
    // What `build` produced, so a Redis failure after it (storing the body) does not build twice.
    let built: string | undefined;
    const buildOnce = async (): Promise<string> => {
      try {
        built = await build();
        return built;
      } catch (err) {
        if (err instanceof NotFoundError) return NOT_FOUND_MARK + JSON.stringify({ code: err.code, message: err.message });
        throw err;
      }
    };
    let value: string;
    const seen = epoch;
    try {
      value = await cache.getOrBuild(
        key,
        ttlMs,
        async () => {
          try {
            const body = await buildOnce();
            if (!body.startsWith(NOT_FOUND_MARK)) await cache.set(staleKey, body, staleTtlMs).catch(() => undefined);
            return body;
          } catch (err) {
            if (!isRetryable(err)) throw err;
            const stale = await cache.get(staleKey).catch(() => null);
            if (stale === null) throw err;
            servedStale = true;
            logger.warn({ key: parts.join(":"), err }, "serving the last good response while a dependency is down");
            return stale;
          }
        },
        // A drop of this key while it was built (the worker committed and announced meanwhile): what the build read
        // may be from before that commit, so it is answered to the requests waiting for it but not stored for the window.
        () => !droppedSince(seen, key),
      );
    } catch (err) {
      if (!isCacheUnavailable(err)) throw err;
      // Redis is a cache: without it the answer comes from PostgreSQL, built per process and request.
      noteRedis(false, err);
      return { value: built ?? (await buildOnce()), bypass: true, outcome: "bypass", expiresAt: Date.now() + ttlMs };
    }
    noteRedis(true);
    // The stale copy was stored under the fresh key with the full window; shorten it so the next
    // build is tried soon after PostgreSQL is back.
    if (servedStale) {
      const retryMs = Math.min(STALE_RETRY_MS, ttlMs);
      await cache.expire(key, retryMs).catch(() => undefined);
      return { value, bypass: false, outcome: "stale", expiresAt: Date.now() + retryMs };
    }
    // Read back what Redis now holds, with its time left, so the local copy starts here instead of on
    // the next request (one round trip per miss; `shared` keeps the rules on TTL and drops). A value
    // that is gone already (dropped meanwhile, or replaced) has no time left: the next request asks again.
    const back = await shared(key);
    const expiresAt = back !== null && back.value === value ? back.expiresAt : Date.now();
    // No `built`: another process built it while this one waited on the build lock.
    return { value, bypass: false, outcome: built !== undefined ? "miss" : "hit", expiresAt };
  }

  function answer({ value, bypass, expiresAt }: Lookup): CachedBody {
    if (value.startsWith(NOT_FOUND_MARK)) {
      const { code, message } = JSON.parse(value.slice(NOT_FOUND_MARK.length)) as { code: string; message: string };
      throw new NotFoundError(message, { code });
    }
    return { body: value, bypass, expiresAt };
  }

  return {
    async drop(prefix) {
      const head = cache.key("read", ...prefix);
      const forgetLocal = () => {
        // Reads in flight across this point must not store what they read (see `epoch`).
        epoch += 1;
        drops.push({ epoch, head });
        if (drops.length > MAX_REMEMBERED_DROPS) drops.shift();
        for (const [k, v] of local) {
          if (k === head || k.startsWith(`${head}:`)) {
            local.delete(k);
            localChars -= v.value.length;
          }
        }
        for (const k of pending.keys()) if (k === head || k.startsWith(`${head}:`)) pending.delete(k);
      };
      forgetLocal();
      const dropped = await cache.delTree(head);
      forgetLocal();
      return dropped;
    },
    async get(parts, build) {
      const key = cache.key("read", ...parts);
      const hit = local.get(key);
      if (hit && hit.expires > Date.now()) {
        options.onLookup?.("hit");
        return answer({ value: hit.value, bypass: false, outcome: "hit", expiresAt: hit.expires });
      }
      // Concurrent requests for one key in this process share one lookup: without it every request
      // that arrives while a key is missing (a new window, a dropped user) makes its own Redis round
      // trips and, on a miss, polls the build lock every 15 ms; under load that was most of the work.
      const found = await sharedInFlight(pending, key, () => lookUp(key, parts, build));
      options.onLookup?.(found.outcome);
      return answer(found);
    },
  };
}
