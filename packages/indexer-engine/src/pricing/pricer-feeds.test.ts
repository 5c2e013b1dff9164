// The pricer's feed choice (rule order, labels, pricing range) and each feed kind it prices through: pegged, market, ammv2nav, vaultshare, balancerv2nav, ammv3position.
import { AbiCoder } from "ethers";
import type { ChainCalls, KeyValueStore, LabelStore } from "../adapter";
import type { AssetFeedRule, FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import { capturingLogger } from "../testing/fixtures";
import type { MarketPriceClient } from "./market";
import { Pricer, type PricerDeps } from "./pricer";

const coder = AbiCoder.defaultAbiCoder();
const word = (type: string, value: unknown) => coder.encode([type], [value]);

// Function selectors: the first four bytes of keccak256 of each signature.
const SEL = {
  token0: "0x0dfe1681",
  token1: "0xd21220a7",
  decimals: "0x313ce567",
  totalSupply: "0x18160ddd",
  getReserves: "0x0902f1ac",
  slot0: "0x3850c7bd",
  asset: "0x38d52e0f",
  convertToAssets: "0x07a2d13a",
  getVault: "0x8d928af8",
  getPoolId: "0x38fff2d0",
  getPoolTokens: "0xf94d4668",
  getActualSupply: "0x876f303b",
};

// Real mainnet addresses, whose checksummed forms have capitals: the pricer must key everything by the lowercase form.
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const PAIR = "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc";
const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b1";
const C = "0x00000000000000000000000000000000000000c1";
const D = "0x00000000000000000000000000000000000000d1";

/** A chain answering `${to} ${data}` from `answers` (a word, or a function of the block), recording every call. */
function fakeChain(answers: Record<string, string | ((block: number | undefined) => string)>): { chain: ChainCalls; calls: string[] } {
  const calls: string[] = [];
  const chain: ChainCalls = {
    call: async (to, data, block) => {
      const key = `${to} ${data}`;
      calls.push(block === undefined ? key : `${key} @${block}`);
      const answer = answers[key];
      if (answer === undefined) throw new Error(`unexpected call ${key}`);
      return typeof answer === "string" ? answer : answer(block);
    },
  };
  return { chain, calls };
}

/** A market price client answering from `prices` (id -> ts -> price), recording each (id, ts) it is asked. */
function fakeMarket(prices: Record<string, Record<number, string>>): { market: MarketPriceClient; asked: string[] } {
  const asked: string[] = [];
  const market = {
    priceAt: async (id: string, ts: number) => {
      asked.push(`${id}@${ts}`);
      const price = prices[id]?.[ts];
      return price === undefined ? undefined : new Dec(price);
    },
  };
  return { market: market as unknown as MarketPriceClient, asked };
}

function memoryLabels(labels: Record<string, Record<string, string>>): LabelStore {
  return { get: async (asset) => ({ ...(labels[asset] ?? {}) }), set: async () => {} };
}

function memoryFacts(): KeyValueStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return { entries, get: async (key) => entries.get(key), set: async (key, value) => void entries.set(key, value) };
}

const rule = (match: AssetFeedRule["match"], priceFeed: FeedSelector): AssetFeedRule => ({ match, config: { assetType: "erc20", priceFeed } });
const pegged = (usdPegValue: number) => ({ kind: "pegged" as const, usdPegValue });

function makePricer(deps: Partial<PricerDeps>) {
  const { logger, lines } = capturingLogger();
  const pricer = new Pricer({
    rules: [],
    pricingRange: undefined,
    chain: { call: () => Promise.reject(new Error("no chain in this test")) },
    labels: memoryLabels({}),
    facts: memoryFacts(),
    market: undefined,
    logger,
    ...deps,
  });
  return { pricer, lines };
}

const at = (block: number, ts = block * 12_000) => ({ ts, block });
const UNMATCHED = "no asset feed rule matches; rows of this asset stay unpriced";

