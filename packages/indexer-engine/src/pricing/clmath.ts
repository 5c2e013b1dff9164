// Concentrated-liquidity math in exact bigint: tick <-> sqrt price, token amounts of liquidity, liquidity of amounts.
// It follows the integer rules of the Uniswap V3 contracts (TickMath, SqrtPriceMath, LiquidityAmounts): Q64.96
// sqrt prices, the same rounding directions and the same bounds. Out-of-bound inputs throw where the contracts revert.
import { BaseError } from "@pointwise/errors";

/** The smallest tick a V3 pool can reach (log base sqrt(1.0001) of 2^-128). */
export const MIN_TICK = -887272;
/** The largest tick a V3 pool can reach. */
export const MAX_TICK = 887272;
/** 2^96, the scale of Q64.96 sqrt prices. */
export const Q96 = 1n << 96n;
/** The sqrt price at MIN_TICK. */
export const MIN_SQRT_RATIO = 4295128739n;
/** The sqrt price at MAX_TICK. */
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
const MAX_UINT128 = (1n << 128n) - 1n;

// 2^128 / sqrt(1.0001)^(2^i) for i = 0..19, in Q128.128, rounded as the protocol's table is: multiplying the ones
// whose bit is set in |tick| gives sqrt(1.0001)^-|tick|.
const TICK_FACTORS = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

function mathError(message: string, details: Record<string, unknown>): BaseError {
  return new BaseError("clmath-out-of-range", message, { details });
}

/** floor(a * b / c) for uint256 inputs whose result fits 256 bits (FullMath.mulDiv). */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  if (c === 0n) throw mathError("mulDiv: division by zero", { a, b });
  const result = (a * b) / c;
  if (result > MAX_UINT256) throw mathError("mulDiv: result does not fit 256 bits", { a, b, c });
  return result;
}

/** ceil(a * b / c) for uint256 inputs whose result fits 256 bits (FullMath.mulDivRoundingUp). */
export function mulDivRoundingUp(a: bigint, b: bigint, c: bigint): bigint {
  const down = mulDiv(a, b, c);
  return (a * b) % c === 0n ? down : down + 1n;
}

function divRoundingUp(a: bigint, b: bigint): bigint {
  return a / b + (a % b === 0n ? 0n : 1n);
}

/** The Q64.96 sqrt price at a tick: sqrt(1.0001^tick) * 2^96, rounded up to the next integer as TickMath does. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw mathError(`tick must be an integer in [${MIN_TICK}, ${MAX_TICK}]`, { tick });
  const abs = Math.abs(tick);
  let ratio = 1n << 128n;
  TICK_FACTORS.forEach((factor, bit) => {
    if ((abs & (1 << bit)) !== 0) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  // From Q128.128 to Q64.96, rounding up so that tickAtSqrtRatio(sqrtRatioAtTick(t)) === t.
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/**
 * The greatest tick whose sqrt price is at most `sqrtPriceX96` (the pool's `slot0.tick` for that price). Found by
 * bisection over sqrtRatioAtTick, which is monotonic, so it agrees with the protocol's logarithm by definition.
 */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO)
    throw mathError("sqrtPriceX96 must be at least MIN_SQRT_RATIO and below MAX_SQRT_RATIO", { sqrtPriceX96 });
  let low = MIN_TICK;
  let high = MAX_TICK;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sqrtRatioAtTick(mid) <= sqrtPriceX96) low = mid;
    else high = mid - 1;
  }
  return low;
}

function ordered(a: bigint, b: bigint): [bigint, bigint] {
  return a > b ? [b, a] : [a, b];
}

/** Token0 owed for `liquidity` between two sqrt prices (SqrtPriceMath.getAmount0Delta). */
export function amount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = ordered(sqrtA, sqrtB);
  if (lower <= 0n) throw mathError("amount0Delta: sqrt price must be positive", { sqrtA, sqrtB });
  const numerator1 = liquidity << 96n;
  const numerator2 = upper - lower;
  return roundUp ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower) : mulDiv(numerator1, numerator2, upper) / lower;
}

/** Token1 owed for `liquidity` between two sqrt prices (SqrtPriceMath.getAmount1Delta). */
export function amount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = ordered(sqrtA, sqrtB);
  return roundUp ? mulDivRoundingUp(liquidity, upper - lower, Q96) : mulDiv(liquidity, upper - lower, Q96);
}

