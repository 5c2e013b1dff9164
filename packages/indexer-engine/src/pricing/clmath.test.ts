// Concentrated-liquidity math: held to the Uniswap V3 SDK on random inputs, and to published values at its edges.

import { Token } from "@uniswap/sdk-core";
import { FeeAmount, maxLiquidityForAmounts, Pool, Position, SqrtPriceMath, TickMath } from "@uniswap/v3-sdk";
import fc from "fast-check";
// The SDK's own big-integer type (a dependency of the SDK), needed to call its math functions.
import JSBI from "jsbi";
import {
  amount0Delta,
  amount1Delta,
  amountsForLiquidity,
  amountsPerLiquidity,
  amountsPerLiquidityBetween,
  liquidityForAmounts,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  mulDiv,
  mulDivRoundingUp,
  positionAmounts,
  Q96,
  rangeSqrtRatios,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from "./clmath";

const big = (v: bigint) => JSBI.BigInt(v.toString());
const plain = (v: JSBI) => BigInt(v.toString());
const RUNS = { numRuns: 400 };
const MAX_UINT128 = (1n << 128n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

const tick = fc.integer({ min: MIN_TICK, max: MAX_TICK });
const sqrtPrice = fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n });
const liquidity = fc.oneof(fc.bigInt({ min: 0n, max: MAX_UINT128 }), fc.bigInt({ min: 0n, max: 10n ** 24n }));
const range = fc
  .tuple(tick, tick)
  .filter(([a, b]) => a !== b)
  .map(([a, b]): [number, number] => (a < b ? [a, b] : [b, a]));

const T0 = new Token(1, "0x000000000000000000000000000000000000a000", 18);
const T1 = new Token(1, "0x000000000000000000000000000000000000b000", 6);

describe("concentrated-liquidity math against the V3 SDK", () => {
  it("gives the SDK's sqrt price at every tick, including both ends", () => {
    for (const t of [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1, MAX_TICK]) expect(sqrtRatioAtTick(t)).toBe(plain(TickMath.getSqrtRatioAtTick(t)));
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    fc.assert(
      fc.property(tick, (t) => sqrtRatioAtTick(t) === plain(TickMath.getSqrtRatioAtTick(t))),
      { numRuns: 2000 },
    );
  });

  it("gives the SDK's tick of any sqrt price", () => {
    fc.assert(
      fc.property(sqrtPrice, (p) => tickAtSqrtRatio(p) === TickMath.getTickAtSqrtRatio(big(p))),
      RUNS,
    );
    fc.assert(
      fc.property(tick, (t) => t === MAX_TICK || tickAtSqrtRatio(sqrtRatioAtTick(t)) === t),
      RUNS,
    );
  });

  it("gives the SDK's amount deltas, rounded up and down", () => {
    fc.assert(
      fc.property(sqrtPrice, sqrtPrice, liquidity, fc.boolean(), (a, b, l, up) => {
        expect(amount0Delta(a, b, l, up)).toBe(plain(SqrtPriceMath.getAmount0Delta(big(a), big(b), big(l), up)));
        expect(amount1Delta(a, b, l, up)).toBe(plain(SqrtPriceMath.getAmount1Delta(big(a), big(b), big(l), up)));
      }),
      RUNS,
    );
  });

  it("gives the SDK position's token amounts for any liquidity, range and pool price", () => {
    fc.assert(
      fc.property(range, sqrtPrice, liquidity, ([lower, upper], p, l) => {
        const pool = new Pool(T0, T1, FeeAmount.LOWEST, big(p), big(0n), TickMath.getTickAtSqrtRatio(big(p)));
        const position = new Position({ pool, liquidity: big(l), tickLower: lower, tickUpper: upper });
        const ours = positionAmounts(l, p, lower, upper);
        expect(ours.amount0).toBe(plain(position.amount0.quotient));
        expect(ours.amount1).toBe(plain(position.amount1.quotient));
        // The per-liquidity ratios times the liquidity, rounded down, are the same amounts.
        const per = amountsPerLiquidity(p, lower, upper);
        expect((per.amount0.num * l) / per.amount0.den).toBe(ours.amount0);
        expect((per.amount1.num * l) / per.amount1.den).toBe(ours.amount1);
      }),
      RUNS,
    );
  });

  it("gives the SDK's largest liquidity for token amounts (the position manager's rounding, not the SDK's full-precision variant)", () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 30n });
    fc.assert(
      fc.property(range, sqrtPrice, amount, amount, ([lower, upper], p, a0, a1) => {
        const [sa, sb] = [sqrtRatioAtTick(lower), sqrtRatioAtTick(upper)];
        const sdk = plain(maxLiquidityForAmounts(big(p), big(sa), big(sb), a0.toString(), a1.toString(), false));
        // LiquidityAmounts on chain computes each side with FullMath.mulDiv, which reverts past 256 bits even
        // where the other side is smaller; the SDK computes without that bound. Such inputs must be refused.
        const Q96 = 1n << 96n;
        const from = p <= sa ? sa : p < sb ? p : undefined;
        const side0 = from === undefined ? 0n : (a0 * ((from * sb) / Q96)) / (sb - from);
        const to = p >= sb ? sb : p > sa ? p : undefined;
        const side1 = to === undefined ? 0n : (a1 * Q96) / (to - sa);
        if (side0 > MAX_UINT256 || side1 > MAX_UINT256) expect(() => liquidityForAmounts(p, sa, sb, a0, a1)).toThrow("does not fit 256 bits");
        else if (sdk > MAX_UINT128) expect(() => liquidityForAmounts(p, sa, sb, a0, a1)).toThrow("liquidity does not fit 128 bits");
        else expect(liquidityForAmounts(p, sa, sb, a0, a1)).toBe(sdk);
      }),
      RUNS,
    );
  });

  it("refuses ticks and prices outside the protocol's bounds with clmath-out-of-range", () => {
    for (const bad of [MIN_TICK - 1, MAX_TICK + 1, 0.5]) expect(() => sqrtRatioAtTick(bad)).toThrow(`tick must be an integer in [${MIN_TICK}, ${MAX_TICK}]`);
    expect(() => tickAtSqrtRatio(MIN_SQRT_RATIO - 1n)).toThrow("sqrtPriceX96 must be at least MIN_SQRT_RATIO and below MAX_SQRT_RATIO");
    expect(() => tickAtSqrtRatio(MAX_SQRT_RATIO)).toThrow("sqrtPriceX96 must be at least MIN_SQRT_RATIO");
    expect(() => positionAmounts(1n, MIN_SQRT_RATIO, 10, 10)).toThrow("tickLower must be below tickUpper");
    expect(() => amountsPerLiquidity(0n, -10, 10)).toThrow("sqrtPriceX96 must be a positive uint160");
    const caught = (() => {
      try {
        sqrtRatioAtTick(MAX_TICK + 1);
      } catch (err) {
        return err as { code?: string };
      }
    })();
    expect(caught?.code).toBe("clmath-out-of-range");
  });
});