describe("choosing an asset's feed", () => {
  it("uses the first rule that fits, by address or by the labels in the label store", async () => {
    const { pricer } = makePricer({
      rules: [
        rule({ key: A }, pegged(1)),
        rule({ matchLabels: { role: "lp" } }, pegged(2)),
        rule({ matchLabels: { role: "lp", tier: "gold" } }, pegged(3)),
        rule({ key: B }, pegged(4)),
      ],
      labels: memoryLabels({ [A]: { role: "lp" }, [C]: { role: "lp", tier: "gold" }, [D]: { tier: "gold" } }),
    });
    const prices = await Promise.all([A, B, C, D].map((asset) => pricer.priceAt(asset, at(5))));
    expect(prices.map((p) => p?.toFixed())).toStrictEqual(["1", "4", "2", undefined]);
  });

  it("leaves an asset that no rule fits unpriced and logs that once per asset", async () => {
    const { pricer, lines } = makePricer({ rules: [rule({ key: A }, pegged(1))] });
    expect(await pricer.priceAt(B, at(5))).toBeUndefined();
    expect(await pricer.priceAt(B, at(6))).toBeUndefined();
    expect(await pricer.priceAt(A, at(6))).toEqual(new Dec(1));
    expect((await pricer.priceManyExact([{ asset: C, point: at(7) }])).map((f) => f?.toString())).toStrictEqual([undefined]);
    expect(await pricer.priceAt(C, at(8))).toBeUndefined();
    expect(lines.map((l) => [l.level, l.msg, l.asset])).toStrictEqual([
      ["info", UNMATCHED, B],
      ["info", UNMATCHED, C],
    ]);
  });
});

describe("the pricing range", () => {
  const rules = [rule({ key: A }, pegged(1))];

  it("prices from fromBlock on when the range is by block", async () => {
    const { pricer } = makePricer({ rules, pricingRange: { type: "block", fromBlock: 100 } });
    expect(pricer.isActive({ ts: 10 ** 13, block: 99 })).toBe(false);
    expect(pricer.isActive({ ts: 0, block: 100 })).toBe(true);
    expect(await pricer.priceAt(A, { ts: 10 ** 13, block: 99 })).toBeUndefined();
    expect((await pricer.priceAt(A, { ts: 0, block: 100 }))?.toFixed()).toBe("1");
    const many = await pricer.priceManyExact([
      { asset: A, point: { ts: 10 ** 13, block: 99 } },
      { asset: A, point: { ts: 0, block: 100 } },
    ]);
    expect(many.map((f) => f?.toString())).toStrictEqual([undefined, "1"]);
  });

  it("prices from fromTimestamp (seconds) on when the range is by time", async () => {
    const { pricer } = makePricer({ rules, pricingRange: { type: "timestamp", fromTimestamp: 1_700_000_000 } });
    expect(pricer.isActive({ ts: 1_699_999_999_999, block: 10 ** 9 })).toBe(false);
    expect(pricer.isActive({ ts: 1_700_000_000_000, block: 0 })).toBe(true);
    expect(await pricer.priceAt(A, { ts: 1_699_999_999_999, block: 10 ** 9 })).toBeUndefined();
    expect((await pricer.priceAt(A, { ts: 1_700_000_000_000, block: 0 }))?.toFixed()).toBe("1");
    const many = await pricer.priceManyExact([
      { asset: A, point: { ts: 1_700_000_000_000, block: 0 } },
      { asset: A, point: { ts: 1_699_999_999_999, block: 10 ** 9 } },
    ]);
    expect(many.map((f) => f?.toString())).toStrictEqual(["1", undefined]);
  });

  it("prices everywhere when there is no range", async () => {
    const { pricer } = makePricer({ rules, pricingRange: undefined });
    expect(pricer.isActive({ ts: 0, block: 0 })).toBe(true);
    expect((await pricer.priceAt(A, { ts: 0, block: 0 }))?.toFixed()).toBe("1");
  });

  it("does not read labels or log for a point before the range", async () => {
    let lookups = 0;
    const labels: LabelStore = {
      get: async () => {
        lookups++;
        return {};
      },
      set: async () => {},
    };
    const { pricer, lines } = makePricer({ rules, labels, pricingRange: { type: "block", fromBlock: 100 } });
    expect(await pricer.priceAt(B, at(99))).toBeUndefined();
    expect(await pricer.priceManyExact([{ asset: B, point: at(98) }])).toStrictEqual([undefined]);
    expect(lookups).toBe(0);
    expect(lines).toStrictEqual([]);
  });
});

describe("pegged feeds", () => {
  it("price an asset at its peg at every point, as one decimal object per peg", async () => {
    const { pricer } = makePricer({ rules: [rule({ key: A }, pegged(0.9995)), rule({ key: B }, pegged(0.9995))] });
    const first = await pricer.priceAt(A, at(1));
    expect(first?.toFixed()).toBe("0.9995");
    expect(await pricer.priceAt(A, at(2))).toBe(first);
    expect(await pricer.priceAt(B, at(3))).toBe(first);
    expect(await pricer.priceWith(pegged(0.9995), C, at(4))).toBe(first);
    expect((await pricer.priceWith(pegged(2.5), C, at(4)))?.toFixed()).toBe("2.5");
  });
});