/** Token amounts of `liquidity` in the range [sqrtA, sqrtB] at the price `sqrtPriceX96`, rounded down (LiquidityAmounts). */
export function amountsForLiquidity(sqrtPriceX96: bigint, sqrtA: bigint, sqrtB: bigint, liquidity: bigint): { amount0: bigint; amount1: bigint } {
  const [lower, upper] = ordered(sqrtA, sqrtB);
  if (sqrtPriceX96 <= lower) return { amount0: amount0Delta(lower, upper, liquidity, false), amount1: 0n };
  if (sqrtPriceX96 < upper)
    return { amount0: amount0Delta(sqrtPriceX96, upper, liquidity, false), amount1: amount1Delta(lower, sqrtPriceX96, liquidity, false) };
  return { amount0: 0n, amount1: amount1Delta(lower, upper, liquidity, false) };
}

/** Token amounts of a position (liquidity and tick range) at the pool's sqrt price, as the position manager would pay them out. */
export function positionAmounts(liquidity: bigint, sqrtPriceX96: bigint, tickLower: number, tickUpper: number): { amount0: bigint; amount1: bigint } {
  if (tickLower >= tickUpper) throw mathError("tickLower must be below tickUpper", { tickLower, tickUpper });
  return amountsForLiquidity(sqrtPriceX96, sqrtRatioAtTick(tickLower), sqrtRatioAtTick(tickUpper), liquidity);
}

/** The most liquidity `amount0` and `amount1` can buy in [sqrtA, sqrtB] at `sqrtPriceX96` (LiquidityAmounts.getLiquidityForAmounts). */
export function liquidityForAmounts(sqrtPriceX96: bigint, sqrtA: bigint, sqrtB: bigint, amount0: bigint, amount1: bigint): bigint {
  const [lower, upper] = ordered(sqrtA, sqrtB);
  const for0 = (from: bigint) => mulDiv(amount0, mulDiv(from, upper, Q96), upper - from);
  const for1 = (to: bigint) => mulDiv(amount1, Q96, to - lower);
  let liquidity: bigint;
  if (sqrtPriceX96 <= lower) liquidity = for0(lower);
  else if (sqrtPriceX96 < upper) {
    const l0 = for0(sqrtPriceX96);
    const l1 = for1(sqrtPriceX96);
    // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigints.
    liquidity = l0 < l1 ? l0 : l1;
  } else liquidity = for1(upper);
  if (liquidity > MAX_UINT128) throw mathError("liquidity does not fit 128 bits", { liquidity });
  return liquidity;
}

/** An exact non-negative rational number. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/**
 * Token amounts (raw units) that one unit of liquidity holds in [tickLower, tickUpper) at `sqrtPriceX96`, as exact
 * ratios: the position's amounts are these times its liquidity, before the protocol rounds them down to whole units.
 */
export function amountsPerLiquidity(sqrtPriceX96: bigint, tickLower: number, tickUpper: number): { amount0: Ratio; amount1: Ratio } {
  return amountsPerLiquidityBetween(sqrtPriceX96, rangeSqrtRatios(tickLower, tickUpper));
}

/** The sqrt prices of a tick range's boundaries (TickMath), for amountsPerLiquidityBetween; tickLower must be below tickUpper. */
export function rangeSqrtRatios(tickLower: number, tickUpper: number): { lower: bigint; upper: bigint } {
  if (tickLower >= tickUpper) throw mathError("tickLower must be below tickUpper", { tickLower, tickUpper });
  return { lower: sqrtRatioAtTick(tickLower), upper: sqrtRatioAtTick(tickUpper) };
}

/** amountsPerLiquidity for a range given by its boundaries' sqrt prices (rangeSqrtRatios), so they are computed once per range. */
export function amountsPerLiquidityBetween(sqrtPriceX96: bigint, range: { lower: bigint; upper: bigint }): { amount0: Ratio; amount1: Ratio } {
  if (sqrtPriceX96 <= 0n || sqrtPriceX96 > MAX_UINT160) throw mathError("sqrtPriceX96 must be a positive uint160", { sqrtPriceX96 });
  const { lower, upper } = range;
  const zero = { num: 0n, den: 1n };
  // amount0 = L * 2^96 * (upper - p) / (p * upper); amount1 = L * (p - lower) / 2^96, with p clamped to the range.
  const p = sqrtPriceX96 < lower ? lower : sqrtPriceX96 > upper ? upper : sqrtPriceX96;
  return {
    amount0: p >= upper ? zero : { num: (upper - p) << 96n, den: p * upper },
    amount1: p <= lower ? zero : { num: p - lower, den: Q96 },
  };
}
