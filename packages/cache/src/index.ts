import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RetryableError } from "@pointwise/errors";
import { createClient, type RedisClientType } from "redis";

/** Options of a cache connection; `prefix` isolates a deployment or a test run. */
export interface CacheOptions {
  url: string;
  prefix: string;
}

/** A built value and when it was built. */
export interface CachedValue {
  body: string;
  builtAt: string;
}

/** Redis with a key prefix and the read-through helpers the services share. */
export interface Cache {
  client: RedisClientType;
  /** Joins parts under this cache's prefix: key("lb", "ab12-cd34") -> "<prefix>:lb:ab12-cd34". */
  key(...parts: string[]): string;
  /**
   * Returns the stored string under `key`, building it with `build` when absent.
   * Concurrent misses (in any process) build once: one caller takes a short lock, others wait for its result.
   */
  getOrBuild(key: string, ttlMs: number, build: () => Promise<string>): Promise<string>;
  /** Deletes keys (used to invalidate after writes). */
  del(...keys: string[]): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const LOCK_TTL_MS = 10_000;
const WAIT_STEP_MS = 15;

/** Connects to Redis. Reconnects in the background; commands fail fast while it is away. */
export async function createCache(options: CacheOptions): Promise<Cache> {
  const client: RedisClientType = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 3000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on("error", () => undefined);
  await client.connect();
  const key = (...parts: string[]) => [options.prefix, ...parts].join(":");

  async function run<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new RetryableError("cache-unavailable", "cache unavailable", { cause: err });
    }
  }

  return {
    client,
    key,
    async getOrBuild(k, ttlMs, build) {
      const hit = await run(() => client.get(k));
      if (hit !== null) return hit;
      const lockKey = `${k}:lock`;
      const token = randomUUID();
      const deadline = Date.now() + LOCK_TTL_MS;
      for (;;) {
        const got = await run(() => client.set(lockKey, token, { NX: true, PX: LOCK_TTL_MS }));
        if (got === "OK") {
          try {
            // Another builder may have finished between our miss and our lock.
            const again = await run(() => client.get(k));
            if (again !== null) return again;
            const value = await build();
            await run(() => client.set(k, value, { PX: ttlMs }));
            return value;
          } finally {
            // Release only our own lock; a slow build must not free a lock someone else now holds.
            await client
              .eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", {
                keys: [lockKey],
                arguments: [token],
              })
              .catch(() => undefined);
          }
        }
        await sleep(WAIT_STEP_MS);
        const ready = await run(() => client.get(k));
        if (ready !== null) return ready;
        if (Date.now() > deadline) return build();
      }
    },
    async del(...keys) {
      if (keys.length > 0) await run(() => client.del(keys));
    },
    async ping() {
      try {
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async close() {
      if (!client.isOpen) return;
      // QUIT needs Redis to answer; while the client is reconnecting it would wait for Redis to come
      // back, so a service stopping during an outage disconnects at once instead.
      if (client.isReady) await client.quit().catch(() => client.disconnect());
      else await client.disconnect();
    },
  };
}
