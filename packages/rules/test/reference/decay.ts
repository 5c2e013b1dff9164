// Reference engine (decimal.js) for the differential test: decay stored as points scaled to a fixed epoch.
import { ValidationError } from "@pointwise/errors";
import Decimal from "decimal.js";
import type { DecayConfig } from "../../src/schema";
import { D, type Dec, floorTo, SCALED_DECIMALS, str } from "./decimal";
import { timeOf } from "./time";

/**
 * Decay is stored as points scaled to a fixed epoch: an award of p points at time t is stored as
 * p * 2^((t - epoch) / halfLife). The decayed value at read time `at` is stored * 2^(-(at - epoch) / halfLife),
 * the same factor for every row of the currency, so ordering rows by the stored value IS ordering
 * them by their decayed value, and SQL can rank without recomputing anything per row.
 */

/** How many half-lives an award may lie from the epoch; beyond it stored numbers get too long. */
export const MAX_HALF_LIVES = 4000;

// The read side only needs enough digits to present a number; 60 keeps it well past float precision.
const READ = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

/*
 * The write side computes 2^f (0 <= f < 1) in 128-bit fixed point with bigint only: f's binary
 * digits pick factors 2^(1/2), 2^(1/4), ... from a table built by integer square roots. Integer
 * arithmetic is exact and identical on every machine, so replays stay bit-for-bit equal, and it
 * is an order of magnitude faster than decimal.js's pow. The result is good to about 1e-36.
 */
const BITS = 128n;
const ONE = 1n << BITS;
const POINT_SCALE = 10n ** BigInt(SCALED_DECIMALS);

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const ROOTS: bigint[] = [];
for (let i = 0, x = 2n * ONE; i < Number(BITS); i++) {
  x = isqrt(x << BITS);
  ROOTS.push(x);
}

/** 2^(num/den) for 0 <= num < den, in fixed point (multiplied by 2^128). */
function pow2Fraction(num: bigint, den: bigint): bigint {
  const bits = (num << BITS) / den;
  let acc = ONE;
  ROOTS.forEach((root, i) => {
    if ((bits >> (BITS - 1n - BigInt(i))) & 1n) acc = (acc * root) >> BITS;
  });
  return acc;
}

interface Split {
  /** Whole half-lives between epoch and t (floored, may be negative). */
  whole: bigint;
  /** Milliseconds past the last whole half-life (0 <= rest < halfLife). */
  rest: bigint;
  /** The half-life in milliseconds. */
  halfLife: bigint;
}

function split(ms: number, decay: DecayConfig): Split {
  const delta = BigInt(ms) - BigInt(timeOf(decay.epoch));
  const halfLife = BigInt(decay.halfLifeSeconds) * 1000n;
  let whole = delta / halfLife;
  if (delta < 0n && whole * halfLife !== delta) whole -= 1n;
  if (whole > BigInt(MAX_HALF_LIVES)) {
    throw new ValidationError(
      `occurredAt ${new Date(ms).toISOString()} is more than ${MAX_HALF_LIVES} half-lives after decay.epoch ${decay.epoch}; publish a rule version with a later epoch`,
      { field: "decay.epoch", code: "decay-range-exceeded" },
    );
  }
  return { whole, rest: delta - whole * halfLife, halfLife };
}

/**
 * The stored (epoch-scaled) form of `points` earned at `ms`, rounded down to 18 places; exactly
 * `points` when the currency has no decay. `points` must have at most 18 decimal places.
 */
export function scalePoints(points: Dec, ms: number, decay: DecayConfig | undefined): Dec {
  if (!decay || points.isZero()) return points;
  const { whole, rest, halfLife } = split(ms, decay);
  const units = BigInt(points.mul(POINT_SCALE.toString()).toFixed(0));
  const product = units * pow2Fraction(rest, halfLife);
  const scaled = whole >= 0n ? (product << whole) >> BITS : product >> (BITS - whole);
  return floorTo(new D(scaled.toString()).div(POINT_SCALE.toString()), SCALED_DECIMALS);
}

/** The factor that turns a stored score into its decayed value at `at` (decimal string; "1" without decay). */
export function decayFactor(at: string | Date, decay: DecayConfig | undefined): string {
  if (!decay) return "1";
  const ms = typeof at === "string" ? timeOf(at) : at.getTime();
  const { whole, rest, halfLife } = split(ms, decay);
  const scale = new READ(2).pow(whole.toString()).mul(new READ(2).pow(new READ(rest.toString()).div(halfLife.toString())));
  return new READ(1).div(scale).toFixed();
}

/**
 * The decayed value at `at` of a stored score, referral_score or total (decimal string, 18 places at most).
 * Without decay the stored value is returned unchanged.
 */
export function decayedValue(stored: string, at: string | Date, decay: DecayConfig | undefined): string {
  if (!decay) return stored;
  const v = new READ(stored).mul(decayFactor(at, decay)).toDecimalPlaces(SCALED_DECIMALS, Decimal.ROUND_HALF_EVEN);
  return str(new D(v.toFixed()));
}
