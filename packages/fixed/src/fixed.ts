/**
 * Exact decimals as a bigint coefficient and a power of ten: value = units / 10^scale. The scoring
 * engine and the indexer use these instead of decimal.js objects on their hot paths: parsing, adding,
 * multiplying and printing a bigint costs a fraction of the same decimal.js operation (which works on
 * digit arrays) and allocates one small object.
 *
 * Two families of operations share the one representation:
 * - the methods of `Fixed` (add, sub, mul, ...) give the results of the scoring engine's decimal.js
 *   context (2000 significant digits, ROUND_HALF_EVEN) digit for digit: every operation is exact, and
 *   a result with more than 2000 significant digits is rounded to 2000 the way decimal.js rounds it,
 *   so that no input, however contrived, scores differently from the decimal.js engine the property
 *   tests were written against;
 * - the functions (addFixed, mulFixed, formatFixed, ...) are exact at any size and round only where
 *   a value is printed, which is what balances, window values and USD x hours need.
 */
import { BaseError } from "@pointwise/errors";

/** Significant digits of the scoring engine's decimal context (rules' decimal.ts `D`). */
const PRECISION = 2000;

const POW10: bigint[] = [1n];
for (let i = 1; i <= 400; i++) POW10.push((POW10[i - 1] as bigint) * 10n);

/** 10^n as a bigint (n >= 0; cached up to 10^400). */
export function pow10(n: number): bigint {
  return n < POW10.length ? (POW10[n] as bigint) : 10n ** BigInt(n);
}

const LIMIT = pow10(PRECISION);

/** An exact decimal units / 10^scale; `scale` may be negative after rounding a number with more than 2000 digits. */
export class Fixed {
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  /** True when the value is 0. */
  isZero(): boolean {
    return this.units === 0n;
  }

  /** The exact sum, rounded as decimal.js would beyond 2000 significant digits. */
  add(o: Fixed): Fixed {
    if (o.units === 0n) return this;
    if (this.units === 0n) return o;
    if (this.scale === o.scale) return sig(this.units + o.units, this.scale);
    return this.scale > o.scale
      ? sig(this.units + o.units * pow10(this.scale - o.scale), this.scale)
      : sig(this.units * pow10(o.scale - this.scale) + o.units, o.scale);
  }

  /** The exact difference, rounded as decimal.js would beyond 2000 significant digits. */
  sub(o: Fixed): Fixed {
    if (o.units === 0n) return this;
    if (this.scale === o.scale) return sig(this.units - o.units, this.scale);
    return this.scale > o.scale
      ? sig(this.units - o.units * pow10(this.scale - o.scale), this.scale)
      : sig(this.units * pow10(o.scale - this.scale) - o.units, o.scale);
  }

  /** The exact product, rounded as decimal.js would beyond 2000 significant digits. */
  mul(o: Fixed): Fixed {
    return sig(this.units * o.units, this.scale + o.scale);
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `o`. */
  cmp(o: Fixed): number {
    let a = this.units;
    let b = o.units;
    if (this.scale > o.scale) b *= pow10(this.scale - o.scale);
    else if (this.scale < o.scale) a *= pow10(o.scale - this.scale);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** this < o */
  lt(o: Fixed): boolean {
    return this.cmp(o) < 0;
  }

  /** this >= o */
  gte(o: Fixed): boolean {
    return this.cmp(o) >= 0;
  }

  /** True when the value is below 0. */
  isNegative(): boolean {
    return this.units < 0n;
  }

  /** Cut to `places` decimal places towards zero (decimal.js ROUND_DOWN), so nothing unearned is paid. */
  floorTo(places: number): Fixed {
    if (this.scale <= places) return this;
    // bigint division truncates towards zero, which is ROUND_DOWN for either sign.
    return new Fixed(this.units / pow10(this.scale - places), places);
  }

  /** The canonical string: plain notation, no trailing zeros, "0" for zero (what decimal.js `toFixed()` prints). */
  toString(): string {
    return plainDecimal(this.units, this.scale);
  }
}

/** Zero. */
export const FIXED_ZERO = new Fixed(0n, 0);

/**
 * The exact value of a plain decimal string that is already known to be valid (digits, an optional
 * fraction, optionally signed), without checking it: for values that passed a schema.
 */
export function fx(s: string): Fixed {
  const dot = s.indexOf(".");
  if (dot < 0) return new Fixed(BigInt(s), 0);
  return new Fixed(BigInt(s.slice(0, dot) + s.slice(dot + 1)), s.length - dot - 1);
}

/** True for a plain decimal string: optional "-", digits, optional "." and digits; no exponent, no spaces. */
export function isPlainDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text);
}

