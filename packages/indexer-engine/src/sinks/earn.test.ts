// Earn events from real rows (WindowBook windows and enriched actions): event time and per-row idempotency keys.
import { createHash } from "node:crypto";
import fc from "fast-check";
import type { EarnMapping } from "../config/schema";
import { type BatchItem, Enricher } from "../enrich";
import { Pricer } from "../pricing/pricer";
import type { OutputRow } from "../rows";
import type { StateStore } from "../state/store";
import { capturingLogger, row, testStore } from "../testing/fixtures";
import { WindowBook } from "../windows";
import { earnAmount, formatOccurredAt, occurredAtMs, rowIdempotencyKey, toEarnEvent } from "./earn";

const SWAP = "11111111-1111-4111-8111-111111111111";
const HOLD = "22222222-2222-4222-8222-222222222222";
const HOLD_COUNT_TYPE = "33333333-3333-4333-8333-333333333333";
const EVENTS: Record<string, EarnMapping> = {
  swap: { regEventId: SWAP, amount: "count", rowType: "action" },
  hold: { regEventId: HOLD, amount: "amountHours", rowType: "window" },
};
const ASSET_A = "0x00000000000000000000000000000000000000a1";
const ASSET_B = "0x00000000000000000000000000000000000000a2";
const U1 = "0x00000000000000000000000000000000000000b1";
const U2 = "0x00000000000000000000000000000000000000b2";
const HOUR = 3_600_000;
// 2023-11-14T22:13:20Z, a whole second as block times are.
const T0 = 1_700_000_000_000;

