// Enriching indexer rows: which leg of an action is kept, dropped invalid items, and exact TWAP-priced windows.
import { createHash } from "node:crypto";
import { parseFixed, plainDecimal } from "@pointwise/fixed";
import DecimalJs from "decimal.js";
import fc from "fast-check";
import { Enricher, twapOf } from "./enrich";
import type { ActionEvent, EventContext } from "./events";
import { Pricer } from "./pricing/pricer";
import type { StateStore } from "./state/store";
import { capturingLogger, testStore } from "./testing/fixtures";
import { type ClosedWindow, WindowBook } from "./windows";

const PRICED = "0x00000000000000000000000000000000000000a1";
const UNPRICED = "0x00000000000000000000000000000000000000a2";
const USER = "0x00000000000000000000000000000000000000b1";
let store: StateStore;

beforeAll(async () => {
  store = await testStore("enrich");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

function enricher(options: { dedupeCapacity?: number; pricingFromBlock?: number } = {}) {
  const { logger, lines } = capturingLogger();
  const pricer = new Pricer({
    rules: [{ match: { key: PRICED }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2.5 } } }],
    pricingRange: options.pricingFromBlock === undefined ? undefined : { type: "block", fromBlock: options.pricingFromBlock },
    chain: { call: () => Promise.reject(new Error("no chain in this test")) },
    labels: store.labels,
    facts: store.kv,
    market: undefined,
    logger,
  });
  const e = new Enricher({
    runner: { indexerId: "idx", chainId: 1, adapterId: "amm-v2", adapterVersion: "0.0.1" },
    pricer,
    logger,
    ...(options.dedupeCapacity === undefined ? {} : { dedupeCapacity: options.dedupeCapacity }),
  });
  return { e, lines };
}

const ctx = (height = 10): EventContext => ({ ts: 1_700_000_000_000, height, txHash: "0xabc", logIndex: 1 });
const leg = (key: string, asset: string, amount = "4"): ActionEvent => ({
  type: "action",
  key,
  activity: "swap",
  user: USER,
  priceable: true,
  amount: { asset, amount },
});
const item = (a: ActionEvent, height = 10) => ({ kind: "action" as const, action: a, ctx: ctx(height) });
/** A closed window of 3 units of the priced asset from block 1 at time 0, closed by a flush; `overrides` change it. */
const windowOf = (overrides: Partial<ClosedWindow>): ClosedWindow => ({
  user: USER,
  asset: PRICED,
  activity: "hold",
  balance: "3",
  active: true,
  start: { ts: 0, block: 1 },
  end: { ts: 5_400_000, block: 9 },
  trigger: "flush",
  ...overrides,
});

