// Pricing rules (assetFeedConfig): how a rule matches assets and which feed selectors it may name, with the exact message for each rule.
import fc from "fast-check";
import { type Config, messages, TOKEN, validateEdited } from "../testing/config";
import { type FeedSelector, usesMarketFeed } from "./schema";

// Mixed case is an EIP-55 checksum: this one is a test vector of EIP-55 itself.
const MIXED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const ADDRESS = "must be a 0x-prefixed 20-byte hex address";
const CHECKSUM = "has a bad EIP-55 checksum; check the address or write it in lower case";
/** The mixed-case test vectors of EIP-55 (eips.ethereum.org/EIPS/eip-55), each with a valid checksum. */
const EIP55 = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

/** `address` with the case of its last letter flipped: the same address, its checksum broken. */
function flipLastLetter(address: string): string {
  const at = address.search(/[a-fA-F][0-9]*$/);
  const c = address.charAt(at);
  return address.slice(0, at) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(at + 1);
}

/** A feed selector `levels` selectors deep: ammv2nav over ammv2nav ... over a peg. */
function nested(levels: number): unknown {
  let selector: unknown = { kind: "pegged", usdPegValue: 1 };
  for (let level = 1; level < levels; level++) selector = { kind: "ammv2nav", token0: selector, token1: { kind: "pegged", usdPegValue: 1 } };
  return selector;
}
const TOO_DEEP = "assetFeedConfig[0].config.priceFeed must not nest feed selectors more than 8 levels deep";
const KEYED = "must be keyed by a 0x-prefixed 20-byte hex token address";
const B2 = "0x00000000000000000000000000000000000000b2";
const PEG = { kind: "pegged", usdPegValue: 1 };

/** Sets the first rule's match. */
function match(c: Config, m: unknown): void {
  c.assetFeedConfig[0].match = m;
}

/** Sets the first rule's price feed. */
function feed(c: Config, selector: unknown): void {
  c.assetFeedConfig[0].config.priceFeed = selector;
}

