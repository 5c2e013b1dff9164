// The RPC settings of a run: defaults, accepted values, and each bad value refused with config-invalid naming it.
import { loadRunEnv } from "../src/env";

const base = { POINTWISE_API_KEY: "k", RPC_URL: "http://127.0.0.1:8545", PRICE_API_KEY: "p", INDEXER_CONFIG: "x" };

describe("INDEXER_RPC_* settings", () => {
  it("defaults to 8 requests in flight, no rate limit, batches of 100, 4 ranges ahead, 30 s timeout, 5 attempts", () => {
    expect(loadRunEnv(base)).toMatchObject({
      INDEXER_RPC_CONCURRENCY: 8,
      INDEXER_RPC_RPS: 0,
      INDEXER_RPC_BATCH_SIZE: 100,
      INDEXER_RPC_READ_AHEAD: 4,
      INDEXER_RPC_TIMEOUT_MS: 30_000,
      INDEXER_RPC_MAX_ATTEMPTS: 5,
    });
    expect(loadRunEnv({ ...base, INDEXER_RPC_RPS: "25", INDEXER_RPC_BATCH_SIZE: "1" })).toMatchObject({ INDEXER_RPC_RPS: 25, INDEXER_RPC_BATCH_SIZE: 1 });
  });

  it.each([
    ["INDEXER_RPC_CONCURRENCY", "0", "INDEXER_RPC_CONCURRENCY: must be at least 1"],
    ["INDEXER_RPC_CONCURRENCY", "65", "INDEXER_RPC_CONCURRENCY: must be at most 64"],
    ["INDEXER_RPC_RPS", "-1", "INDEXER_RPC_RPS: must be at least 0"],
    ["INDEXER_RPC_BATCH_SIZE", "2.5", "INDEXER_RPC_BATCH_SIZE: must be a whole number"],
    ["INDEXER_RPC_READ_AHEAD", "0", "INDEXER_RPC_READ_AHEAD: must be at least 1"],
    ["INDEXER_RPC_TIMEOUT_MS", "10", "INDEXER_RPC_TIMEOUT_MS: must be at least 1000"],
    ["INDEXER_RPC_MAX_ATTEMPTS", "0", "INDEXER_RPC_MAX_ATTEMPTS: must be at least 1"],
  ])("refuses %s=%s with config-invalid: %s", (name, value, message) => {
    expect(() => loadRunEnv({ ...base, [name]: value })).toThrow(
      expect.objectContaining({ code: "config-invalid", message: `Invalid environment: ${message}` }),
    );
  });
});

describe("METRICS_PORT", () => {
  it("opens no port when unset or empty, and takes a port from 1 to 65535", () => {
    expect(loadRunEnv(base).METRICS_PORT).toBeUndefined();
    expect(loadRunEnv({ ...base, METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
    expect(loadRunEnv({ ...base, METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
  });

  it.each(["0", "65536", "http"])("refuses METRICS_PORT=%s with config-invalid naming it", (value) => {
    expect(() => loadRunEnv({ ...base, METRICS_PORT: value })).toThrow(
      expect.objectContaining({ code: "config-invalid", message: expect.stringContaining("METRICS_PORT") }),
    );
  });
});
