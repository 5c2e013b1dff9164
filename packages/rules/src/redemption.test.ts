// The redemption decision: each refusal with its code, and properties over every input (never below zero, limits hold).
import fc from "fast-check";
import { rules } from "../test/fixtures";
import { D } from "./decimal";
import { decideRedemption, type RewardTerms, spendDeltas, storedSpend } from "./redemption";

const NOW = new Date("2026-06-01T00:00:00Z");
const open: RewardTerms = { status: "active", price: "10", stock: null, perUserLimit: null, redeemableFrom: null, redeemableUntil: null };

describe("decideRedemption", () => {
  it("spends the price from the balance", () => {
    expect(decideRedemption(open, { balance: "25.5", redeemedByUser: 0, now: NOW })).toEqual({ ok: true, balanceBefore: "25.5", balanceAfter: "15.5" });
  });

  it("allows redeeming from the first moment of its window, up to the last moment before its end", () => {
    const from = { ...open, redeemableFrom: NOW, redeemableUntil: new Date(NOW.getTime() + 1) };
    expect(decideRedemption(from, { balance: "10", redeemedByUser: 0, now: NOW })).toEqual({ ok: true, balanceBefore: "10", balanceAfter: "0" });
  });

  it("allows spending the whole balance", () => {
    expect(decideRedemption(open, { balance: "10", redeemedByUser: 0, now: NOW })).toEqual({ ok: true, balanceBefore: "10", balanceAfter: "0" });
  });

  it.each([
    ["an archived reward", { ...open, status: "archived" as const }, "reward-not-redeemable", "reward is archived"],
    [
      "before its window",
      { ...open, redeemableFrom: new Date("2026-06-02T00:00:00Z") },
      "reward-not-redeemable",
      "reward can be redeemed from 2026-06-02T00:00:00.000Z",
    ],
    ["at the end of its window", { ...open, redeemableUntil: NOW }, "reward-not-redeemable", "reward could be redeemed until 2026-06-01T00:00:00.000Z"],
    ["without stock", { ...open, stock: 0 }, "out-of-stock", "reward is out of stock"],
    ["past the user's limit", { ...open, perUserLimit: 2 }, "reward-limit-reached", "reward may be redeemed at most 2 time(s) per user"],
  ])("refuses %s", (_name, reward, code, message) => {
    expect(decideRedemption(reward, { balance: "100", redeemedByUser: 2, now: NOW })).toEqual({ ok: false, code, message });
  });

  it("refuses a balance below the price with insufficient-balance", () => {
    expect(decideRedemption(open, { balance: "9.999", redeemedByUser: 0, now: NOW })).toEqual({
      ok: false,
      code: "insufficient-balance",
      message: "balance 9.999 is below the price 10",
    });
  });

  const decimal = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
    .map(([u, s]) => new D(u.toString()).div(new D(10).pow(s)).toFixed());
  const terms = fc.record({
    status: fc.constantFrom("active" as const, "archived" as const),
    price: decimal.filter((p) => new D(p).greaterThan(0)),
    stock: fc.option(fc.integer({ min: 0, max: 5 })),
    perUserLimit: fc.option(fc.integer({ min: 1, max: 5 })),
    redeemableFrom: fc.option(fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })),
    redeemableUntil: fc.option(fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })),
  });

  it("accepts exactly when every rule holds, and then balance after = balance - price >= 0", () => {
    fc.assert(
      fc.property(terms, decimal, fc.integer({ min: 0, max: 6 }), (reward, balance, used) => {
        const d = decideRedemption(reward, { balance, redeemedByUser: used, now: NOW });
        const inWindow = (!reward.redeemableFrom || reward.redeemableFrom <= NOW) && (!reward.redeemableUntil || NOW < reward.redeemableUntil);
        const allowed =
          reward.status === "active" &&
          inWindow &&
          (reward.stock === null || reward.stock > 0) &&
          (reward.perUserLimit === null || used < reward.perUserLimit) &&
          new D(balance).gte(reward.price);
        expect(d.ok).toBe(allowed);
        if (d.ok) {
          expect(new D(d.balanceAfter).plus(reward.price).eq(balance)).toBe(true);
          expect(new D(d.balanceAfter).isNegative()).toBe(false);
        }
      }),
    );
  });

  it("spending repeatedly until refused never goes below zero and spends floor(balance / price) times", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100 }), (balance, price) => {
        let left = String(balance);
        let count = 0;
        for (;;) {
          const d = decideRedemption({ ...open, price: String(price) }, { balance: left, redeemedByUser: count, now: NOW });
          if (!d.ok) {
            expect(d.code).toBe("insufficient-balance");
            break;
          }
          left = d.balanceAfter;
          count++;
        }
        expect(count).toBe(Math.floor(balance / price));
        expect(Number(left)).toBe(balance % price);
      }),
    );
  });
});

describe("spendDeltas", () => {
  it("sums spends per user and currency, unscaled without decay", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const out = spendDeltas(null, [
      { userId: "u1", currency: "xp", price: "10", createdAt: at },
      { userId: "u1", currency: "xp", price: "2.5", createdAt: at },
      { userId: "u2", currency: "xp", price: "1", createdAt: at },
    ]);
    expect(out).toEqual([
      { userId: "u1", currency: "xp", spent: "12.5" },
      { userId: "u2", currency: "xp", spent: "1" },
    ]);
  });

  it("stores a spend as the price itself without decay, and scaled by its own time with decay", () => {
    const at = new Date("2026-01-02T00:00:00Z");
    expect(storedSpend(null, "xp", "10", at)).toBe("10");
    // One half-life after the epoch the stored form of 10 points is 10 x 2^1 = 20, as for points earned then.
    const halving = rules({ currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 86_400, epoch: "2026-01-01T00:00:00Z" } } } });
    expect(storedSpend(halving, "xp", "10", at)).toBe("20");
  });
});
