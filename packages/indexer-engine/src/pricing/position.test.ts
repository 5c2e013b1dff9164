// The ammv3position feed's labels: a position asset without usable amm-v3 labels fails with position-labels-missing.
import type { StateStore } from "../state/store";
import { capturingLogger, testStore } from "../testing/fixtures";
import { POSITION_LABELS, positionFacts } from "./position";
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
