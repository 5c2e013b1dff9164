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

  it("shows zero thousands of half-lives past the epoch, where the factor no longer has digits", () => {
    expect(shownFactor(new Date("2100-01-01T00:00:00Z"), { halfLifeSeconds: 3600, epoch: "2026-01-01T00:00:00Z" })).toBe("0");
  });
});