describe("market feeds", () => {
  const usdc = { kind: "market" as const, id: "usd-coin" };

  it("ask the market client for the feed's id at the point's time, once per feed, asset and point", async () => {
    const { market, asked } = fakeMarket({ "usd-coin": { 1000: "0.999", 2000: "1.001" } });
    const { pricer } = makePricer({ rules: [rule({ key: A }, usdc), rule({ key: B }, usdc)], market });
    expect((await pricer.priceAt(A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    expect((await pricer.priceAt(A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    expect(asked).toStrictEqual(["usd-coin@1000"]);
    expect((await pricer.priceAt(A, { ts: 2_000, block: 1 }))?.toFixed()).toBe("1.001");
    expect((await pricer.priceAt(A, { ts: 1_000, block: 2 }))?.toFixed()).toBe("0.999");
    expect((await pricer.priceAt(B, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    expect(asked).toStrictEqual(["usd-coin@1000", "usd-coin@2000", "usd-coin@1000", "usd-coin@1000"]);
  });

  it("share one cached price between equal feeds from different rules, but not between different feeds", async () => {
    const { market, asked } = fakeMarket({ "usd-coin": { 1000: "0.999" }, tether: { 1000: "1.002" } });
    const { pricer } = makePricer({ market });
    expect((await pricer.priceWith({ kind: "market", id: "usd-coin" }, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    expect((await pricer.priceWith({ kind: "market", id: "usd-coin" }, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    expect((await pricer.priceWith({ kind: "market", id: "tether" }, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("1.002");
    expect((await pricer.priceWith({ kind: "market", id: "usd-coin" }, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("0.999");
    const tether = { kind: "market" as const, id: "tether" };
    expect((await pricer.priceWith(tether, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("1.002");
    expect((await pricer.priceWith(tether, A, { ts: 1_000, block: 1 }))?.toFixed()).toBe("1.002");
    expect(asked).toStrictEqual(["usd-coin@1000", "tether@1000"]);
  });

  it("leave a point unpriced where the market has no price", async () => {
    const { market } = fakeMarket({});
    const { pricer } = makePricer({ rules: [rule({ key: A }, usdc)], market });
    expect(await pricer.priceAt(A, at(1))).toBeUndefined();
    expect(await pricer.priceManyExact([{ asset: A, point: at(1) }])).toStrictEqual([undefined]);
  });

  it("fail with price-api-missing when there is no market client", async () => {
    const { pricer } = makePricer({ rules: [rule({ key: A }, usdc)], market: undefined });
    await expect(pricer.priceAt(A, at(1))).rejects.toMatchObject({ code: "price-api-missing", message: "a market price feed needs PRICE_API_KEY" });
  });

  it("do not keep a failed lookup: asking again asks the market again, and a success is then kept", async () => {
    let calls = 0;
    const market = {
      priceAt: async () => {
        calls++;
        if (calls === 1) throw new Error("price API unavailable");
        return new Dec("1.5");
      },
    } as unknown as MarketPriceClient;
    const { pricer } = makePricer({ rules: [rule({ key: A }, usdc)], market });
    await expect(pricer.priceAt(A, at(1))).rejects.toThrow("price API unavailable");
    expect((await pricer.priceAt(A, at(1)))?.toFixed()).toBe("1.5");
    expect((await pricer.priceAt(A, at(1)))?.toFixed()).toBe("1.5");
    expect(calls).toBe(2);
  });

  it("ask once for a point asked for twice at the same time", async () => {
    const { market, asked } = fakeMarket({ "usd-coin": { 1000: "0.999" } });
    const { pricer } = makePricer({ rules: [rule({ key: A }, usdc)], market });
    const both = await Promise.all([pricer.priceAt(A, { ts: 1_000, block: 1 }), pricer.priceAt(A, { ts: 1_000, block: 1 })]);
    expect(both.map((p) => p?.toFixed())).toStrictEqual(["0.999", "0.999"]);
    expect(asked).toStrictEqual(["usd-coin@1000"]);
  });
});

describe("ammv2nav feeds", () => {
  // A USDC (6 decimals) / WETH (18 decimals) pair with an 18-decimal LP token. At block 200: 2,000,000 USDC and
  // 1,000 WETH over 50 LP; at block 300: 3,000,000 USDC and 500 WETH over 40 LP.
  const reserves = (r0: bigint, r1: bigint) => coder.encode(["uint112", "uint112", "uint32"], [r0, r1, 1_700_000_000]);
  const RESERVES: Record<number, string> = {
    200: reserves(2_000_000n * 10n ** 6n, 1_000n * 10n ** 18n),
    300: reserves(3_000_000n * 10n ** 6n, 500n * 10n ** 18n),
    400: reserves(1n, 1n),
  };
  const SUPPLY: Record<number, bigint> = { 200: 50n * 10n ** 18n, 300: 40n * 10n ** 18n, 400: 0n };
  const pairAnswers = {
    [`${PAIR} ${SEL.token0}`]: word("address", USDC),
    [`${PAIR} ${SEL.token1}`]: word("address", WETH),
    [`${USDC} ${SEL.decimals}`]: word("uint8", 6),
    [`${WETH} ${SEL.decimals}`]: word("uint8", 18),
    [`${PAIR} ${SEL.decimals}`]: word("uint8", 18),
    [`${PAIR} ${SEL.getReserves}`]: (block: number | undefined) => RESERVES[block as number] as string,
    [`${PAIR} ${SEL.totalSupply}`]: (block: number | undefined) => word("uint256", SUPPLY[block as number]),
  };
  const nav = { kind: "ammv2nav" as const, token0: pegged(1), token1: { kind: "market" as const, id: "weth" } };

  it("values an LP token as its reserves at the point's block times the token prices, over its supply", async () => {
    const { chain, calls } = fakeChain(pairAnswers);
    const { market, asked } = fakeMarket({ weth: { 2400000: "2000", 3600000: "6000" } });
    const { pricer } = makePricer({
      rules: [rule({ matchLabels: { protocol: "amm-v2" } }, nav)],
      labels: memoryLabels({ [PAIR]: { protocol: "amm-v2" } }),
      chain,
      market,
    });
    // (2,000,000 x 1 + 1,000 x 2,000) / 50 = 80,000.
    expect((await pricer.priceAt(PAIR, at(200)))?.toFixed()).toBe("80000");
    expect(calls.slice(0, 2).sort()).toStrictEqual([`${PAIR} ${SEL.token0}`, `${PAIR} ${SEL.token1}`]);
    expect(calls.slice(2, 5).sort()).toStrictEqual([`${PAIR} ${SEL.decimals}`, `${USDC} ${SEL.decimals}`, `${WETH} ${SEL.decimals}`].sort());
    expect(calls.slice(5).sort()).toStrictEqual([`${PAIR} ${SEL.getReserves} @200`, `${PAIR} ${SEL.totalSupply} @200`].sort());
    // (3,000,000 x 1 + 500 x 6,000) / 40 = 150,000; the pool's tokens and decimals are not read again.
    expect((await pricer.priceAt(PAIR, at(300)))?.toFixed()).toBe("150000");
    expect(calls.slice(7).sort()).toStrictEqual([`${PAIR} ${SEL.getReserves} @300`, `${PAIR} ${SEL.totalSupply} @300`].sort());
    expect(asked).toStrictEqual(["weth@2400000", "weth@3600000"]);
  });

  it("gives token0 and token1 each their own selector and decimals", async () => {
    const { chain } = fakeChain(pairAnswers);
    const swapped = { kind: "ammv2nav" as const, token0: pegged(3), token1: pegged(0.5) };
    const { pricer } = makePricer({ chain });
    // (2,000,000 x 3 + 1,000 x 0.5) / 50 = 120,010.
    expect((await pricer.priceWith(swapped, PAIR, at(200)))?.toFixed()).toBe("120010");
  });

  it("is unpriced while the LP supply is zero or a token has no price", async () => {
    const { chain } = fakeChain(pairAnswers);
    const { market } = fakeMarket({ weth: { 2400000: "2000" } });
    const { pricer } = makePricer({ chain, market });
    // Both tokens priced, but no LP tokens at block 400.
    expect(await pricer.priceWith({ kind: "ammv2nav", token0: pegged(1), token1: pegged(1) }, PAIR, at(400))).toBeUndefined();
    // No WETH price at block 300's time.
    expect(await pricer.priceWith(nav, PAIR, at(300))).toBeUndefined();
    const token0Unpriced = { kind: "ammv2nav" as const, token0: { kind: "market" as const, id: "weth" }, token1: pegged(1) };
    expect(await pricer.priceWith(token0Unpriced, PAIR, at(300))).toBeUndefined();
    // (2,000,000 x 2,000 + 1,000 x 1) / 50 = 80,000,020.
    expect((await pricer.priceWith(token0Unpriced, PAIR, at(200)))?.toFixed()).toBe("80000020");
  });

  it("keeps the pool's tokens and decimals in the fact store, lowercase, under pricer:", async () => {
    const { chain } = fakeChain(pairAnswers);
    const facts = memoryFacts();
    const { pricer } = makePricer({ chain, facts, market: fakeMarket({ weth: { 2400000: "2000" } }).market });
    await pricer.priceWith(nav, PAIR, at(200));
    expect(Object.fromEntries(facts.entries)).toStrictEqual({
      [`pricer:pool:${PAIR}:token0`]: USDC,
      [`pricer:pool:${PAIR}:token1`]: WETH,
      [`pricer:decimals:${USDC}`]: "6",
      [`pricer:decimals:${WETH}`]: "18",
      [`pricer:decimals:${PAIR}`]: "18",
    });
  });
});

describe("composite feeds of other kinds", () => {
  it("prices a vaultshare feed by what one share converts to at the point's block times the underlying's price", async () => {
    const VAULT = "0x83f20f44975d03b1b09e64809b757c47f942beea";
    const { chain } = fakeChain({
      [`${VAULT} ${SEL.asset}`]: word("address", USDC),
      [`${VAULT} ${SEL.decimals}`]: word("uint8", 18),
      [`${USDC} ${SEL.decimals}`]: word("uint8", 6),
      [`${VAULT} ${SEL.convertToAssets}${word("uint256", 10n ** 18n).slice(2)}`]: (block) => word("uint256", block === 500 ? 1_050_000n : 1_100_000n),
    });
    const feed = { kind: "vaultshare" as const, version: "v2" as const, underlying: pegged(2) };
    const { pricer } = makePricer({ rules: [rule({ key: VAULT }, feed)], chain });
    expect(pricer.chain).toBe(chain);
    // 1.05 USDC per share at $2.
    expect((await pricer.priceAt(VAULT, at(500)))?.toFixed()).toBe("2.1");
    expect((await pricer.priceAt(VAULT, at(600)))?.toFixed()).toBe("2.2");
  });

  it("prices a balancerv2nav feed by the Vault's pool balances times their prices over the pool's supply", async () => {
    const POOL = "0x5c6ee304399dbdb9c8ef030ab642b10820db8f56";
    const VAULT = "0xba12222222228d8ba445958a75a0704d566bf2c8";
    const POOL_ID = "0x5c6ee304399dbdb9c8ef030ab642b10820db8f56000200000000000000000014";
    const { chain } = fakeChain({
      [`${POOL} ${SEL.getVault}`]: word("address", VAULT),
      [`${POOL} ${SEL.getPoolId}`]: word("bytes32", POOL_ID),
      [`${POOL} ${SEL.getActualSupply}`]: word("uint256", 5n * 10n ** 18n),
      [`${POOL} ${SEL.decimals}`]: word("uint8", 18),
      [`${USDC} ${SEL.decimals}`]: word("uint8", 6),
      [`${WETH} ${SEL.decimals}`]: word("uint8", 18),
      [`${VAULT} ${SEL.getPoolTokens}${POOL_ID.slice(2)}`]: coder.encode(
        ["address[]", "uint256[]", "uint256"],
        [[WETH, USDC], [10n * 10n ** 18n, 20n * 10n ** 6n], 1n],
      ),
    });
    const feed = { kind: "balancerv2nav" as const, tokens: { [WETH]: pegged(3), [USDC]: pegged(1) } };
    const { pricer } = makePricer({ rules: [rule({ key: POOL }, feed)], chain });
    // (10 x 3 + 20 x 1) / 5 = 10.
    expect((await pricer.priceAt(POOL, at(700)))?.toFixed()).toBe("10");
  });

  it("prices an ammv3position feed per unit of liquidity from the position's labels and the pool's price", async () => {
    const POOL = "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640";
    // The range [MIN_TICK, 0) with the pool above it holds only token1: (2^96 - MIN_SQRT_RATIO) / 2^96 raw units
    // per unit of liquidity, here of a 6-decimal token at $2.
    const { chain, calls } = fakeChain({ [`${POOL} ${SEL.slot0}`]: coder.encode(["uint160", "int24"], [2n ** 97n, 6_931]) });
    const labels = memoryLabels({
      [D]: { role: "position", pool: POOL, token0: WETH, token1: USDC, decimals0: "18", decimals1: "6", tickLower: "-887272", tickUpper: "0" },
    });
    const feed = { kind: "ammv3position" as const, token0: pegged(3000), token1: pegged(2) };
    const { pricer } = makePricer({ rules: [rule({ matchLabels: { role: "position" } }, feed)], labels, chain });
    expect((await pricer.priceAt(D, at(800)))?.toFixed()).toBe("0.00000199999999999999999989157570735717366553336988517077335049399");
    expect(calls).toStrictEqual([`${POOL} ${SEL.slot0} @800`]);
  });
});
