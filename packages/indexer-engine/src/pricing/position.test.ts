// The ammv3position feed: a position asset without usable amm-v3 labels fails with position-labels-missing; what
// positions share (the pool's price at a block, a position's value out of range) is read and computed once.
import type { Fixed } from "@pointwise/fixed";
import Decimal from "decimal.js";
import { AbiCoder, id } from "ethers";
import type { FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import type { StateStore } from "../state/store";
import { capturingLogger, testStore } from "../testing/fixtures";
import { json, startTestServer } from "../testing/http";
import { sqrtRatioAtTick } from "./clmath";
import { MarketPriceClient } from "./market";
import { NOT_READY, POSITION_LABELS, PositionFeed, positionFacts } from "./position";
import { Pricer } from "./pricer";

const ASSET = "0x00000000000000000000000000000000000000d1";
const POOL = "0x00000000000000000000000000000000000000a0";
const labels = {
  protocol: "amm-v3",
  role: "position",
  pool: POOL,
  token0: "0x00000000000000000000000000000000000000f0",
  token1: "0x00000000000000000000000000000000000000f1",
  decimals0: "6",
  decimals1: "18",
  tickLower: "-887220",
  tickUpper: "60",
};
const without = (name: string) => Object.fromEntries(Object.entries(labels).filter(([k]) => k !== name));

describe("position labels", () => {
  it("reads the pool, tokens, decimals and tick range from an amm-v3 position's labels", () => {
    expect(positionFacts(ASSET, labels)).toEqual({
      pool: POOL,
      token0: labels.token0,
      token1: labels.token1,
      decimals0: 6,
      decimals1: 18,
      tickLower: -887220,
      tickUpper: 60,
    });
  });

  it("fails with position-labels-missing naming each missing or non-integer label", () => {
    expect(POSITION_LABELS).toEqual(["pool", "token0", "token1", "decimals0", "decimals1", "tickLower", "tickUpper"]);
    const prefix = `the ammv3position feed prices positions of the amm-v3 adapter; asset ${ASSET} has no usable position labels`;
    for (const name of POSITION_LABELS)
      expect(() => positionFacts(ASSET, without(name))).toThrow(
        expect.objectContaining({ code: "position-labels-missing", message: `${prefix} (${name} is missing)` }),
      );
    expect(() => positionFacts(ASSET, {})).toThrow(`${prefix} (${POSITION_LABELS.map((n) => `${n} is missing`).join(", ")})`);
    expect(() => positionFacts(ASSET, { ...labels, pool: "" })).toThrow(`${prefix} (pool is missing)`);
    // Present but not integers, with nothing missing.
    expect(() => positionFacts(ASSET, { ...labels, tickUpper: "60x" })).toThrow(`${prefix} (tickUpper is not an integer)`);
    expect(() => positionFacts(ASSET, { ...labels, decimals0: "6.0" })).toThrow(`${prefix} (decimals0 is not an integer)`);
    expect(() => positionFacts(ASSET, { ...labels, tickLower: "-60.5", decimals1: "x", token0: "" })).toThrow(
      expect.objectContaining({
        code: "position-labels-missing",
        message: `${prefix} (token0 is missing, decimals1 is not an integer, tickLower is not an integer)`,
        details: { asset: ASSET, missing: ["token0"], malformed: ["decimals1", "tickLower"] },
      }),
    );
  });
});

describe("the ammv3position feed on an asset without position labels", () => {
  let store: StateStore;
  beforeAll(async () => {
    store = await testStore("position-feed");
    // An asset the amm-v2 adapter labelled: a feed rule matching it by key must not price it as a position.
    await store.labels.set(ASSET, { protocol: "amm-v2", role: "lp" });
  });
  afterAll(async () => {
    await store.clearIndexer();
    await store.close();
  });

  it("refuses to price it with position-labels-missing, before any call to the chain", async () => {
    let calls = 0;
    const pricer = new Pricer({
      rules: [],
      pricingRange: { type: "block", fromBlock: 0 },
      chain: {
        call: () => {
          calls++;
          return Promise.reject(new Error("no chain in this test"));
        },
      },
      labels: store.labels,
      facts: store.kv,
      market: undefined,
      logger: capturingLogger().logger,
    });
    const feed = { kind: "ammv3position" as const, token0: { kind: "pegged" as const, usdPegValue: 1 }, token1: { kind: "pegged" as const, usdPegValue: 2 } };
    await expect(pricer.priceWith(feed, ASSET, { ts: 1, block: 5 })).rejects.toMatchObject({
      code: "position-labels-missing",
      message: expect.stringContaining(`asset ${ASSET} has no usable position labels (pool is missing, token0 is missing`),
    });
    expect(calls).toBe(0);
  });
});

describe("the ammv3position feed reads what positions share once", () => {
  // Three positions of one pool (token0 6 decimals, token1 18): [-600, 600), [600, 1200) and [-1200, -600).
  const RANGES = [
    [-600, 600],
    [600, 1_200],
    [-1_200, -600],
  ] as const;
  const assets = RANGES.map((_, i) => `0x00000000000000000000000000000000000000e${i}`);
  const SLOT0 = id("slot0()").slice(0, 10);
  // The pool's tick at each block: inside the first range, then below the second and above the third throughout.
  const TICKS: Record<number, number> = { 10: 0, 11: 59, 12: -300, 13: 300 };
  const slot0OfTick = (tick: number) => `0x${[sqrtRatioAtTick(tick), BigInt.asUintN(256, BigInt(tick))].map((v) => v.toString(16).padStart(64, "0")).join("")}`;
  const slot0At = (block: number) => slot0OfTick(TICKS[block] as number);
  let store: StateStore;
  beforeAll(async () => {
    store = await testStore("position-feed-reuse");
    for (const [i, [tickLower, tickUpper]] of RANGES.entries())
      await store.labels.set(assets[i] as string, { ...labels, tickLower: String(tickLower), tickUpper: String(tickUpper) });
  });
  afterAll(async () => {
    await store.clearIndexer();
    await store.close();
  });

  const feed = {
    kind: "ammv3position" as const,
    token0: { kind: "pegged" as const, usdPegValue: 1 },
    token1: { kind: "pegged" as const, usdPegValue: 2_451.37 },
  };
  function pricer(call: (to: string, data: string, block?: number) => Promise<string>) {
    return new Pricer({
      rules: [{ match: { matchLabels: { role: "position" } }, config: { assetType: "erc20", priceFeed: feed } }],
      pricingRange: undefined,
      chain: { call },
      labels: store.labels,
      facts: store.kv,
      market: undefined,
      logger: capturingLogger().logger,
    });
  }
  /**
   * USD per unit of liquidity written out from the protocol's formulas: amount0 = 2^96 (√upper − √p) / (√p √upper),
   * amount1 = (√p − √lower) / 2^96, √p clamped to the range, in token units times the pegged prices.
   */
  function expected(tickLower: number, tickUpper: number, tick: number): Decimal {
    const D = Decimal.clone({ precision: 120 });
    const [lower, upper, price] = [tickLower, tickUpper, tick].map((t) => new D(sqrtRatioAtTick(t).toString()));
    const p = D.min(D.max(price as Decimal, lower as Decimal), upper as Decimal);
    const q96 = new D(2).pow(96);
    const amount0 = q96
      .times((upper as Decimal).minus(p))
      .div(p.times(upper as Decimal))
      .div(1e6);
    const amount1 = p
      .minus(lower as Decimal)
      .div(q96)
      .div(new D(10).pow(18));
    return amount0.plus(amount1.times("2451.37"));
  }
  const close = (value: Decimal | undefined, want: Decimal) => value?.minus(want).abs().lte(want.abs().times("1e-55")) === true;
  const D200 = Decimal.clone({ precision: 200 });
  /** An exact value as a decimal of its own digits. */
  const decimalOf = (value: Fixed | undefined) => value && new D200(value.units.toString()).div(new D200(10).pow(value.scale));
  /** Every position at each of `blocks`, block by block. */
  const everyPositionAt = (blocks: readonly number[]) => blocks.flatMap((block) => assets.map((asset) => ({ asset, point: { ts: block * 12_000, block } })));
  /** Every exact value equals the formulas' value (expected) for its position and block, to 55 significant digits. */
  function expectWrittenOut(requests: readonly { asset: string; point: { block: number } }[], exact: readonly (Fixed | undefined)[]): void {
    requests.forEach(({ asset, point }, i) => {
      const [tickLower, tickUpper] = RANGES[assets.indexOf(asset)] as readonly [number, number];
      const value = exact[i];
      if (value === undefined) throw new Error(`${asset} at block ${point.block} is unpriced`);
      const decimal = decimalOf(value);
      if (!close(decimal, expected(tickLower, tickUpper, TICKS[point.block] as number))) throw new Error(`${asset} at block ${point.block}: ${decimal}`);
    });
  }

  it("calls slot0 once per pool and block however many positions are priced there, with each position's own value", async () => {
    const calls: { to: string; data: string; block: number | undefined }[] = [];
    const p = pricer(async (to, data, block) => {
      calls.push({ to, data, block });
      return slot0At(block as number);
    });
    const blocks = [10, 11, 12, 13];
    const requests = everyPositionAt(blocks);
    const values = await p.priceManyExact(requests);
    expect(calls).toEqual(blocks.map((block) => ({ to: POOL, data: SLOT0, block })));
    expectWrittenOut(requests, values);
    // Asked again, every value is the one a pricer that never saw the other points computes.
    for (const [i, { asset, point }] of requests.entries())
      expect((await pricer(async (_to, _data, block) => slot0At(block as number)).priceAt(asset, point))?.toFixed()).toBe(values[i]?.toString());
  });

  it("prices each position once per block however often and in whatever order the blocks are asked, reading slot0 once per block", async () => {
    const calls: (number | undefined)[] = [];
    const p = pricer(async (_to, _data, block) => {
      calls.push(block);
      return slot0At(block as number);
    });
    const blocks = [10, 11, 12, 13];
    // Each position at each block twice (a window's end and the next one's start), in an order mixing the blocks.
    const requests = everyPositionAt([...blocks, ...[...blocks].reverse()]);
    const exact = await p.priceManyExact(requests);
    expect(calls).toEqual(blocks);
    expectWrittenOut(requests, exact);
    // A request repeated later in the batch gets the same value as its first asking.
    const half = requests.length / 2;
    const byKey = new Map(requests.slice(0, half).map((r, i) => [`${r.asset}@${r.point.block}`, exact[i]?.toString()]));
    for (const [i, r] of requests.entries()) expect(exact[i]?.toString()).toBe(byKey.get(`${r.asset}@${r.point.block}`));
  });

  /** A pricer of positions with the market pricing `marketToken` (each hour at `usd` of its start, or no price) and the other token pegged as above. */
  async function withMarket(marketToken: "token0" | "token1", usd: (hourMs: number) => number | undefined, run: (p: Pricer) => Promise<void>): Promise<void> {
    const server = await startTestServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const [from, to] = ["from", "to"].map((k) => Number(url.searchParams.get(k)) * 1000) as [number, number];
      const prices: [number, number][] = [];
      for (let t = Math.floor(from / 3_600_000) * 3_600_000; t <= to; t += 3_600_000) {
        const price = usd(t);
        if (price !== undefined) prices.push([t, price]);
      }
      json(res, 200, { prices });
    });
    try {
      const market = new MarketPriceClient({ baseUrl: server.url, apiKey: "test-key", ratePerMinute: 60_000, logger: capturingLogger().logger });
      const priceFeed = { ...feed, [marketToken]: { kind: "market", id: "tok" } };
      await run(
        new Pricer({
          rules: [{ match: { matchLabels: { role: "position" } }, config: { assetType: "erc20", priceFeed } }],
          pricingRange: undefined,
          chain: { call: async (_to, _data, block) => slot0At(block as number) },
          labels: store.labels,
          facts: store.kv,
          market,
          logger: capturingLogger().logger,
        }),
      );
    } finally {
      await server.close();
    }
  }

  // The market answers for every hour asked the price the pegged feed gives that token above.
  it.each([
    ["token1", 2_451.37],
    ["token0", 1],
  ] as const)("prices positions whose %s is priced by the market (not pegged) in priceManyExact, through the general path", async (token, usd) => {
    await withMarket(
      token,
      () => usd,
      async (p) => {
        const requests = everyPositionAt([10, 11, 12, 13]);
        const exact = await p.priceManyExact(requests);
        expectWrittenOut(requests, exact);
        for (const [i, { asset, point }] of requests.entries()) expect((await p.priceAt(asset, point))?.toFixed()).toBe(exact[i]?.toString());
      },
    );
  });

  it("values a position out of range again when its token's price changes, in priceAt and priceManyExact", async () => {
    // [-1200, -600) lies below every tick of the test, so the position holds token1 only: its value follows token1's price.
    const below = assets[2] as string;
    const perHour = (hourMs: number) => (hourMs === 0 ? 2_000 : 3_000);
    const points = [
      { ts: 60_000, block: 10 },
      { ts: 3_660_000, block: 11 },
    ];
    const want = points.map((point, i) =>
      expected(-1_200, -600, TICKS[point.block] as number)
        .div("2451.37")
        .times(i === 0 ? 2_000 : 3_000),
    );
    await withMarket("token1", perHour, async (p) => {
      for (const [i, point] of points.entries()) expect(close(await p.priceAt(below, point), want[i] as Decimal)).toBe(true);
    });
    await withMarket("token1", perHour, async (p) => {
      const exact = await p.priceManyExact(points.map((point) => ({ asset: below, point })));
      for (const [i, value] of exact.entries()) expect(close(decimalOf(value), want[i] as Decimal)).toBe(true);
    });
  });

  it("reads each pool's own slot0 at a block another pool was read at, and keeps both", async () => {
    const OTHER_POOL = "0x00000000000000000000000000000000000000a9";
    const other = "0x00000000000000000000000000000000000000e9";
    await store.labels.set(other, { ...labels, pool: OTHER_POOL, tickLower: "-600", tickUpper: "600" });
    const calls: string[] = [];
    // The other pool stands at tick 300 when this one stands at 0 (block 10).
    const p = pricer(async (to, _data, block) => {
      calls.push(`${to}@${block}`);
      return to === OTHER_POOL ? slot0OfTick(300) : slot0At(block as number);
    });
    const point = { ts: 120_000, block: 10 };
    const mine = assets[0] as string;
    const values = [await p.priceAt(mine, point), await p.priceAt(other, point), await p.priceAt(mine, point), await p.priceAt(other, point)];
    expect(values.map((v, i) => close(v, expected(-600, 600, i % 2 === 0 ? 0 : 300)))).toEqual([true, true, true, true]);
    expect(calls).toEqual([`${POOL}@10`, `${OTHER_POOL}@10`]);
  });

  it("keeps the pool's price at a block after another block was read, in priceAt", async () => {
    const calls: (number | undefined)[] = [];
    const p = pricer(async (_to, _data, block) => {
      calls.push(block);
      return slot0At(block as number);
    });
    // Two positions of the pool, each at block 10 and then 11: the second position's reads find the pool's prices kept.
    for (const i of [0, 1])
      for (const block of [10, 11]) {
        const [tickLower, tickUpper] = RANGES[i] as readonly [number, number];
        expect(close(await p.priceAt(assets[i] as string, { ts: block * 12_000, block }), expected(tickLower, tickUpper, TICKS[block] as number))).toBe(true);
      }
    expect(calls).toEqual([10, 11]);
  });

  it("reads a position's labels for its facts once, however many blocks it is priced at", async () => {
    let reads = 0;
    const positions = new PositionFeed(
      pricer(async (_to, _data, block) => slot0At(block as number)),
      (asset) => {
        reads++;
        return store.labels.get(asset);
      },
    );
    for (const block of [10, 11, 12, 13]) {
      const value = await positions.price(feed, assets[0] as string, { ts: block * 12_000, block });
      expect(close(value, expected(-600, 600, TICKS[block] as number))).toBe(true);
    }
    expect(reads).toBe(1);
  });

  it("prices every request of a batch with more blocks than the pool prices it keeps", async () => {
    // 10,001 blocks of one pool, one more than the pool prices kept per pool: the first block's price is dropped
    // again before the batch values it, and is read again.
    const tickOf = (block: number) => (block % 1_000) - 500;
    const p = pricer(async (_to, _data, block) => slot0OfTick(tickOf(block as number)));
    const requests = Array.from({ length: 10_001 }, (_, block) => ({ asset: assets[0] as string, point: { ts: block * 12_000, block } }));
    const exact = await p.priceManyExact(requests);
    for (const block of [0, 1, 499, 500, 9_999, 10_000])
      expect([block, close(decimalOf(exact[block]), expected(-600, 600, tickOf(block)))]).toEqual([block, true]);
  });

  it("values at once what prepare read, and answers NOT_READY for a position, block or token price it has not", async () => {
    const positions = new PositionFeed(
      pricer(async (_to, _data, block) => slot0At(block as number)),
      (asset) => store.labels.get(asset),
    );
    const at10 = { ts: 120_000, block: 10 };
    await positions.prepare([{ asset: assets[0] as string, point: at10 }], 4);
    const pegged = (selector: FeedSelector) => (selector.kind === "pegged" ? new Dec(selector.usdPegValue) : NOT_READY);
    const value = positions.priceNow(feed, assets[0] as string, at10, pegged);
    if (value === NOT_READY || value === undefined) throw new Error(`prepared position not valued: ${String(value)}`);
    expect(close(decimalOf(value), expected(-600, 600, 0))).toBe(true);
    expect(positions.priceNow(feed, assets[1] as string, at10, pegged)).toBe(NOT_READY);
    expect(positions.priceNow(feed, assets[0] as string, { ts: 132_000, block: 11 }, pegged)).toBe(NOT_READY);
    expect(positions.priceNow(feed, assets[0] as string, at10, (selector) => (selector === feed.token1 ? NOT_READY : pegged(selector)))).toBe(NOT_READY);
  });

  it("leaves a position unpriced when the market has no price for one of its tokens", async () => {
    for (const token of ["token0", "token1"] as const)
      await withMarket(
        token,
        () => undefined,
        async (p) => {
          const requests = assets.map((asset) => ({ asset, point: { ts: 120_000, block: 10 } }));
          expect(await p.priceManyExact(requests)).toEqual([undefined, undefined, undefined]);
          expect(await p.priceAt(assets[0] as string, { ts: 120_000, block: 10 })).toBeUndefined();
        },
      );
  });

  /** A pricer whose first chain call fails with a reset connection, and which counts its calls. */
  function failingOnce() {
    const seen = { calls: 0 };
    const p = pricer(async (_to, _data, block) => {
      seen.calls++;
      if (seen.calls === 1) throw new Error("connection reset");
      return slot0At(block as number);
    });
    return { p, seen };
  }

  it("fails priceManyExact when a slot0 read fails, and reads it again on the next call", async () => {
    const { p, seen } = failingOnce();
    const requests = [{ asset: assets[0] as string, point: { ts: 120_000, block: 10 } }];
    await expect(p.priceManyExact(requests)).rejects.toThrow("connection reset");
    const [value] = await p.priceManyExact(requests);
    expect(value?.toString()).toBe((await p.priceAt(assets[0] as string, requests[0]?.point as { ts: number; block: number }))?.toFixed());
    expect(seen.calls).toBe(2);
  });

  it("gives a position out of range the same value at every price on that side, and a new one inside its range", async () => {
    const p = pricer(async (_to, _data, block) => slot0At(block as number));
    const at = (asset: string, block: number) => p.priceAt(asset, { ts: block * 12_000, block });
    const [inside, above, below] = assets as [string, string, string];
    // Ticks 0, 59, -300 and 300 are all below [600, 1200) and all above [-1200, -600).
    const aboveValues = await Promise.all([10, 11, 12, 13].map((b) => at(above, b)));
    expect(new Set(aboveValues.map((v) => v?.toFixed())).size).toBe(1);
    expect(close(aboveValues[0], expected(600, 1_200, 0))).toBe(true);
    const belowValues = await Promise.all([10, 11, 12, 13].map((b) => at(below, b)));
    expect(new Set(belowValues.map((v) => v?.toFixed())).size).toBe(1);
    expect(close(belowValues[0], expected(-1_200, -600, 0))).toBe(true);
    const insideValues = await Promise.all([10, 11, 12, 13].map((b) => at(inside, b)));
    expect(new Set(insideValues.map((v) => v?.toFixed())).size).toBe(4);
  });

  it("reads slot0 again after a failed read instead of keeping the failure", async () => {
    const { p, seen } = failingOnce();
    const point = { ts: 120_000, block: 10 };
    await expect(p.priceAt(assets[0] as string, point)).rejects.toThrow("connection reset");
    const value = await p.priceAt(assets[0] as string, point);
    expect(close(value, expected(-600, 600, 0))).toBe(true);
    expect(seen.calls).toBe(2);
  });

  it("reads slot0's first word as a uint160, as ABI decoding does, and leaves the positions of an uninitialised pool unpriced", async () => {
    const dirty = (block: number) => `0x${"f".repeat(24)}${slot0At(block).slice(26)}`;
    expect(AbiCoder.defaultAbiCoder().decode(["uint160"], dirty(10).slice(0, 66))[0]).toBe(sqrtRatioAtTick(0));
    const value = await pricer(async (_to, _data, block) => dirty(block as number)).priceAt(assets[0] as string, { ts: 120_000, block: 10 });
    expect(close(value, expected(-600, 600, 0))).toBe(true);
    const zero = `0x${"0".repeat(128)}`;
    expect(await pricer(async () => zero).priceAt(assets[0] as string, { ts: 120_000, block: 10 })).toBeUndefined();
  });

  it("leaves the positions of an uninitialised pool unpriced in priceManyExact too", async () => {
    const zero = `0x${"0".repeat(128)}`;
    const requests = assets.map((asset) => ({ asset, point: { ts: 120_000, block: 10 } }));
    expect(await pricer(async () => zero).priceManyExact(requests)).toEqual([undefined, undefined, undefined]);
  });
});
