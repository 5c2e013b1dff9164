// ingest-api settings: the Idempotency-Key purge interval's default and its lower bound.
import { loadEnv } from "./env";

const required = { DATABASE_URL: "postgres://127.0.0.1:5432/x", REDIS_URL: "redis://127.0.0.1:6379", NATS_URL: "nats://127.0.0.1:4222" };

describe("ingest-api settings", () => {
  it("deletes expired Idempotency-Key records every 10 minutes unless told otherwise", () => {
    expect(loadEnv(required).IDEMPOTENCY_PURGE_INTERVAL_MS).toBe(600_000);
    expect(loadEnv({ ...required, IDEMPOTENCY_PURGE_INTERVAL_MS: "250" }).IDEMPOTENCY_PURGE_INTERVAL_MS).toBe(250);
  });

  it("refuses a purge interval under 100 ms with a message naming the variable", () => {
    expect(() => loadEnv({ ...required, IDEMPOTENCY_PURGE_INTERVAL_MS: "99" })).toThrow(/IDEMPOTENCY_PURGE_INTERVAL_MS/);
  });

  it("takes an empty numeric variable as unset (its default), not as 0", () => {
    const env = loadEnv({ ...required, OCCURRED_AT_MAX_SKEW_MS: "", LOOKUP_CACHE_MS: "", IDEMPOTENCY_WAIT_MS: "", CSV_PUBLISH_RETRY_MS: "" });
    expect([env.OCCURRED_AT_MAX_SKEW_MS, env.LOOKUP_CACHE_MS, env.IDEMPOTENCY_WAIT_MS, env.CSV_PUBLISH_RETRY_MS]).toEqual([300_000, 5000, 10_000, 30_000]);
  });

  it("refuses an empty HOST, which would listen on every interface", () => {
    expect(() => loadEnv({ ...required, HOST: "" })).toThrow(/HOST: must not be empty/);
  });

  it("names both a malformed variable and a failed cross-variable check", () => {
    expect(() => loadEnv({ ...required, RATE_LIMIT_BURST: "10", BODY_LIMIT_BYTES: "abc" })).toThrow(
      /BODY_LIMIT_BYTES: .*RATE_LIMIT_BURST: must be at least BATCH_MAX_EVENTS/,
    );
  });
});
