// Time-weighted balance windows: where they are cut, exact balances, flush boundaries and tiling of held time.
import DecimalJs from "decimal.js";
import fc from "fast-check";
import { applyEvent } from "./batch";
import { NULL_ADDRESS } from "./events";
import { boundariesBetween, type ClosedWindow, WindowBook } from "./windows";

const H = 3_600_000;
const U = "0x00000000000000000000000000000000000000aa";
const A = "0x00000000000000000000000000000000000000bb";
const at = (ts: number, block = ts / 1000) => ({ ts, block });
const span = (w: ClosedWindow) => [w.balance, w.start.ts, w.end.ts, w.trigger];

describe("time-weighted balance windows", () => {
  it("a balance change closes the open window and opens one with the new balance", () => {
    const book = new WindowBook();
    expect(book.applyDelta(U, A, "hold", "10", at(1_000))).toEqual([]);
    expect(book.applyDelta(U, A, "hold", "5", at(2_000)).map(span)).toEqual([["10", 1_000, 2_000, "balanceDelta"]]);
    expect(book.applyDelta(U, A, "hold", "-15", at(5_000)).map(span)).toEqual([["15", 2_000, 5_000, "balanceDelta"]]);
    // Nothing held: no window stays open.
    expect(book.openCount).toBe(0);
  });

  it("each flush boundary closes the open window and reopens it with the same balance", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "2.5", at(H - 600_000));
    const windows = [H, 2 * H, 3 * H].flatMap((b) => book.flush(at(b)));
    expect(windows.map(span)).toEqual([
      ["2.5", H - 600_000, H, "flush"],
      ["2.5", H, 2 * H, "flush"],
      ["2.5", 2 * H, 3 * H, "flush"],
    ]);
  });

  it("never merges windows with different balances and skips zero-length windows", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "1", at(1_000, 1));
    // Two changes in one block: the first closes [1000, 2000]; the second would close a zero-length window.
    expect(book.applyDelta(U, A, "hold", "1", at(2_000, 2)).map(span)).toEqual([["1", 1_000, 2_000, "balanceDelta"]]);
    expect(book.applyDelta(U, A, "hold", "1", at(2_000, 2))).toEqual([]);
    expect(book.flush(at(H)).map(span)).toEqual([["3", 2_000, H, "flush"]]);
  });

  it("ignores balance deltas of the null address and zero amounts", () => {
    const book = new WindowBook();
    const ctx = { ts: 1_000, height: 1, txHash: "0xabc", logIndex: 0 };
    applyEvent(book, new Map(), { type: "balanceDelta", user: NULL_ADDRESS, asset: A, amount: "-100", activity: "hold" }, ctx);
    expect(book.get(NULL_ADDRESS, A, "hold")).toBeUndefined();
    expect(book.applyDelta(U, A, "hold", "0", at(1_000))).toEqual([]);
    expect(book.get(U, A, "hold")).toBeUndefined();
  });

  it("position updates, status changes and reprices cut windows without changing the balance", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "stake", "4", at(1_000));
    expect(book.positionUpdate(U, A, "stake", at(2_000)).map(span)).toEqual([["4", 1_000, 2_000, "positionUpdate"]]);
    const off = book.setStatus(U, A, "stake", false, at(3_000));
    expect(off.map((w) => [w.active, w.trigger])).toEqual([[true, "statusChange"]]);
    expect(book.reprice(A, at(4_000)).map((w) => [w.active, w.balance, w.trigger])).toEqual([[false, "4", "reprice"]]);
    expect(book.setStatus(U, A, "stake", false, at(5_000))).toEqual([]);
  });

  it("keeps balances exact: tenths add up, and digits beyond decimal.js's 60 are never rounded away", () => {
    const book = new WindowBook();
    for (let i = 0; i < 10; i++) book.applyDelta(U, A, "hold", "0.1", at(1_000 + i * 1_000));
    expect(book.get(U, A, "hold")?.balance).toBe("1");
    const big = `${"9".repeat(61)}.123456789012345678`;
    const tiny = "0.000000000000000001";
    book.applyDelta(U, A, "stake", big, at(1_000));
    const [closed] = book.applyDelta(U, A, "stake", tiny, at(2_000));
    const R = DecimalJs.clone({ precision: 200 });
    expect(closed?.balance).toBe(big);
    expect(book.get(U, A, "stake")?.balance).toBe(new R(big).plus(tiny).toFixed());
  });

  it("appends the windows it closes to a given array, each with its exact balance and position key", () => {
    const book = new WindowBook();
    const out: ClosedWindow[] = [];
    const cause = { txHash: "0x1", logIndex: 3 };
    book.applyDelta(U, A, "hold", "1.25", at(1_000), cause, out);
    expect(book.applyDelta(U, A, "hold", "0.75", at(2_000), cause, out)).toBe(out);
    book.setStatus(U, A, "hold", false, at(3_000), cause, out);
    expect(out.map(span)).toEqual([
      ["1.25", 1_000, 2_000, "balanceDelta"],
      ["2", 2_000, 3_000, "statusChange"],
    ]);
    // 1.25 is 125 hundredths; 1.25 + 0.75 = 2, held at the larger scale as 200 hundredths.
    expect(out.map((w) => [w.exact?.units, w.exact?.scale, w.key, w.cause])).toEqual([
      [125n, 2, `${U}|${A}|hold`, cause],
      [200n, 2, `${U}|${A}|hold`, cause],
    ]);
  });

  it("applyEvent appends to a given windows array and records the given cause", () => {
    const book = new WindowBook();
    const windows: ClosedWindow[] = [];
    const ctx = { ts: 1_000, height: 1, txHash: "0xa", logIndex: 0 };
    const cause = { txHash: "0xb", logIndex: 7 };
    applyEvent(book, new Map(), { type: "balanceDelta", user: U, asset: A, amount: "4", activity: "hold" }, ctx, at(1_000), cause, windows);
    const applied = applyEvent(book, new Map(), { type: "positionUpdate", user: U, asset: A, activity: "hold" }, ctx, at(2_000), cause, windows);
    expect(applied.windows).toBe(windows);
    expect(windows.map((w) => [...span(w), w.cause])).toEqual([["4", 1_000, 2_000, "positionUpdate", cause]]);
  });

  it("adds measure deltas to the asset's metric", () => {
    const metrics = new Map<string, string>();
    const ctx = { ts: 1, height: 1, txHash: "0x1", logIndex: 0 };
    applyEvent(new WindowBook(), metrics, { type: "measureDelta", asset: A, metric: "sharePrice", amount: "1.5" }, ctx);
    const applied = applyEvent(new WindowBook(), metrics, { type: "measureDelta", asset: A, metric: "sharePrice", amount: "-0.25" }, ctx);
    expect(applied.metric).toEqual({ key: `${A}|sharePrice`, value: "1.25" });
  });

  it("restores open windows from persisted positions", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "7", at(1_000));
    const restored = new WindowBook(book.takeDirty());
    expect(restored.flush(at(H)).map(span)).toEqual([["7", 1_000, H, "flush"]]);
  });

  it("reprice(asset) closes and reopens only that asset's windows; other assets' windows stay open", () => {
    const B = "0x00000000000000000000000000000000000000cc";
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "3", at(1_000));
    book.applyDelta(U, B, "hold", "5", at(1_000));
    expect(book.reprice(A, at(2_000)).map((w) => [w.asset, ...span(w)])).toEqual([[A, "3", 1_000, 2_000, "reprice"]]);
    expect(book.get(U, A, "hold")?.openSince).toEqual(at(2_000));
    // B's window still runs from its first block: one window [1000, H] at the flush, not two.
    expect(book.get(U, B, "hold")?.openSince).toEqual(at(1_000));
    expect(book.flush(at(H)).map((w) => [w.asset, ...span(w)])).toEqual([
      [A, "3", 2_000, H, "flush"],
      [B, "5", 1_000, H, "flush"],
    ]);
    expect(book.reprice("0x00000000000000000000000000000000000000dd", at(H + 1_000))).toEqual([]);
  });

  it("flush and reprice emit windows in key order (user, asset, activity), whatever order the positions opened in", () => {
    const users = ["0x03", "0x01", "0x02"];
    const book = new WindowBook();
    for (const user of users) book.applyDelta(user, A, "stake", "1", at(1_000));
    book.applyDelta("0x01", A, "hold", "1", at(1_000));
    // "0x01|A|hold" < "0x01|A|stake" < "0x02|A|stake" < "0x03|A|stake" as strings.
    const order = [
      ["0x01", "hold"],
      ["0x01", "stake"],
      ["0x02", "stake"],
      ["0x03", "stake"],
    ];
    expect(book.flush(at(H)).map((w) => [w.user, w.activity])).toEqual(order);
    expect(book.reprice(A, at(H + 1_000)).map((w) => [w.user, w.activity])).toEqual(order);
  });

  it("carries the closing event on balance, position, status and reprice windows, and none on flushes", () => {
    const cause = { txHash: "0xfeed", logIndex: 3 };
    const book = new WindowBook();
    book.applyDelta(U, A, "stake", "1", at(1_000));
    expect(book.applyDelta(U, A, "stake", "1", at(2_000), cause)[0]?.cause).toEqual(cause);
    expect(book.positionUpdate(U, A, "stake", at(3_000), cause)[0]?.cause).toEqual(cause);
    expect(book.setStatus(U, A, "stake", false, at(4_000), cause)[0]?.cause).toEqual(cause);
    expect(book.reprice(A, at(5_000), cause)[0]?.cause).toEqual(cause);
    const [flushed] = book.flush(at(H));
    expect(flushed).toBeDefined();
    expect(flushed?.cause).toBeUndefined();
  });

  it("a balance that falls to zero closes its window and leaves none open; a later deposit opens a new one", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "2", at(1_000));
    book.applyDelta(U, A, "hold", "-2", at(2_000));
    expect(book.get(U, A, "hold")).toEqual({ user: U, asset: A, activity: "hold", balance: "0", active: true });
    expect(book.flush(at(H))).toEqual([]);
    book.applyDelta(U, A, "hold", "4", at(H + 1_000));
    expect(book.flush(at(2 * H)).map(span)).toEqual([["4", H + 1_000, 2 * H, "flush"]]);
  });

  it("a zero delta on an open position changes nothing: no window, no new start", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "2", at(1_000));
    book.takeDirty();
    expect(book.applyDelta(U, A, "hold", "0.000", at(2_000))).toEqual([]);
    expect(book.get(U, A, "hold")?.openSince).toEqual(at(1_000));
    expect(book.takeDirty()).toEqual([]);
  });

  it("restores closed and zero positions without opening windows for them", () => {
    const V = "0x00000000000000000000000000000000000000ee";
    const book = new WindowBook([
      { user: U, asset: A, activity: "hold", balance: "0", active: true },
      { user: V, asset: A, activity: "hold", balance: "6", active: false, openSince: at(1_000) },
    ]);
    expect(book.openCount).toBe(1);
    expect(book.get(U, A, "hold")).toEqual({ user: U, asset: A, activity: "hold", balance: "0", active: true });
    // Only V's restored window closes at the flush, with its restored balance and status.
    expect(book.flush(at(H)).map((w) => [w.user, w.active, ...span(w)])).toEqual([[V, false, "6", 1_000, H, "flush"]]);
    // The restored balance is where deltas continue from.
    expect(book.applyDelta(V, A, "hold", "-1", at(H + 1_000)).map(span)).toEqual([["6", H, H + 1_000, "balanceDelta"]]);
    expect(book.get(V, A, "hold")?.balance).toBe("5");
    book.applyDelta(U, A, "hold", "2", at(H + 1_000));
    expect(book.openCount).toBe(2);
  });

  it("a status change or position update of an unknown position records it with balance 0 and no window", () => {
    const book = new WindowBook();
    expect(book.setStatus(U, A, "stake", false, at(1_000))).toEqual([]);
    expect(book.get(U, A, "stake")).toEqual({ user: U, asset: A, activity: "stake", balance: "0", active: false });
    expect(book.positionUpdate(U, A, "lend", at(1_000))).toEqual([]);
    expect(book.takeDirty()).toEqual([
      { user: U, asset: A, activity: "stake", balance: "0", active: false },
      { user: U, asset: A, activity: "lend", balance: "0", active: true },
    ]);
    expect(book.openCount).toBe(0);
  });

  it("takeDirty returns each changed position once, as a copy, and then nothing until the next change", () => {
    const book = new WindowBook();
    book.applyDelta(U, A, "hold", "1", at(1_000));
    book.applyDelta(U, A, "hold", "1", at(2_000));
    book.applyDelta(U, A, "stake", "3", at(2_000));
    const dirty = book.takeDirty();
    expect(dirty).toEqual([
      { user: U, asset: A, activity: "hold", balance: "2", active: true, openSince: at(2_000) },
      { user: U, asset: A, activity: "stake", balance: "3", active: true, openSince: at(2_000) },
    ]);
    expect(book.takeDirty()).toEqual([]);
    (dirty[0] as { balance: string }).balance = "999";
    expect(book.get(U, A, "hold")?.balance).toBe("2");
    book.flush(at(H));
    expect(book.takeDirty().map((p) => [p.activity, p.openSince])).toEqual([
      ["hold", at(H)],
      ["stake", at(H)],
    ]);
  });

  it("lists flush boundaries as multiples of flushMs after the last one passed", () => {
    expect(boundariesBetween(0, 3 * H, H)).toEqual([H, 2 * H, 3 * H]);
    expect(boundariesBetween(H, H + 1, H)).toEqual([]);
    expect(boundariesBetween(H - 1, H, H)).toEqual([H]);
    expect(boundariesBetween(H + 1, 3 * H + 5, H)).toEqual([2 * H, 3 * H]);
    expect(boundariesBetween(5, 4, H)).toEqual([]);
  });

  it("for any sequence of changes, windows tile the held time and sum balance x time exactly (property)", () => {
    const change = fc.record({ gap: fc.integer({ min: 0, max: 3 * H }), amount: fc.integer({ min: -50, max: 100 }) });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 30 }), (changes) => {
        const book = new WindowBook();
        const windows: ClosedWindow[] = [];
        let ts = 10_000;
        let balance = 0;
        let integral = 0; // balance x ms over the period, computed independently
        let lastTs = ts;
        for (const { gap, amount } of changes) {
          const next = ts + gap;
          for (const b of boundariesBetween(lastTs, next, H)) {
            windows.push(...book.flush(at(b)));
          }
          integral += Math.max(0, balance) * (next - ts);
          ts = next;
          lastTs = next;
          // Only deltas that keep the balance non-negative, as on a real token.
          const delta = balance + amount < 0 ? -balance : amount;
          balance += delta;
          windows.push(...book.applyDelta(U, A, "hold", String(delta), at(ts)));
        }
        const sum = windows.reduce((acc, w) => acc.plus(new DecimalJs(w.balance).times(w.end.ts - w.start.ts)), new DecimalJs(0));
        const open = book.get(U, A, "hold")?.openSince;
        const stillOpen = open === undefined ? 0 : balance * (ts - open.ts);
        expect(sum.plus(stillOpen).toNumber()).toBe(integral);
        for (const w of windows) {
          expect(w.end.ts).toBeGreaterThan(w.start.ts);
          expect(Math.floor(w.start.ts / H)).toBe(Math.floor((w.end.ts - 1) / H));
          expect(new DecimalJs(w.balance).gt(0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
