// Pricing many points at once gives what point-by-point lookups give, resolving each asset's feed once, answering
// pegged and position requests in place and looking the rest up at most `concurrency` at a time.
import { AbiCoder } from "ethers";
import type { LabelStore } from "../adapter";
import type { AssetFeedRule } from "../config/schema";
import { Dec } from "../decimal";
import type { StateStore } from "../state/store";
import { capturingLogger, testStore } from "../testing/fixtures";
import type { MarketPriceClient } from "./market";
import { Pricer } from "./pricer";

const STABLE = "0x00000000000000000000000000000000000000c1";
const LP = "0x00000000000000000000000000000000000000c2";
const UNKNOWN = "0x00000000000000000000000000000000000000c3";
let store: StateStore;

beforeAll(async () => {
  store = await testStore("pricer");
  await store.labels.set(LP, { role: "lp" });
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

function pricer(labels: LabelStore) {
  const { logger, lines } = capturingLogger();
  const p = new Pricer({
    rules: [
      { match: { key: STABLE }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
      { match: { matchLabels: { role: "lp" } }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 44.5 } } },
    ],
    pricingRange: { type: "block", fromBlock: 100 },
    chain: { call: () => Promise.reject(new Error("no chain in this test")) },
    labels,
    facts: store.kv,
    market: undefined,
    logger,
  });
  return { p, lines };
}

describe("pricing many points at once", () => {
  it("answers as point-by-point lookups do, resolving each asset's feed once", async () => {
    let lookups = 0;
    const counting: LabelStore = {
      get: (asset) => {
        lookups++;
        return store.labels.get(asset);
      },
      set: (asset, labels) => store.labels.set(asset, labels),
    };
    const requests = [STABLE, LP, UNKNOWN].flatMap((asset) => [50, 100, 101, 5_000].map((block) => ({ asset, point: { ts: block * 12_000, block } })));
    const { p, lines } = pricer(counting);
    const many = (await p.priceManyExact(requests)).map((f) => f?.toString());
    expect(lookups).toBe(3);
    const single = await Promise.all(requests.map((r) => pricer(store.labels).p.priceAt(r.asset, r.point)));
    expect(many).toEqual(single.map((d) => d?.toFixed()));
    // Before pricingRange nothing prices; the unmatched asset never does, and says so once.
    expect(many).toStrictEqual([undefined, "1", "1", "1", undefined, "44.5", "44.5", "44.5", undefined, undefined, undefined, undefined]);
    expect(lines.filter((l) => l.msg === "no asset feed rule matches; rows of this asset stay unpriced")).toHaveLength(1);
  });
});

describe("pricing many points at once, by feed kind", () => {
  const MKT = "0x00000000000000000000000000000000000000c4";
  const POS_PEGGED = "0x00000000000000000000000000000000000000c5";
  const POS_MARKET = "0x00000000000000000000000000000000000000c6";
  const POOL = "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640";
  const SLOT0 = "0x3850c7bd";
  // A position over [MIN_TICK, 0) with the pool above it holds only token1, (2^96 - MIN_SQRT_RATIO) / 2^96 raw units per
  // unit of liquidity: of a 6-decimal token at $2, this many USD.
  const POSITION_VALUE = "0.00000199999999999999999989157570735717366553336988517077335049399";
  const positionLabels = {
    role: "position",
    pool: POOL,
    token0: "0x00000000000000000000000000000000000000f0",
    token1: "0x00000000000000000000000000000000000000f1",
    decimals0: "18",
    decimals1: "6",
    tickLower: "-887272",
    tickUpper: "0",
  };
  const labels: LabelStore = {
    get: async (asset) => (asset === POS_PEGGED || asset === POS_MARKET ? { ...positionLabels } : {}),
    set: async () => {},
  };
  const rules: AssetFeedRule[] = [
    { match: { key: STABLE }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
    { match: { key: MKT }, config: { assetType: "erc20", priceFeed: { kind: "market", id: "mkt" } } },
    {
      match: { key: POS_PEGGED },
      config: {
        assetType: "erc20",
        priceFeed: { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: 3000 }, token1: { kind: "pegged", usdPegValue: 2 } },
      },
    },
    {
      match: { key: POS_MARKET },
      config: {
        assetType: "erc20",
        priceFeed: { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: 3000 }, token1: { kind: "market", id: "two" } },
      },
    },
  ];
  /** A market whose `mkt` price is the point's time in seconds, and `two` is 2; it records how many lookups run at once. */
  function market() {
    const state = { running: 0, most: 0, asked: [] as string[] };
    const client = {
      priceAt: async (id: string, ts: number) => {
        state.asked.push(`${id}@${ts}`);
        state.running++;
        state.most = Math.max(state.most, state.running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        state.running--;
        if (id === "missing") return undefined;
        if (id === "broken") throw new Error("price API unavailable");
        return new Dec(id === "two" ? 2 : ts / 1000);
      },
    };
    return { client: client as unknown as MarketPriceClient, state };
  }
  function pricer(client: MarketPriceClient, extraRules: AssetFeedRule[] = []) {
    const coder = AbiCoder.defaultAbiCoder();
    const chain = {
      call: async (to: string, data: string) => {
        if (to !== POOL || data !== SLOT0) throw new Error(`unexpected call ${to} ${data}`);
        return coder.encode(["uint160", "int24"], [2n ** 97n, 6_931]);
      },
    };
    return new Pricer({
      rules: [...rules, ...extraRules],
      pricingRange: undefined,
      chain,
      labels,
      facts: store.kv,
      market: client,
      logger: capturingLogger().logger,
    });
  }
  const point = (block: number) => ({ ts: block * 1_000, block });

  it("gives each request its price in order: pegged, market, positions over pegged or market tokens, unmatched", async () => {
    const p = pricer(market().client);
    const many = await p.priceManyExact([
      { asset: POS_MARKET, point: point(7) },
      { asset: MKT, point: point(5) },
      { asset: STABLE, point: point(5) },
      { asset: POS_PEGGED, point: point(7) },
      { asset: MKT, point: point(6) },
      { asset: UNKNOWN, point: point(6) },
    ]);
    expect(many.map((f) => f?.toString())).toStrictEqual([POSITION_VALUE, "5", "1", POSITION_VALUE, "6", undefined]);
    expect((await p.priceAt(POS_PEGGED, point(8)))?.toFixed()).toBe(POSITION_VALUE);
  });

  it("answers pegged requests and positions over pegged tokens in place, looking up only the others point by point", async () => {
    const p = pricer(market().client);
    const lookups = jest.spyOn(p, "priceWith");
    const many = await p.priceManyExact([
      { asset: STABLE, point: point(5) },
      { asset: POS_PEGGED, point: point(5) },
      { asset: STABLE, point: point(6) },
      { asset: POS_PEGGED, point: point(6) },
      { asset: MKT, point: point(6) },
    ]);
    expect(many.map((f) => f?.toString())).toStrictEqual(["1", POSITION_VALUE, "1", POSITION_VALUE, "6"]);
    expect(lookups.mock.calls.map(([feed, asset, at]) => [feed.kind, asset, at.block])).toStrictEqual([["market", MKT, 6]]);
  });

  it("runs at most `concurrency` lookups at a time, 16 unless told", async () => {
    const requests = Array.from({ length: 40 }, (_, i) => ({ asset: MKT, point: point(i + 1) }));
    const expected = requests.map((_, i) => String(i + 1));
    const three = market();
    expect((await pricer(three.client).priceManyExact(requests, 3)).map((f) => f?.toString())).toStrictEqual(expected);
    expect(three.state.most).toBe(3);
    const byDefault = market();
    expect((await pricer(byDefault.client).priceManyExact(requests)).map((f) => f?.toString())).toStrictEqual(expected);
    expect(byDefault.state.most).toBe(16);
    expect(byDefault.state.asked).toHaveLength(40);
  });

  it("leaves a request unpriced where its lookup finds no price, and fails the batch when a lookup fails", async () => {
    const extra: AssetFeedRule[] = [
      { match: { key: LP }, config: { assetType: "erc20", priceFeed: { kind: "market", id: "missing" } } },
      { match: { key: UNKNOWN }, config: { assetType: "erc20", priceFeed: { kind: "market", id: "broken" } } },
    ];
    const p = pricer(market().client, extra);
    const many = await p.priceManyExact([
      { asset: LP, point: point(5) },
      { asset: MKT, point: point(5) },
    ]);
    expect(many.map((f) => f?.toString())).toStrictEqual([undefined, "5"]);
    await expect(
      p.priceManyExact([
        { asset: MKT, point: point(5) },
        { asset: UNKNOWN, point: point(5) },
      ]),
    ).rejects.toThrow("price API unavailable");
  });
});