let store: StateStore;
beforeAll(async () => {
  store = await testStore("earn");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

function enricher(indexerId = "idx"): Enricher {
  const { logger } = capturingLogger();
  const pricer = new Pricer({
    rules: [],
    pricingRange: undefined,
    chain: { call: () => Promise.reject(new Error("no chain in this test")) },
    labels: store.labels,
    facts: store.kv,
    market: undefined,
    logger,
  });
  return new Enricher({ runner: { indexerId, chainId: 1, adapterId: "amm-v2", adapterVersion: "0.0.1" }, pricer, logger });
}

/** A step of a position history: a balance change of a user in an asset at a time, or an hourly flush. */
type Step = { kind: "delta"; user: string; asset: string; amount: string; ts: number } | { kind: "flush"; ts: number };

/** Runs steps through a fresh WindowBook and Enricher, as the engine does, and returns the rows. */
async function rowsOf(steps: readonly Step[], indexerId = "idx", actions: BatchItem[] = []): Promise<OutputRow[]> {
  const book = new WindowBook();
  const items: BatchItem[] = [];
  let block = 100;
  for (const step of steps) {
    block++;
    const at = { ts: step.ts, block };
    const windows = step.kind === "flush" ? book.flush(at) : book.applyDelta(step.user, step.asset, "hold", step.amount, at, { txHash: "0xabc", logIndex: 0 });
    for (const window of windows) items.push({ kind: "window", window });
  }
  return enricher(indexerId).rows([...items, ...actions]);
}

const swapItem = (key: string, ts: number, user = U1): BatchItem => ({
  kind: "action",
  action: { type: "action", key, activity: "swap", user, priceable: false },
  ctx: { ts, height: 7, txHash: "0xdef", logIndex: 3 },
});

describe("earn events carry event time", () => {
  it("sends an action at its block time and a window at its end, as RFC 3339 UTC with milliseconds", async () => {
    const steps: Step[] = [
      { kind: "delta", user: U1, asset: ASSET_A, amount: "2", ts: T0 },
      { kind: "flush", ts: T0 + HOUR },
      { kind: "delta", user: U1, asset: ASSET_A, amount: "-2", ts: T0 + HOUR + 90_000 },
    ];
    const rows = await rowsOf(steps, "idx", [swapItem("swap-1", T0 + 5_000)]);
    const events = rows.map((r) => toEarnEvent(r, EVENTS));
    expect(events.map((e) => [e?.reg_event_id, e?.amount, e?.occurred_at])).toEqual([
      [HOLD, "2", "2023-11-14T23:13:20.000Z"],
      [HOLD, "0.05", "2023-11-14T23:14:50.000Z"],
      [SWAP, "1", "2023-11-14T22:13:25.000Z"],
    ]);
  });

  it("formats milliseconds and the epoch exactly", () => {
    expect(formatOccurredAt(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(formatOccurredAt(1_764_000_000_123)).toBe("2025-11-24T16:00:00.123Z");
  });
});

describe("earn events carry a per-row idempotency key", () => {
  it("is 64 lowercase hex characters (within the 1-255 printable ASCII the API takes)", async () => {
    const [event] = (await rowsOf([], "idx", [swapItem("k", T0)])).map((r) => toEarnEvent(r, EVENTS));
    expect(event?.idempotency_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs by indexer id, by row and by event type, and ignores the amount mapping and the reg_event_id's case", async () => {
    const [a] = await rowsOf([], "idx-a", [swapItem("k", T0)]);
    const [b] = await rowsOf([], "idx-b", [swapItem("k", T0)]);
    const [c] = await rowsOf([], "idx-a", [swapItem("k2", T0)]);
    const key = (row: OutputRow | undefined, events: Record<string, EarnMapping> = EVENTS) =>
      row === undefined ? undefined : toEarnEvent(row, events)?.idempotency_key;
    expect(new Set([key(a), key(b), key(c)]).size).toBe(3);
    const otherType = { swap: { regEventId: HOLD_COUNT_TYPE, amount: "count", rowType: "action" } } as const;
    expect(key(a, otherType)).not.toBe(key(a));
    const upper = { swap: { regEventId: SWAP.toUpperCase(), amount: "count", rowType: "action" } } as const;
    expect(key(a, upper)).toBe(key(a));
    // A window row and an action row never share a key, even with the same id.
    const asWindow = a === undefined ? undefined : { ...a, rowType: "window" as const, endTs: T0 };
    expect(key(asWindow, { swap: { regEventId: SWAP, amount: "amountHours", rowType: "window" } })).not.toBe(key(a));
  });

  const step = fc.oneof(
    fc.record({
      kind: fc.constant("delta" as const),
      user: fc.constantFrom(U1, U2),
      asset: fc.constantFrom(ASSET_A, ASSET_B),
      amount: fc.constantFrom("1", "2.5", "-1", "-2.5", "0"),
      gap: fc.constantFrom(0, 1_000, 1_800_000),
    }),
    fc.record({ kind: fc.constant("flush" as const), gap: fc.constantFrom(0, HOUR) }),
  );
  /** Steps with non-decreasing times (a gap of 0 puts two steps in one second, as two logs of one block). */
  const timed = (raw: readonly ({ gap: number } & ({ kind: "flush" } | { kind: "delta"; user: string; asset: string; amount: string }))[]): Step[] => {
    let ts = T0;
    return raw.map((s) => {
      ts += s.gap;
      return s.kind === "flush" ? { kind: "flush", ts } : { kind: "delta", user: s.user, asset: s.asset, amount: s.amount, ts };
    });
  };

  it("is unique per row, windows included, and the same on a re-run of the same history (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (raw) => {
        const steps = timed(raw);
        const actions = steps.map((s, i) => swapItem(`swap-${i}`, s.ts, i % 2 === 0 ? U1 : U2));
        const first = (await rowsOf(steps, "idx", actions)).map((r) => toEarnEvent(r, EVENTS)).filter((e) => e !== undefined);
        const again = (await rowsOf(steps, "idx", actions)).map((r) => toEarnEvent(r, EVENTS)).filter((e) => e !== undefined);
        const keys = first.map((e) => e.idempotency_key);
        expect(new Set(keys).size).toBe(keys.length);
        expect(again).toEqual(first);
      }),
      { numRuns: 150 },
    );
  });

  it("gives a history split across two runs (a restart at a step) the keys of one run", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 30 }), fc.nat(), async (raw, at) => {
        const steps = timed(raw);
        const cut = 1 + (at % (steps.length - 1));
        const whole = (await rowsOf(steps)).map((r) => toEarnEvent(r, EVENTS)?.idempotency_key);
        // The second run starts from the positions the first left, as a restart restores them from the state store.
        const first = new WindowBook();
        const run = (book: WindowBook, part: readonly Step[], offset: number) => {
          const items: BatchItem[] = [];
          part.forEach((s, i) => {
            const at = { ts: s.ts, block: 101 + offset + i };
            const windows = s.kind === "flush" ? book.flush(at) : book.applyDelta(s.user, s.asset, "hold", s.amount, at, { txHash: "0xabc", logIndex: 0 });
            for (const window of windows) items.push({ kind: "window", window });
          });
          return items;
        };
        const before = run(first, steps.slice(0, cut), 0);
        const restored = new WindowBook(JSON.parse(JSON.stringify(first.takeDirty())));
        const after = run(restored, steps.slice(cut), cut);
        const split = [...(await enricher().rows(before)), ...(await enricher().rows(after))].map((r) => toEarnEvent(r, EVENTS)?.idempotency_key);
        expect(split).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });
});

