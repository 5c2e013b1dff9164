/** Redis for the services: prefixed keys, read-through builds and the named operations callers need; the client stays inside. */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RetryableError } from "@pointwise/errors";
import { createClient, type RedisClientType } from "redis";

/** Options of a cache connection; `prefix` isolates a deployment or a test run. */
export interface CacheOptions {
  url: string;
  prefix: string;
  /**
   * How the first connection is made: `wait` (the default) retries until Redis answers; `once` makes
   * one attempt (at most 3 s) and rejects with `cache-unavailable` when it fails, so a start-up loop
   * can log and retry it; `background` resolves at once and keeps trying, every operation failing with
   * `cache-unavailable` until Redis answers. Once connected, every mode reconnects by itself.
   */
  firstConnect?: "wait" | "once" | "background";
}

/** A built value and when it was built. */
export interface CachedValue {
  body: string;
  builtAt: string;
}

/** A value and how long it has left. */
export interface ValueWithTtl {
  value: string;
  /** Milliseconds left, or -1 when the key never expires. */
  ttlMs: number;
}

/** A Lua script loaded once and run by its hash. */
export interface CacheScript {
  /** Runs the script; loads it again when Redis forgot it (after a restart or SCRIPT FLUSH). */
  run(keys: string[], args: string[]): Promise<unknown>;
}

/**
 * Redis with a key prefix and the operations the services share. Every operation but `ping`,
 * `isOpen` and `close` fails with RetryableError `cache-unavailable` while Redis cannot be reached.
 */
export interface Cache {
  /** Joins parts under this cache's prefix: key("lb", "ab12-cd34") -> "<prefix>:lb:ab12-cd34". */
  key(...parts: string[]): string;
  /**
   * Returns the stored string under `key`, building it with `build` when absent.
   * Concurrent misses (in any process) build once: one caller takes a short lock, others wait for its result.
   * When `keep` answers false once the build is done (what it read was invalidated meanwhile), the value is
   * returned but not stored, so the next caller builds afresh.
   */
  getOrBuild(key: string, ttlMs: number, build: () => Promise<string>, keep?: () => boolean): Promise<string>;
  /** Deletes keys (used to invalidate after writes). */
  del(...keys: string[]): Promise<void>;
  /** The string under `key`, or null. */
  get(key: string): Promise<string | null>;
  /** The string under `key` and its time left, in one round trip; null when absent. */
  getWithTtl(key: string): Promise<ValueWithTtl | null>;
  /** Stores `value` under `key`, expiring after `ttlMs` when given. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets the time left of `key` to `ttlMs`. */
  expire(key: string, ttlMs: number): Promise<void>;
  /** How many of `keys` exist. */
  exists(...keys: string[]): Promise<number>;
  /** Deletes `key` and every key below it (`key:...`), scanning in batches; resolves with how many were deleted. */
  delTree(key: string): Promise<number>;
  /** Every key matching a glob `pattern` (SCAN; for tests and maintenance, not request paths). */
  scanKeys(pattern: string): Promise<string[]>;
  /** A Lua script to run by hash; loaded on first use. */
  defineScript(source: string): CacheScript;
  /** Makes Redis forget every loaded script, as a restart does (tests of that recovery). */
  flushScripts(): Promise<void>;
  /** False once the connection is closed (true while it is reconnecting). */
  isOpen(): boolean;
  ping(): Promise<boolean>;
  /** Resolves when Redis answers a PING now; rejects with `cache-unavailable` (its cause saying why) otherwise. */
  checkConnection(): Promise<void>;
  close(): Promise<void>;
}

const LOCK_TTL_MS = 10_000;
const WAIT_STEP_MS = 15;

const unavailable = (cause?: unknown) => new RetryableError("cache-unavailable", "cache unavailable", { cause });

/** Connects to Redis (see `firstConnect`). Reconnects in the background; commands fail fast while it is away. */
export async function createCache(options: CacheOptions): Promise<Cache> {
  const mode = options.firstConnect ?? "wait";
  let everReady = false;
  const client: RedisClientType = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 3000,
      // `false` ends the first connect with its error (connect() rejects) instead of retrying inside it.
      reconnectStrategy: (retries) => (mode === "once" && !everReady ? false : Math.min(100 * 2 ** retries, 2000)),
    },
  });
  client.on("error", () => undefined);
  client.on("ready", () => {
    everReady = true;
  });
  if (mode === "background") client.connect().catch(() => undefined);
  else {
    try {
      await client.connect();
    } catch (err) {
      throw unavailable(err);
    }
  }
  const key = (...parts: string[]) => [options.prefix, ...parts].join(":");

  async function run<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw unavailable(err);
    }
  }

  async function scan(pattern: string, each: (keys: string[]) => Promise<void>): Promise<void> {
    await run(async () => {
      for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        // node-redis 4 yields one key at a time; 5 yields batches.
        const keys: string[] = Array.isArray(batch) ? batch : [batch];
        if (keys.length > 0) await each(keys);
      }
    });
  }

  return {
    key,
    async getOrBuild(k, ttlMs, build, keep) {
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
            if (keep?.() !== false) await run(() => client.set(k, value, { PX: ttlMs }));
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
    get: (k) => run(() => client.get(k)),
    async getWithTtl(k) {
      const [value, ttlMs] = (await run(() => client.multi().get(k).pTTL(k).exec())) as unknown as [string | null, number];
      return typeof value === "string" ? { value, ttlMs } : null;
    },
    async set(k, value, ttlMs) {
      await run(() => (ttlMs === undefined ? client.set(k, value) : client.set(k, value, { PX: ttlMs })));
    },
    async expire(k, ttlMs) {
      await run(() => client.pExpire(k, ttlMs));
    },
    exists: (...keys) => run(() => client.exists(keys)),
    async delTree(k) {
      let deleted = 0;
      // The pattern also matches `<key>x...`; only the key itself and keys below it go.
      await scan(`${k}*`, async (keys) => {
        const mine = keys.filter((found) => found === k || found.startsWith(`${k}:`));
        if (mine.length > 0) deleted += await client.del(mine);
      });
      return deleted;
    },
    async scanKeys(pattern) {
      const found: string[] = [];
      await scan(pattern, async (keys) => {
        found.push(...keys);
      });
      return found;
    },
    defineScript(source) {
      let sha: string | undefined;
      return {
        async run(keys, args) {
          return run(async () => {
            sha ??= await client.scriptLoad(source);
            try {
              return await client.evalSha(sha, { keys, arguments: args });
            } catch (err) {
              // Redis forgets loaded scripts on restart.
              if (!String((err as Error).message).includes("NOSCRIPT")) throw err;
              sha = await client.scriptLoad(source);
              return await client.evalSha(sha, { keys, arguments: args });
            }
          });
        },
      };
    },
    async flushScripts() {
      await run(() => client.scriptFlush());
    },
    isOpen: () => client.isOpen,
    async ping() {
      try {
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async checkConnection() {
      const answer = await run(() => client.ping());
      if (answer !== "PONG") throw unavailable(new Error(`PING answered ${answer}`));
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
