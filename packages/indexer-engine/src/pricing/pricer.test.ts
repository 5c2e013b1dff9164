// Pricing many points at once gives what point-by-point lookups give, resolving each asset's feed once.
import type { LabelStore } from "../adapter";
import type { StateStore } from "../state/store";
import { capturingLogger, testStore } from "../testing/fixtures";
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
    expect(many).toEqual([undefined, "1", "1", "1", undefined, "44.5", "44.5", "44.5", undefined, undefined, undefined, undefined]);
    expect(lines.filter((l) => l.msg === "no asset feed rule matches; rows of this asset stay unpriced")).toHaveLength(1);
  });
});
