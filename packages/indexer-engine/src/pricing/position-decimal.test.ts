// The ammv3position feed's bigint decimal steps give exactly what decimal.js gives for the same steps, at its precision and rounding.
import { Fixed } from "@pointwise/fixed";
import DecimalJs from "decimal.js";
import fc from "fast-check";
import { Dec } from "../decimal";
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, rangeSqrtRatios } from "./clmath";
import { pricedRange, valuePerLiquidity } from "./position";
import { digits, divide, fromDec, integer, plus, round, type Scaled, times, toDec, toFixed } from "./position-decimal";

const RUNS = { numRuns: 500 };
const text = (s: Scaled) => toDec(s).toFixed();
// Decimals as decimal.js takes them: signed digit strings with a point anywhere and exponents both ways.
const decimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 80n }), fc.integer({ min: -90, max: 30 }))
  .map(([negative, c, e]) => new Dec(`${negative ? "-" : ""}${c}e${e}`));
const nonZero = decimal.filter((d) => !d.isZero());

describe("decimal steps in bigint", () => {
  it("follows a decimal type of 60 significant digits that rounds half to even", () => {
    expect([Dec.precision, Dec.rounding]).toEqual([60, DecimalJs.ROUND_HALF_EVEN]);
  });

  it("reads a decimal exactly and writes it back as the same decimal", () => {
    fc.assert(
      fc.property(decimal, (d) => {
        expect(toDec(fromDec(d)).eq(d)).toBe(true);
      }),
      RUNS,
    );
    expect(fromDec(new Dec("2451.37"))).toEqual({ c: 245137n, e: -2 });
    expect(fromDec(new Dec("1e-120"))).toEqual({ c: 1n, e: -120 });
    expect(() => fromDec(new Dec(Number.NaN))).toThrow("not a finite decimal: NaN");
  });

  it("times, plus and divide round as decimal.js does (60 digits, half to even)", () => {
    fc.assert(
      fc.property(decimal, decimal, nonZero, (a, b, c) => {
        const [x, y, z] = [fromDec(a), fromDec(b), fromDec(c)];
        expect(text(times(x, y))).toBe(a.times(b).toFixed());
        expect(text(plus(x, y))).toBe(a.plus(b).toFixed());
        expect(text(divide(x, z))).toBe(a.div(c).toFixed());
      }),
      RUNS,
    );
  });

  it("breaks ties to even, lets a division's remainder decide a near tie, and carries 99..9 into a new digit", () => {
    const nines = 10n ** 61n - 1n;
    const cases: [Scaled, string][] = [
      [round(10n ** 60n + 5n, 0), new Dec((10n ** 60n + 5n).toString()).plus(0).toFixed()],
      [round(10n ** 60n + 15n, 0), new Dec((10n ** 60n + 15n).toString()).plus(0).toFixed()],
      [round(nines, 0), new Dec(nines.toString()).plus(0).toFixed()],
      [round(-(10n ** 60n + 15n), -3), new Dec(`-${10n ** 60n + 15n}e-3`).plus(0).toFixed()],
    ];
    for (const [got, want] of cases) expect(text(got)).toBe(want);
    // Exponents far apart scale by powers of ten past 10^400.
    expect(text(plus({ c: 1n, e: 450 }, integer(3n)))).toBe(new Dec("1e450").plus(3).toFixed());
    const huge = { c: 10n ** 420n + 1n, e: 0 };
    expect(text(divide(integer(7n), huge))).toBe(new Dec(7).div(new Dec((10n ** 420n + 1n).toString())).toFixed());
    // 10^61 - 1 rounds up to 10^61, kept as a 60-digit coefficient: 10^59 x 10^2.
    expect(round(nines, 0)).toEqual({ c: 10n ** 59n, e: 2 });
    expect(round(-nines, -5)).toEqual({ c: -(10n ** 59n), e: -3 });
    // 1/8 = 0.125 is exact, and 2 x (10^60 + 5) / 2 is an exact tie in its last kept digit.
    expect(text(divide(integer(1n), integer(8n)))).toBe("0.125");
    expect(text(divide(integer(2n * (10n ** 60n + 5n)), integer(20n)))).toBe(new Dec((10n ** 60n + 5n).toString()).div(10).toFixed());
    // (b (10^60 + 5) + 1) / b is a hair above a tie: the digits computed show a tie, the remainder says it is not one.
    const b = 10n ** 20n + 7n;
    const a = b * (10n ** 60n + 5n) + 1n;
    const want = new Dec(a.toString()).div(b.toString()).toFixed();
    expect(want).toBe(`${10n ** 59n + 1n}0`);
    expect(text(divide(integer(a), integer(b)))).toBe(want);
  });
});

