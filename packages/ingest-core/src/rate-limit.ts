// Per-API-key token-bucket rate limit in Redis, shared by every replica and lenient while Redis is down.
import type { Cache } from "@pointwise/cache";
import type { Logger } from "@pointwise/logger";

/** Settings of the per-key rate limit: a token bucket of events. */
export interface RateLimitOptions {
  /** Tokens (events) added per second. */
  eventsPerSecond: number;
  /** Bucket size: the most events a key may send at once after a quiet spell. */
  burst: number;
  logger: Logger;
}

/** The verdict for one request. */
export interface RateDecision {
  allowed: boolean;
  /** When refused: how long until the bucket holds enough tokens (ms). */
  retryAfterMs: number;
}

/** A rate limiter shared by every replica through Redis. */
export interface RateLimiter {
  /** Takes `cost` tokens from the bucket of `keyId`, or refuses without taking any. */
  take(keyId: string, cost: number): Promise<RateDecision>;
}

// Token bucket in one atomic script, timed by the Redis server's clock so that every replica agrees.
// State: tokens left and the time they were counted; the key expires once the bucket would be full.
const TOKEN_BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
if now > ts then
  tokens = math.min(burst, tokens + (now - ts) * rate / 1000)
end
local allowed = 0
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  wait = math.ceil((cost - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return { allowed, wait }
`;

/**
 * Creates the per-key limiter. When Redis cannot be reached the request is let through (and a
 * warning logged at most every 10 s): the limit protects the service from floods, while refusing
 * every event during a Redis restart would lose integrators' data for no one's benefit.
 */
export function createRateLimiter(cache: Cache, options: RateLimitOptions): RateLimiter {
  const bucket = cache.defineScript(TOKEN_BUCKET);
  let lastWarning = 0;
  const args = (cost: number) => [String(options.eventsPerSecond), String(options.burst), String(cost)];

  async function run(key: string, cost: number): Promise<[number, number]> {
    return (await bucket.run([key], args(cost))) as [number, number];
  }

  return {
    async take(keyId, cost) {
      try {
        const [allowed, wait] = await run(cache.key("ratelimit", keyId), Math.max(1, cost));
        return { allowed: allowed === 1, retryAfterMs: wait };
      } catch (err) {
        if (Date.now() - lastWarning > 10_000) {
          lastWarning = Date.now();
          options.logger.warn({ err }, "rate limit not enforced: Redis unavailable");
        }
        return { allowed: true, retryAfterMs: 0 };
      }
    },
  };
}
