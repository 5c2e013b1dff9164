// The per-key token bucket in Redis: bursts, refill, shared across replicas, open when Redis is away.
import { createCache } from "@pointwise/cache";
import { createLogger } from "@pointwise/logger";
import { createTestCache, testUrls, uniqueName } from "@pointwise/testkit";
import { createRateLimiter } from "./rate-limit";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const logger = createLogger({ service: "test", level: "silent" });
let cache: Awaited<ReturnType<typeof createTestCache>>;
beforeAll(async () => {
  cache = await createTestCache();
});
afterAll(async () => {
  await cache?.drop();
});

describe("per-key token bucket in Redis", () => {
  it("lets a burst through, refuses the event beyond it without taking tokens, and says how long to wait", async () => {
    const limiter = createRateLimiter(cache, { eventsPerSecond: 1, burst: 5, logger });
    expect(await limiter.take("k1", 3)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await limiter.take("k1", 2)).toEqual({ allowed: true, retryAfterMs: 0 });
    const refused = await limiter.take("k1", 2);
    expect(refused.allowed).toBe(false);
    // About 2 s for two tokens at one per second (less whatever trickled in since).
    expect(refused.retryAfterMs).toBeGreaterThan(1000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(2000);
  });

  it("is shared by every replica: two limiters on one Redis draw from one bucket", async () => {
    const other = await createCache({ url: testUrls.redis, prefix: cache.key("x").slice(0, -2) });
    try {
      const a = createRateLimiter(cache, { eventsPerSecond: 1, burst: 4, logger });
      const b = createRateLimiter(other, { eventsPerSecond: 1, burst: 4, logger });
      expect((await a.take("shared", 3)).allowed).toBe(true);
      expect((await b.take("shared", 3)).allowed).toBe(false);
      expect((await b.take("shared", 1)).allowed).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("keeps separate buckets per key", async () => {
    const limiter = createRateLimiter(cache, { eventsPerSecond: 1, burst: 2, logger });
    expect((await limiter.take("key-a", 2)).allowed).toBe(true);
    expect((await limiter.take("key-b", 2)).allowed).toBe(true);
    expect((await limiter.take("key-a", 1)).allowed).toBe(false);
  });

  it("refills at the configured rate", async () => {
    // 20 a second refills the 10 taken in 500 ms: wide enough that a busy machine's gap between the first two takes
    // (the Redis server's clock times them) does not refill the bucket, and the wait after it does.
    const limiter = createRateLimiter(cache, { eventsPerSecond: 20, burst: 10, logger });
    expect((await limiter.take("fast", 10)).allowed).toBe(true);
    expect((await limiter.take("fast", 10)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 600));
    expect((await limiter.take("fast", 10)).allowed).toBe(true);
  });

  it("survives a SCRIPT FLUSH (as after a Redis restart) by loading the script again", async () => {
    const limiter = createRateLimiter(cache, { eventsPerSecond: 1, burst: 3, logger });
    expect((await limiter.take("flushed", 1)).allowed).toBe(true);
    await cache.flushScripts();
    expect((await limiter.take("flushed", 1)).allowed).toBe(true);
  });

  it("lets requests through when Redis cannot be reached", async () => {
    const gone = await createCache({ url: testUrls.redis, prefix: uniqueName("t") });
    await gone.close();
    const limiter = createRateLimiter(gone, { eventsPerSecond: 1, burst: 1, logger });
    expect(await limiter.take("any", 1)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await limiter.take("any", 1)).toEqual({ allowed: true, retryAfterMs: 0 });
  });
});