/** Parses a plain decimal string ("-12.50") exactly; anything else (exponents, "", "0x10") throws `invalid-decimal`. */
export function parseFixed(text: string): Fixed {
  if (!isPlainDecimal(text)) throw new BaseError("invalid-decimal", `"${text}" is not a plain decimal number`);
  return fx(text);
}

/** units / 10^scale rounded to 2000 significant digits, half to even, as decimal.js finalises a result. */
export function sig(units: bigint, scale: number): Fixed {
  if (units < LIMIT && units > -LIMIT) return new Fixed(units, scale);
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const drop = abs.toString().length - PRECISION;
  const unit = pow10(drop);
  let q = abs / unit;
  const r = abs - q * unit;
  const half = unit / 2n;
  if (r > half || (r === half && (q & 1n) === 1n)) q += 1n;
  // Carrying into a new digit (999.. + 1) leaves PRECISION + 1 digits ending in 0: still exact.
  return new Fixed(negative ? -q : q, scale - drop);
}

/** The exact sum of two decimals, at any size. */
export function addFixed(a: Fixed, b: Fixed): Fixed {
  if (a.scale === b.scale) return new Fixed(a.units + b.units, a.scale);
  return a.scale > b.scale
    ? new Fixed(a.units + b.units * pow10(a.scale - b.scale), a.scale)
    : new Fixed(a.units * pow10(b.scale - a.scale) + b.units, b.scale);
}

/** The exact product of two decimals, at any size. */
export function mulFixed(a: Fixed, b: Fixed): Fixed {
  return new Fixed(a.units * b.units, a.scale + b.scale);
}

/** Half of an exact decimal, still exact: x / 2 = 5x / 10. */
export function halveFixed(a: Fixed): Fixed {
  return new Fixed(a.units * 5n, a.scale + 1);
}

/** True when both hold the same value, whatever their scales. */
export function eqFixed(a: Fixed, b: Fixed): boolean {
  // Same scale (the common case: prices from one feed): compare the coefficients without building a difference.
  if (a.scale === b.scale) return a.units === b.units;
  return addFixed(a, new Fixed(-b.units, b.scale)).units === 0n;
}

/** `n / d` rounded half to even (banker's rounding, symmetric around zero); `d` must be positive. */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  // bigint % truncates like /, so this is n - q x d without the product.
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice < d || (twice === d && q % 2n === 0n)) return q;
  return n < 0n ? q - 1n : q + 1n;
}

/** Prints `units / 10^scale` without exponent or trailing zeros ("1.5", "0", "-2"); never "-0". */
export function plainDecimal(units: bigint, scale: number): string {
  if (units === 0n) return "0";
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale < 0) digits += "0".repeat(-scale);
  else if (scale > 0) {
    digits = digits.padStart(scale + 1, "0");
    const point = digits.length - scale;
    let end = digits.length;
    while (end > point && digits.charCodeAt(end - 1) === 48) end--;
    digits = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** Formats an exact decimal with at most `dp` places (half to even), no exponent, no trailing zeros. */
export function formatFixed(value: Fixed, dp: number): string {
  if (value.scale <= dp) return plainDecimal(value.units, value.scale);
  return plainDecimal(divRoundHalfEven(value.units, pow10(value.scale - dp)), dp);
}

/** `value x numerator / denominator` rounded once, half to even, to `dp` places and formatted (denominator > 0). */
export function formatScaled(value: Fixed, numerator: bigint, denominator: bigint, dp: number): string {
  // Scale the dividend up rather than the quotient down, so the single rounding happens at `dp` places.
  const n = value.scale <= dp ? value.units * numerator * pow10(dp - value.scale) : value.units * numerator;
  const d = value.scale <= dp ? denominator : denominator * pow10(value.scale - dp);
  return plainDecimal(divRoundHalfEven(n, d), dp);
}

/**
 * The shortest text of a plain decimal's text ("41.500000" -> "41.5", "3.000" -> "3", "-0.00" -> "0"): PostgreSQL
 * prints a NUMERIC padded to its column's scale. Text only, so no digit is lost; a text without a point is kept.
 */
export function trimDecimal(text: string): string {
  if (!text.includes(".")) return text;
  const trimmed = text.replace(/0+$/, "").replace(/\.$/, "");
  return trimmed === "-0" ? "0" : trimmed;
}