describe("earn amounts", () => {
  const mapping = (amount: EarnMapping["amount"], rowType: EarnMapping["rowType"] = "window"): EarnMapping => ({ regEventId: HOLD, amount, rowType });
  const window = row({ rowType: "window", amount: "4", valueUsd: "8.5", usdHours: "12.75", durationMs: 5_400_000, active: true });

  it("takes each amount from its own column, exactly, at most 18 places rounded half to even", () => {
    expect(earnAmount(window, mapping("usd"))).toBe("8.5");
    expect(earnAmount(window, mapping("usdHours"))).toBe("12.75");
    expect(earnAmount(window, mapping("amount"))).toBe("4");
    // 4 for 1.5 hours.
    expect(earnAmount(window, mapping("amountHours"))).toBe("6");
    expect(earnAmount(window, mapping("count"))).toBe("1");
    // 19 places: ...25 at the 19th rounds to the even ...2, ...35 to ...4.
    expect(earnAmount(row({ valueUsd: "0.0000000000000000025" }), mapping("usd"))).toBe("0.000000000000000002");
    expect(earnAmount(row({ usdHours: "0.0000000000000000035" }), mapping("usdHours"))).toBe("0.000000000000000004");
    expect(earnAmount(row({ amount: "1.0000000000000000015" }), mapping("amount"))).toBe("1.000000000000000002");
  });

  it("has no amount when its column is empty", () => {
    expect(earnAmount(row({ valueUsd: null }), mapping("usd"))).toBeUndefined();
    expect(earnAmount(row({ usdHours: null }), mapping("usdHours"))).toBeUndefined();
    expect(earnAmount(row({ amount: null }), mapping("amount"))).toBeUndefined();
    expect(earnAmount(row({ amount: null, durationMs: 3_600_000 }), mapping("amountHours"))).toBeUndefined();
    expect(earnAmount(row({ amount: "4", durationMs: null }), mapping("amountHours"))).toBeUndefined();
  });

  it("maps a row to an event only for a mapping of its activity and row type, an active or status-less row, and a positive amount", () => {
    const events = { hold: mapping("amount") };
    const held = row({ rowType: "window", activity: "hold", amount: "4", active: true, endTs: 1_700_000_500_000 });
    expect(toEarnEvent(held, events)).toEqual({
      account_id: held.user,
      identity_type: "EVM_ADDRESS",
      amount: "4",
      reg_event_id: HOLD,
      occurred_at: "2023-11-14T22:21:40.000Z",
      // SHA-256 of indexer id, row type, row id and reg_event_id, joined by "|" (the row fixture's idx and id).
      idempotency_key: createHash("sha256").update(`idx|window|id|${HOLD}`).digest("hex"),
    });
    // An action has no status (null): it maps.
    expect(toEarnEvent(row({ rowType: "action", activity: "hold", amount: "4", active: null }), { hold: mapping("amount", "action") })?.amount).toBe("4");
    expect(toEarnEvent({ ...held, active: false }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, rowType: "action" }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, activity: "lend" }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, activity: "toString" }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, amount: "-4" }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, amount: "0" }, events)).toBeUndefined();
    // Below the 18th place: rounds to zero, nothing to send.
    expect(toEarnEvent({ ...held, amount: "0.0000000000000000004" }, events)).toBeUndefined();
    expect(toEarnEvent({ ...held, amount: "0.000000000000000001" }, events)?.amount).toBe("0.000000000000000001");
  });

  it("dates a window at its end and an action, or a window without an end, at its row time", () => {
    expect(occurredAtMs(row({ rowType: "window", ts: 1, endTs: 2 }))).toBe(2);
    expect(occurredAtMs(row({ rowType: "window", ts: 1, endTs: null }))).toBe(1);
    expect(occurredAtMs(row({ rowType: "action", ts: 1, endTs: 2 }))).toBe(1);
  });

  it("keys an event by the reg_event_id in lower case", () => {
    const r = row({ id: "k" });
    expect(rowIdempotencyKey(r, SWAP.toUpperCase().replace(/^1/, "A"))).toBe(rowIdempotencyKey(r, SWAP.replace(/^1/, "a")));
    expect(rowIdempotencyKey(r, "ABC")).toBe(createHash("sha256").update("idx|action|k|abc").digest("hex"));
  });
});
