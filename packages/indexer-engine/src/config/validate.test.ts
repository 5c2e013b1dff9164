// Indexer config validation: each rule with a valid example and an invalid one and its exact message.
import { base, type Config, messages, registry, TOKEN } from "../testing/config";
import { validateConfig } from "./validate";

describe("indexer config validation", () => {
  it("accepts a complete valid config and applies defaults", () => {
    const result = validateConfig(base(), registry);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.network.finality).toBe(75);
    const noFeeds = base();
    delete noFeeds.assetFeedConfig;
    delete noFeeds.pricingRange;
    const minimal = validateConfig(noFeeds, registry);
    expect(minimal.ok && minimal.config.assetFeedConfig).toEqual([]);
  });

  const cases: [string, (c: Config) => void, (c: Config) => void, string][] = [
    ["kind", (c) => (c.kind = "evm"), (c) => (c.kind = "solana"), 'kind must be "evm" (only evm is supported)'],
    ["kind missing", () => {}, (c) => delete c.kind, "kind is required"],
    [
      "indexerId",
      (c) => (c.indexerId = "a.b_c-1"),
      (c) => (c.indexerId = "has space"),
      "indexerId must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    ],
    ["flushMs minimum", (c) => (c.flushMs = 3_600_000), (c) => (c.flushMs = 3_599_999), "flushMs must be at least 3600000"],
    ["flushMs integer", (c) => (c.flushMs = 7_200_000), (c) => (c.flushMs = 3_600_000.5), "flushMs must be an integer"],
    ["flushMs type", () => {}, (c) => (c.flushMs = "1h"), "flushMs must be a number"],
    [
      "stateStoreUrl redis",
      (c) => (c.stateStoreUrl = "rediss://user:pw@cache:6380"),
      (c) => (c.stateStoreUrl = "http://cache:6379"),
      "stateStoreUrl must begin with redis:// or rediss://",
    ],
    ["network required", () => {}, (c) => delete c.network, "network is required"],
    [
      "chainId in the chain list",
      (c) => (c.network.chainId = 8453),
      (c) => (c.network.chainId = 999_999),
      "network.chainId must be a supported chain id (got 999999); supported: ",
    ],
    ["finality", (c) => (c.network.finality = 0), (c) => (c.network.finality = -1), "network.finality must not be negative"],
    [
      "rpcUrl",
      (c) => (c.network.rpcUrl = "http://127.0.0.1:8545"),
      (c) => (c.network.rpcUrl = "ws://node:8546"),
      "network.rpcUrl must be a URL starting with http:// or https://",
    ],
    [
      "gatewayUrl",
      (c) => delete c.network.gatewayUrl,
      (c) => (c.network.gatewayUrl = "gateway"),
      "network.gatewayUrl must be a URL starting with http:// or https://",
    ],
    ["network unknown field", () => {}, (c) => (c.network.chain = 1), "network has unknown field chain"],
    ["fromBlock", (c) => delete c.range.fromBlock, (c) => (c.range.fromBlock = -5), "range.fromBlock must not be negative"],
    ["toBlock order", (c) => delete c.range.toBlock, (c) => (c.range.toBlock = 99), "range.toBlock must not be before range.fromBlock"],
    [
      "pricingRange timestamp",
      (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 1_700_000_000 }),
      (c) => (c.pricingRange = { type: "timestamp", fromTimestamp: 1_700_000_000_000 }),
      "pricingRange.fromTimestamp must be a Unix timestamp in seconds",
    ],
    [
      "pricingRange type",
      (c) => (c.pricingRange = { type: "block", fromBlock: 0 }),
      (c) => (c.pricingRange = { type: "height", fromBlock: 1 }),
      "pricingRange.type must be block or timestamp",
    ],
    ["pricingRange field", () => {}, (c) => (c.pricingRange = { type: "block" }), "pricingRange.fromBlock is required"],
    ["sinks not empty", () => {}, (c) => (c.sinkConfig.sinks = []), "sinkConfig.sinks must have at least one sink"],
    [
      "stdout json",
      (c) => (c.sinkConfig.sinks = [{ sinkType: "stdout" }]),
      (c) => (c.sinkConfig.sinks = [{ sinkType: "stdout", json: "yes" }]),
      "sinkConfig.sinks[0].json must be a boolean",
    ],
    [
      "csv path",
      (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: "out/rows.csv" }]),
      (c) => (c.sinkConfig.sinks = [{ sinkType: "csv" }]),
      "sinkConfig.sinks[0].path is required",
    ],
    ["sinkType", () => {}, (c) => (c.sinkConfig.sinks = [{ sinkType: "kafka" }]), "sinkConfig.sinks[0].sinkType must be one of stdout, csv, pointwise"],
    [
      "pointwise sink",
      (c) =>
        (c.sinkConfig.sinks = [
          {
            sinkType: "pointwise",
            baseUrl: "https://api.pointwise.test",
            events: { swap: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "usd" } },
          },
        ]),
      (c) => (c.sinkConfig.sinks = [{ sinkType: "pointwise", baseUrl: "https://api.pointwise.test", events: {} }]),
      "sinkConfig.sinks[0].events must map at least one activity",
    ],
    [
      "pointwise regEventId",
      () => {},
      (c) => (c.sinkConfig.sinks = [{ sinkType: "pointwise", baseUrl: "https://x.test", events: { swap: { regEventId: "swap-1", amount: "usd" } } }]),
      "sinkConfig.sinks[0].events.swap.regEventId must be a UUID",
    ],
    [
      "pointwise amount per row type",
      (c) =>
        (c.sinkConfig.sinks = [
          { sinkType: "pointwise", baseUrl: "https://x.test", events: { hold: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "usdHours" } } },
        ]),
      (c) =>
        (c.sinkConfig.sinks = [
          {
            sinkType: "pointwise",
            baseUrl: "https://x.test",
            events: { swap: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "usdHours", rowType: "action" } },
          },
        ]),
      "sinkConfig.sinks[0].events.swap.amount usdHours applies only to rowType window",
    ],
    [
      "pointwise batchSize",
      () => {},
      (c) =>
        (c.sinkConfig.sinks = [
          {
            sinkType: "pointwise",
            baseUrl: "https://x.test",
            batchSize: 1001,
            events: { swap: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "count" } },
          },
        ]),
      "sinkConfig.sinks[0].batchSize must be at most 1000",
    ],
    [
      "pointwise campaignId",
      (c) =>
        (c.sinkConfig.sinks = [
          {
            sinkType: "pointwise",
            baseUrl: "https://x.test",
            campaignId: "ab12-cd34",
            events: { swap: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "count" } },
          },
        ]),
      (c) =>
        (c.sinkConfig.sinks = [
          {
            sinkType: "pointwise",
            baseUrl: "https://x.test",
            campaignId: "AB12-CD34",
            events: { swap: { regEventId: "3f1c2b7e-0000-4000-8000-000000000001", amount: "count" } },
          },
        ]),
      "sinkConfig.sinks[0].campaignId must be a campaign id of the form xxxx-xxxx (lowercase letters and digits)",
    ],
    ["adapterId registered", () => {}, (c) => (c.adapterConfig.adapterId = "foo"), "Unknown adapter: foo. Available adapters: hold-test, no-params"],
    ["adapter params", () => {}, (c) => (c.adapterConfig.params = { token: "0xABC" }), "adapterConfig.params.token must be a lowercase address"],
    [
      "match key",
      (c) => (c.assetFeedConfig[0].match = { key: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" }),
      (c) => (c.assetFeedConfig[0].match = { key: "0x12" }),
      "assetFeedConfig[0].match.key must be a 0x-prefixed 20-byte hex address",
    ],
    [
      "match one kind",
      (c) => (c.assetFeedConfig[0].match = { matchLabels: { protocol: "amm-v2" } }),
      (c) => (c.assetFeedConfig[0].match = { key: TOKEN, matchLabels: { a: "b" } }),
      "assetFeedConfig[0].match must have exactly one of key, matchLabels or matchExpressions",
    ],
    [
      "match operator",
      (c) =>
        (c.assetFeedConfig[0].match = {
          matchExpressions: [
            { key: "protocol", operator: "NotIn", values: ["amm-v3"] },
            { key: "token0", operator: "Exists" },
            { key: "stable", operator: "DoesNotExist" },
          ],
        }),
      (c) => (c.assetFeedConfig[0].match = { matchExpressions: [{ key: "protocol", operator: "Has", values: ["x"] }] }),
      "assetFeedConfig[0].match.matchExpressions[0].operator must be one of In, NotIn, Exists, DoesNotExist",
    ],
    [
      "In needs values",
      (c) => (c.assetFeedConfig[0].match = { matchExpressions: [{ key: "p", operator: "In", values: ["a"] }] }),
      (c) => (c.assetFeedConfig[0].match = { matchExpressions: [{ key: "p", operator: "In", values: [] }] }),
      "assetFeedConfig[0].match.matchExpressions[0].values must list at least one value for operator In",
    ],
    [
      "Exists takes no values",
      () => {},
      (c) => (c.assetFeedConfig[0].match = { matchExpressions: [{ key: "p", operator: "Exists", values: ["a"] }] }),
      "assetFeedConfig[0].match.matchExpressions[0].values must be empty for operator Exists",
    ],
    [
      "assetType",
      (c) => (c.assetFeedConfig[0].config.assetType = "erc721"),
      (c) => (c.assetFeedConfig[0].config.assetType = "erc1155"),
      "assetFeedConfig[0].config.assetType must be one of erc20, erc721, spl",
    ],
    [
      "feed kind",
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "market", id: "ethereum" }),
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "oracle" }),
      "assetFeedConfig[0].config.priceFeed.kind must be one of market, pegged, ammv2nav, ammv3position, vaultshare, balancerv2nav",
    ],
    [
      "market id",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "market", id: "" }),
      "assetFeedConfig[0].config.priceFeed.id must not be empty",
    ],
    [
      "pegged value",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "pegged", usdPegValue: -1 }),
      "assetFeedConfig[0].config.priceFeed.usdPegValue must not be negative",
    ],
    [
      "nested ammv2nav",
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "ammv2nav",
          token0: { kind: "pegged", usdPegValue: 1 },
          token1: { kind: "ammv2nav", token0: { kind: "market", id: "a" }, token1: { kind: "pegged", usdPegValue: 2 } },
        }),
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "ammv2nav", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "market" } }),
      "assetFeedConfig[0].config.priceFeed.token1.id is required",
    ],
    [
      "ammv2nav needs both tokens",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "ammv2nav", token0: { kind: "pegged", usdPegValue: 1 } }),
      "assetFeedConfig[0].config.priceFeed.token1 is required",
    ],
    [
      "ammv3position needs both tokens, each a feed selector",
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "ammv3position",
          token0: { kind: "pegged", usdPegValue: 1 },
          token1: { kind: "market", id: "ethereum" },
        }),
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: 1 } }),
      "assetFeedConfig[0].config.priceFeed.token1 is required",
    ],
    [
      "ammv3position nested selector",
      () => {},
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: -2 }, token1: { kind: "market", id: "x" } }),
      "assetFeedConfig[0].config.priceFeed.token0.usdPegValue must not be negative",
    ],
    [
      "ammv3position has no other fields",
      () => {},
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "ammv3position",
          token0: { kind: "pegged", usdPegValue: 1 },
          token1: { kind: "pegged", usdPegValue: 1 },
          pool: "0x00",
        }),
      "assetFeedConfig[0].config.priceFeed has unknown field pool",
    ],
    [
      "vaultshare version",
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "vaultshare", version: "v1", underlying: { kind: "pegged", usdPegValue: 1 } }),
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "vaultshare", version: "v3", underlying: { kind: "pegged", usdPegValue: 1 } }),
      "assetFeedConfig[0].config.priceFeed.version must be one of v1, v2 (v2: ERC-4626 convertToAssets, v1: pricePerShare())",
    ],
    [
      "vaultshare needs a version",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "vaultshare", underlying: { kind: "pegged", usdPegValue: 1 } }),
      "assetFeedConfig[0].config.priceFeed.version is required",
    ],
    [
      "vaultshare nested underlying",
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "vaultshare",
          version: "v2",
          underlying: { kind: "ammv2nav", token0: { kind: "market", id: "a" }, token1: { kind: "pegged", usdPegValue: 2 } },
        }),
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "vaultshare", version: "v2", underlying: { kind: "market" } }),
      "assetFeedConfig[0].config.priceFeed.underlying.id is required",
    ],
    [
      "vaultshare needs its underlying selector",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "vaultshare", version: "v2" }),
      "assetFeedConfig[0].config.priceFeed.underlying is required",
    ],
    [
      "balancerv2nav tokens keyed by address",
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "balancerv2nav",
          tokens: { [TOKEN]: { kind: "pegged", usdPegValue: 1 }, "0x00000000000000000000000000000000000000B2": { kind: "market", id: "weth" } },
        }),
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "balancerv2nav",
          tokens: { [TOKEN]: { kind: "pegged", usdPegValue: 1 }, weth: { kind: "market", id: "weth" } },
        }),
      "assetFeedConfig[0].config.priceFeed.tokens.weth must be keyed by a 0x-prefixed 20-byte hex token address",
    ],
    [
      "balancerv2nav names at least two tokens",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "balancerv2nav", tokens: { [TOKEN]: { kind: "pegged", usdPegValue: 1 } } }),
      "assetFeedConfig[0].config.priceFeed.tokens must name at least two tokens",
    ],
    [
      "balancerv2nav names each token once",
      () => {},
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "balancerv2nav",
          tokens: {
            "0x00000000000000000000000000000000000000b2": { kind: "pegged", usdPegValue: 1 },
            "0x00000000000000000000000000000000000000B2": { kind: "pegged", usdPegValue: 1 },
          },
        }),
      "assetFeedConfig[0].config.priceFeed.tokens must name each token once (addresses compare in any case)",
    ],
    [
      "balancerv2nav nested selectors",
      () => {},
      (c) =>
        (c.assetFeedConfig[0].config.priceFeed = {
          kind: "balancerv2nav",
          tokens: { [TOKEN]: { kind: "pegged", usdPegValue: -1 }, "0x00000000000000000000000000000000000000b2": { kind: "pegged", usdPegValue: 1 } },
        }),
      `assetFeedConfig[0].config.priceFeed.tokens.${TOKEN}.usdPegValue must not be negative`,
    ],
    [
      "balancerv2nav needs tokens",
      () => {},
      (c) => (c.assetFeedConfig[0].config.priceFeed = { kind: "balancerv2nav" }),
      "assetFeedConfig[0].config.priceFeed.tokens is required",
    ],
    ["unknown top-level field", () => {}, (c) => (c.flushMS = 3_600_000), "config has unknown field flushMS"],
  ];

  it.each(cases)("%s: accepts the valid example and rejects the invalid one with its exact message", (_name, valid, invalid, message) => {
    expect(messages(valid)).toEqual([]);
    const found = messages(invalid);
    expect(found.length).toBeGreaterThan(0);
    expect(found.some((m) => m === message || (message.endsWith(" ") && m.startsWith(message)))).toBe(true);
  });

  it("lists the supported chains in the chainId message", () => {
    const [message] = messages((c) => (c.network.chainId = 5));
    expect(message).toMatch(/^network\.chainId must be a supported chain id \(got 5\); supported: 1, 10, .*31337$/);
  });
});
