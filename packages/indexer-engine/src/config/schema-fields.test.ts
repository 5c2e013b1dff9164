// The config's scalar fields (top level, network, range, pricingRange, adapterConfig): the exact message for each rule, at and past its limit, and defaults.

import { base, type Config, messages, registry, validateEdited } from "../testing/config";
import { CHAINS } from "./chains";
import { validateConfig } from "./validate";

/** What a stateStoreUrl that is no usable Redis URL is told (docs/indexer-config.md). */
const REDIS_SHAPE =
  "must be a well-formed URL with a host: redis[s]://[user:password@]host[:port][/db], special characters of user and password percent-encoded";
/** What an endpoint URL of another scheme, and one that does not parse or names no host, is told (as RPC_URL is). */
const HTTP_SCHEME = "must be a URL starting with http:// or https://";
const HTTP_SHAPE = "must be a well-formed URL with a host: http(s)://host[:port][/path]";
const SUPPORTED = CHAINS.map((c) => c.id).join(", ");

// Each row: what the user wrote (an edit of a valid config) and every message the docs promise for it; [] means accepted.
const rows: [string, (c: Config) => void, string[]][] = [
  ["refuses a missing indexerId", (c) => delete c.indexerId, ["indexerId is required"]],
  ["refuses a numeric indexerId", (c) => (c.indexerId = 7), ["indexerId must be a string"]],
  ["accepts an indexerId of 64 characters", (c) => (c.indexerId = "a".repeat(64)), []],
  [
    "refuses an indexerId of 65 characters",
    (c) => (c.indexerId = "a".repeat(65)),
    ["indexerId must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"],
  ],
  [
    "refuses an indexerId starting with a dot",
    (c) => (c.indexerId = ".hidden"),
    ["indexerId must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"],
  ],
  ["refuses a missing flushMs", (c) => delete c.flushMs, ["flushMs is required"]],
  ["refuses a missing stateStoreUrl", (c) => delete c.stateStoreUrl, ["stateStoreUrl is required"]],
  ["refuses a numeric stateStoreUrl", (c) => (c.stateStoreUrl = 6379), ["stateStoreUrl must be a string"]],
  [
    "accepts a rediss:// stateStoreUrl with credentials, a port and a database",
    (c) => (c.stateStoreUrl = "rediss://default:s3cretpw@cache.internal:6380/2"),
    [],
  ],
  // None of these messages may repeat the URL: it can hold the password.
  [
    "refuses a stateStoreUrl with a space in its host, without showing its password",
    (c) => (c.stateStoreUrl = "redis://default:s3cretpw@my redis:6379"),
    [`stateStoreUrl ${REDIS_SHAPE}`],
  ],
  ["refuses a stateStoreUrl without a host", (c) => (c.stateStoreUrl = "redis://"), [`stateStoreUrl ${REDIS_SHAPE}`]],
  ["refuses a stateStoreUrl with credentials but no host", (c) => (c.stateStoreUrl = "redis://user:pw@:6379"), [`stateStoreUrl ${REDIS_SHAPE}`]],
  ["refuses a stateStoreUrl with a port past 65535", (c) => (c.stateStoreUrl = "redis://cache:65536"), [`stateStoreUrl ${REDIS_SHAPE}`]],
  // Nothing listens on port 0: the rule of every service's connection URLs.
  ["refuses a stateStoreUrl with port 0", (c) => (c.stateStoreUrl = "redis://cache:0"), [`stateStoreUrl ${REDIS_SHAPE}`]],
  ["refuses a stateStoreUrl whose password is not percent-encoded", (c) => (c.stateStoreUrl = "redis://u:50%off@cache:6379"), [`stateStoreUrl ${REDIS_SHAPE}`]],
  [
    "refuses a stateStoreUrl whose path is not a database number",
    (c) => (c.stateStoreUrl = "redis://cache:6379/cache"),
    ["stateStoreUrl must end in a database number when it has a path: redis://host:6379/0"],
  ],
  ["refuses a network that is not an object", (c) => (c.network = "mainnet"), ["network must be an object"]],
  ["refuses a missing chainId", (c) => delete c.network.chainId, ["network.chainId is required"]],
  ["refuses a chainId given as text", (c) => (c.network.chainId = "1"), ["network.chainId must be a number"]],
  ["refuses a fractional chainId", (c) => (c.network.chainId = 1.5), ["network.chainId must be an integer"]],
  ["refuses a finality given as text", (c) => (c.network.finality = "75"), ["network.finality must be a number"]],
  ["refuses a fractional finality", (c) => (c.network.finality = 0.5), ["network.finality must be an integer"]],
  ["accepts the largest finality, 100000 blocks", (c) => (c.network.finality = 100_000), []],
  ["refuses a finality one past the largest", (c) => (c.network.finality = 100_001), ["network.finality must be at most 100000"]],
  ["refuses a finality of 1e12 blocks", (c) => (c.network.finality = 1e12), ["network.finality must be at most 100000"]],
  // Past 2^53 a number no longer says which integer it is: the problem is its size, not a fraction.
  ["accepts the largest safe flushMs", (c) => (c.flushMs = Number.MAX_SAFE_INTEGER), []],
  ["refuses a flushMs of 1e300 as too large", (c) => (c.flushMs = 1e300), ["flushMs must be at most 9007199254740991"]],
  ["refuses a fromBlock of 1e20 as too large", (c) => (c.range = { fromBlock: 1e20 }), ["range.fromBlock must be at most 9007199254740991"]],
  ["refuses a toBlock of 2^53 as too large", (c) => (c.range = { toBlock: 2 ** 53 }), ["range.toBlock must be at most 9007199254740991"]],
  [
    "refuses an infinite toBlock (1e400 in JSON) as too large",
    (c) => (c.range = { toBlock: Number.POSITIVE_INFINITY }),
    ["range.toBlock must be at most 9007199254740991"],
  ],
  [
    "refuses a chainId of 1e300 as unsupported only",
    (c) => (c.network.chainId = 1e300),
    ["network.chainId must be a supported chain id (got 1e+300); supported: " + SUPPORTED],
  ],
  ["refuses a numeric gatewayUrl", (c) => (c.network.gatewayUrl = 8545), ["network.gatewayUrl must be a string"]],
  ["refuses an rpcUrl with text before the scheme", (c) => (c.network.rpcUrl = "xhttps://rpc.example.org"), [`network.rpcUrl ${HTTP_SCHEME}`]],
  ["refuses an rpcUrl whose scheme is in capitals", (c) => (c.network.rpcUrl = "HTTPS://rpc.example.org"), [`network.rpcUrl ${HTTP_SCHEME}`]],
  // The URL parser would read the host "path" here.
  ["refuses an rpcUrl without a host", (c) => (c.network.rpcUrl = "https:///path"), [`network.rpcUrl ${HTTP_SHAPE}`]],
  ["refuses an rpcUrl with a space in its host", (c) => (c.network.rpcUrl = "https://rpc.exa mple.org"), [`network.rpcUrl ${HTTP_SHAPE}`]],
  ["refuses an rpcUrl with port 0", (c) => (c.network.rpcUrl = "http://127.0.0.1:0/v1"), [`network.rpcUrl ${HTTP_SHAPE}`]],
  ["refuses a gatewayUrl with an unclosed IPv6 host", (c) => (c.network.gatewayUrl = "http://[::1:8545"), [`network.gatewayUrl ${HTTP_SHAPE}`]],
  ["accepts an rpcUrl with a port, a path and a query", (c) => (c.network.rpcUrl = "http://127.0.0.1:8545/v1?key=not-a-real-key"), []],
  // The RPC client sends a URL's user name and password as basic auth, as providers behind one ask.
  ["accepts an rpcUrl with a user name and password", (c) => (c.network.rpcUrl = "https://user:s3cretpw@rpc.example.org/v1"), []],
  ["accepts a gatewayUrl with a user name and password", (c) => (c.network.gatewayUrl = "https://user:s3cretpw@archive.example.org"), []],
  ["refuses a missing range", (c) => delete c.range, ["range is required"]],
  ["refuses a range that is not an object", (c) => (c.range = 100), ["range must be an object"]],
  ["accepts an empty range (follow the chain from the adapter's deployment)", (c) => (c.range = {}), []],
  ["refuses a fromBlock given as text", (c) => (c.range.fromBlock = "100"), ["range.fromBlock must be a number"]],
  ["refuses a fractional fromBlock", (c) => (c.range.fromBlock = 100.5), ["range.fromBlock must be an integer"]],
  ["refuses a negative toBlock", (c) => (c.range = { toBlock: -1 }), ["range.toBlock must not be negative"]],
  ["accepts a range of one block (toBlock equal to fromBlock)", (c) => (c.range = { fromBlock: 100, toBlock: 100 }), []],
  ["refuses a toBlock one before fromBlock", (c) => (c.range = { fromBlock: 100, toBlock: 99 }), ["range.toBlock must not be before range.fromBlock"]],
  ["refuses a pricing timestamp that is missing", (c) => (c.pricingRange = { type: "timestamp" }), ["pricingRange.fromTimestamp is required"]],
  [
    "refuses a pricing timestamp given as text",
    (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: "1704067200" }),
    ["pricingRange.fromTimestamp must be a number"],
  ],
  [
    "refuses a fractional pricing timestamp",
    (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 1_704_067_200.5 }),
    ["pricingRange.fromTimestamp must be an integer"],
  ],
  [
    "refuses a negative pricing timestamp",
    (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: -1 }),
    ["pricingRange.fromTimestamp must not be negative"],
  ],
  ["accepts the pricing timestamp 0 (the Unix epoch)", (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 0 }), []],
  ["accepts the largest pricing timestamp in seconds", (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 99_999_999_999 }), []],
  [
    "refuses a pricing timestamp one past the largest in seconds",
    (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 100_000_000_000 }),
    ["pricingRange.fromTimestamp must be a Unix timestamp in seconds"],
  ],
  [
    "refuses a pricing timestamp of 1e300 as not in seconds only",
    (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 1e300 }),
    ["pricingRange.fromTimestamp must be a Unix timestamp in seconds"],
  ],
  [
    "refuses a pricing block of 1e20 as too large",
    (c) => (c.pricingRange = { type: "block", fromBlock: 1e20 }),
    ["pricingRange.fromBlock must be at most 9007199254740991"],
  ],
  ["refuses a missing sinkConfig", (c) => delete c.sinkConfig, ["sinkConfig is required"]],
  ["refuses a sinkConfig that is not an object", (c) => (c.sinkConfig = []), ["sinkConfig must be an object"]],
  ["refuses a missing sinks list", (c) => (c.sinkConfig = {}), ["sinkConfig.sinks is required"]],
  ["refuses sinks that are not an array", (c) => (c.sinkConfig.sinks = { sinkType: "stdout" }), ["sinkConfig.sinks must be an array"]],
  ["refuses a missing adapterConfig", (c) => delete c.adapterConfig, ["adapterConfig is required"]],
  ["refuses an adapterConfig that is not an object", (c) => (c.adapterConfig = "amm-v2"), ["adapterConfig must be an object"]],
  ["refuses a missing adapterId", (c) => delete c.adapterConfig.adapterId, ["adapterConfig.adapterId is required"]],
  ["refuses a numeric adapterId", (c) => (c.adapterConfig.adapterId = 2), ["adapterConfig.adapterId must be a string"]],
  ["refuses an empty adapterId", (c) => (c.adapterConfig.adapterId = ""), ["adapterConfig.adapterId must not be empty"]],
  ["refuses adapter params that are not an object", (c) => (c.adapterConfig.params = ["token"]), ["adapterConfig.params must be an object"]],
  ["refuses an assetFeedConfig that is not an array", (c) => (c.assetFeedConfig = {}), ["assetFeedConfig must be an array"]],
];

