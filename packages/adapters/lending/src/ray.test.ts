// Aave's ray arithmetic and interest formulas: exact values for short spans written out here, a year against e^r.
import { compoundedInterest, linearInterest, normalizedDebt, normalizedIncome, RAY, rayDiv, rayMul, SECONDS_PER_YEAR } from "./ray";

const RATE = RAY / 10n; // 10% a year
const Y = 31_536_000n;

describe("ray arithmetic", () => {
  it("rounds half up in rayMul and rayDiv", () => {
    expect(rayMul(3n, RAY / 2n)).toBe(2n); // 1.5 -> 2
    expect(rayMul(5n, RAY / 10n)).toBe(1n); // 0.5 -> 1
    expect(rayMul(4n, RAY / 10n)).toBe(0n); // 0.4 -> 0
    expect(rayDiv(1n, 2n * RAY)).toBe(1n); // 0.5 -> 1
    expect(rayDiv(2n, 3n * RAY)).toBe(1n); // 0.667 -> 1
    expect(rayDiv(1n, 3n * RAY)).toBe(0n); // 0.333 -> 0
    expect(SECONDS_PER_YEAR).toBe(Y);
  });

  it("grows linearly for supply: 1 + rate x seconds / year", () => {
    expect(linearInterest(RATE, Y)).toBe(RAY + RAY / 10n);
    expect(linearInterest(RATE, Y / 2n)).toBe(RAY + RAY / 20n);
    expect(linearInterest(RATE, 0n)).toBe(RAY);
  });

  it("compounds debt with the first three binomial terms, exactly for short spans", () => {
    // (r/Y)^2 and (r/Y)^3 in ray, as Aave computes them (rayMul, then integer division).
    const p2 = (RATE * RATE + RAY / 2n) / RAY / (Y * Y);
    const p3 = (p2 * RATE + RAY / 2n) / RAY / Y;
    expect(p2).toBeGreaterThan(0n);
    expect(p3).toBe(31n); // 31.9 truncated: the cubic term keeps little precision at ray scale
    expect(compoundedInterest(RATE, 0n)).toBe(RAY);
    expect(compoundedInterest(RATE, 1n)).toBe(RAY + RATE / Y);
    expect(compoundedInterest(RATE, 2n)).toBe(RAY + (2n * RATE) / Y + p2);
    expect(compoundedInterest(RATE, 3n)).toBe(RAY + (3n * RATE) / Y + 3n * p2 + p3);
    // A huge rate: 3 x 2 x 1 x p3 / 6 = p3 at three seconds, 4 x 3 x 2 x p3 / 6 = 4 p3 at four.
    const big = 10n ** 6n * RAY;
    const b2 = (big * big + RAY / 2n) / RAY / (Y * Y);
    const b3 = (b2 * big + RAY / 2n) / RAY / Y;
    expect(compoundedInterest(big, 3n)).toBe(RAY + (3n * big) / Y + 3n * b2 + b3);
    expect(compoundedInterest(big, 4n)).toBe(RAY + (4n * big) / Y + 6n * b2 + 4n * b3);
  });

  it("compounds 10% over a year to the three-term value below e^0.1 (1.105170918...)", () => {
    const year = compoundedInterest(RATE, Y);
    // 1 + 0.1 + 0.005 + 0.000166... = 1.1051666, less what the truncated cubic factor loses (about 4.6e-6).
    expect(year).toBeGreaterThan(1_105_160_000_000_000_000_000_000_000n);
    expect(year).toBeLessThan(1_105_170_918_075_647_624_811_707_826n);
  });

  it("normalizes income and debt from the last update, and returns the stored index at the update's own second", () => {
    const reserve = { liquidityIndex: 2n * RAY, liquidityRate: RATE, variableBorrowIndex: 3n * RAY, variableBorrowRate: RATE, updatedAt: 1_000n };
    expect(normalizedIncome(reserve, 1_000n)).toBe(2n * RAY);
    expect(normalizedDebt(reserve, 1_000n)).toBe(3n * RAY);
    expect(normalizedIncome(reserve, 1_000n + Y)).toBe((2n * RAY * 11n) / 10n);
    expect(normalizedDebt(reserve, 1_001n)).toBe(rayMul(RAY + RATE / Y, 3n * RAY));
    expect(normalizedDebt(reserve, 1_003n)).toBe(rayMul(compoundedInterest(RATE, 3n), 3n * RAY));
    // At the update's second the debt index is the stored one even when the rate is absurdly high.
    expect(normalizedDebt({ ...reserve, variableBorrowRate: 10n ** 40n }, 1_000n)).toBe(3n * RAY);
    expect(normalizedIncome({ ...reserve, liquidityRate: 10n ** 40n }, 1_000n)).toBe(2n * RAY);
  });
});
