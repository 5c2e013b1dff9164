/**
 * Exact decimals as a bigint coefficient and a power of ten: value = m / 10^s. The engine's hot
 * path uses these instead of decimal.js objects: parsing, adding, multiplying and printing a bigint
 * costs a fraction of the same decimal.js operation and allocates one small object.
 *
 * The results are those of the engine's decimal.js context (`D` in decimal.ts, 2000 significant
 * digits, ROUND_HALF_EVEN) digit for digit: every operation is exact, and a result with more than
 * 2000 significant digits is rounded to 2000 the way decimal.js rounds it. Points never come near
 * that length in practice; the rounding is there so that no input, however contrived, scores
 * differently from the decimal.js engine the property tests were written against.
 */

/** Significant digits of the engine's decimal context (decimal.ts `D`). */
const PRECISION = 2000;

const POW10: bigint[] = [1n];
for (let i = 1; i <= 400; i++) POW10.push((POW10[i - 1] as bigint) * 10n);

/** 10^k as a bigint (k >= 0). */
function pow10(k: number): bigint {
  return k < POW10.length ? (POW10[k] as bigint) : 10n ** BigInt(k);
}

const LIMIT = pow10(PRECISION);

/** An exact decimal m / 10^s; `s` may be negative after rounding a number with more than 2000 digits. */
export class Fixed {
  constructor(
    readonly m: bigint,
    readonly s: number,
  ) {}

  /** True when the value is 0. */
  isZero(): boolean {
    return this.m === 0n;
  }

  /** The exact sum, rounded as decimal.js would beyond 2000 significant digits. */
  add(o: Fixed): Fixed {
    if (o.m === 0n) return this;
    if (this.m === 0n) return o;
    if (this.s === o.s) return sig(this.m + o.m, this.s);
    return this.s > o.s ? sig(this.m + o.m * pow10(this.s - o.s), this.s) : sig(this.m * pow10(o.s - this.s) + o.m, o.s);
  }

  /** The exact difference, rounded as decimal.js would beyond 2000 significant digits. */
  sub(o: Fixed): Fixed {
    if (o.m === 0n) return this;
    if (this.s === o.s) return sig(this.m - o.m, this.s);
    return this.s > o.s ? sig(this.m - o.m * pow10(this.s - o.s), this.s) : sig(this.m * pow10(o.s - this.s) - o.m, o.s);
  }

  /** The exact product, rounded as decimal.js would beyond 2000 significant digits. */
  mul(o: Fixed): Fixed {
    return sig(this.m * o.m, this.s + o.s);
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `o`. */
  cmp(o: Fixed): number {
    let a = this.m;
    let b = o.m;
    if (this.s > o.s) b *= pow10(this.s - o.s);
    else if (this.s < o.s) a *= pow10(o.s - this.s);
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
    return this.m < 0n;
  }

  /** Cut to `places` decimal places towards zero (decimal.js ROUND_DOWN), so nothing unearned is paid. */
  floorTo(places: number): Fixed {
    if (this.s <= places) return this;
    // bigint division truncates towards zero, which is ROUND_DOWN for either sign.
    return new Fixed(this.m / pow10(this.s - places), places);
  }

  /** The canonical string: plain notation, no trailing zeros, "0" for zero (what decimal.ts `str` prints). */
  toString(): string {
    const m = this.m;
    if (m === 0n) return "0";
    const negative = m < 0n;
    let digits = (negative ? -m : m).toString();
    let s = this.s;
    if (s <= 0) return (negative ? "-" : "") + digits + "0".repeat(-s);
    let end = digits.length;
    while (s > 0 && digits.charCodeAt(end - 1) === 48) {
      end--;
      s--;
    }
    if (end !== digits.length) digits = digits.slice(0, end);
    if (s === 0) return (negative ? "-" : "") + digits;
    const point = digits.length - s;
    const out = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`;
    return negative ? `-${out}` : out;
  }
}

/** The zero of this representation. */
export const FX_ZERO = new Fixed(0n, 0);

/** The exact value of a plain decimal string (digits, an optional fraction, optionally signed). */
export function fx(s: string): Fixed {
  const dot = s.indexOf(".");
  if (dot < 0) return new Fixed(BigInt(s), 0);
  return new Fixed(BigInt(s.slice(0, dot) + s.slice(dot + 1)), s.length - dot - 1);
}

/** m / 10^s rounded to 2000 significant digits, half to even, as decimal.js finalises a result. */
export function sig(m: bigint, s: number): Fixed {
  if (m < LIMIT && m > -LIMIT) return new Fixed(m, s);
  const negative = m < 0n;
  const abs = negative ? -m : m;
  const drop = abs.toString().length - PRECISION;
  const unit = pow10(drop);
  let q = abs / unit;
  const r = abs - q * unit;
  const half = unit / 2n;
  if (r > half || (r === half && (q & 1n) === 1n)) q += 1n;
  // Carrying into a new digit (999.. + 1) leaves PRECISION + 1 digits ending in 0: still exact.
  return new Fixed(negative ? -q : q, s - drop);
}