describe("config fields", () => {
  it.each(rows)("%s", (_name, edit, expected) => {
    expect(messages(edit)).toEqual(expected);
  });

  it("refuses a config that is not a JSON object with one message for the whole config", () => {
    for (const input of ["evm", 42, null, [base()]]) {
      const result = validateConfig(input, registry);
      expect(result).toEqual({ ok: false, issues: [{ path: "", message: "config must be a JSON object" }] });
    }
  });

  it("applies the documented defaults to omitted fields", () => {
    const result = validateEdited((c) => {
      delete c.network.finality;
      delete c.assetFeedConfig;
      delete c.pricingRange;
      c.sinkConfig.sinks = [{ sinkType: "stdout" }];
      c.adapterConfig = { adapterId: "no-params" };
    });
    expect(result.ok && result.config).toMatchObject({
      network: { finality: 75 },
      sinkConfig: { sinks: [{ sinkType: "stdout", json: false }] },
      adapterConfig: { adapterId: "no-params", params: {} },
      assetFeedConfig: [],
    });
    expect(result.ok && result.config.pricingRange).toBeUndefined();
  });

  it("keeps a finality of 0 (index up to the head) instead of the default", () => {
    const result = validateEdited((c) => (c.network.finality = 0));
    expect(result.ok && result.config.network.finality).toBe(0);
  });
});
