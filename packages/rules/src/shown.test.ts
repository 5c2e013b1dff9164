// shownScore: a stored row decayed, rounded half to even to the currency's decimals, and totalled.
import { shownFactor, shownScore } from "./shown";

describe("the shown score of a stored row", () => {
  const decay = { halfLifeSeconds: 86_400, epoch: "2026-01-01T00:00:00Z" };

  it("decays by the factor, rounds half to even to the currency's decimals and totals the rounded parts", () => {
    // Two half-lives after the epoch the factor is 1/4: 10.03 / 4 = 2.5075 -> 2.51 (half to even at the 3rd place is not a tie),
    // 0.05 / 4 = 0.0125 -> 0.01 (a tie, to the even 0.01); total 2.52.
    const factor = shownFactor(new Date("2026-01-03T00:00:00Z"), decay);
    expect(factor).toBe("0.25");
    expect(shownScore({ score: "10.03", referral_score: "0.05" }, factor, 2)).toEqual({ score: "2.51", referral_score: "0.01", total: "2.52" });
    expect(shownScore({ score: "10.03", referral_score: "0.05" }, factor, null)).toEqual({ score: "2.5075", referral_score: "0.0125", total: "2.52" });
  });

  it("shows stored values as they are without decay, and zeros for no row", () => {
    expect(shownFactor(new Date(), undefined)).toBe("1");
    expect(shownScore({ score: "41.250", referral_score: "1.5" }, "1", 0)).toEqual({ score: "41.25", referral_score: "1.5", total: "42.75" });
    expect(shownScore(undefined, "0.5", 2)).toEqual({ score: "0", referral_score: "0", total: "0" });
  });

  it("keeps every digit of values longer than any float or fixed precision holds", () => {
    // Undecayed: the largest amount ingest accepts (30 + 18 digits) times a large per-unit rate gives a
    // stored value of 66 significant digits; shown as stored, total exactly their sum (added in the test with bigint).
    const score = "999999999999999999999999999999999999999999999999.999999999999999999";
    const referral = "123456789012345678901234567890123456789012345678.123456789012345678";
    const total = (BigInt(score.replace(".", "")) + BigInt(referral.replace(".", ""))).toString();
    expect(shownScore({ score, referral_score: referral }, "1", 18)).toEqual({
      score,
      referral_score: referral,
      total: `${total.slice(0, -18)}.${total.slice(-18)}`,
    });
    // Decayed: 0.5 x (10^47 + 3e-18) = 5 x 10^46 + 1.5e-18, a tie at 18 places that goes to the even ...02.
    const half = shownScore({ score: "100000000000000000000000000000000000000000000000.000000000000000003", referral_score: "0" }, "0.5", 18);
    expect(half.score).toBe("50000000000000000000000000000000000000000000000.000000000000000002");
    expect(half.total).toBe(half.score);
  });

  it("shows zero thousands of half-lives past the epoch, where the factor no longer has digits", () => {
    expect(shownFactor(new Date("2100-01-01T00:00:00Z"), { halfLifeSeconds: 3600, epoch: "2026-01-01T00:00:00Z" })).toBe("0");
  });
});
