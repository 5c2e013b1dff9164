// The decimal arithmetic of the ammv3position feed's value in bigint: each step rounded to the configured decimal
// type's precision (half-even) as decimal.js rounds it, so the value is the same decimal, several times faster.
import { Fixed } from "@pointwise/fixed";
import { Dec } from "../decimal";

/** Significant digits each step keeps: the decimal type's precision. */
const PRECISION = Dec.precision;
const LIMIT = 10n ** BigInt(PRECISION);

/** coefficient x 10^exponent; the coefficient has at most PRECISION digits once rounded. */
export interface Scaled {
  c: bigint;
  e: number;
}

/** digits() searches the powers of ten up to this one; larger values are printed. */
const POWER_SEARCH = 399;
/** 10^0 to 10^POWER_SEARCH, built once: digits() and nearly every scaling need only these. */
// Stryker disable next-line all: a power missing from the table is computed instead, the same value
const POWERS: readonly bigint[] = Array.from({ length: POWER_SEARCH + 1 }, (_, n) => 10n ** BigInt(n));

function pow10(n: number): bigint {
  return POWERS[n] ?? 10n ** BigInt(n);
}

/** Number of decimal digits of |c| (1 for 0), found by comparing with powers of ten rather than printing it. */
export function digits(c: bigint): number {
  // Stryker disable next-line EqualityOperator: negating zero gives zero
  const m = c < 0n ? -c : c;
  // Stryker disable next-line ConditionalExpression: printing a smaller value counts the same digits as the search does
  if (m >= pow10(POWER_SEARCH)) return m.toString().length;
  // The smallest k with m < 10^k, by binary search over the cached powers: no string per call.
  let lo = 1;
  let hi = POWER_SEARCH;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m < pow10(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Rounds c x 10^e to PRECISION significant digits, half to even. `sticky` says that the exact value lies a little
 * beyond c in magnitude (a division's non-zero remainder), which breaks what would otherwise be a tie.
 */
export function round(c: bigint, e: number, sticky = false): Scaled {
  // Stryker disable next-line EqualityOperator: a zero rounded as negative is -0n, which is 0n
  const negative = c < 0n;
  let m = negative ? -c : c;
  const drop = digits(m) - PRECISION;
  if (drop <= 0) return { c, e };
  const unit = pow10(drop);
  const rest = m % unit;
  m /= unit;
  const half = unit / 2n;
  if (rest > half || (rest === half && (sticky || (m & 1n) === 1n))) m += 1n;
  let exponent = e + drop;
  // 99..9 rounded up: one digit more, exactly a power of ten.
  if (m === LIMIT) {
    m /= 10n;
    exponent += 1;
  }
  return { c: negative ? -m : m, e: exponent };
}

/** a x b, rounded. */
export function times(a: Scaled, b: Scaled): Scaled {
  return round(a.c * b.c, a.e + b.e);
}

/** a + b, rounded. */
export function plus(a: Scaled, b: Scaled): Scaled {
  // Stryker disable next-line ConditionalExpression: adding a zero in full gives the same value
  if (a.c === 0n) return round(b.c, b.e);
  // Stryker disable next-line ConditionalExpression: adding a zero in full gives the same value
  if (b.c === 0n) return round(a.c, a.e);
  const e = Math.min(a.e, b.e);
  return round(a.c * pow10(a.e - e) + b.c * pow10(b.e - e), e);
}

/** a / b for b not zero, rounded (the quotient is computed a digit past the precision, the remainder kept as sticky). */
export function divide(a: Scaled, b: Scaled): Scaled {
  // Stryker disable next-line ConditionalExpression: dividing a zero in full gives the same value
  if (a.c === 0n) return { c: 0n, e: 0 };
  // Scaled so that the quotient has PRECISION + 1 or + 2 digits: at least one to round away.
  // Stryker disable next-line ArithmeticOperator: a quotient with more digits rounds to the same value (the remainder is kept as sticky)
  const shift = PRECISION + 1 + digits(b.c) - digits(a.c);
  // Stryker disable next-line EqualityOperator: scaling by 10^0 changes nothing
  const numerator = shift > 0 ? a.c * pow10(shift) : a.c;
  // Stryker disable next-line EqualityOperator: scaling by 10^0 changes nothing
  const denominator = shift < 0 ? b.c * pow10(-shift) : b.c;
  // Truncation toward zero keeps the sign; the remainder only says whether the quotient is exact.
  return round(numerator / denominator, a.e - b.e - shift, numerator % denominator !== 0n);
}

/** An integer, exact. */
export function integer(c: bigint): Scaled {
  return { c, e: 0 };
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;
const FROM_DEC = new WeakMap<Dec, Scaled>();

/** A decimal of the decimal type as coefficient and exponent, exact (cached per decimal object). */
export function fromDec(value: Dec): Scaled {
  let scaled = FROM_DEC.get(value);
  // Stryker disable next-line ConditionalExpression: reading the decimal again gives the same coefficient and exponent
  if (scaled === undefined) {
    const match = PLAIN.exec(value.toString());
    if (match === null) throw new RangeError(`not a finite decimal: ${value.toString()}`);
    const [, sign, whole, fraction = "", exponent] = match;
    const c = BigInt(`${sign}${whole}${fraction}`);
    scaled = { c, e: Number(exponent ?? 0) - fraction.length };
    FROM_DEC.set(value, scaled);
  }
  return scaled;
}

/** The decimal of the decimal type with this value. */
export function toDec(value: Scaled): Dec {
  return new Dec(`${value.c}e${value.e}`);
}

/** The same value as an exact fixed-point decimal. */
export function toFixed(value: Scaled): Fixed {
  // Stryker disable next-line EqualityOperator: at exponent 0 both branches build the same fixed-point value
  return value.e >= 0 ? new Fixed(value.c * pow10(value.e), 0) : new Fixed(value.c, -value.e);
}
