// Aave V3's ray arithmetic and interest formulas on bigint, rounding exactly as the market's contracts do.

/** One in ray units (27 decimals), the scale of Aave's indices and rates. */
export const RAY = 10n ** 27n;
const HALF_RAY = RAY / 2n;
/** Seconds per year in Aave's rate math (365 days). */
export const SECONDS_PER_YEAR = 365n * 24n * 3600n;

/** `a x b` in ray, rounded half up (Aave's WadRayMath.rayMul). */
export function rayMul(a: bigint, b: bigint): bigint {
  return (a * b + HALF_RAY) / RAY;
}

/** `a / b` in ray, rounded half up (Aave's WadRayMath.rayDiv). */
export function rayDiv(a: bigint, b: bigint): bigint {
  return (a * RAY + b / 2n) / b;
}

/** Linear interest factor of `rate` (ray per year) over `seconds` (Aave's MathUtils.calculateLinearInterest). */
export function linearInterest(rate: bigint, seconds: bigint): bigint {
  return RAY + (rate * seconds) / SECONDS_PER_YEAR;
}

/** Compounded interest factor of `rate` over `seconds`, the three-term binomial approximation of Aave's MathUtils. */
export function compoundedInterest(rate: bigint, seconds: bigint): bigint {
  // MathUtils returns RAY at zero seconds and clamps seconds - 2 at zero; neither is needed here: for
  // seconds 0, 1 and 2 the products seconds x (seconds - 1) [x (seconds - 2)] are 0, so the sum is the same.
  const expMinusOne = seconds - 1n;
  const expMinusTwo = seconds - 2n;
  const basePowerTwo = rayMul(rate, rate) / (SECONDS_PER_YEAR * SECONDS_PER_YEAR);
  const basePowerThree = rayMul(basePowerTwo, rate) / SECONDS_PER_YEAR;
  const secondTerm = (seconds * expMinusOne * basePowerTwo) / 2n;
  const thirdTerm = (seconds * expMinusOne * expMinusTwo * basePowerThree) / 6n;
  return RAY + (rate * seconds) / SECONDS_PER_YEAR + secondTerm + thirdTerm;
}

/** A reserve's interest state as its last ReserveDataUpdated (or getReserveData) left it. */
export interface ReserveState {
  liquidityIndex: bigint;
  liquidityRate: bigint;
  variableBorrowIndex: bigint;
  variableBorrowRate: bigint;
  /** Unix seconds of the block that last updated the indices. */
  updatedAt: bigint;
}

/** The reserve's normalized income at `now` (Unix seconds): what Pool.getReserveNormalizedIncome answers then. */
export function normalizedIncome(reserve: ReserveState, now: bigint): bigint {
  // No shortcut for now = updatedAt as the contract has: the factor is then RAY and rayMul(RAY, index) is the index.
  return rayMul(linearInterest(reserve.liquidityRate, now - reserve.updatedAt), reserve.liquidityIndex);
}

/** The reserve's normalized variable debt at `now`: what Pool.getReserveNormalizedVariableDebt answers then. */
export function normalizedDebt(reserve: ReserveState, now: bigint): bigint {
  // No shortcut for now = updatedAt, as above: the compounded factor of zero seconds is RAY.
  return rayMul(compoundedInterest(reserve.variableBorrowRate, now - reserve.updatedAt), reserve.variableBorrowIndex);
}
