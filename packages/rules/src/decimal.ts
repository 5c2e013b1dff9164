// The exact decimal context for points, wide enough that no sum the engine performs is ever rounded.
import Decimal from "decimal.js";

/**
 * Decimal arithmetic for points. Every value the engine adds up has a bounded number of decimal
 * places (at most 18) and bounded magnitude, so with 2000 significant digits no sum or product the
 * engine performs is ever rounded: additions are exact and therefore commutative, which is what lets
 * the worker apply score deltas with `col = col + delta` in any order.
 */
export const D = Decimal.clone({
  precision: 2000,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

/** A Decimal from the engine's exact arithmetic context. */
export type Dec = InstanceType<typeof D>;

/** Places kept in decay-scaled scores; fixed so sums of scaled values stay exact. */
export const SCALED_DECIMALS = 18;

/** Longest decimal string accepted as an amount or a configured number. */
export const MAX_DECIMAL_LENGTH = 100;

const DECIMAL_RE = /^\d+(\.\d+)?$/;

/** True when `s` is a plain non-negative decimal string such as "10", "0.5" or "1234.000001". */
export function isDecimalString(s: string): boolean {
  return s.length <= MAX_DECIMAL_LENGTH && DECIMAL_RE.test(s);
}

/** Parses a string already checked with isDecimalString. */
export function dec(s: string): Dec {
  return new D(s);
}

/**
 * The canonical string form of a decimal: plain notation, no exponent, no trailing zeros, never "-0"
 * (decimal.js's `toFixed()` without places writes a negative zero as "0").
 */
export function str(d: Dec): string {
  return d.toFixed();
}

/** The zero of the engine's decimal context. */
export const ZERO: Dec = new D(0);
