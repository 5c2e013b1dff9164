// Operator adjustments as score-row additions: decay-scaled by their time, summed per user and currency, in exact digits.
import { rules } from "../test/fixtures";
import { adjustmentDeltas, storedAdjustment } from "./adjustments";
import type { DecayConfig } from "./index";

const HOUR = 3600;
const decay: DecayConfig = { halfLifeSeconds: HOUR, epoch: "2026-01-01T00:00:00Z" };
const decaying = rules({ currencies: { xp: { name: "Experience", decay }, gems: { name: "Gems" } } });
/** The instant `halfLives` half-lives (hours) after the epoch. */
const at = (halfLives: number) => new Date(Date.parse(decay.epoch) + halfLives * HOUR * 1000);

// sqrt(2) = 1.41421356237309504880168872..., so half a half-life scales 1 point to it, cut to 18 places.
const SQRT2_18 = "1.414213562373095048";

describe("storedAdjustment", () => {
  it("stores a grant made k half-lives after the epoch as points * 2^k, and one made before it as points / 2^k", () => {
    expect(storedAdjustment(decaying, "xp", "1.5", at(2)).toFixed()).toBe("6"); // 1.5 * 4
    expect(storedAdjustment(decaying, "xp", "3", at(-1)).toFixed()).toBe("1.5"); // 3 / 2
    expect(storedAdjustment(decaying, "xp", "1", at(0.5)).toFixed()).toBe(SQRT2_18);
  });

  it("stores a deduction as the exact negative of the grant it reverses, not rounded further down", () => {
    // Rounding -1.41421356237309504880... down (toward minus infinity) would give ...049.
    expect(storedAdjustment(decaying, "xp", "-1", at(0.5)).toFixed()).toBe(`-${SQRT2_18}`);
    expect(storedAdjustment(decaying, "xp", "-1.5", at(2)).toFixed()).toBe("-6");
  });

  it("stores the points unchanged in a currency without decay, under no rules, and for an unknown currency", () => {
    expect(storedAdjustment(decaying, "gems", "-2.25", at(3)).toFixed()).toBe("-2.25");
    expect(storedAdjustment(null, "xp", "7", at(3)).toFixed()).toBe("7");
    expect(storedAdjustment(decaying, "nope", "7", at(3)).toFixed()).toBe("7");
  });
});

describe("adjustmentDeltas", () => {
  it("cancels a grant with a reversal made later that decays from the grant's time, to the last digit", () => {
    const grant = { userId: "alice", currency: "xp", points: "1", createdAt: at(0.5) };
    const [cancelled] = adjustmentDeltas(decaying, [grant, { userId: "alice", currency: "xp", points: "-1", createdAt: at(3), decaysFrom: at(0.5) }]);
    expect(cancelled?.score).toBe("0");
    expect(cancelled?.lifetime).toBe("0");
    // The latest time is still the reversal's own.
    expect(cancelled?.at).toBe(at(3).toISOString());
    // Decayed from its own time, 2.5 half-lives later, it would take 1 * 2^3 = 8 off a grant stored as sqrt(2).
    const [own] = adjustmentDeltas(decaying, [grant, { userId: "alice", currency: "xp", points: "-1", createdAt: at(3) }]);
    expect(own?.score).toBe("-6.585786437626904952"); // 1.414213562373095048 - 8
  });

  it("sums the stored values into score and the plain points into lifetime, per user and currency, with the latest time", () => {
    const deltas = adjustmentDeltas(decaying, [
      { userId: "alice", currency: "xp", points: "1.5", createdAt: at(2) }, // stored 6
      { userId: "bob", currency: "xp", points: "10", createdAt: at(0) }, // stored 10
      { userId: "alice", currency: "xp", points: "-1", createdAt: at(1) }, // stored -2
      { userId: "alice", currency: "gems", points: "4", createdAt: at(5) }, // no decay
      { userId: "alice", currency: "xp", points: "0.25", createdAt: at(-2) }, // stored 0.0625
    ]);
    expect(deltas).toEqual([
      { userId: "alice", currency: "xp", score: "4.0625", lifetime: "0.75", at: at(2).toISOString() },
      { userId: "bob", currency: "xp", score: "10", lifetime: "10", at: at(0).toISOString() },
      { userId: "alice", currency: "gems", score: "4", lifetime: "4", at: at(5).toISOString() },
    ]);
  });

  it("keeps users apart whose id and currency would run together without a separator", () => {
    const deltas = adjustmentDeltas(null, [
      { userId: "a", currency: "bxp", points: "1", createdAt: at(0) },
      { userId: "ab", currency: "xp", points: "2", createdAt: at(0) },
    ]);
    expect(deltas.map((d) => [d.userId, d.currency, d.score])).toEqual([
      ["a", "bxp", "1"],
      ["ab", "xp", "2"],
    ]);
  });

  it("gives the same digits whatever the order of the adjustments", () => {
    const list = [
      { userId: "alice", currency: "xp", points: "1", createdAt: at(0.5) },
      { userId: "alice", currency: "xp", points: "-0.3", createdAt: at(-3) },
      { userId: "alice", currency: "xp", points: "2.7", createdAt: at(1) },
    ];
    const forward = adjustmentDeltas(decaying, list);
    // 1.414213562373095048 - 0.3 / 8 + 2.7 * 2 = 1.414213562373095048 - 0.0375 + 5.4
    const expected = [{ userId: "alice", currency: "xp", score: "6.776713562373095048", lifetime: "3.4", at: at(1).toISOString() }];
    expect(forward).toEqual(expected);
    expect(adjustmentDeltas(decaying, [...list].reverse())).toEqual(expected);
  });

  it("answers no rows for no adjustments", () => {
    expect(adjustmentDeltas(decaying, [])).toEqual([]);
  });
});
