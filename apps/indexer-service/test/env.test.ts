// The RPC settings of a run: defaults, accepted values, and each bad value refused with config-invalid naming it.
import { loadRunEnv } from "../src/env";

const base = { POINTWISE_API_KEY: "k", RPC_URL: "http://127.0.0.1:8545", PRICE_API_KEY: "p", INDEXER_CONFIG: "x" };

describe("INDEXER_RPC_* settings", () => {
  it("defaults to 8 requests in flight, no rate limit, batches of 100, 4 ranges ahead, whole blocks up to 16 transactions, 30 s timeout, 5 attempts", () => {
    expect(loadRunEnv(base)).toMatchObject({
      INDEXER_RPC_CONCURRENCY: 8,
      INDEXER_RPC_RPS: 0,
      INDEXER_RPC_BATCH_SIZE: 100,
      INDEXER_RPC_READ_AHEAD: 4,
      INDEXER_RPC_WHOLE_BLOCK_TXS: 16,
      INDEXER_RPC_TIMEOUT_MS: 30_000,
      INDEXER_RPC_MAX_ATTEMPTS: 5,
    });
    expect(loadRunEnv({ ...base, INDEXER_RPC_RPS: "25", INDEXER_RPC_BATCH_SIZE: "1" })).toMatchObject({ INDEXER_RPC_RPS: 25, INDEXER_RPC_BATCH_SIZE: 1 });
    expect(loadRunEnv({ ...base, INDEXER_RPC_WHOLE_BLOCK_TXS: "0" }).INDEXER_RPC_WHOLE_BLOCK_TXS).toBe(0);
    expect(loadRunEnv({ ...base, INDEXER_RPC_WHOLE_BLOCK_TXS: "1000" }).INDEXER_RPC_WHOLE_BLOCK_TXS).toBe(1_000);
  });

  it.each([
    ["INDEXER_RPC_CONCURRENCY", "0", "INDEXER_RPC_CONCURRENCY: must be at least 1"],
    ["INDEXER_RPC_CONCURRENCY", "65", "INDEXER_RPC_CONCURRENCY: must be at most 64"],
    ["INDEXER_RPC_RPS", "-1", "INDEXER_RPC_RPS: must be at least 0"],
    ["INDEXER_RPC_BATCH_SIZE", "2.5", "INDEXER_RPC_BATCH_SIZE: must be a whole number"],
    ["INDEXER_RPC_READ_AHEAD", "0", "INDEXER_RPC_READ_AHEAD: must be at least 1"],
    ["INDEXER_RPC_WHOLE_BLOCK_TXS", "-1", "INDEXER_RPC_WHOLE_BLOCK_TXS: must be at least 0"],
    ["INDEXER_RPC_WHOLE_BLOCK_TXS", "1001", "INDEXER_RPC_WHOLE_BLOCK_TXS: must be at most 1000"],
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

describe("endpoint URLs", () => {
  const SHAPE = "must be a well-formed URL with a host: http(s)://host[:port][/path]";

  it.each([
    ["RPC_URL", "http://user:pw@ho st/key123"],
    ["RPC_URL", "http://"],
    ["RPC_URL", "https://:8545/key123"],
    // Port 0 parses, but nothing listens there: the rule every service's URLs follow.
    ["RPC_URL", "http://rpc.internal:0/key123"],
    // The URL parser takes the host "key123" from the path: the host must follow the // as written.
    ["RPC_URL", "https:///key123"],
    ["PRICE_API_URL", "https:///api/v3?x_cg_demo_api_key=key123"],
    ["PRICE_API_URL", "https://user:pw@api example.com/key123"],
  ])("refuses %s=%s naming the variable and its rule, without the URL", (name, value) => {
    let thrown: unknown;
    try {
      loadRunEnv({ ...base, [name]: value });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: "config-invalid", message: `Invalid environment: ${name}: ${SHAPE}` });
    expect(JSON.stringify({ thrown, stack: (thrown as Error).stack })).not.toMatch(/key123|pw@/);
  });

  it.each(["https://user:s3cretpw@api.coingecko.com/api/v3", "https://s3cretpw@price.internal", "http://:s3cretpw@127.0.0.1:8080/v3"])(
    "refuses PRICE_API_URL=%s, which fetch cannot send, pointing at PRICE_API_KEY without the URL",
    (value) => {
      let thrown: unknown;
      try {
        loadRunEnv({ ...base, PRICE_API_URL: value });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toMatchObject({
        code: "config-invalid",
        message: "Invalid environment: PRICE_API_URL: must not hold a user name or password: send the key in PRICE_API_KEY",
      });
      expect(JSON.stringify({ thrown, stack: (thrown as Error).stack })).not.toContain("s3cretpw");
    },
  );

  it("takes an endpoint with credentials, a port, a path and a query", () => {
    expect(loadRunEnv({ ...base, RPC_URL: "https://user:pw@rpc.internal:8545/v2/key123?x=1" }).RPC_URL).toBe("https://user:pw@rpc.internal:8545/v2/key123?x=1");
  });
});

describe("whole-number settings", () => {
  it.each([
    ["PRICE_API_RATE_PER_MINUTE", "0", "must be at least 1"],
    ["PRICE_API_RATE_PER_MINUTE", "many", "must be a whole number"],
    ["PRICE_API_RATE_PER_MINUTE", "1e20", "must be at most 9007199254740991"],
    ["INDEXER_MAX_BLOCK_RANGE", "0", "must be at least 1"],
    ["INDEXER_MAX_BLOCK_RANGE", "2.5", "must be a whole number"],
    ["INDEXER_INITIAL_BLOCK_RANGE", "-3", "must be at least 1"],
    ["INDEXER_POLL_INTERVAL_MS", "fast", "must be a whole number"],
    ["INDEXER_POLL_INTERVAL_MS", "0", "must be at least 1"],
    // Node's timers take at most 2^31 - 1 ms and fire at once past it; an hour is the documented bound.
    ["INDEXER_POLL_INTERVAL_MS", "3600001", "must be at most 3600000"],
    ["INDEXER_RPC_CONCURRENCY", "1e20", "must be at most 64"],
    ["INDEXER_RPC_CONCURRENCY", "Infinity", "must be at most 64"],
    ["METRICS_PORT", "http", "must be a port from 1 to 65535"],
    ["METRICS_PORT", "0", "must be a port from 1 to 65535"],
    ["METRICS_PORT", "65536", "must be a port from 1 to 65535"],
    ["METRICS_PORT", "80.5", "must be a port from 1 to 65535"],
  ])("refuses %s=%s with one message naming it: %s", (name, value, rule) => {
    expect(() => loadRunEnv({ ...base, [name]: value })).toThrow(
      expect.objectContaining({ code: "config-invalid", message: `Invalid environment: ${name}: ${rule}` }),
    );
  });

  it("takes an empty whole-number setting as unset, so it gets its default", () => {
    const names = [
      "PRICE_API_RATE_PER_MINUTE",
      "INDEXER_MAX_BLOCK_RANGE",
      "INDEXER_INITIAL_BLOCK_RANGE",
      "INDEXER_POLL_INTERVAL_MS",
      "INDEXER_RPC_CONCURRENCY",
    ];
    const env = loadRunEnv({ ...base, ...Object.fromEntries(names.map((n) => [n, ""])) });
    expect(names.map((n) => env[n as keyof typeof env])).toEqual([30, 2_000, 500, 4_000, 8]);
  });

  it("takes an hour as the longest poll interval", () => {
    expect(loadRunEnv({ ...base, INDEXER_POLL_INTERVAL_MS: "3600000" }).INDEXER_POLL_INTERVAL_MS).toBe(3_600_000);
  });
});

describe("LOG_LEVEL", () => {
  it("is named beside every other bad or missing variable of a run", () => {
    expect(() => loadRunEnv({ LOG_LEVEL: "verbose" })).toThrow(
      expect.objectContaining({
        code: "config-invalid",
        message:
          "Invalid environment: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent; POINTWISE_API_KEY is required; RPC_URL is required; PRICE_API_KEY is required; INDEXER_CONFIG is required",
      }),
    );
  });
});
