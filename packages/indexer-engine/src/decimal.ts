// The 60-digit decimal type used for prices, and exact conversions of token amounts for output.
import { type Fixed, isPlainDecimal, parseFixed, plainDecimal } from "@pointwise/fixed";
import DecimalJs from "decimal.js";

/**
 * The decimal type prices are computed in: a pool's net asset value divides, so it needs a precision (60
 * significant digits, banker's rounding). Balances, window values and earn amounts are exact fixed-point bigints
 * (@pointwise/fixed); no amount or balance ever passes through a JS number.
 */
export const Dec = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

/** An instance of the configured decimal type. */
export type Dec = DecimalJs;

/** Number of decimal places kept in USD values and amounts written to sinks. */
export const OUTPUT_DECIMALS = 18;

/** Converts an integer amount in base units (wei-like) to token units exactly: 1500000 with 6 decimals is "1.5". */
export function unitsFromRaw(raw: bigint, decimals: number): string {
  return plainDecimal(raw, decimals);
}

/** True when `text` is a plain decimal number (optional minus, digits, optional fraction), the wire form of amounts. */
export function isDecimalString(text: string): boolean {
  return isPlainDecimal(text);
}

// Decimal objects are immutable, so a conversion made once holds for the object's lifetime.
const EXACT = new WeakMap<Dec, Fixed>();

/** The exact fixed-point value of a decimal, converted once per decimal object. */
export function fixedOfDec(value: Dec): Fixed {
  let fixed = EXACT.get(value);
  if (fixed === undefined) {
    fixed = parseFixed(value.toFixed());
    EXACT.set(value, fixed);
  }
  return fixed;
}