describe("a position's value per unit of liquidity", () => {
  const tick = fc.integer({ min: MIN_TICK, max: MAX_TICK });
  const range = fc
    .tuple(tick, tick)
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => (a < b ? [a, b] : [b, a]) as [number, number]);
  const price = fc.oneof(
    fc.constantFrom(new Dec(1), new Dec("2451.37"), new Dec("0.000001")),
    decimal.map((d) => d.abs()),
  );

  it("is the decimal.js value of amount0 units x price0 + amount1 units x price1 (the feed's formula, step by step)", () => {
    fc.assert(
      fc.property(
        range,
        fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }),
        fc.integer({ min: 0, max: 36 }),
        fc.integer({ min: 0, max: 36 }),
        price,
        price,
        ([tickLower, tickUpper], sqrtPriceX96, decimals0, decimals1, price0, price1) => {
          const facts = { pool: "0x0", token0: "0x1", token1: "0x2", decimals0, decimals1, tickLower, tickUpper };
          // The protocol's amounts per unit of liquidity, written out: sqrt price clamped to the range.
          const { lower, upper } = rangeSqrtRatios(tickLower, tickUpper);
          // biome-ignore lint/complexity/useMathMinMax: Math.min and Math.max do not take bigints.
          const p = sqrtPriceX96 < lower ? lower : sqrtPriceX96 > upper ? upper : sqrtPriceX96;
          const unitsOf = (num: bigint, den: bigint, d: number) => new Dec(num.toString()).div(new Dec(den.toString()).times(new Dec(10).pow(d)));
          const amount0 = p >= upper ? new Dec(0) : unitsOf((upper - p) << 96n, p * upper, decimals0);
          const amount1 = p <= lower ? new Dec(0) : unitsOf(p - lower, 1n << 96n, decimals1);
          const want = amount0.times(price0).plus(amount1.times(price1));
          expect(valuePerLiquidity(pricedRange(facts), sqrtPriceX96, price0, price1).toFixed()).toBe(want.toFixed());
        },
      ),
      RUNS,
    );
  });
});

describe("coefficients and fixed-point output", () => {
  it("keeps every result of times, plus and divide to at most 60 significant digits (property)", () => {
    fc.assert(
      fc.property(decimal, decimal, nonZero, (a, b, c) => {
        const [x, y, z] = [fromDec(a), fromDec(b), fromDec(c)];
        for (const r of [times(x, y), plus(x, y), divide(x, z)]) expect(digits(r.c)).toBeLessThanOrEqual(60);
      }),
      RUNS,
    );
  });

  it("writes a value as the exact fixed-point decimal, with a positive, zero or negative exponent", () => {
    expect(toFixed({ c: 12_345n, e: -2 }).toString()).toBe("123.45");
    expect(toFixed({ c: -12n, e: 3 }).toString()).toBe("-12000");
    // A whole number is held with scale 0, never a negative scale.
    expect(toFixed({ c: -12n, e: 3 })).toEqual(new Fixed(-12_000n, 0));
    expect(toFixed({ c: 7n, e: 0 }).toString()).toBe("7");
    expect(toFixed({ c: 5n, e: -30 }).toString()).toBe(`0.${"0".repeat(29)}5`);
  });
});

describe("digits", () => {
  it("counts the decimal digits of any integer as its printed form does (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 450n), max: 10n ** 450n }), (c) => {
        expect(digits(c)).toBe((c < 0n ? -c : c).toString().length);
      }),
    );
    // Around each power of ten: 10^k - 1 has k digits, 10^k has k + 1.
    for (const k of [1, 2, 59, 60, 61, 398, 399, 400]) {
      expect(digits(10n ** BigInt(k) - 1n)).toBe(k);
      expect(digits(10n ** BigInt(k))).toBe(k + 1);
    }
    expect(digits(0n)).toBe(1);
  });
});