// Each row: what the user wrote (an edit of a valid config) and every message the docs promise for it; [] means accepted.
const rows: [string, (c: Config) => void, string[]][] = [
  ["refuses a rule that is not an object", (c) => (c.assetFeedConfig = [TOKEN]), ["assetFeedConfig[0] must be an object"]],
  ["refuses a rule without a match", (c) => delete c.assetFeedConfig[0].match, ["assetFeedConfig[0].match is required"]],
  ["refuses a match that is not an object", (c) => match(c, TOKEN), ["assetFeedConfig[0].match must be an object"]],
  ["refuses a rule config that is not an object", (c) => (c.assetFeedConfig[0].config = "erc20"), ["assetFeedConfig[0].config must be an object"]],
  ["accepts a key in mixed case", (c) => match(c, { key: MIXED }), []],
  ...EIP55.map((address): [string, (c: Config) => void, string[]] => [`accepts the EIP-55 test vector ${address}`, (c) => match(c, { key: address }), []]),
  ...EIP55.map((address): [string, (c: Config) => void, string[]] => [
    `refuses ${address} with the case of one letter flipped`,
    (c) => match(c, { key: flipLastLetter(address) }),
    [`assetFeedConfig[0].match.key ${CHECKSUM}`],
  ]),
  ["accepts a key in upper case (no checksum)", (c) => match(c, { key: "0x8617E340B3D01FA5F11F306F4090FD50E238070D" }), []],
  ["accepts a key in lower case (no checksum)", (c) => match(c, { key: "0x27b1fdb04752bbc536007a920d24acb045561c26" }), []],
  ["refuses a numeric key", (c) => match(c, { key: 1 }), ["assetFeedConfig[0].match.key must be a string"]],
  ["refuses a key with a 21st byte", (c) => match(c, { key: `${MIXED}00` }), [`assetFeedConfig[0].match.key ${ADDRESS}`]],
  ["refuses a key with a character before 0x", (c) => match(c, { key: `a${MIXED}` }), [`assetFeedConfig[0].match.key ${ADDRESS}`]],
  ["refuses a key with 39 hex digits", (c) => match(c, { key: MIXED.slice(0, -1) }), [`assetFeedConfig[0].match.key ${ADDRESS}`]],
  ["refuses a non-text label value", (c) => match(c, { matchLabels: { decimals: 18 } }), ["assetFeedConfig[0].match.matchLabels.decimals must be a string"]],
  [
    "refuses matchLabels that are not an object",
    (c) => match(c, { matchLabels: "protocol=amm-v2" }),
    ["assetFeedConfig[0].match.matchLabels must be an object of label values"],
  ],
  [
    "refuses matchExpressions that are not an array",
    (c) => match(c, { matchExpressions: { key: "p", operator: "Exists" } }),
    ["assetFeedConfig[0].match.matchExpressions must be an array"],
  ],
  ["refuses an empty matchExpressions", (c) => match(c, { matchExpressions: [] }), ["assetFeedConfig[0].match.matchExpressions must not be empty"]],
  [
    "refuses an expression without a key",
    (c) => match(c, { matchExpressions: [{ operator: "Exists" }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].key is required"],
  ],
  [
    "refuses an expression with an empty key",
    (c) => match(c, { matchExpressions: [{ key: "", operator: "Exists" }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].key must not be empty"],
  ],
  [
    "refuses values that are not an array",
    (c) => match(c, { matchExpressions: [{ key: "p", operator: "In", values: "amm-v2" }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].values must be an array of strings"],
  ],
  [
    "refuses a non-text value",
    (c) => match(c, { matchExpressions: [{ key: "decimals", operator: "In", values: ["6", 18] }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].values[1] must be a string"],
  ],
  [
    "refuses In without values",
    (c) => match(c, { matchExpressions: [{ key: "p", operator: "In" }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].values must list at least one value for operator In"],
  ],
  [
    "refuses NotIn with an empty values list",
    (c) => match(c, { matchExpressions: [{ key: "p", operator: "NotIn", values: [] }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].values must list at least one value for operator NotIn"],
  ],
  ["accepts In with values", (c) => match(c, { matchExpressions: [{ key: "p", operator: "In", values: ["a", "b"] }] }), []],
  ["accepts Exists with an empty values list", (c) => match(c, { matchExpressions: [{ key: "p", operator: "Exists", values: [] }] }), []],
  [
    "refuses DoesNotExist with values",
    (c) => match(c, { matchExpressions: [{ key: "p", operator: "DoesNotExist", values: ["a"] }] }),
    ["assetFeedConfig[0].match.matchExpressions[0].values must be empty for operator DoesNotExist"],
  ],
  ["refuses a rule config without assetType", (c) => delete c.assetFeedConfig[0].config.assetType, ["assetFeedConfig[0].config.assetType is required"]],
  ["refuses a rule config without priceFeed", (c) => delete c.assetFeedConfig[0].config.priceFeed, ["assetFeedConfig[0].config.priceFeed is required"]],
  ["accepts a market feed", (c) => feed(c, { kind: "market", id: "weth" }), []],
  ["refuses a market feed without an id", (c) => feed(c, { kind: "market" }), ["assetFeedConfig[0].config.priceFeed.id is required"]],
  ["refuses a market id of spaces only", (c) => feed(c, { kind: "market", id: "  " }), ["assetFeedConfig[0].config.priceFeed.id must not be blank"]],
  ["refuses a numeric market id", (c) => feed(c, { kind: "market", id: 1 }), ["assetFeedConfig[0].config.priceFeed.id must be a string"]],
  ["accepts a peg of 0", (c) => feed(c, { kind: "pegged", usdPegValue: 0 }), []],
  ["refuses a peg without a value", (c) => feed(c, { kind: "pegged" }), ["assetFeedConfig[0].config.priceFeed.usdPegValue is required"]],
  ["refuses a peg given as text", (c) => feed(c, { kind: "pegged", usdPegValue: "1" }), ["assetFeedConfig[0].config.priceFeed.usdPegValue must be a number"]],
  [
    "refuses an infinite peg",
    (c) => feed(c, { kind: "pegged", usdPegValue: Number.POSITIVE_INFINITY }),
    ["assetFeedConfig[0].config.priceFeed.usdPegValue must be a number"],
  ],
  ["accepts an ammv2nav feed", (c) => feed(c, { kind: "ammv2nav", token0: PEG, token1: PEG }), []],
  ["accepts an ammv3position feed", (c) => feed(c, { kind: "ammv3position", token0: PEG, token1: PEG }), []],
  ["accepts a v1 vaultshare feed", (c) => feed(c, { kind: "vaultshare", version: "v1", underlying: PEG }), []],
  ["accepts a v2 vaultshare feed", (c) => feed(c, { kind: "vaultshare", version: "v2", underlying: PEG }), []],
  ["accepts a balancerv2nav feed keyed in any case", (c) => feed(c, { kind: "balancerv2nav", tokens: { [MIXED]: PEG, [B2]: PEG } }), []],
  [
    "refuses balancerv2nav tokens that are not an object",
    (c) => feed(c, { kind: "balancerv2nav", tokens: [PEG, PEG] }),
    ["assetFeedConfig[0].config.priceFeed.tokens must be an object of feed selectors keyed by token address"],
  ],
  [
    "refuses a balancerv2nav token key with a 21st byte",
    (c) => feed(c, { kind: "balancerv2nav", tokens: { [`${MIXED}00`]: PEG, [B2]: PEG } }),
    [`assetFeedConfig[0].config.priceFeed.tokens.${MIXED}00 ${KEYED}`],
  ],
  [
    "refuses a balancerv2nav token key with a character before 0x",
    (c) => feed(c, { kind: "balancerv2nav", tokens: { [`a${MIXED}`]: PEG, [B2]: PEG } }),
    [`assetFeedConfig[0].config.priceFeed.tokens.a${MIXED} ${KEYED}`],
  ],
  [
    "refuses a balancerv2nav token key with a bad EIP-55 checksum",
    (c) => feed(c, { kind: "balancerv2nav", tokens: { [flipLastLetter(MIXED)]: PEG, [B2]: PEG } }),
    [`assetFeedConfig[0].config.priceFeed.tokens.${flipLastLetter(MIXED)} ${CHECKSUM}`],
  ],
  ["accepts feed selectors nested 8 levels deep", (c) => feed(c, nested(8)), []],
  ["refuses feed selectors nested 9 levels deep", (c) => feed(c, nested(9)), [TOO_DEEP]],
  ["refuses feed selectors nested 1500 levels deep with the same message", (c) => feed(c, nested(1500)), [TOO_DEEP]],
  [
    "counts the levels through a vault's underlying and a Balancer pool's tokens",
    (c) => feed(c, { kind: "vaultshare", version: "v2", underlying: { kind: "balancerv2nav", tokens: { [MIXED]: nested(7), [B2]: PEG } } }),
    [TOO_DEEP],
  ],
  [
    "accepts 8 levels through a vault's underlying and a Balancer pool's tokens",
    (c) => feed(c, { kind: "vaultshare", version: "v2", underlying: { kind: "balancerv2nav", tokens: { [MIXED]: nested(6), [B2]: PEG } } }),
    [],
  ],
  [
    "refuses balancerv2nav tokens naming one address twice in different case",
    (c) => feed(c, { kind: "balancerv2nav", tokens: { [MIXED]: PEG, [MIXED.toLowerCase()]: PEG } }),
    ["assetFeedConfig[0].config.priceFeed.tokens must name each token once (addresses compare in any case)"],
  ],
];

describe("asset feed config", () => {
  it.each(rows)("%s", (_name, edit, expected) => {
    expect(messages(edit)).toEqual(expected);
  });

  it("returns a match key lowercased", () => {
    const result = validateEdited((c) => match(c, { key: MIXED }));
    expect(result.ok && result.config.assetFeedConfig[0]?.match).toEqual({ key: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed" });
  });
});

describe("usesMarketFeed", () => {
  const MARKET: FeedSelector = { kind: "market", id: "ethereum" };
  const PEGGED: FeedSelector = { kind: "pegged", usdPegValue: 1 };

  it.each<[string, FeedSelector, boolean]>([
    ["a market feed", MARKET, true],
    ["a pegged feed", PEGGED, false],
    ["ammv2nav with a market token1", { kind: "ammv2nav", token0: PEGGED, token1: MARKET }, true],
    ["ammv3position with a market token0", { kind: "ammv3position", token0: MARKET, token1: PEGGED }, true],
    ["ammv3position with pegged tokens", { kind: "ammv3position", token0: PEGGED, token1: PEGGED }, false],
    ["vaultshare over a market underlying", { kind: "vaultshare", version: "v2", underlying: MARKET }, true],
    ["balancerv2nav with one market token", { kind: "balancerv2nav", tokens: { [B2]: PEGGED, [MIXED]: MARKET } }, true],
    [
      "a market feed three levels down",
      {
        kind: "vaultshare",
        version: "v1",
        underlying: { kind: "ammv3position", token0: PEGGED, token1: { kind: "ammv2nav", token0: MARKET, token1: PEGGED } },
      },
      true,
    ],
  ])("finds %s: %s", (_name, feed, expected) => {
    expect(usesMarketFeed(feed)).toBe(expected);
  });

  it("is true exactly when a market selector appears anywhere in the selector", () => {
    const { feed } = fc.letrec<{ feed: FeedSelector }>((tie) => ({
      feed: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constant(MARKET),
        fc.constant(PEGGED),
        fc.record({ kind: fc.constant("ammv2nav" as const), token0: tie("feed"), token1: tie("feed") }),
        fc.record({ kind: fc.constant("ammv3position" as const), token0: tie("feed"), token1: tie("feed") }),
        fc.record({ kind: fc.constant("vaultshare" as const), version: fc.constantFrom("v1" as const, "v2" as const), underlying: tie("feed") }),
        fc.record({ kind: fc.constant("balancerv2nav" as const), tokens: fc.dictionary(fc.constantFrom(B2, MIXED, TOKEN), tie("feed"), { minKeys: 1 }) }),
      ),
    }));
    fc.assert(fc.property(feed, (selector) => usesMarketFeed(selector) === JSON.stringify(selector).includes('"kind":"market"')));
  });
});
