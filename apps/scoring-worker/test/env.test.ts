// The worker's environment: what it needs (PostgreSQL, NATS) and what it does not (Redis), with STREAM_REPLICAS checked.
import { testServiceEnv } from "@pointwise/testkit";
import { loadEnv } from "../src/env";

const { REDIS_URL: _unused, ...withoutRedis } = testServiceEnv("worker_env");

describe("scoring-worker environment", () => {
  it("starts without REDIS_URL, which the worker does not use", () => {
    expect(loadEnv(withoutRedis)).not.toHaveProperty("REDIS_URL");
  });

  it("reads STREAM_REPLICAS from 1 to 5 and refuses others naming it", () => {
    expect(loadEnv({ ...withoutRedis, STREAM_REPLICAS: "3" }).STREAM_REPLICAS).toBe(3);
    expect(loadEnv({ ...withoutRedis, STREAM_REPLICAS: "" }).STREAM_REPLICAS).toBeUndefined();
    expect(() => loadEnv({ ...withoutRedis, STREAM_REPLICAS: "6" })).toThrow(/STREAM_REPLICAS/);
  });
});