/** The error `run` throws, for checking its code, message and details. */
function thrown(run: () => unknown): { code?: string; message?: string; details?: unknown } {
  try {
    run();
  } catch (err) {
    return err as { code?: string; message?: string; details?: unknown };
  }
  throw new Error("expected a throw");
}

const TWO_POW_128 = 1n << 128n;
const TWO_POW_160 = 1n << 160n;
const TWO_POW_256 = 1n << 256n;

describe("concentrated-liquidity math at published values and edges", () => {
  it("uses the protocol's tick bounds, sqrt price bounds and 2^96 scale", () => {
    expect(MIN_TICK).toBe(-887272);
    expect(MAX_TICK).toBe(887272);
    expect(Q96).toBe(79228162514264337593543950336n);
    expect(MIN_SQRT_RATIO).toBe(4295128739n);
    expect(MAX_SQRT_RATIO).toBe(1461446703485210103287273052203988822378723970342n);
  });

  it("gives TickMath's published sqrt prices at the ends of the tick range and around zero", () => {
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(4295128739n);
    expect(sqrtRatioAtTick(MIN_TICK + 1)).toBe(4295343490n);
    expect(sqrtRatioAtTick(MAX_TICK - 1)).toBe(1461373636630004318706518188784493106690254656249n);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n);
    // Tick 0 is price 1: exactly 2^96, not rounded up.
    expect(sqrtRatioAtTick(0)).toBe(79228162514264337593543950336n);
    // sqrt(1.0001) * 2^96 = 79232123823359799118286999567.36..., and 2^96 / sqrt(1.0001) = 79224201403219477170569942573.1..., both rounded up.
    expect(sqrtRatioAtTick(1)).toBe(79232123823359799118286999568n);
    expect(sqrtRatioAtTick(-1)).toBe(79224201403219477170569942574n);
  });

  it("refuses ticks outside [MIN_TICK, MAX_TICK] and fractional ticks, naming the tick", () => {
    for (const bad of [MIN_TICK - 1, MAX_TICK + 1, 0.5, -0.5]) {
      expect(thrown(() => sqrtRatioAtTick(bad))).toMatchObject({
        code: "clmath-out-of-range",
        message: "tick must be an integer in [-887272, 887272]",
        details: { tick: bad },
      });
    }
  });

  it("gives the greatest tick whose sqrt price is at most the price, at the bounds and between ticks", () => {
    expect(tickAtSqrtRatio(MIN_SQRT_RATIO)).toBe(MIN_TICK);
    expect(tickAtSqrtRatio(MIN_SQRT_RATIO + 1n)).toBe(MIN_TICK);
    expect(tickAtSqrtRatio(4295343490n)).toBe(MIN_TICK + 1);
    expect(tickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1);
    expect(tickAtSqrtRatio(79228162514264337593543950336n)).toBe(0);
    expect(tickAtSqrtRatio(79228162514264337593543950335n)).toBe(-1);
    expect(tickAtSqrtRatio(79232123823359799118286999567n)).toBe(0);
    expect(tickAtSqrtRatio(79232123823359799118286999568n)).toBe(1);
  });

  it("refuses sqrt prices below MIN_SQRT_RATIO or at MAX_SQRT_RATIO and above", () => {
    for (const bad of [MIN_SQRT_RATIO - 1n, MAX_SQRT_RATIO, MAX_SQRT_RATIO + 1n]) {
      expect(thrown(() => tickAtSqrtRatio(bad))).toMatchObject({
        code: "clmath-out-of-range",
        message: "sqrtPriceX96 must be at least MIN_SQRT_RATIO and below MAX_SQRT_RATIO",
        details: { sqrtPriceX96: bad },
      });
    }
  });

  it("divides a product rounding down or up, and refuses a zero divisor or a result past 256 bits", () => {
    expect(mulDiv(7n, 3n, 2n)).toBe(10n);
    expect(mulDivRoundingUp(7n, 3n, 2n)).toBe(11n);
    expect(mulDiv(6n, 3n, 2n)).toBe(9n);
    expect(mulDivRoundingUp(6n, 3n, 2n)).toBe(9n);
    // The intermediate product may exceed 256 bits as long as the result does not (FullMath's 512-bit product).
    expect(mulDiv(TWO_POW_256 - 1n, TWO_POW_128, TWO_POW_128)).toBe(TWO_POW_256 - 1n);
    expect(mulDivRoundingUp(TWO_POW_256 - 1n, 1n, 1n)).toBe(TWO_POW_256 - 1n);
    expect(thrown(() => mulDiv(TWO_POW_128, TWO_POW_128, 1n))).toMatchObject({
      code: "clmath-out-of-range",
      message: "mulDiv: result does not fit 256 bits",
      details: { a: TWO_POW_128, b: TWO_POW_128, c: 1n },
    });
    expect(thrown(() => mulDiv(5n, 6n, 0n))).toMatchObject({
      code: "clmath-out-of-range",
      message: "mulDiv: division by zero",
      details: { a: 5n, b: 6n },
    });
    expect(thrown(() => mulDivRoundingUp(5n, 6n, 0n))).toMatchObject({ message: "mulDiv: division by zero" });
  });

  it("gives SqrtPriceMath's published amount deltas for 1e18 liquidity between price 1 and 1.21, rounded up and down", () => {
    // encodePriceSqrt(1, 1) and encodePriceSqrt(121, 100) of the v3-core tests.
    const one = 79228162514264337593543950336n;
    const oneTwentyOne = 87150978765690771352898345369n;
    const liquidity = 10n ** 18n;
    expect(amount0Delta(one, oneTwentyOne, liquidity, true)).toBe(90909090909090910n);
    expect(amount0Delta(one, oneTwentyOne, liquidity, false)).toBe(90909090909090909n);
    expect(amount1Delta(one, oneTwentyOne, liquidity, true)).toBe(100000000000000000n);
    expect(amount1Delta(one, oneTwentyOne, liquidity, false)).toBe(99999999999999999n);
    // The order of the two prices does not matter.
    expect(amount0Delta(oneTwentyOne, one, liquidity, true)).toBe(90909090909090910n);
    expect(amount1Delta(oneTwentyOne, one, liquidity, false)).toBe(99999999999999999n);
  });

  it("rounds amount deltas up only when they are not whole, and gives zero for an empty range or no liquidity", () => {
    // Between prices 1 and 2 (sqrt), liquidity L holds L/2 of token0 and L of token1.
    expect(amount0Delta(Q96, 2n * Q96, 1000n, false)).toBe(500n);
    expect(amount0Delta(Q96, 2n * Q96, 1000n, true)).toBe(500n);
    expect(amount0Delta(Q96, 2n * Q96, 1001n, false)).toBe(500n);
    expect(amount0Delta(Q96, 2n * Q96, 1001n, true)).toBe(501n);
    // Between sqrt prices 1 and 1.5, L holds L/3 of token0 and L/2 of token1.
    expect(amount0Delta(Q96, (3n * Q96) / 2n, 1000n, false)).toBe(333n);
    expect(amount0Delta(Q96, (3n * Q96) / 2n, 1000n, true)).toBe(334n);
    expect(amount1Delta(Q96, (3n * Q96) / 2n, 1001n, false)).toBe(500n);
    expect(amount1Delta(Q96, (3n * Q96) / 2n, 1001n, true)).toBe(501n);
    expect(amount1Delta(Q96, (3n * Q96) / 2n, 1000n, true)).toBe(500n);
    expect(amount0Delta(Q96, Q96, 1000n, true)).toBe(0n);
    expect(amount1Delta(Q96, Q96, 1000n, true)).toBe(0n);
    expect(amount0Delta(Q96, 2n * Q96, 0n, true)).toBe(0n);
    expect(amount1Delta(Q96, 2n * Q96, 0n, true)).toBe(0n);
  });

  it("refuses a token0 delta at a zero sqrt price", () => {
    expect(thrown(() => amount0Delta(0n, Q96, 1n, false))).toMatchObject({
      code: "clmath-out-of-range",
      message: "amount0Delta: sqrt price must be positive",
      details: { sqrtA: 0n, sqrtB: Q96 },
    });
    expect(thrown(() => amount0Delta(Q96, 0n, 1n, true))).toMatchObject({ message: "amount0Delta: sqrt price must be positive" });
  });

  it("holds only token0 below a range, both tokens inside it and only token1 above it, whichever end is given first", () => {
    const [lower, upper] = [Q96, 2n * Q96];
    expect(amountsForLiquidity(Q96 / 2n, lower, upper, 1000n)).toEqual({ amount0: 500n, amount1: 0n });
    expect(amountsForLiquidity(lower, lower, upper, 1000n)).toEqual({ amount0: 500n, amount1: 0n });
    // At sqrt price 1.5: token0 = L * (1/1.5 - 1/2) = L/6, token1 = L * (1.5 - 1) = L/2.
    expect(amountsForLiquidity((3n * Q96) / 2n, lower, upper, 1200n)).toEqual({ amount0: 200n, amount1: 600n });
    expect(amountsForLiquidity((3n * Q96) / 2n, upper, lower, 1200n)).toEqual({ amount0: 200n, amount1: 600n });
    expect(amountsForLiquidity(upper, lower, upper, 1000n)).toEqual({ amount0: 0n, amount1: 1000n });
    expect(amountsForLiquidity(3n * Q96, lower, upper, 1000n)).toEqual({ amount0: 0n, amount1: 1000n });
  });

  it("gives a position's amounts by its ticks and refuses an empty or inverted tick range", () => {
    // A full-range position at price 1 holds L * (1 - 1/MAX_SQRT_RATIO) of token0 and L * (1 - MIN_SQRT_RATIO) of token1
    // (prices in units of 2^96): for L = 1e18 both fall short of 1e18 by about 0.05, rounded down.
    expect(positionAmounts(10n ** 18n, Q96, MIN_TICK, MAX_TICK)).toEqual({ amount0: 999999999999999999n, amount1: 999999999999999999n });
    // Below the range [0, 1] all of it is token0: L * (1 - 1/sqrt(1.0001)) = 49996250312472.65..., rounded down.
    expect(positionAmounts(10n ** 18n, Q96 / 2n, 0, 1)).toEqual({ amount0: 49996250312472n, amount1: 0n });
    for (const [lower, upper] of [
      [10, 10],
      [20, 10],
    ] as const) {
      expect(thrown(() => positionAmounts(1n, Q96, lower, upper))).toMatchObject({
        code: "clmath-out-of-range",
        message: "tickLower must be below tickUpper",
        details: { tickLower: lower, tickUpper: upper },
      });
      expect(thrown(() => rangeSqrtRatios(lower, upper))).toMatchObject({
        code: "clmath-out-of-range",
        message: "tickLower must be below tickUpper",
        details: { tickLower: lower, tickUpper: upper },
      });
    }
    expect(rangeSqrtRatios(-1, 1)).toEqual({ lower: 79224201403219477170569942574n, upper: 79232123823359799118286999568n });
  });

  it("buys the most liquidity the amounts allow below, inside and above a range, including at its ends", () => {
    const [lower, upper] = [Q96, 2n * Q96];
    // Between sqrt prices 1 and 2, L needs L/2 of token0 when the price is at or below the range.
    expect(liquidityForAmounts(Q96 / 2n, lower, upper, 1000n, 7n)).toBe(2000n);
    expect(liquidityForAmounts(lower, lower, upper, 1000n, 7n)).toBe(2000n);
    // At sqrt price 1.5, L needs L/6 of token0 and L/2 of token1: the scarcer token decides.
    expect(liquidityForAmounts((3n * Q96) / 2n, lower, upper, 1000n, 1000n)).toBe(2000n);
    expect(liquidityForAmounts((3n * Q96) / 2n, lower, upper, 100n, 1000n)).toBe(600n);
    expect(liquidityForAmounts((3n * Q96) / 2n, upper, lower, 100n, 1000n)).toBe(600n);
    // At or above the range only token1 counts, L of it per L.
    expect(liquidityForAmounts(upper, lower, upper, 7n, 1000n)).toBe(1000n);
    expect(liquidityForAmounts(3n * Q96, lower, upper, 7n, 1000n)).toBe(1000n);
  });

  it("accepts liquidity up to 2^128 - 1 and refuses more", () => {
    const [lower, upper] = [Q96, 2n * Q96];
    expect(liquidityForAmounts(upper, lower, upper, 0n, TWO_POW_128 - 1n)).toBe(TWO_POW_128 - 1n);
    expect(thrown(() => liquidityForAmounts(upper, lower, upper, 0n, TWO_POW_128))).toMatchObject({
      code: "clmath-out-of-range",
      message: "liquidity does not fit 128 bits",
      details: { liquidity: TWO_POW_128 },
    });
  });

  it("gives per-liquidity amounts as exact ratios, zero on the side the price has left", () => {
    const range = { lower: Q96, upper: 2n * Q96 };
    const below = { amount0: { num: Q96 << 96n, den: 2n * Q96 * Q96 }, amount1: { num: 0n, den: 1n } };
    expect(amountsPerLiquidityBetween(Q96 / 2n, range)).toEqual(below);
    expect(amountsPerLiquidityBetween(Q96, range)).toEqual(below);
    const p = (3n * Q96) / 2n;
    expect(amountsPerLiquidityBetween(p, range)).toEqual({
      amount0: { num: (Q96 / 2n) << 96n, den: p * 2n * Q96 },
      amount1: { num: Q96 / 2n, den: Q96 },
    });
    const above = { amount0: { num: 0n, den: 1n }, amount1: { num: Q96, den: Q96 } };
    expect(amountsPerLiquidityBetween(2n * Q96, range)).toEqual(above);
    expect(amountsPerLiquidityBetween(3n * Q96, range)).toEqual(above);
    expect(amountsPerLiquidity(Q96, -1, 1)).toEqual(amountsPerLiquidityBetween(Q96, rangeSqrtRatios(-1, 1)));
  });

  it("takes any positive uint160 sqrt price for per-liquidity amounts and refuses zero or 2^160", () => {
    const range = { lower: Q96, upper: 2n * Q96 };
    expect(amountsPerLiquidityBetween(1n, range).amount1).toEqual({ num: 0n, den: 1n });
    expect(amountsPerLiquidityBetween(TWO_POW_160 - 1n, range).amount0).toEqual({ num: 0n, den: 1n });
    for (const bad of [0n, -1n, TWO_POW_160]) {
      expect(thrown(() => amountsPerLiquidityBetween(bad, range))).toMatchObject({
        code: "clmath-out-of-range",
        message: "sqrtPriceX96 must be a positive uint160",
        details: { sqrtPriceX96: bad },
      });
    }
  });
});