describe("enrichment", () => {
  it("keeps the first leg of an action that prices, dropping the other legs", async () => {
    const { e } = enricher();
    const rows = await e.rows([item(leg("k1", UNPRICED)), item(leg("k1", PRICED)), item(leg("k2", PRICED, "1")), item(leg("k2", PRICED, "2"))]);
    expect(rows.map((r) => [r.id, r.asset, r.amount, r.priceUsd, r.valueUsd])).toEqual([
      ["k1", PRICED, "4", "2.5", "10"],
      ["k2", PRICED, "1", "2.5", "2.5"],
    ]);
  });

  it("keeps the first leg when no leg prices (before pricingRange), so the action is still exported", async () => {
    const { e } = enricher({ pricingFromBlock: 100 });
    const rows = await e.rows([item(leg("k3", UNPRICED)), item(leg("k3", PRICED))]);
    expect(rows.map((r) => [r.asset, r.priceUsd])).toEqual([[UNPRICED, null]]);
  });

  it("drops a later leg of an id already written in an earlier batch", async () => {
    const { e } = enricher();
    await e.rows([item(leg("k4", PRICED))]);
    expect(await e.rows([item(leg("k4", PRICED))])).toEqual([]);
  });

  it("remembers a bounded number of ids", async () => {
    const { e } = enricher({ dedupeCapacity: 2 });
    await e.rows([item(leg("a", PRICED)), item(leg("b", PRICED)), item(leg("c", PRICED))]);
    // "a" was evicted by "b" and "c": memory stays at two ids, so "a" passes again, "c" does not.
    expect((await e.rows([item(leg("a", PRICED)), item(leg("c", PRICED))])).map((r) => r.id)).toEqual(["a"]);
  });

  it("drops invalid items with a logged reason", () => {
    const { e, lines } = enricher();
    expect(e.accept({ type: "action", key: "k", activity: "swap", user: USER, priceable: true }, ctx())).toBe(false);
    expect(e.dropped).toBe(1);
    expect(lines.find((l) => l.msg === "dropped invalid item")?.reason).toBe("action.amount a priceable action must carry amount.asset and amount.amount");
  });

  it("drops an action of a kind other than swap, mint, bridge, claim or custom with validation-failed", () => {
    const { e, lines } = enricher();
    const stake = { type: "action", key: "k", activity: "stake", user: USER, priceable: false };
    expect(e.accept(stake, ctx())).toBe(false);
    expect(e.accept({ ...stake, activity: "custom" }, ctx())).toBe(true);
    expect(e.dropped).toBe(1);
    const dropped = lines.filter((l) => l.msg === "dropped invalid item");
    expect(dropped.map((l) => [l.code, l.reason])).toEqual([["validation-failed", "action.activity must be one of swap, mint, bridge, claim, custom"]]);
  });

  it("exports a non-priceable action without a price or USD value, even when a feed would price its asset", async () => {
    const { e } = enricher();
    const claim: ActionEvent = { type: "action", key: "c1", activity: "claim", user: USER, priceable: false };
    const mint: ActionEvent = { type: "action", key: "m1", activity: "mint", user: USER, priceable: false, amount: { asset: PRICED, amount: "4" } };
    const rows = await e.rows([item(claim), item(mint), item(leg("s1", PRICED))]);
    expect(rows.map((r) => [r.id, r.activity, r.priceable, r.asset, r.amount, r.priceUsd, r.valueUsd])).toEqual([
      ["c1", "claim", false, null, null, null, null],
      ["m1", "mint", false, PRICED, "4", null, null],
      // The priceable control: the same asset and amount do price, so the nulls above are the rule, not a missing feed.
      ["s1", "swap", true, PRICED, "4", "2.5", "10"],
    ]);
  });

  it("prices a window by the TWAP of its boundaries and weights it by duration", async () => {
    const { e } = enricher();
    const [r] = await e.rows([{ kind: "window", window: windowOf({}) }]);
    expect([r?.priceUsd, r?.valueUsd, r?.usdHours, r?.durationMs, r?.startBlock, r?.endBlock]).toEqual(["2.5", "7.5", "11.25", 5_400_000, 1, 9]);
  });

  it("gives a window the book closed (with its exact balance and key) the same row as one built by hand", async () => {
    const book = new WindowBook();
    book.applyDelta(USER, PRICED, "hold", "3", { ts: 0, block: 1 });
    const [closed] = book.flush({ ts: 5_400_000, block: 9 });
    if (closed === undefined) throw new Error("the flush closed no window");
    const { exact: _exact, key: _key, ...byHand } = closed;
    const [fromBook] = await enricher().e.rows([{ kind: "window", window: closed }]);
    const [fromHand] = await enricher().e.rows([{ kind: "window", window: byHand }]);
    expect(fromBook).toEqual(fromHand);
    // The id: the first 32 hex digits of SHA-256 over indexer id, user, asset, activity and start, joined by "|".
    expect(fromBook?.id).toBe(createHash("sha256").update(`idx|${USER}|${PRICED}|hold|0`).digest("hex").slice(0, 32));
    expect([fromBook?.amount, fromBook?.valueUsd, fromBook?.usdHours]).toEqual(["3", "7.5", "11.25"]);
  });

  it("values a window exactly and rounds USD x hours once, at 18 places (property)", async () => {
    const { e } = enricher();
    const R = DecimalJs.clone({ precision: 200, rounding: DecimalJs.ROUND_HALF_EVEN });
    const out = (d: DecimalJs) => d.toDecimalPlaces(18).toFixed();
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 1, max: 90_000_000 }),
        async (units, scale, ms) => {
          const balance = plainDecimal(units, scale);
          const w: ClosedWindow = {
            user: USER,
            asset: PRICED,
            activity: "hold",
            balance,
            active: true,
            start: { ts: 0, block: 1 },
            end: { ts: ms, block: 2 },
            trigger: "flush",
          };
          const [r] = await e.rows([{ kind: "window", window: w }]);
          const value = new R(balance).times("2.5");
          expect([r?.amount, r?.valueUsd, r?.usdHours]).toEqual([balance, out(value), out(value.times(ms).div(3_600_000))]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("takes the TWAP of two different boundary prices exactly", () => {
    const R = DecimalJs.clone({ precision: 200 });
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,12}\.\d{1,30}$/), fc.stringMatching(/^\d{1,12}(\.\d{1,8})?$/), (a, b) => {
        const twap = twapOf(parseFixed(a), parseFixed(b));
        expect(twap && plainDecimal(twap.units, twap.scale)).toBe(new R(a).plus(b).div(2).toFixed());
      }),
    );
    expect(twapOf(parseFixed("2"), undefined)).toBeUndefined();
  });

  it("names the event that closed a window (its transaction and log index, 0 included) and none for a flush", async () => {
    const { e } = enricher();
    const w = windowOf({ end: { ts: 3_600_000, block: 9 }, trigger: "balanceDelta" });
    const rows = await e.rows([
      { kind: "window", window: { ...w, cause: { txHash: "0xdef", logIndex: 0 } } },
      { kind: "window", window: { ...w, cause: { txHash: "0x123", logIndex: 7 } } },
      { kind: "window", window: { ...w, trigger: "flush" } },
    ]);
    expect(rows.map((r) => [r.txHash, r.logIndex, r.trigger])).toEqual([
      ["0xdef", 0, "balanceDelta"],
      ["0x123", 7, "balanceDelta"],
      [null, null, "flush"],
    ]);
  });

  it("writes an action's meta as JSON text, and null without meta", async () => {
    const { e } = enricher();
    const withMeta: ActionEvent = { ...leg("meta1", PRICED), meta: { pool: "0xpool", fee: "3000" } };
    const rows = await e.rows([item(withMeta), item(leg("meta2", PRICED))]);
    expect(rows.map((r) => r.meta)).toEqual(['{"pool":"0xpool","fee":"3000"}', null]);
  });

  it("never prices a non-priceable leg or action, even when another of the same transaction prices its asset", async () => {
    const { e } = enricher();
    const shared = ctx();
    const mint: ActionEvent = { type: "action", key: "n1", activity: "mint", user: USER, priceable: false, amount: { asset: PRICED, amount: "4" } };
    // Two legs of one action: the non-priceable first leg does not price, so the priceable second one is kept.
    const rows = await e.rows([
      { kind: "action", action: mint, ctx: shared },
      { kind: "action", action: { ...leg("n1", PRICED) }, ctx: shared },
      { kind: "action", action: { ...mint, key: "n2" }, ctx: shared },
    ]);
    expect(rows.map((r) => [r.id, r.priceable, r.priceUsd, r.valueUsd])).toEqual([
      ["n1", true, "2.5", "10"],
      ["n2", false, null, null],
    ]);
  });

  it("leaves a window that starts before the pricing range unpriced while an action of the batch prices", async () => {
    const { e } = enricher({ pricingFromBlock: 100 });
    const w = windowOf({ asset: UNPRICED, end: { ts: 3_600_000, block: 150 } });
    const rows = await e.rows([{ kind: "window", window: w }, item(leg("late", PRICED), 150)]);
    expect(rows.map((r) => [r.rowType, r.priceUsd, r.valueUsd, r.usdHours])).toEqual([
      ["window", null, null, null],
      ["action", "2.5", "10", null],
    ]);
  });

  it("has no TWAP when either boundary price is missing", () => {
    expect(twapOf(undefined, parseFixed("2"))).toBeUndefined();
    expect(twapOf(undefined, undefined)).toBeUndefined();
    expect(twapOf(parseFixed("2.50"), parseFixed("2.5"))).toEqual(parseFixed("2.50"));
  });
});
