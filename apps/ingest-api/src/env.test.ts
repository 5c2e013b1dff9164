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
});
