import { BaseError } from "@pointwise/errors";
import { isDecimalString, OUTPUT_DECIMALS, unitsFromRaw } from "./decimal";

// Balances, window values and USD x hours need only addition, multiplication and one rounding when a row is
// written. On bigint with an explicit scale that is exact at any size; decimal.js does the same work on digit
// arrays capped at 60 digits and costs about ten times as much per operation (see bench/indexer).

/** An exact decimal: `units / 10^scale`, with `scale >= 0`. */
export interface Fixed {
  readonly units: bigint;
  readonly scale: number;
}

/** Zero. */
export const FIXED_ZERO: Fixed = { units: 0n, scale: 0 };

const POW10: bigint[] = [1n];

/** 10^n as a bigint (cached, n >= 0). */
export function pow10(n: number): bigint {
  for (let i = POW10.length; i <= n; i++) POW10.push((POW10[i - 1] as bigint) * 10n);
  return POW10[n] as bigint;
}

/** Parses a plain decimal string ("-12.50") exactly; anything else (exponents, "", "0x10") is rejected. */
export function parseFixed(text: string): Fixed {
  if (!isDecimalString(text)) throw new BaseError("invalid-decimal", `"${text}" is not a plain decimal number`);
  const dot = text.indexOf(".");
  if (dot < 0) return { units: BigInt(text), scale: 0 };
  return { units: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** The sum of two exact decimals. */
export function addFixed(a: Fixed, b: Fixed): Fixed {
  if (a.scale === b.scale) return { units: a.units + b.units, scale: a.scale };
  return a.scale > b.scale
    ? { units: a.units + b.units * pow10(a.scale - b.scale), scale: a.scale }
    : { units: a.units * pow10(b.scale - a.scale) + b.units, scale: b.scale };
}

/** The product of two exact decimals. */
export function mulFixed(a: Fixed, b: Fixed): Fixed {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Half of an exact decimal, still exact: x / 2 = 5x / 10. */
export function halveFixed(a: Fixed): Fixed {
  return { units: a.units * 5n, scale: a.scale + 1 };
}

/** True when both hold the same value, whatever their scales. */
export function eqFixed(a: Fixed, b: Fixed): boolean {
  return addFixed(a, { units: -b.units, scale: b.scale }).units === 0n;
}

/** `n / d` rounded half to even (banker's rounding, symmetric around zero); `d` must be positive. */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice < d || (twice === d && q % 2n === 0n)) return q;
  return n < 0n ? q - 1n : q + 1n;
}

/** Prints `units / 10^scale` without exponent or trailing zeros ("1.5", "0", "-2"); never "-0". */
export function plainDecimal(units: bigint, scale: number): string {
  // The same digits as a raw chain amount in token units.
  return unitsFromRaw(units, scale);
}

/** Formats an exact decimal for output: at most `dp` places (half to even), no exponent, no trailing zeros. */
export function formatFixed(value: Fixed, dp = OUTPUT_DECIMALS): string {
  if (value.scale <= dp) return plainDecimal(value.units, value.scale);
  return plainDecimal(divRoundHalfEven(value.units, pow10(value.scale - dp)), dp);
}

/** `value x numerator / denominator` rounded once, half to even, to `dp` places and formatted (denominator > 0). */
export function formatScaled(value: Fixed, numerator: bigint, denominator: bigint, dp = OUTPUT_DECIMALS): string {
  // Scale the dividend up rather than the quotient down, so the single rounding happens at `dp` places.
  const n = value.scale <= dp ? value.units * numerator * pow10(dp - value.scale) : value.units * numerator;
  const d = value.scale <= dp ? denominator : denominator * pow10(value.scale - dp);
  return plainDecimal(divRoundHalfEven(n, d), dp);
}
