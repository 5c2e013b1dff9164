// Property tests of the engine's concentrated-liquidity math against the Uniswap V3 SDK on random inputs.

import {
  amount0Delta,
  amount1Delta,
  amountsPerLiquidity,
  liquidityForAmounts,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  positionAmounts,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from "@pointwise/indexer-engine";
import { Token } from "@uniswap/sdk-core";
import { FeeAmount, maxLiquidityForAmounts, Pool, Position, SqrtPriceMath, TickMath } from "@uniswap/v3-sdk";
import fc from "fast-check";
// The SDK's own big-integer type (a dependency of the SDK), needed to call its math functions.
import JSBI from "jsbi";

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
