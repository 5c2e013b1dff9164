// Exponential decay of points, stored scaled to a fixed epoch so SQL can rank without recomputing rows.
import { ValidationError } from "@pointwise/errors";
import { type Fixed, fx, sig } from "@pointwise/fixed";
import Decimal from "decimal.js";
import type { CompiledDecay } from "./compile";
import { D, type Dec, SCALED_DECIMALS, str } from "./decimal";
import type { DecayConfig } from "./schema";
import { timeOf } from "./time";

/**
 * Decay is stored as points scaled to a fixed epoch: an award of p points at time t is stored as
 * p * 2^((t - epoch) / halfLife). The decayed value at read time `at` is stored * 2^(-(at - epoch) / halfLife),
 * the same factor for every row of the currency, so ordering rows by the stored value IS ordering
 * them by their decayed value, and SQL can rank without recomputing anything per row.
 */

/**
 * How many half-lives after the epoch an award may lie; beyond it stored numbers get too long
 * (2^4000 has 1205 digits). Awards before the epoch have no limit: they are stored ever smaller.
 */
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
  // The binary digits of the fraction, most significant first: digit i picks 2^(1/2^(i+1)).
  const binary = bits.toString(2).padStart(Number(BITS), "0");
  let acc = ONE;
  let i = 0;
  for (const digit of binary) {
    if (digit === "1") acc = (acc * (ROOTS[i] as bigint)) >> BITS;
    i += 1;
  }
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

function split(ms: number, decay: DecayConfig, epochMs = BigInt(timeOf(decay.epoch)), halfLife = BigInt(decay.halfLifeSeconds) * 1000n): Split {
  const delta = BigInt(ms) - epochMs;
  // bigint division truncates toward zero; a negative delta between multiples is floored one further.
  let whole = delta / halfLife;
  if (whole * halfLife > delta) whole -= 1n;
  if (whole > BigInt(MAX_HALF_LIVES)) {
    throw new ValidationError(
      `occurredAt ${new Date(ms).toISOString()} is ${MAX_HALF_LIVES + 1} or more half-lives after decay.epoch ${decay.epoch}; publish a rule version with a later epoch`,
      { field: "decay.epoch", code: "decay-range-exceeded" },
    );
  }
  return { whole, rest: delta - whole * halfLife, halfLife };
}

/** The first instant a decaying currency can no longer score: MAX_HALF_LIVES + 1 half-lives after its epoch. */
export function decayRangeEnd(decay: DecayConfig): Date {
  return new Date(timeOf(decay.epoch) + (MAX_HALF_LIVES + 1) * decay.halfLifeSeconds * 1000);
}

/** 10^i for i from 0 to 36: what turns units of scale 18 - i into 10^-18 units, for scales down to -18. */
const POWERS_OF_TEN: bigint[] = [];
for (let i = 0; i <= 2 * SCALED_DECIMALS; i += 1) POWERS_OF_TEN.push(10n ** BigInt(i));

/**
 * `points` in whole 10^-18 units. Every award is floored to its currency's decimals (at most 18)
 * before it is scaled, so a finer amount is a caller's bug, refused rather than rounded. A negative
 * scale comes from a number of more than 2000 digits rounded as decimal.js rounds.
 */
function unitsOf(points: Fixed): bigint {
  const shift = SCALED_DECIMALS - points.scale;
  if (shift < 0) throw new RangeError(`points ${points.toString()} must have at most ${SCALED_DECIMALS} decimal places to be scaled`);
  return points.units * (POWERS_OF_TEN[shift] ?? 10n ** BigInt(shift));
}

/**
 * The stored (epoch-scaled) form of `points` earned at `ms`, rounded down to 18 places; exactly
 * `points` when the currency has no decay. `points` must have at most 18 decimal places.
 */
export function scaleFixed(points: Fixed, ms: number, decay: CompiledDecay | undefined): Fixed {
  if (!decay || points.isZero()) return points;
  const { whole, rest, halfLife } = split(ms, decay.config, decay.epochMs, decay.halfLifeMs);
  const product = unitsOf(points) * pow2Fraction(rest, halfLife);
  // A bigint shifted left by a negative count is shifted right, so this also covers awards before the epoch.
  const scaled = (product << whole) >> BITS;
  // Dividing by 10^18 in decimal.js rounds to its precision; only a number of over 2000 digits notices.
  return sig(scaled, SCALED_DECIMALS);
}

/** scaleFixed for a decimal.js value (the same digits). */
export function scalePoints(points: Dec, ms: number, decay: DecayConfig | undefined): Dec {
  if (!decay || points.isZero()) return points;
  const compiled = { config: decay, epochMs: BigInt(timeOf(decay.epoch)), halfLifeMs: BigInt(decay.halfLifeSeconds) * 1000n };
  return new D(scaleFixed(fx(points.toFixed()), ms, compiled).toString());
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
